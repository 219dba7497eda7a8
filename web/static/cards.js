// Cards (R1, R2): French codes inside the page (data-card="KH"); French or Spanish labels shown.

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"];
export const SUITS = ["S", "H", "D", "C"];
const SPANISH_RANKS = ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"];
const SPANISH_SUITS = { S: "e", H: "c", D: "o", C: "b" };
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const FROM_SYMBOLS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
const FROM_SPANISH_SUITS = { e: "S", c: "H", o: "D", b: "C" };

export const DECK = SUITS.flatMap((s) => RANKS.map((r) => r + s));

let labels = "french";
export function setLabels(value) {
  labels = value === "spanish" ? "spanish" : "french";
}
export function currentLabels() {
  return labels;
}

// A card text of either label set as its French code ("12c" -> "KH"), or null.
export function frenchCode(text) {
  const t = String(text).trim();
  const french = /^(A|[2-7]|J|Q|K)([SHDC])$/i.exec(t);
  if (french) return french[1].toUpperCase() + french[2].toUpperCase();
  const spanish = /^(1|[2-7]|10|11|12)([ocesb])$/i.exec(t);
  if (spanish) {
    const rank = RANKS[SPANISH_RANKS.indexOf(spanish[1])];
    return rank + FROM_SPANISH_SUITS[spanish[2].toLowerCase()];
  }
  return null;
}

// The label shown for a French code in the current labels.
export function label(code) {
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  if (labels === "spanish") return SPANISH_RANKS[RANKS.indexOf(rank)] + SPANISH_SUITS[suit];
  return rank + SYMBOLS[suit];
}

// A card token of a text: a French code ("KH") or one already shown with its suit symbol ("K♥"),
// standing alone (not inside a word such as "JSON").
const CARD_TOKEN = /(?<![\w♠♥♦♣])(A|[2-7]|J|Q|K)([SHDC♠♥♦♣])(?![\w♠♥♦♣])/g;

// Move text or a message (the server writes cards as French codes) shown in the current labels:
// each card as the board's cards and buttons show it ("3♣", or "3b" with Spanish labels).
export function moveLabel(text) {
  return String(text).replace(CARD_TOKEN, (_, rank, suit) => label(rank + (FROM_SYMBOLS[suit] || suit)));
}

// A problem with a position, after words that already say so ("Not valid:"): the server's
// "position: " prefix (the field it names) is not said twice.
export function problemLabel(text) {
  return moveLabel(String(text).replace(/^position: /, ""));
}

// A notation (the server writes it in French labels) shown in the current labels: the labels
// field and each card relabelled; with Spanish labels it reads back as the same position.
export function notationLabel(text) {
  if (labels === "french" || !text) return text;
  return moveLabel(text.replace(/^(\S+) french /, "$1 spanish "));
}

const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SPANISH_SUIT_NAMES = { S: "espadas", H: "copas", D: "oros", C: "bastos" };

// A card's name in words, for assistive technology ("king of hearts", "12 de copas").
export function cardName(code) {
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  if (labels === "spanish") return `${SPANISH_RANKS[RANKS.indexOf(rank)]} de ${SPANISH_SUIT_NAMES[suit]}`;
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suit]}`;
}

// A card element: <span class="card" data-card="KH">K♥</span>; with tag "button", a button
// (the setup palette's cards, which the keyboard reaches).
export function cardElement(code, { back = false, tag = "span" } = {}) {
  const el = document.createElement(tag);
  el.className = "card";
  if (back) {
    el.classList.add("back");
    el.textContent = "🂠";
    return el;
  }
  if (tag === "button") {
    el.type = "button";
    el.setAttribute("aria-label", cardName(code));
  }
  el.dataset.card = code;
  el.classList.add(`suit-${code.slice(-1)}`);
  el.textContent = label(code);
  el.title = cardName(code);
  return el;
}

// The ranks and suits as the labels chosen write them, for the headers of a 4x10 grid of cards.
export function rankLabel(rank) {
  return labels === "spanish" ? SPANISH_RANKS[RANKS.indexOf(rank)] : rank;
}

export function suitLabel(suit) {
  return labels === "spanish" ? SPANISH_SUITS[suit] : SYMBOLS[suit];
}

const SPANISH_TOKEN = /(?<![\w♠♥♦♣])(1[0-2]|[1-7])([ocebOCEB])(?![\w♠♥♦♣])/g;
const FRENCH_TOKEN = /(?<![\w♠♥♦♣])(A|[2-7]|J|Q|K)([SHDC♠♥♦♣])(?![\w♠♥♦♣])/gi;

// A move text written in `set` labels ("french" or "spanish", R2; default the labels shown) with
// every card as its French code, the page's own ("take [10e 11e 12e] pay 12b" -> "take [JS QS KS]
// pay KC"); what is not a card is left as it is, for the server to read or refuse.
export function toFrench(text, set = labels) {
  if (set === "spanish") {
    return String(text).replace(SPANISH_TOKEN, (_, rank, suit) => RANKS[SPANISH_RANKS.indexOf(rank)] + FROM_SPANISH_SUITS[suit.toLowerCase()]);
  }
  return String(text).replace(FRENCH_TOKEN, (_, rank, suit) => rank.toUpperCase() + (FROM_SYMBOLS[suit] || suit.toUpperCase()));
}
