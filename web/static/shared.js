// What every tab of the board shares (docs/web.md): the page's state, the DOM helpers, the
// status and problem lines, redrawing on a labels switch, the searches' Stop buttons, the board.
// Text from positions and records is always set with textContent, never parsed as HTML.

import { api } from "./api.js";
import { drawBoard } from "./board.js";

export const $ = (selector) => document.querySelector(selector);
export const $$ = (selector) => Array.from(document.querySelectorAll(selector));

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function button(text, data = {}) {
  const b = el("button", "", text);
  b.type = "button";
  for (const [key, value] of Object.entries(data)) b.dataset[key] = value;
  return b;
}

// ------------------------------------------------------------------ state
// The page's one state object; each tab keeps its own fields here (the tab named below).
export const state = {
  mode: "analysis", // the tab shown (main.js)
  current: null, // {notation, position, description, names, over, winner}: the board's position
  editing: null, // position data being edited (setup)
  invalid: null, // the problem of the edited position, while it is not valid (setup)
  chosenCard: null, // the palette's card to place (setup)
  layoutTarget: null, // the layout zone a card was last placed in (setup)
  newMeld: false, // the next card placed in a layout starts a new meld (setup)
  running: null, // AbortController of the search in progress (analysis, play, review)
  examples: null, // the bundled positions, records, puzzles and the server's bots
  game: null, // the game in progress (play)
  review: null, // the last review (review)
  puzzle: null, // the puzzle being solved (puzzles)
  hintsExpanded: false, // a hint shows every move, not only the top ones (analysis, play)
  // The board of the tabs that have their own (the game's view, the reviewed ply, the puzzle):
  // {notation, position, description, names, over, winner}, or null before there is one.
  shown: { play: null, review: null, puzzles: null },
};
export const renders = new Map(); // container -> function drawing it again (labels switch)

export function render(container, fn) {
  renders.set(container, fn);
  fn();
}

export function status(text) {
  $("#status").textContent = text || "";
}

export function problem(text) {
  $("#problem").textContent = text || "";
}

export function failed(error) {
  if (error && error.name === "AbortError") {
    status("stopped");
    return;
  }
  problem(error && error.message ? error.message : String(error));
}

// Switching tabs is main.js's setMode (it knows what each tab draws when shown); a tab that
// opens another one (Setup sends a record to Review) switches through here, importing no tab.
let modeSwitch = null;

export function setModeSwitch(fn) {
  modeSwitch = fn;
}

export function switchMode(mode) {
  modeSwitch(mode);
}

// ------------------------------------------------------------------ board
// What a tab with its own board shows before it has a position.
const NONE_YET = {
  play: "No game yet: choose a variant, a bot and a seed, then New game.",
  review: "No record reviewed yet: paste, upload or choose one, then Review.",
  puzzles: "No puzzle open: choose one from the list.",
};

// The position the tab draws: Analysis and Setup the board's position, the other tabs their own.
export function shownPosition(mode = state.mode) {
  return mode in state.shown ? state.shown[mode] : state.current;
}

// The board, its description and its notation line drawn for the tab shown, and nothing that
// belongs to another tab (a preview, another tab's position, an invalid edit's red line).
export function drawCurrent() {
  const board = $("#board");
  const line = $("#notation-line");
  delete line.dataset.invalid;
  if (state.mode === "analysis" && state.invalid && state.editing) {
    // An edit left the position invalid: Analysis shows it (and refuses to analyse it).
    try {
      drawBoard(board, state.editing, {});
    } catch {
      board.replaceChildren();
    }
    $("#description").textContent = "";
    line.textContent = `invalid position: ${state.invalid}`;
    line.dataset.invalid = "true";
    board.dataset.variant = state.editing.variant || "";
    return;
  }
  const cur = shownPosition();
  if (!cur) {
    board.replaceChildren(el("div", "board-empty", NONE_YET[state.mode] || ""));
    $("#description").textContent = "";
    line.textContent = "";
    board.dataset.variant = "";
    return;
  }
  drawBoard(board, cur.position, { names: cur.names || [], over: cur.over, winner: cur.winner });
  $("#description").textContent = cur.description || "";
  line.textContent = cur.notation || "";
  board.dataset.variant = cur.position.variant || "";
}

// A position for a tab's own board, its data read from the notation by the server.
export async function boardPosition(notation, extra = {}) {
  const shown = await api("notation", { position: notation, labels: "french" });
  return { notation: shown.notation, position: shown.position, description: "", names: [], over: false, winner: null, ...extra };
}

// ------------------------------------------------------------------ searches
export function startSearch() {
  state.running?.abort();
  state.running = new AbortController();
  $$('[data-action="stop"]').forEach((b) => { b.disabled = false; });
  return state.running.signal;
}

export function endSearch() {
  state.running = null;
  $$('[data-action="stop"]').forEach((b) => { b.disabled = true; });
}

export function counted(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function pct(x) {
  return `${(100 * x).toFixed(0)}%`;
}

// ------------------------------------------------------------------ files
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// The bundled examples (positions, records, puzzles) and the bots this server plays, asked once.
export async function loadExamples() {
  if (!state.examples) state.examples = await api("examples", { labels: "french" });
  return state.examples;
}
