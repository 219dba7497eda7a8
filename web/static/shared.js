// What every tab of the board shares (docs/web.md): the page's state, the DOM helpers, the
// status and problem lines, redrawing on a labels switch, the searches' Stop buttons, the board.
// Text from positions and records is always set with textContent, never parsed as HTML.

import { api } from "./api.js";
import { drawBoard } from "./board.js";
import { moveLabel, notationLabel, problemLabel } from "./cards.js";

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
  unchecked: null, // why the edited position could not be checked (the server unreachable)
  unopened: null, // why the address's position did not open (the bundled example shown instead)
  recheck: null, // checks the edited position again (set by setup-tab.js)
  chosenCard: null, // the palette's card to place (setup)
  newMeld: false, // the next card placed in a layout starts a new meld (setup)
  running: null, // AbortController of the search in progress (analysis, play, review)
  examples: null, // the bundled positions, records, puzzles and the server's bots
  variants: null, // the presets (player counts, hand size, exchange, stake rule) and the stake rules
  defaults: null, // the variant and player count the server was started with (conquian serve)
  match: null, // the match in progress, null for a single deal (play)
  game: null, // the game in progress (play)
  review: null, // the last review (review)
  tree: null, // the move tree of the record opened or the game entered (review, tree.js)
  cursor: null, // the position selected in the tree: {line, index} (review)
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
  // The server's messages name cards by their French codes: shown in the labels chosen.
  $("#problem").textContent = moveLabel(text || "");
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
  review: "No record reviewed yet: paste, upload or choose one, then Open or Review; or Enter a game you played.",
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
    line.textContent = `invalid position: ${problemLabel(state.invalid)}`;
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
  setNotation(line, notationLabel(cur.notation || ""));
  board.dataset.variant = cur.position.variant || "";
}

// A notation written into the notation line, breakable only at its spaces and after its commas
// (a <wbr> after each comma), never inside a card or a meld's bracket: "KS,KH[AC,2C]" wraps as
// "KS,KH[AC," / "2C]", not "K" / "S,KH".
export function setNotation(line, text) {
  const parts = String(text).split(",");
  const nodes = [];
  parts.forEach((part, i) => {
    nodes.push(document.createTextNode(i < parts.length - 1 ? `${part},` : part));
    if (i < parts.length - 1) nodes.push(document.createElement("wbr"));
  });
  line.replaceChildren(...nodes);
}

// A position for a tab's own board, its data read from the notation by the server.
export async function boardPosition(notation, extra = {}) {
  const shown = await api("notation", { position: notation, labels: "french" });
  return { notation: shown.notation, position: shown.position, description: "", names: [], over: false, winner: null, ...extra };
}

// ------------------------------------------------------------------ searches
export function startSearch() {
  problem(""); // an earlier request's error (a refused solve, a failed hint) is not about this one
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

// An uploaded file's text. Error: it is not UTF-8 (a record, a position and a puzzle are UTF-8
// text), rather than its bytes shown as replacement characters.
export async function readText(file) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    throw new Error(`${file.name} is not UTF-8 text: not a record, a position or a puzzle (JSON text in UTF-8); nothing of it is opened`);
  }
}

// The bundled examples (positions, records, puzzles) and the bots this server plays, asked once.
export async function loadExamples() {
  if (!state.examples) state.examples = await api("examples", { labels: "french" });
  return state.examples;
}

// ------------------------------------------------------------------ variants
// The presets as the library states them (the `variants` request: name, player_counts, players,
// hand_size, exchange, stakes, ...) and the stake rules, asked once: no variant, player count or
// hand size is written into the page.
export async function loadVariants() {
  if (!state.variants) state.variants = await api("variants");
  return state.variants;
}

// One preset's data by name (null for a name the server does not know).
export function variantInfo(name) {
  return state.variants?.variants.find((v) => v.name === name) || null;
}

// The variant and player count `conquian serve --variant V --players N` gave the board, read from
// the page's meta tags (empty when not given): {variant, players, given}.
export function boardDefaults() {
  if (!state.defaults) {
    const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content || "";
    const variant = meta("conquian-variant");
    const players = Number(meta("conquian-players")) || null;
    const known = variantInfo(variant) ? variant : null;
    state.defaults = { variant: known || state.variants?.variants[0]?.name || "classic", players, given: Boolean(known || players) };
  }
  return state.defaults;
}

// The player count a variant starts with on this board: the server's --players for the server's
// variant, else the variant's own.
export function defaultPlayers(name) {
  const info = variantInfo(name);
  const defaults = boardDefaults();
  if (info && name === defaults.variant && defaults.players && info.player_counts.includes(defaults.players)) return defaults.players;
  return info ? info.players : 2;
}

// Fill a <select> with `items` ([value, text] pairs), keeping `value` chosen when it is one of them.
export function fillSelect(select, items, value) {
  select.replaceChildren(...items.map(([v, text]) => {
    const option = el("option", "", text);
    option.value = String(v);
    return option;
  }));
  if (value !== undefined && items.some(([v]) => String(v) === String(value))) select.value = String(value);
}

// A variant <select>: every preset, by name, with its player counts.
export function fillVariantSelect(select, value) {
  const items = state.variants.variants.map((v) => [v.name, `${v.name} (${countsText(v.player_counts)} players)`]);
  fillSelect(select, items, value);
}

// A player-count <select> for the variant named: the counts it allows (R8).
export function fillPlayersSelect(select, variant, value) {
  const info = variantInfo(variant);
  fillSelect(select, (info ? info.player_counts : [2]).map((n) => [n, String(n)]), value ?? defaultPlayers(variant));
}

export function countsText(counts) {
  if (counts.length === 1) return String(counts[0]);
  const runs = counts.every((n, i) => i === 0 || n === counts[i - 1] + 1);
  return runs ? `${counts[0]}–${counts[counts.length - 1]}` : counts.join(", ");
}
