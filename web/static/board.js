// The table drawn from position data (docs/position-format.md): hands, layouts, centre, stock,
// dead cards, player to act, the exchange's chosen cards. Every card carries data-card, every zone
// data-zone.

import { cardElement, frenchCode, label, problemLabel } from "./cards.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function zone(name, title) {
  const box = el("div", "zone");
  box.dataset.zone = name;
  const head = el("div", "zone-title", title);
  const cards = el("div", "zone-cards");
  const problem = el("div", "zone-problem");
  problem.dataset.problemFor = name;
  box.append(head, cards, problem);
  return { box, cards };
}

function addCards(target, list) {
  for (const text of list) {
    const code = frenchCode(text);
    if (code) target.append(cardElement(code));
  }
}

// Draw `position` into `root`; `names` labels the seats ("you", "greedy", ...).
export function drawBoard(root, position, { names = [], over = false, winner = null } = {}) {
  root.replaceChildren();
  const players = position.players || [];
  const table = el("div", "table");
  players.forEach((player, p) => {
    const seat = el("div", "seat");
    seat.dataset.seat = String(p);
    if (!over && position.to_act === p) seat.classList.add("to-act");
    // "Player 0 (you, dealer) — to act": the seat's name and the dealer in one bracket.
    const about = [names[p], position.dealer === p ? "dealer" : ""].filter(Boolean).join(", ");
    const mark = over ? (winner === p ? " — winner" : "") : position.to_act === p ? " — to act" : "";
    seat.append(el("div", "seat-title", `Player ${p}${about ? ` (${about})` : ""}${mark}`));
    const hand = zone(`hand-${p}`, "hand");
    if (Array.isArray(player.hand)) {
      addCards(hand.cards, player.hand);
      if (!player.hand.length) hand.cards.append(el("span", "count", "empty"));
      hand.box.dataset.count = String(player.hand.length);
    } else {
      const count = Number(player.hand) || 0;
      for (let i = 0; i < count; i += 1) hand.cards.append(cardElement("", { back: true }));
      hand.cards.append(el("span", "count", `${count} card${count === 1 ? "" : "s"}`));
      hand.box.dataset.count = String(count);
      hand.box.dataset.hidden = "true";
    }
    if (position.exchange) markChosen(hand, player, position.exchange.chosen?.[p] ?? null);
    const layout = zone(`layout-${p}`, "layout");
    (player.layout || []).forEach((meld, m) => {
      const group = el("span", "meld");
      group.dataset.meld = String(m);
      addCards(group, meld);
      layout.cards.append(group);
    });
    seat.append(hand.box, layout.box);
    table.append(seat);
  });

  const middle = el("div", "middle");
  const centre = zone("centre", "centre");
  if (position.centre) {
    const c = position.centre;
    addCards(centre.cards, [c.card]);
    const how = c.kind === "paid" ? "paid" : c.kind === "upcard" ? "upcard" : "turned";
    let text = how === "upcard" ? `turned up at the deal by player ${c.source} (R10a)` : `${how} by player ${c.source}`;
    // A payer whose paid card fits nobody's layout is recorded as passing it (R14a).
    const declined = (c.declined || []).filter((p) => !(how === "paid" && p === c.source));
    if (how === "paid" && (c.declined || []).includes(c.source)) text += "; it fits no other player's layout (R14a)";
    if (declined.length) text += `; declined by ${declined.join(", ")}`;
    if (c.forced !== undefined && c.forced !== null) text += `; player ${c.forced} forced (R14)`;
    centre.box.append(el("div", "centre-kind", text));
    centre.box.dataset.kind = how;
    centre.box.dataset.source = String(c.source);
  } else {
    centre.cards.append(el("span", "count", over ? "the deal is over" : "no card: next, a turn (R10)"));
  }
  const stock = zone("stock", "stock");
  if (Array.isArray(position.stock)) {
    addCards(stock.cards, position.stock);
    if (!position.stock.length) stock.cards.append(el("span", "count", "empty"));
    stock.box.dataset.count = String(position.stock.length);
  } else {
    const left = Number(position.stock) || 0;
    stock.cards.append(el("span", "count", `${left} ${left === 1 ? "card" : "cards"}, order hidden`));
    stock.box.dataset.count = String(Number(position.stock) || 0);
  }
  const dead = zone("dead", "dead cards");
  addCards(dead.cards, position.dead || []);
  if (!(position.dead || []).length) dead.cards.append(el("span", "count", "none"));
  middle.append(centre.box, stock.box, dead.box);
  root.append(table, middle);
}

// During the exchange (R9): the card a player has chosen to pass marked in his hand
// (data-exchange="chosen") and said below it; a known hand that has chosen none says so (a hidden
// one may have chosen unseen, as in a view).
function markChosen(hand, player, chosen) {
  const code = chosen ? frenchCode(chosen) : null;
  let text = "";
  if (code) {
    const card = hand.cards.querySelector(`[data-card="${code}"]`);
    if (card) card.dataset.exchange = "chosen";
    text = `chose ${label(code)} to pass (R9)`;
  } else if (Array.isArray(player.hand)) {
    text = "no card chosen to pass yet (R9)";
  }
  if (!text) return;
  const note = el("div", "exchange-note", text);
  note.dataset.chosen = code || "";
  hand.cards.after(note);
}

// Show `message` next to `zoneName` (or in the general slot when no such zone is drawn).
export function showProblem(root, zoneName, message, general) {
  for (const slot of root.querySelectorAll(".zone-problem")) slot.textContent = "";
  root.querySelectorAll(".zone.wrong").forEach((z) => z.classList.remove("wrong"));
  if (!message) {
    if (general) general.textContent = "";
    return;
  }
  // The server writes its messages with French card codes: shown in the labels chosen.
  message = problemLabel(String(message)); // the zone says what the problem is, not the field
  const slot = zoneName && root.querySelector(`[data-problem-for="${zoneName}"]`);
  if (slot) {
    slot.textContent = message;
    slot.closest(".zone").classList.add("wrong");
    if (general) general.textContent = "";
  } else if (general) {
    general.textContent = message;
  }
}

// The zone an error message is about, read from its words (player N, stock, dead, centre).
export function zoneOf(message) {
  const text = String(message);
  const player = /player (\d)/.exec(text);
  if (/\bstock\b/.test(text) && !player) return "stock";
  if (/\bdead\b/.test(text) && !player) return "dead";
  if (/\b(centre|center)\b/.test(text) && !player) return "centre";
  if (player) return /\blayout\b|\bmelds?\b/.test(text) ? `layout-${player[1]}` : `hand-${player[1]}`;
  return null;
}
