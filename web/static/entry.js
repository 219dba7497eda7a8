// Entering a game as it was played at a real table (docs/web.md, the Review tab): the new deal's
// form (variant, players, dealer, your seat, your hand's cards and the upcard, R10a, clicked on a
// palette) and, at the position the move tree shows, the input of the next move by clicks: at a
// turn the card turned among those you have not seen (R10); your own decisions from your legal
// moves; another player's pass, force (R14), take, forced lay-in or hand-only meld (R13, R14,
// R16) composed from the cards he may show, and in the exchange `give ?` or the card passed to
// you (R9); or any move typed. Every move is checked by the server (review.js sends it); what the
// variant allows comes from the server's `variants` and `record` answers, never from here.

import { drawMoves } from "./analysis.js";
import { messageOf } from "./api.js";
import { DECK, RANKS, SUITS, cardElement, cardName, label, moveLabel, toFrench } from "./cards.js";
import {
  $, boardDefaults, button, defaultPlayers, el, fillPlayersSelect, fillSelect, fillVariantSelect, render, variantInfo,
} from "./shared.js";

// ------------------------------------------------------------------ the new deal
const picked = { hand: [], upcard: null }; // French codes, the hand in the board's order

// The order the board shows a hand in (the server's): by rank, then suit (S H D C), R1.
function byRank(a, b) {
  const key = (code) => RANKS.indexOf(code.slice(0, -1)) * SUITS.length + SUITS.indexOf(code.slice(-1));
  return key(a) - key(b);
}

export function drawEntryForm() {
  fillVariantSelect($("#entry-variant"), $("#entry-variant").value || boardDefaults().variant);
  entryVariantChosen();
}

// Another variant: its player counts (R8), its own chosen; the upcard choice where it turns one.
export function entryVariantChosen() {
  const variant = $("#entry-variant").value;
  fillPlayersSelect($("#entry-players"), variant, defaultPlayers(variant));
  $("#entry-upcard-choice").hidden = !variantInfo(variant)?.upcard;
  $("#entry-hand-note").hidden = Boolean(variantInfo(variant)?.upcard);
  if (!variantInfo(variant)?.upcard) {
    picked.upcard = null;
    $('input[name="entry-pick"][value="hand"]').checked = true;
  }
  entryPlayersChosen();
}

// Another player count: the dealer and your seat chosen among its seats.
export function entryPlayersChosen() {
  const n = Number($("#entry-players").value) || 2;
  const seats = Array.from({ length: n }, (_, p) => [p, `player ${p}`]);
  const dealer = Number($("#entry-dealer").value);
  const seat = Number($("#entry-seat").value);
  fillSelect($("#entry-dealer"), seats, Number.isInteger(dealer) && dealer < n && $("#entry-dealer").options.length ? dealer : n - 1);
  fillSelect($("#entry-seat"), seats, Number.isInteger(seat) && seat < n ? seat : 0);
  drawEntryPalette();
}

function handSize() {
  return variantInfo($("#entry-variant").value)?.hand_size ?? 0;
}

// The 40 cards to click: your hand's (aria-pressed) and the upcard's (data-upcard).
export function drawEntryPalette() {
  const palette = $("#entry-palette");
  render(palette, () => {
    palette.replaceChildren();
    for (const code of DECK) {
      const card = cardElement(code, { tag: "button" });
      const inHand = picked.hand.includes(code);
      card.classList.toggle("chosen", inHand);
      card.setAttribute("aria-pressed", String(inHand));
      if (picked.upcard === code) {
        card.dataset.upcard = "true";
        card.title = `${label(code)}: the upcard (R10a)`;
      }
      card.addEventListener("click", () => pickCard(code));
      palette.append(card);
    }
    const size = handSize();
    const hand = picked.hand.map(label).join(" ") || "none yet";
    let text = `Your hand: ${picked.hand.length} of ${size} cards: ${hand}.`;
    if (variantInfo($("#entry-variant").value)?.upcard) text += ` Upcard (R10a): ${picked.upcard ? label(picked.upcard) : "not chosen"}.`;
    $("#entry-chosen").textContent = text;
  });
}

// The form's message (what stops Start, said beside it), or "" to clear it: cleared whenever a
// choice of the form changes, since it was about the choice before.
export function formError(text) {
  $("#entry-form-error").textContent = moveLabel(text || "");
}

function pickCard(code) {
  // The upcard only where the rules turn one up (R10a): the choice is hidden elsewhere.
  const upcard = $('input[name="entry-pick"]:checked')?.value === "upcard" && Boolean(variantInfo($("#entry-variant").value)?.upcard);
  if (upcard) {
    picked.upcard = picked.upcard === code ? null : code;
    picked.hand = picked.hand.filter((c) => c !== code);
  } else if (picked.hand.includes(code)) {
    picked.hand = picked.hand.filter((c) => c !== code);
  } else if (picked.hand.length >= handSize()) {
    formError(`your hand has ${handSize()} cards already: click one of them to take it out`);
    return;
  } else {
    picked.hand = [...picked.hand, code].sort(byRank);
    if (picked.upcard === code) picked.upcard = null;
  }
  formError("");
  drawEntryPalette();
  $(`#entry-palette [data-card="${code}"]`)?.focus();
}

// The start of the game entered, from your view (docs/record-format.md, View records): your hand
// as its cards, every other hand as its count, the stock as its count, the upcard where the rules
// turn one (R10a), the exchange to come where they have one (R9); the player after the dealer
// acts first. The server checks it (the hand's size, R8; the upcard, R10a).
export function entryStart() {
  const variant = $("#entry-variant").value;
  const info = variantInfo(variant);
  const n = Number($("#entry-players").value) || info.players;
  const dealer = Number($("#entry-dealer").value);
  const seat = Number($("#entry-seat").value);
  const size = info.hand_size;
  const position = {
    variant,
    labels: "french",
    dealer,
    to_act: (dealer + 1) % n,
    players: Array.from({ length: n }, (_, p) => ({ hand: p === seat ? [...picked.hand] : size, layout: [] })),
    stock: 40 - n * size - (info.upcard ? 1 : 0),
    dead: [],
    centre: null,
  };
  if (info.upcard) {
    if (!picked.upcard) throw new Error(`${variant} turns up a card at the deal: choose "the upcard", then click it (R10a)`);
    position.centre = { card: picked.upcard, kind: "upcard", source: dealer, declined: [] };
  }
  if (info.exchange !== "none") position.exchange = { chosen: Array(n).fill(null) };
  if (picked.hand.length !== size) throw new Error(`your hand has ${size} cards in ${variant}: ${picked.hand.length} clicked so far (R8)`);
  return { position, seat, players: n };
}

// ------------------------------------------------------------------ the next move
// The move being composed for another player (a take, a lay-in, a hand-only meld), kept while
// the position shown stays the same.
let composer = null;

// The input drawn last (its ctx): a typed move is read at its position.
let shownInput = null;

// The input of the move at the position shown. ctx: {key (the position's path: a new one ends a
// composition), ply, view (your seat, or null: every card known), info (the `record` answer of
// the path, with `next`, for a view; the `moves` answer otherwise), position (the position's
// data), onMove(text) (a promise: rejected, the server's message is shown)}.
export function drawInput(ctx) {
  if (!composer || composer.key !== ctx.key) composer = null;
  shownInput = ctx;
  $("#entry-input").hidden = false;
  // At the end of the deal nothing more can be entered: no text box, no Enter.
  $("#entry-type").hidden = ended(ctx);
  $("#entry-error").textContent = "";
  const moves = $("#entry-moves");
  const next = ctx.info.next;
  if (ctx.view === null && !ctx.info.over) drawMoves(moves, ctx.info.moves, (e) => submit(ctx, e.text));
  else if (next && next.player === ctx.view) drawMoves(moves, next.moves, (e) => submit(ctx, e.text));
  else render(moves, () => moves.replaceChildren());
  render($("#entry-choices"), () => drawChoices(ctx));
}

// No position to enter a move at (no tree): the input is hidden.
export function hideInput() {
  composer = null;
  shownInput = null;
  $("#entry-input").hidden = true;
  render($("#entry-moves"), () => $("#entry-moves").replaceChildren());
  render($("#entry-choices"), () => $("#entry-choices").replaceChildren());
}

async function submit(ctx, text) {
  const error = $("#entry-error");
  error.textContent = "";
  try {
    await ctx.onMove(text);
  } catch (e) {
    if (e && e.name === "AbortError") return;
    // The line is about the move entered: the API's field name ("moves: ") is left out.
    error.textContent = moveLabel(messageOf(e));
  }
}

// Whether the deal is over at the input's position (nothing more to enter).
function ended(ctx) {
  return Boolean(ctx.info.over || (ctx.view !== null && !ctx.info.next));
}

// Whether the next move at the input's position is a turn of the stock (R10).
function atTurn(ctx) {
  if (ended(ctx)) return false;
  if (ctx.view !== null) return ctx.info.next.player === null;
  return !ctx.position.centre && !ctx.position.exchange;
}

// The words a move starts with (`conquian record`'s): a word alone at a turn is read as one of
// them ("pass": refused by the rules, R10), not as a card.
const VERBS = ["pass", "take", "force", "lay", "meld", "give", "turn"];

// A typed move with the shorthands `conquian record` takes: a word alone at a turn that is no
// move word is the card turned (`5H`: `turn 5H`, R10), and `?` a pass made face down (`give ?`,
// R9).
function typedText(text, turn) {
  const t = text.trim();
  if (t === "?") return "give ?";
  if (turn && !/\s/.test(t) && !VERBS.includes(t.toLowerCase())) return `turn ${t}`;
  return t;
}

// The typed move (in the labels shown) sent as the page writes moves, French codes.
export function typedMove(ctx) {
  const box = $("#entry-text");
  const text = box.value.trim();
  if (!text) {
    $("#entry-error").textContent = "type a move first, as the record writes it (pass, force 1, take [..] pay CARD, give ?, ...; at a turn the card alone)";
    return Promise.resolve();
  }
  const turn = Boolean(shownInput && atTurn(shownInput));
  return submit(ctx, toFrench(typedText(text, turn))).then(() => {
    if (!$("#entry-error").textContent) box.value = "";
  });
}

function head(text) {
  $("#entry-head").textContent = text;
}

function drawChoices(ctx) {
  const box = $("#entry-choices");
  box.replaceChildren();
  const { info, view, ply } = ctx;
  if (ended(ctx)) {
    head(`The deal is over after move ${ply - 1}: nothing more to enter.`);
    return;
  }
  if (view === null) {
    head(`Move ${ply}: ${moveLabel(info.description)}; every card is known: choose the move.`);
    return;
  }
  const next = info.next;
  const centre = ctx.position.centre?.card || null;
  if (next.player === null) {
    head(`Move ${ply}: the card turned from the stock (R10): click it among the ${next.cards.length} cards you have not seen.`);
    box.append(palette("entry-cards", next.cards, (code) => submit(ctx, `turn ${code}`)));
    return;
  }
  if (next.player === view) {
    head(`Move ${ply}: your move (player ${view}); ${moveLabel(info.description)}.`);
    return;
  }
  const p = next.player;
  head(`Move ${ply}: player ${p}'s move (${next.hand} cards, hidden from you); ${moveLabel(info.description)}.`);
  const row = el("div", "move-group");
  box.append(row);
  const choice = (text, move, fn) => {
    const b = button(text, move ? { move } : {});
    b.addEventListener("click", fn);
    row.append(b);
    return b;
  };
  if (next.kinds.includes("give")) {
    if (next.give === "?") {
      choice("give ? (his pass, face down: R9)", "give ?", () => submit(ctx, "give ?"));
    } else {
      box.append(el("div", "entry-note", `Player ${p} passes his card to you (R9): click the card you received.`));
      box.append(palette("entry-cards", next.cards, (code) => submit(ctx, `give ${code}`)));
    }
    return;
  }
  if (next.kinds.includes("pass")) choice("pass", "pass", () => submit(ctx, "pass"));
  for (const seat of next.forces || []) choice(`force ${seat}`, `force ${seat}`, () => submit(ctx, `force ${seat}`));
  const compose = (kind, redraw = true) => {
    if (redraw) $("#entry-error").textContent = ""; // a message about another move
    const layout = ctx.position.players[p].layout || [];
    const melds = kind === "meld" ? [[]] : [...layout.map((m) => m.slice()), []];
    composer = {
      key: ctx.key, kind, player: p, centre: kind === "meld" ? null : centre, melds,
      old: new Set(kind === "meld" ? [] : layout.flat()), chosen: melds.length - 1, paying: false,
    };
    if (redraw) drawChoices(ctx);
  };
  for (const kind of ["take", "meld"]) {
    if (next.kinds.includes(kind)) {
      const b = choice(`${kind}…`, null, () => compose(kind));
      b.dataset.action = `compose-${kind}`;
      b.title = kind === "take" ? "compose his take: his whole new layout, then the card paid (R13)" : "compose a meld of his hand cards only (R16)";
    }
  }
  // A forced player lays the card in (R14): the composer is his only choice.
  if (next.kinds.includes("lay") && (!composer || composer.kind !== "lay")) compose("lay", false);
  if (composer) box.append(drawComposer(ctx, next));
}

// A palette of the cards `codes` (buttons, data-card) calling `onCard(code)`, laid out as the
// hand's palette: one row per suit (S H D C), each card in its rank's column, a gap where a
// card is not offered; a suit none of whose cards is offered has no row.
function palette(id, codes, onCard, mark = () => null) {
  const box = el("div", "palette entry-cards");
  box.id = id;
  const offered = new Set(codes);
  for (const suit of SUITS) {
    if (!RANKS.some((rank) => offered.has(rank + suit))) continue;
    for (const rank of RANKS) {
      const code = rank + suit;
      if (!offered.has(code)) {
        const gap = el("span", "palette-gap");
        gap.setAttribute("aria-hidden", "true");
        box.append(gap);
        continue;
      }
      box.append(paletteCard(code, onCard, mark));
    }
  }
  return box;
}

function paletteCard(code, onCard, mark) {
  const card = cardElement(code, { tag: "button" });
  const note = mark(code);
  if (note) {
    card.classList.add(note.className);
    card.title = `${label(code)}: ${note.title}`;
    card.setAttribute("aria-label", `${cardName(code)}, ${note.title}`);
  }
  card.addEventListener("click", () => onCard(code));
  return card;
}

function meldOf(code) {
  return composer.melds.findIndex((m) => m.includes(code));
}

// The move composed so far; `end` is " pay CARD", " out" or "" (a hand-only meld).
function composedText(end) {
  const melds = composer.melds.filter((m) => m.length).map((m) => `[${m.join(" ")}]`).join(" ");
  return `${composer.kind} ${melds}${end}`;
}

function drawComposer(ctx, next) {
  const c = composer;
  const box = el("div", "composer");
  box.id = "entry-composer";
  box.dataset.kind = c.kind;
  const what = {
    take: `Player ${c.player} takes ${label(c.centre)}: click cards into his melds (his whole new layout, old melds included, R13), then Pay… and the card he paid, or Out (R15).`,
    lay: `Player ${c.player} is forced to lay ${label(c.centre)} in (R14): his layout with it, then Pay… and the card he paid, or Out (R15).`,
    meld: `Player ${c.player} lays a meld of his hand cards only (R16): click its cards, then Enter the meld.`,
  }[c.kind];
  box.append(el("div", "entry-note", what));
  // Every change of the move composed: the message about the move tried before (Out, Pay)
  // no longer applies.
  const redraw = () => {
    $("#entry-error").textContent = "";
    drawChoices(ctx);
  };
  const melds = el("div", "composer-melds");
  c.melds.forEach((meld, i) => {
    const frame = el("div", `composer-meld${i === c.chosen ? " chosen" : ""}`);
    frame.dataset.meld = String(i);
    frame.title = "click to put the next cards in this meld";
    frame.addEventListener("click", () => { c.chosen = i; redraw(); });
    // A handle to choose the meld without touching its cards (a card clicked moves).
    const handle = button(i === c.chosen ? "▸" : String(i + 1), { action: "composer-choose", meld: String(i) });
    handle.className = "meld-handle";
    handle.title = i === c.chosen ? "the next cards go in this meld" : "put the next cards in this meld";
    handle.setAttribute("aria-label", `meld ${i + 1}${i === c.chosen ? ", chosen" : ""}`);
    handle.addEventListener("click", (event) => { event.stopPropagation(); c.chosen = i; redraw(); });
    frame.append(handle);
    if (!meld.length) frame.append(el("span", "count", i === c.chosen ? "new meld: click cards" : "empty"));
    for (const code of meld) {
      const chip = cardElement(code, { tag: "button" });
      if (c.old.has(code)) chip.classList.add("old");
      if (code === c.centre) chip.classList.add("centre-card");
      chip.title = i === c.chosen ? `${label(code)}: click to take it out` : `${label(code)}: click to move it to the chosen meld`;
      chip.addEventListener("click", (event) => {
        event.stopPropagation();
        if (i !== c.chosen) {
          meld.splice(meld.indexOf(code), 1);
          c.melds[c.chosen].push(code);
        } else if (c.old.has(code)) {
          $("#entry-error").textContent = `${label(code)} is in his layout and stays in it (R13): choose another meld, then click it to move it there`;
          return;
        } else {
          meld.splice(meld.indexOf(code), 1);
        }
        redraw();
      });
      frame.append(chip);
    }
    melds.append(frame);
  });
  if (c.kind !== "meld") {
    const add = button("New meld", { action: "composer-new-meld" });
    add.addEventListener("click", () => {
      if (!c.melds[c.melds.length - 1].length) c.chosen = c.melds.length - 1;
      else {
        c.melds.push([]);
        c.chosen = c.melds.length - 1;
      }
      redraw();
    });
    melds.append(add);
  }
  box.append(melds);
  const end = c.kind === "meld" ? "" : c.paying ? " pay …" : "";
  const preview = el("div", "composer-text", moveLabel(composedText(end)));
  preview.dataset.move = composedText(end);
  box.append(preview);
  // The cards he may show: the centre card (marked: a take or lay-in melds it) and the unseen, by
  // suit; a forced player lays in the centre card alone, adding no hand card to his layout (R14).
  const cards = [...(c.centre ? [c.centre] : []), ...next.cards.filter((code) => code !== c.centre)];
  const meldable = c.kind === "lay" ? cards.filter((code) => code === c.centre) : cards;
  const known = new Set(next.known || []);
  if (c.paying) {
    box.append(el("div", "entry-note", "Click the card he paid:"));
    const payable = cards.filter((code) => code !== c.centre && meldOf(code) < 0);
    box.append(palette("composer-cards", payable, (code) => submit(ctx, composedText(` pay ${code}`)), (code) => (known.has(code) ? { className: "known", title: "you passed it to him (R9)" } : null)));
  } else {
    box.append(el("div", "entry-note", c.kind === "lay"
      ? "Click the centre card to put it in the chosen meld (his hand cards stay in his hand, R14); click it again to take it out:"
      : "Click a card to put it in the chosen meld (outlined); click it again to take it out:"));
    box.append(palette("composer-cards", meldable, (code) => {
      const at = meldOf(code);
      if (at >= 0 && c.old.has(code)) return;
      if (at >= 0) c.melds[at].splice(c.melds[at].indexOf(code), 1);
      else c.melds[c.chosen].push(code);
      redraw();
    }, (code) => {
      if (meldOf(code) >= 0) return { className: "placed", title: "in a meld (click to take it out)" };
      if (code === c.centre) return { className: "centre-card", title: "the centre card" };
      if (known.has(code)) return { className: "known", title: "you passed it to him (R9)" };
      return null;
    }));
  }
  const actions = el("div", "buttons");
  if (c.kind === "meld") {
    const enter = button("Enter the meld", { action: "composer-enter" });
    enter.addEventListener("click", () => submit(ctx, composedText("")));
    actions.append(enter);
  } else {
    const pay = button(c.paying ? "Back to the melds" : "Pay…", { action: "composer-pay" });
    pay.setAttribute("aria-pressed", String(c.paying));
    pay.addEventListener("click", () => { c.paying = !c.paying; redraw(); });
    const out = button("Out (R15)", { action: "composer-out" });
    out.title = "he goes out: his whole hand melded, nothing paid";
    out.addEventListener("click", () => submit(ctx, composedText(" out")));
    actions.append(pay, out);
  }
  if (c.kind !== "lay") {
    const cancel = button("Cancel", { action: "composer-cancel" });
    cancel.addEventListener("click", () => { composer = null; redraw(); });
    actions.append(cancel);
  }
  box.append(actions);
  return box;
}
