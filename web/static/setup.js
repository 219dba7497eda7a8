// The setup editor's controls: every part of a position that is not a card's place, set by
// clicks (docs/position-format.md): variant, player count, dealer, player to act, phase, the
// centre card's kind, source, declines and forced player, the exchange's chosen cards, each hand
// shown or hidden (a count), the stock as a count or an order. Cards are placed with the palette and the board's zones
// (setup-tab.js). Each control is drawn from the position being edited, so the controls and the
// board always agree; a problem is shown beside the control it is about. What a variant allows
// (its player counts, hand size, exchange) is the server's `variants` answer, given by the caller
// as `variants` (the list of presets), never written here; so are who may be forced (the
// server's legal moves, asked through `forceable`).

import { DECK, frenchCode, label, moveLabel } from "./cards.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function select(name, options, value, onChange) {
  const box = el("select");
  box.dataset.control = name;
  for (const [v, text] of options) {
    const option = el("option", "", text);
    option.value = String(v);
    box.append(option);
  }
  box.value = String(value);
  box.addEventListener("change", () => onChange(box.value));
  return box;
}

function labelled(text, control) {
  const label = el("label", "control");
  label.append(`${text} `, control);
  return label;
}

// The phase a position is in (turn, offer, forced, exchange), from its data.
export function phaseOf(position) {
  if (position.exchange) return "exchange";
  if (!position.centre) return "turn";
  return position.centre.forced !== undefined && position.centre.forced !== null ? "forced" : "offer";
}

// The preset named `name` in `variants` (null if none).
function presetOf(variants, name) {
  return (variants || []).find((v) => v.name === name) || null;
}

// A rule option of the position: its own override (the `rules` object), else its preset's.
export function optionOf(position, variants, key, fallback) {
  if (position.rules && position.rules[key] !== undefined) return position.rules[key];
  const preset = presetOf(variants, position.variant || "classic");
  return preset && preset[key] !== undefined ? preset[key] : fallback;
}

// Whether the position's rules have the exchange before play (R9).
export function hasExchange(position, variants) {
  return optionOf(position, variants, "exchange", "none") !== "none";
}

// An empty table of `variant` for `players` players (default: the variant's own) to start
// from: no card anywhere, every hand shown.
export function emptyPosition(variant, variants, players) {
  const n = players || presetOf(variants, variant)?.players || 2;
  return {
    variant,
    dealer: n - 1,
    to_act: 0,
    players: Array.from({ length: n }, () => ({ hand: [], layout: [] })),
    stock: 0,
    dead: [],
    centre: null,
  };
}

// The control a problem is about, read from its words, for the problems no zone of the board
// shows (a hand's count, the stock's and the centre card's are shown on their zones).
export function controlOf(message) {
  const text = String(message).toLowerCase();
  // About the forced player himself (whom a force names, R14), though it lists the declines too.
  if (/\bis forced with\b|\bforced player\b/.test(text)) return "forced";
  if (/declin/.test(text)) return "declined";
  if (/forced|\bforce\b/.test(text)) return "forced";
  if (/is offered .* next|turned by the player after the dealer|chooses the next card/.test(text)) return "to_act";
  if (/\bchose\b|\bchosen\b|\bchoices\b/.test(text)) return "exchange";
  if (/\bexchange\b/.test(text)) return "phase";
  if (/\bdealer\b/.test(text)) return "dealer";
  if (/\(R8\)/.test(text)) return "players";
  return null;
}

// Draw the controls of `position` into `root`; `edit(fn)` applies fn (which may be async) to the
// position being edited and validates it; `message` is the current problem, shown beside its
// control when it has one; `forceable(position)` answers the players the player to act may force
// (a promise of seats, the server's). Returns whether the problem was shown here.
export function drawSetupControls(root, position, edit, message, variants, { forceable = async () => [] } = {}) {
  root.replaceChildren();
  if (!position) return false;
  const n = position.players.length;
  const name = position.variant || "classic";
  const preset = presetOf(variants, name);
  const counts = preset ? [...preset.player_counts] : [n];
  if (!counts.includes(n)) counts.push(n); // shown as it is, and refused by the server (R8)
  counts.sort((a, b) => a - b);
  const seats = Array.from({ length: n }, (_, p) => [p, `player ${p}`]);
  const phase = phaseOf(position);
  const rows = {};
  const row = (name) => {
    const line = el("div", "control-row");
    line.dataset.row = name;
    const problem = el("span", "control-problem");
    problem.dataset.controlProblem = name;
    rows[name] = { line, problem };
    return line;
  };

  const first = row("variant");
  const names = (variants || []).map((v) => [v.name, v.name]);
  if (!presetOf(variants, name)) names.push([name, name]);
  first.append(
    labelled("variant", select("variant", names, name, (v) => edit((p) => setVariant(p, v, variants)))),
    labelled("players", select("players", counts.map((c) => [c, String(c)]), n, (v) => edit((p) => setPlayers(p, Number(v))))),
    labelled("dealer", select("dealer", seats, position.dealer ?? n - 1, (v) => edit((p) => {
      p.dealer = Number(v);
      if (p.centre && p.centre.kind === "upcard" && !p.centre.forced) {
        p.centre.source = p.dealer; // he turns it (R10a), and it is offered round from the next
        const next = nextOffered(p, variants);
        if (next !== null && !p.exchange) p.to_act = next;
      }
      if (p.exchange) nextToChoose(p); // the exchange's turn order starts after the dealer (R9)
    }))),
  );
  const act = row("to_act");
  act.append(labelled("to act", select("to_act", seats, position.to_act ?? 0, (v) => edit((p) => { p.to_act = Number(v); }))));
  const phases = [["turn", "a stock card to turn"], ["offer", "the centre card offered"], ["forced", "a forced player lays it in"]];
  if (hasExchange(position, variants) || phase === "exchange") phases.push(["exchange", "the exchange (R9)"]);
  const ph = row("phase");
  ph.append(labelled("phase", select("phase", phases, phase, (v) => edit((p) => setPhase(p, v, forceable, variants)))));
  root.append(first, act, ph);

  if (phase === "offer" || phase === "forced") {
    const centre = position.centre;
    const c = row("centre");
    c.append(el("span", "control-note", `centre ${label(frenchCode(centre.card))} (click a card, then the centre zone, to change it)`));
    c.append(labelled("kind", select("kind", [["turned", "turned"], ["paid", "paid"], ["upcard", "upcard (R10a)"]], centre.kind, (v) => edit((p) => { p.centre.kind = v; }))));
    c.append(labelled("by", select("source", seats, centre.source, (v) => edit((p) => { p.centre.source = Number(v); }))));
    root.append(c);
    const d = row("declined");
    d.append("declined by:");
    for (let p = 0; p < n; p += 1) {
      const box = el("input");
      box.type = "checkbox";
      box.dataset.control = `declined-${p}`;
      box.checked = (centre.declined || []).includes(p);
      box.addEventListener("change", () => edit((pos) => setDeclined(pos, p, box.checked, variants)));
      d.append(labelled(`${p}`, box));
    }
    root.append(d);
    if (phase === "forced") {
      const f = row("forced");
      // The forced player is the one to act (R14): both follow this control.
      f.append(labelled("forced player", select("forced", seats, centre.forced, (v) => edit((pos) => {
        pos.centre.forced = Number(v);
        pos.to_act = Number(v);
      }))));
      root.append(f);
    }
  } else if (phase === "exchange") {
    // Each player's chosen card (R9): one of his hand's cards, or none yet.
    const x = row("exchange");
    x.append("chosen to pass:");
    for (let p = 0; p < n; p += 1) {
      const choice = chosenOf(position, p);
      const cards = choices(position, p);
      if (choice && !cards.includes(choice)) cards.push(choice); // shown as it is (the server says what is wrong)
      const options = [["", "not yet"], ...cards.map((code) => [code, label(code)])];
      x.append(labelled(`player ${p}`, select(`chosen-${p}`, options, choice || "", (v) => edit((pos) => setChosen(pos, p, v || null)))));
    }
    root.append(x);
  } else if (phase === "turn") {
    const c = row("centre");
    c.append(el("span", "control-note", "no centre card: the player to act turns the next stock card (R10); to offer a card, click it, then the centre zone"));
    root.append(c);
  }

  for (let p = 0; p < n; p += 1) {
    const hand = position.players[p].hand;
    const hidden = !Array.isArray(hand);
    const h = row(`hand-${p}`);
    h.append(labelled(`player ${p}'s hand`, select(`hand-${p}`, [["shown", "shown"], ["hidden", "hidden (a count)"]], hidden ? "hidden" : "shown", (v) => edit((pos) => setHidden(pos, p, v === "hidden")))));
    if (hidden) {
      const count = el("input");
      count.type = "number";
      count.min = "0";
      count.max = String(optionOf(position, variants, "hand_size", 10));
      count.value = String(hand);
      count.dataset.control = `count-${p}`;
      count.addEventListener("change", () => edit((pos) => { pos.players[p].hand = wholeCount(count.value, `player ${p}'s hidden hand count`, Number(count.max), pos.players[p].hand); }));
      h.append(labelled("cards", count));
    }
    root.append(h);
  }

  const s = row("stock");
  const counted = !Array.isArray(position.stock);
  s.append(labelled("stock", select("stock", [["count", "a count, order hidden"], ["order", "an order (cards placed top first)"]], counted ? "count" : "order", (v) => edit((pos) => setStockOrder(pos, v === "order")))));
  if (counted) {
    const count = el("input");
    count.type = "number";
    count.min = "0";
    count.max = "40";
    count.value = String(position.stock);
    count.dataset.control = "stock-count";
    count.addEventListener("change", () => edit((pos) => { pos.stock = wholeCount(count.value, "the stock count", 40, pos.stock); }));
    s.append(labelled("cards", count));
  }
  root.append(s);

  for (const { line, problem } of Object.values(rows)) line.append(problem);
  // The dealer and the player count are on the variant's row.
  const found = message ? controlOf(message) : null;
  const about = found === "dealer" || found === "players" ? "variant" : found;
  if (!about || !rows[about]) return false;
  rows[about].problem.textContent = moveLabel(message);
  rows[about].line.classList.add("wrong");
  return true;
}

// Another variant, keeping every card placed. The player count goes with the variant when it
// was the old variant's own (classic's 2 becomes megajogos's 3); a count chosen otherwise is kept
// where the new variant allows it, else the new variant's own. Seats are added empty or dropped
// from the end (with their cards), and the dealer and the player to act stay in range.
function setVariant(position, variant, variants) {
  const before = presetOf(variants, position.variant || "classic");
  const after = presetOf(variants, variant);
  const count = position.players.length;
  let n = after ? after.players : count;
  if (after && after.player_counts.includes(count) && !(before && count === before.players)) n = count;
  position.variant = variant;
  for (const seat of position.players) delete seat.gave;
  if (position.exchange && !hasExchange(position, variants)) delete position.exchange;
  setPlayers(position, n);
}

// Another player count (R8), keeping every card placed: seats are added empty or dropped from the
// end (with their cards), and every seat the position names stays in range.
function setPlayers(position, n) {
  const before = position.players.length;
  while (position.players.length < n) position.players.push({ hand: [], layout: [] });
  position.players.length = n;
  if (n !== before) {
    // The history (cards seen paid, cards passed) belongs to the deal as it was played; the
    // editor shows no control for it, so it goes with a change of the table rather than
    // standing as an invisible error.
    for (const seat of position.players) {
      delete seat.paid;
      delete seat.gave;
    }
  }
  if (position.rules && position.rules.players !== undefined) position.rules.players = n;
  if (position.dealer >= n) position.dealer = n - 1;
  if (position.to_act >= n) position.to_act = 0;
  if (position.exchange) position.exchange.chosen = position.players.map((_, p) => position.exchange.chosen?.[p] ?? null);
  if (position.centre) {
    position.centre.declined = (position.centre.declined || []).filter((p) => p < n);
    if (position.centre.source >= n) position.centre.source = 0;
    if (position.centre.forced >= n) delete position.centre.forced;
  }
}

async function setPhase(position, phase, forceable, variants) {
  delete position.exchange;
  if (phase === "turn") {
    position.centre = null;
  } else if (phase === "exchange") {
    position.centre = null;
    position.exchange = { chosen: position.players.map(() => null) };
    // Nobody has passed a card yet during the exchange (R9): no 'gave' may stand.
    for (const seat of position.players) delete seat.gave;
    nextToChoose(position);
  } else if (position.centre) {
    delete position.centre.forced;
    const forcer = nextOffered(position, variants);
    if (phase === "forced") {
      // A player the one offered the card may force (R14), as the server's legal moves say;
      // with none, another player than the forcer, and the problem shown beside the control.
      let candidates = [];
      if (forcer !== null) {
        const before = structuredClone(position);
        before.to_act = forcer;
        candidates = await forceable(before);
      }
      const n = position.players.length;
      const others = [...(position.centre.declined || []), ...Array.from({ length: n }, (_, k) => ((forcer ?? 0) + 1 + k) % n)];
      const forced = candidates.length ? candidates[0] : others.find((p) => p !== forcer) ?? 0;
      position.centre.forced = forced;
      position.to_act = forced; // the forced player acts next (R14)
    } else if (forcer !== null) {
      position.to_act = forcer;
    }
  } else {
    throw new Error("choose the centre card first: click a card of the palette, then the centre zone");
  }
}

// The offer order of the centre card (R10a, R11, R14a): a turned card from its turner; a paid
// one from the player after the payer (from the payer himself where he may force with it,
// discard_force); the upcard from the player after the dealer round to the dealer.
function offerOrder(position, variants) {
  const n = position.players.length;
  const { kind, source } = position.centre;
  const payerFirst = optionOf(position, variants, "discard_force", false) === true;
  const start = kind === "upcard" || (kind === "paid" && !payerFirst) ? 1 : 0;
  const length = kind === "paid" && !payerFirst ? n - 1 : n;
  return Array.from({ length }, (_, k) => (source + start + k) % n);
}

// The player the centre card is offered to next: the first of its offer order who has not
// declined it; null when all have.
function nextOffered(position, variants) {
  const { declined = [] } = position.centre;
  const order = offerOrder(position, variants);
  return declined.length < order.length ? order[declined.length] : null;
}

// ------------------------------------------------------------------ the exchange (R9)
// The card player `p` has chosen to pass, as a French code (null: none yet).
function chosenOf(position, p) {
  const card = position.exchange?.chosen?.[p];
  return card ? frenchCode(card) : null;
}

// The cards player `p` may have chosen: his hand's; for a hidden hand, any card shown nowhere
// else (not in a known hand, the stock's order, the dead cards or the centre) and chosen by no
// other player, since the hidden hand may hold it.
function choices(position, p) {
  const hand = position.players[p].hand;
  if (Array.isArray(hand)) return hand.map(frenchCode).filter(Boolean);
  const shown = new Set();
  const add = (list) => { for (const c of list || []) shown.add(frenchCode(c)); };
  position.players.forEach((seat, k) => {
    if (Array.isArray(seat.hand)) add(seat.hand);
    for (const meld of seat.layout || []) add(meld);
    if (k !== p) add([chosenOf(position, k)].filter(Boolean));
  });
  if (Array.isArray(position.stock)) add(position.stock);
  add(position.dead);
  if (position.centre) add([position.centre.card]);
  return DECK.filter((code) => !shown.has(code));
}

// Player `p` has chosen `code` (null: none yet), written as his hand writes it.
function setChosen(position, p, code) {
  const hand = position.players[p].hand;
  const written = code && Array.isArray(hand) ? hand.find((c) => frenchCode(c) === code) ?? code : code;
  position.exchange.chosen = position.players.map((_, k) => (k === p ? written : position.exchange.chosen?.[k] ?? null));
  nextToChoose(position);
}

// The player to act during the exchange: the choices are made in turn order from the player after
// the dealer (R9), so the next to choose follows the last who has chosen; where hidden hands may
// have chosen unseen, any of them up to the first known hand may be next. A player to act who
// can be next stays; another is moved to the first who can.
export function nextToChoose(position) {
  const n = position.players.length;
  const dealer = position.dealer ?? n - 1;
  const seats = Array.from({ length: n }, (_, k) => (dealer + 1 + k) % n);
  const last = Math.max(-1, ...seats.flatMap((p, k) => (chosenOf(position, p) ? [k] : [])));
  const after = seats.slice(last + 1);
  if (!after.length) return; // everyone has chosen: the server says so
  const known = after.findIndex((p) => Array.isArray(position.players[p].hand));
  const possible = after.slice(0, known < 0 ? after.length : known + 1);
  if (!possible.includes(position.to_act)) position.to_act = possible[0];
}

function setDeclined(position, player, on, variants) {
  const list = (position.centre.declined || []).filter((p) => p !== player);
  if (on) list.push(player);
  // In offer order (R11); a player outside it (the payer of a paid card) last.
  const order = offerOrder(position, variants);
  const at = (p) => (order.includes(p) ? order.indexOf(p) : order.length);
  list.sort((a, b) => at(a) - at(b));
  position.centre.declined = list;
}

function setHidden(position, player, hidden) {
  const seat = position.players[player];
  if (hidden && Array.isArray(seat.hand)) seat.hand = seat.hand.length;
  else if (!hidden && !Array.isArray(seat.hand)) {
    seat.hand = [];
    // His cards are to be placed again: a card he chose is not in his hand yet (R9).
    if (position.exchange?.chosen?.[player]) setChosen(position, player, null);
  }
}

// A card placed somewhere: a choice of it stands only when it went into the chooser's own hand.
export function cardMoved(position, code, zoneName) {
  if (!position.exchange?.chosen) return;
  let cleared = false;
  position.exchange.chosen.forEach((card, p) => {
    if (card && frenchCode(card) === code && zoneName !== `hand-${p}`) {
      position.exchange.chosen[p] = null;
      cleared = true;
    }
  });
  if (cleared) nextToChoose(position);
}

// The stock's count before it was switched to an order, given back if the order stays empty.
let countBeforeOrder = null;

function setStockOrder(position, ordered) {
  if (ordered && !Array.isArray(position.stock)) {
    countBeforeOrder = position.stock;
    position.stock = [];
  } else if (!ordered && Array.isArray(position.stock)) {
    position.stock = position.stock.length || countBeforeOrder || 0;
  }
}

// A count typed in a number box: a whole number from 0 to `high` (the box's own range), else an
// error naming the box and the count `kept` (the box shows it again) rather than a silent change;
// the error is marked `refused`: the position is not changed, so it is no more invalid than before.
function wholeCount(text, what, high, kept) {
  const value = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || value > high) {
    const stays = Number.isInteger(kept) ? `; it stays ${kept}` : "";
    const error = new Error(`${what} must be a whole number from 0 to ${high}, got ${JSON.stringify(String(text).trim())}${stays}`);
    error.refused = true; // the value typed is not taken: the position is unchanged
    throw error;
  }
  return value;
}
