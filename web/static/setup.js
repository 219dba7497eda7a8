// The setup editor's controls: every part of a position that is not a card's place, set by
// clicks (docs/position-format.md): variant, player count, dealer, player to act, phase, the
// centre card's kind, source, declines and forced player, each hand shown or hidden (a count),
// the stock as a count or an order. Cards are placed with the palette and the board's zones
// (setup-tab.js). Each control is drawn from the position being edited, so the controls and the
// board always agree; a problem is shown beside the control it is about. What a variant allows
// (its player counts, hand size, exchange) is the server's `variants` answer, given by the caller
// as `variants` (the list of presets), never written here.

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
function optionOf(position, variants, key, fallback) {
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
  if (/declin/.test(text)) return "declined";
  if (/forced|\bforce\b/.test(text)) return "forced";
  if (/is offered .* next|turned by the player after the dealer|chooses the next card/.test(text)) return "to_act";
  if (/\bexchange\b/.test(text)) return "phase";
  if (/\bdealer\b/.test(text)) return "dealer";
  if (/\(R8\)/.test(text)) return "players";
  return null;
}

// Draw the controls of `position` into `root`; `edit(fn)` applies fn to the position being edited
// and validates it; `message` is the current problem, shown beside its control when it has one.
// Returns whether the problem was shown here.
export function drawSetupControls(root, position, edit, message, variants) {
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
    labelled("dealer", select("dealer", seats, position.dealer ?? n - 1, (v) => edit((p) => { p.dealer = Number(v); }))),
  );
  const act = row("to_act");
  act.append(labelled("to act", select("to_act", seats, position.to_act ?? 0, (v) => edit((p) => { p.to_act = Number(v); }))));
  const phases = [["turn", "a stock card to turn"], ["offer", "the centre card offered"], ["forced", "a forced player lays it in"]];
  if (hasExchange(position, variants) || phase === "exchange") phases.push(["exchange", "the exchange (R9)"]);
  const ph = row("phase");
  ph.append(labelled("phase", select("phase", phases, phase, (v) => edit((p) => setPhase(p, v)))));
  root.append(first, act, ph);

  if (phase === "offer" || phase === "forced") {
    const centre = position.centre;
    const c = row("centre");
    c.append(el("span", "control-note", `centre ${centre.card} (click a card, then the centre zone, to change it)`));
    c.append(labelled("kind", select("kind", [["turned", "turned"], ["paid", "paid"]], centre.kind, (v) => edit((p) => { p.centre.kind = v; }))));
    c.append(labelled("by", select("source", seats, centre.source, (v) => edit((p) => { p.centre.source = Number(v); }))));
    root.append(c);
    const d = row("declined");
    d.append("declined by:");
    for (let p = 0; p < n; p += 1) {
      const box = el("input");
      box.type = "checkbox";
      box.dataset.control = `declined-${p}`;
      box.checked = (centre.declined || []).includes(p);
      box.addEventListener("change", () => edit((pos) => setDeclined(pos, p, box.checked)));
      d.append(labelled(`${p}`, box));
    }
    root.append(d);
    if (phase === "forced") {
      const f = row("forced");
      f.append(labelled("forced player", select("forced", seats, centre.forced, (v) => edit((pos) => { pos.centre.forced = Number(v); }))));
      root.append(f);
    }
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
      count.addEventListener("change", () => edit((pos) => { pos.players[p].hand = Math.max(0, Number(count.value) || 0); }));
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
    count.addEventListener("change", () => edit((pos) => { pos.stock = Math.max(0, Number(count.value) || 0); }));
    s.append(labelled("cards", count));
  }
  root.append(s);

  for (const { line, problem } of Object.values(rows)) line.append(problem);
  // The dealer and the player count are on the variant's row.
  const found = message ? controlOf(message) : null;
  const about = found === "dealer" || found === "players" ? "variant" : found;
  if (!about || !rows[about]) return false;
  rows[about].problem.textContent = message;
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

function setPhase(position, phase) {
  delete position.exchange;
  if (phase === "turn") {
    position.centre = null;
  } else if (phase === "exchange") {
    position.centre = null;
    position.exchange = { chosen: position.players.map(() => null) };
    // Nobody has passed a card yet during the exchange (R9): no 'gave' may stand.
    for (const seat of position.players) delete seat.gave;
  } else if (position.centre) {
    if (phase === "forced") {
      const n = position.players.length;
      position.centre.forced = position.centre.forced ?? (position.centre.source + 1) % n;
    } else {
      delete position.centre.forced;
    }
  } else {
    throw new Error("choose the centre card first: click a card of the palette, then the centre zone");
  }
}

function setDeclined(position, player, on) {
  const list = (position.centre.declined || []).filter((p) => p !== player);
  if (on) list.push(player);
  // In offer order (R11): from the source of a turned card, from the one after the payer of a paid one.
  const n = position.players.length;
  const start = position.centre.kind === "paid" ? position.centre.source + 1 : position.centre.source;
  list.sort((a, b) => ((a - start + n) % n) - ((b - start + n) % n));
  position.centre.declined = list;
}

function setHidden(position, player, hidden) {
  const seat = position.players[player];
  if (hidden && Array.isArray(seat.hand)) seat.hand = seat.hand.length;
  else if (!hidden && !Array.isArray(seat.hand)) seat.hand = [];
}

function setStockOrder(position, ordered) {
  if (ordered && !Array.isArray(position.stock)) position.stock = [];
  else if (!ordered && Array.isArray(position.stock)) position.stock = position.stock.length;
}
