// The endgame's equilibrium on the board (docs/web.md; docs/solve.md, "A view: the endgame's
// equilibrium"): `solve` on a two-player view and `hint` with "exact" answer it, the hidden hands
// dealt uniformly (or by the reading, "read"). Drawn here: each move's probability in the
// equilibrium (a bar: where it mixes, the mix) and its value, the hand's value, the
// exploitability, the endgame's size, and what the deal of the hidden hands assumes.

import { moveLabel } from "./cards.js";
import { button, el, render, state } from "./shared.js";

// The least probability of a move counted as played, as `conquian solve` and `hint --exact` count
// it: an equilibrium found to a tolerance leaves traces of the other moves.
export const PLAYED = 1e-3;

// Rows of a hint shown before "show all": every move the equilibrium plays, at least this many.
const ROWS = 5;

export function isEquilibrium(result) {
  return Boolean(result) && result.method === "equilibrium";
}

// Each move's probability in the equilibrium (0 for a move it never plays).
function probability(result, move) {
  return result.strategy[move] ?? 0;
}

// The moves as the command lists them: most likely first, then by value (the server's order,
// best value first, on a tie).
export function equilibriumMoves(result) {
  return Object.keys(result.move_values).sort(
    (a, b) => probability(result, b) - probability(result, a) || result.move_values[b] - result.move_values[a],
  );
}

// How far below the best move's value a move still counts as worth as much (the server's EQUAL):
// an equilibrium found to a tolerance (CFR+) leaves a trace of probability on worse moves.
export const EQUAL = 0.01;

// The moves the equilibrium plays (probability at least PLAYED, worth the best value within
// EQUAL), most likely first.
export function playedMoves(result) {
  const top = Math.max(...Object.values(result.move_values));
  return equilibriumMoves(result).filter(
    (m) => probability(result, m) >= PLAYED && result.move_values[m] >= top - EQUAL,
  );
}

// An expected result (win +1, draw 0, loss -1, R20) with its sign: "+0.667", "-1.000", "0.000".
export function signed(x) {
  const text = Math.abs(x).toFixed(3);
  if (Number(text) === 0) return "0.000";
  return `${x < 0 ? "-" : "+"}${text}`;
}

// A probability as the rows write it: "56%", "<1%" for a trace still counted as played, "0" for
// a move the equilibrium does not play.
export function probabilityText(p) {
  if (p < PLAYED) return "0";
  if (p < 0.005) return "<1%";
  return `${Math.round(100 * p)}%`;
}

function number(n) {
  return Number(n).toLocaleString("en-US");
}

function many(n, one, several = `${one}s`) {
  return `${number(n)} ${n === 1 ? one : several}`;
}

// What the deal of the hidden hands assumes (docs/solve.md): the uniform deal ignores what earlier
// play said of the hands; the reading weighs them by the cards each player gave up.
export function priorText(result) {
  if (result.prior === "read") {
    return "The hidden hands are dealt by the reading of the cards each player gave up in public "
      + "(his pays, his pass in the exchange), a prior both players share.";
  }
  return "The hidden hands are dealt uniformly among those consistent with what is public: this "
    + "ignores what earlier play said of them (a card declined, a card paid); it answers what "
    + "the hand is worth against an opponent who knows only what is public. \"Deal by the "
    + "reading\" weighs them by the cards each player gave up.";
}

// The figures of one move, for its preview: {probability, value, hand, player, prior}.
export function moveFigures(result, move) {
  return {
    probability: probability(result, move),
    value: result.move_values[move],
    hand: result.value,
    player: result.player,
    prior: result.prior,
  };
}

// The line a previewed move of the equilibrium shows in place of the sampled comparison.
export function figuresText(f) {
  const played = f.probability >= PLAYED
    ? `played with probability ${probabilityText(f.probability)}`
    : "not played";
  const dealt = f.prior === "read" ? "dealt by the reading" : "dealt uniformly";
  return `Legal. In the endgame's equilibrium: ${played}; its value ${signed(f.value)} `
    + `(player ${f.player}'s hand: ${signed(f.hand)}); exact, the hidden hands ${dealt}.`;
}

// The verdict line of a solved hint: "Solved exactly: <move>." or the mix.
function verdictText(result) {
  if (result.verdict_text) return moveLabel(result.verdict_text); // the server's, as the command prints it
  const played = playedMoves(result);
  if (played.length <= 1) return `Solved exactly: ${moveLabel(result.best)}.`;
  const mix = played.map((m) => `${moveLabel(m)} ${probabilityText(probability(result, m))}`).join(", ");
  return `Solved exactly: a mix of ${played.length} moves, ${mix}.`;
}

// One move: its name, its probability as a bar and a number, its value. Clicking it chooses it
// (onChoose(move, figures)).
function equilibriumRow(result, move, onChoose) {
  const p = probability(result, move);
  const value = result.move_values[move];
  const row = el("div", "hint-row eq-row");
  row.dataset.move = move;
  row.dataset.probability = String(p);
  row.dataset.value = String(value);
  if (p < PLAYED) row.classList.add("unplayed");
  row.append(el("span", "hint-move", moveLabel(move)));
  const bar = el("span", "eq-bar");
  const fill = el("span", "eq-fill");
  fill.style.width = `${(100 * Math.min(1, Math.max(0, p))).toFixed(1)}%`;
  bar.append(fill);
  bar.title = p < PLAYED ? "not played in the equilibrium" : `played with probability ${(100 * p).toFixed(1)}%`;
  const worth = el("span", "hint-num eq-value", signed(value));
  worth.title = "his hand's worth if he plays it and both play the equilibrium afterwards (win +1, draw 0, loss -1)";
  row.append(bar, el("span", "hint-num eq-p", probabilityText(p)), worth);
  if (onChoose) row.addEventListener("click", () => onChoose(move, moveFigures(result, move)));
  return row;
}

// The equilibrium drawn into `container`: `solved` for a hint (its verdict line says so), `all`
// to list every move (All moves' values) rather than the played ones and the first few.
export function drawEquilibrium(container, result, onChoose, { solved = false, all = false } = {}) {
  render(container, () => {
    container.replaceChildren();
    const head = el("div", "hint-head",
      `The endgame solved exactly: its equilibrium from player ${result.player}'s view, `
      + "each move's probability in it and its value, most likely first");
    container.append(head);
    if (solved) {
      const verdict = el("div", "hint-verdict", verdictText(result));
      verdict.dataset.verdict = result.verdict || "solved";
      container.append(verdict);
    }
    const hand = el("div", "eq-hand", `Value of player ${result.player}'s hand: ${signed(result.value)} `
      + "(win +1, draw 0, loss -1), both playing the equilibrium.");
    hand.dataset.value = String(result.value);
    container.append(hand);
    const moves = equilibriumMoves(result);
    const played = playedMoves(result);
    const shown = all || state.hintsExpanded ? moves.length : Math.min(moves.length, Math.max(ROWS, played.length));
    const table = el("div", "hint-table eq-table");
    const columns = el("div", "hint-row eq-row hint-columns");
    for (const [name, text] of [["hint-move", "move"], ["eq-bar", ""], ["hint-num", "probability"], ["hint-num", "value"]]) {
      columns.append(el("span", name, text));
    }
    table.append(columns);
    for (const move of moves.slice(0, shown)) table.append(equilibriumRow(result, move, onChoose));
    container.append(table);
    if (!all && moves.length > Math.max(ROWS, played.length)) {
      const more = button(state.hintsExpanded ? "Show the moves played" : `Show all ${moves.length}`, { action: "hint-all" });
      more.classList.add("hint-more");
      more.addEventListener("click", () => {
        state.hintsExpanded = !state.hintsExpanded;
        drawEquilibrium(container, result, onChoose, { solved, all });
      });
      container.append(more);
    }
    if (played.length > 1) {
      container.append(el("div", "eq-mix",
        `The equilibrium mixes ${played.length} moves: each is worth the hand's value, and playing them `
        + "in these proportions leaves the other player nothing to exploit."));
    }
    const exploit = el("div", "eq-size",
      `Exploitability ${Number(result.exploitability).toFixed(6)} (what a best response to these `
      + "strategies gains: 0 up to the solver's tolerance); "
      + `${many(result.deals, "deal")} of the hidden hands, ${many(result.nodes, "position")}, `
      + `${many(result.infosets, "information set")}; ${result.seconds} s.`);
    exploit.dataset.exploitability = String(result.exploitability);
    exploit.dataset.deals = String(result.deals);
    exploit.dataset.nodes = String(result.nodes);
    container.append(exploit);
    const prior = el("div", "eq-prior", priorText(result));
    prior.dataset.prior = result.prior;
    container.append(prior);
    drawNotes(container, result);
  });
}

// The server's notes on a request (a field with no effect; why a hint with "exact" is the
// sampled one), each on a line of its own, without the field's name in front ("'exact': "), as a
// sentence.
export function drawNotes(container, result) {
  for (const note of result.notes || []) {
    const text = String(note).replace(/^'exact': /, "");
    const line = el("div", "hint-note", moveLabel(text.charAt(0).toUpperCase() + text.slice(1)));
    if (/^'exact'/.test(note)) line.dataset.note = "exact";
    container.append(line);
  }
}
