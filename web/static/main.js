// The analysis board page: setup, analysis, play against bots, review, puzzles (docs/web.md).
// Text from positions and records is always set with textContent, never parsed as HTML.

import { api, stream } from "./api.js";
import { drawBoard, showProblem, zoneOf } from "./board.js";
import { drawSetupControls, emptyPosition } from "./setup.js";
import { DECK, cardElement, frenchCode, label, moveLabel, setLabels } from "./cards.js";

const $ = (selector) => document.querySelector(selector);
const $$ = (selector) => Array.from(document.querySelectorAll(selector));

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text, data = {}) {
  const b = el("button", "", text);
  b.type = "button";
  for (const [key, value] of Object.entries(data)) b.dataset[key] = value;
  return b;
}

// ------------------------------------------------------------------ state
const state = {
  mode: "analysis",
  current: null, // {notation, position, description, names, over, winner}
  editing: null, // position data being edited (setup)
  chosenCard: null,
  layoutTarget: null,
  newMeld: false,
  running: null, // AbortController of the search in progress
  examples: null,
  game: null,
  review: null,
  puzzle: null,
  hintsExpanded: false, // a hint shows every move, not only the top ones
};
const renders = new Map(); // container -> function drawing it again (labels switch)

function render(container, fn) {
  renders.set(container, fn);
  fn();
}

function status(text) {
  $("#status").textContent = text || "";
}

function problem(text) {
  $("#problem").textContent = text || "";
}

function failed(error) {
  if (error && error.name === "AbortError") {
    status("stopped");
    return;
  }
  problem(error && error.message ? error.message : String(error));
}

// ------------------------------------------------------------------ board
function drawCurrent() {
  const cur = state.current;
  if (!cur) return;
  drawBoard($("#board"), cur.position, { names: cur.names || [], over: cur.over, winner: cur.winner });
  $("#description").textContent = cur.description || "";
  $("#notation-line").textContent = cur.notation || "";
  $("#board").dataset.variant = cur.position.variant || "";
}

async function openPosition(input, { description = "", names = [], keepUrl = false } = {}) {
  problem("");
  const result = await api("notation", { position: input, labels: "french" });
  const analysis = await api("analyze", { position: result.notation, labels: "french" });
  state.current = {
    notation: result.notation,
    position: result.position,
    description,
    names,
    over: analysis.phase === "over",
    winner: null,
  };
  state.editing = null;
  state.invalid = null;
  $("#edit-status").textContent = ""; // a message about an earlier text no longer applies
  render($("#board"), drawCurrent);
  if (!keepUrl) {
    const url = new URL(window.location.href);
    url.searchParams.set("position", result.notation);
    window.history.replaceState(null, "", url);
  }
  $("#analysis-output").replaceChildren();
  $("#why-output").replaceChildren();
  if (state.mode === "analysis") await loadMoves();
  return state.current;
}

// ------------------------------------------------------------------ moves
function meldsText(layout) {
  return layout.map((meld) => `[${meld.map((c) => label(frenchCode(c))).join(" ")}]`).join(" ");
}

// The legal moves grouped as the board offers them: takes by arrangement then pay card.
function drawMoves(container, entries, onChoose) {
  render(container, () => {
    container.replaceChildren();
    const groups = new Map();
    for (const entry of entries) {
      let key = entry.kind;
      if (entry.kind === "take" || entry.kind === "lay") key = `${entry.kind} ${JSON.stringify(entry.layout)}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(entry);
    }
    for (const [key, list] of groups) {
      const row = el("div", "move-group");
      const first = list[0];
      if (first.kind === "take" || first.kind === "lay") {
        row.append(el("span", "move-kind", `${first.kind} ${meldsText(first.layout)}`));
        for (const entry of list) {
          const text = entry.pay === null ? "go out" : `pay ${label(frenchCode(entry.pay))}`;
          const b = button(text, { move: entry.text });
          b.title = moveLabel(entry.text);
          b.addEventListener("click", () => onChoose(entry));
          row.append(b);
        }
      } else {
        row.append(el("span", "move-kind", key));
        for (const entry of list) {
          const b = button(moveLabel(entry.text), { move: entry.text });
          b.addEventListener("click", () => onChoose(entry));
          row.append(b);
        }
      }
      container.append(row);
    }
    if (!entries.length) container.append(el("div", "none", "no legal move: the deal is over"));
  });
}

function boardInvalid() {
  // An edit left the board invalid: the analysis would answer for the last valid position.
  if (!state.invalid) return false;
  $("#analysis-moves").replaceChildren();
  problem(`The position on the board is not valid (${state.invalid}): fix it in Setup first.`);
  return true;
}

async function loadMoves() {
  if (!state.current || boardInvalid()) return;
  const result = await api("moves", { position: state.current.notation, labels: "french" });
  state.current.over = result.over;
  drawMoves($("#analysis-moves"), result.moves, (entry) => previewMove(entry));
}

async function previewMove(entry) {
  const out = $("#why-output");
  out.replaceChildren(el("div", "", `After ${moveLabel(entry.text)}:`));
  if (entry.after) {
    const shown = await api("notation", { position: entry.after, labels: "french" });
    drawBoard($("#board"), shown.position, {});
    $("#notation-line").textContent = `after ${entry.text}: ${shown.notation}`;
    const back = button("Back to the position", { action: "back" });
    back.addEventListener("click", () => drawCurrent());
    out.append(back);
  }
  if (entry.kind === "turn") return;
  try {
    const why = await api("why", { position: state.current.notation, move: entry.text, samples: 8, labels: "french" });
    const c = why.comparison;
    if (c) {
      out.append(
        el("div", "why-line", `Legal. Rank ${c.rank} of ${c.of}: wins ${(100 * c.win).toFixed(0)}% ` +
          `(best ${moveLabel(c.best)}: ${(100 * c.best_win).toFixed(0)}%) over ${c.samples} sampled deals.`),
      );
    } else {
      out.append(el("div", "why-line", why.legal ? "Legal." : "Illegal."));
    }
    for (const fact of why.facts || []) out.append(el("div", "why-line", moveLabel(fact)));
  } catch (error) {
    out.append(el("div", "why-line", error.message));
  }
}

// ------------------------------------------------------------------ analysis
function startSearch() {
  state.running?.abort();
  state.running = new AbortController();
  $$('[data-action="stop"]').forEach((b) => { b.disabled = false; });
  return state.running.signal;
}

function endSearch() {
  state.running = null;
  $$('[data-action="stop"]').forEach((b) => { b.disabled = true; });
}

function counted(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function pct(x) {
  return `${(100 * x).toFixed(0)}%`;
}

function drawHints(container, result, onChoose) {
  render(container, () => {
    container.replaceChildren();
    const head = result.evaluation === "static"
      ? "Static evaluation (one move deep), best first"
      : `${result.engine === "v3" ? counted(result.samples, "IS-MCTS iteration") : counted(result.samples, "sampled deal")}, engine ${result.method ? `${result.method} (${result.engine})` : result.engine}, ${result.seconds} s; best first`;
    container.append(el("div", "hint-head", head));
    if (result.verdict && result.moves.length) {
      // The server's sentence, the one `conquian hint` prints (cards in the labels shown).
      const verdict = el("div", "hint-verdict", moveLabel(result.verdict_text || ""));
      verdict.dataset.verdict = result.verdict;
      container.append(verdict);
    }
    // The top moves, one compact row each (win, draw, vs best); "show all N" for the rest, and
    // each move's reasons on request: a 45-move position stays about one screen tall.
    const shown = state.hintsExpanded ? result.moves.length : Math.min(HINT_ROWS, result.moves.length);
    const table = el("div", "hint-table");
    if (result.moves.length && result.moves[0].win !== undefined) {
      const head = el("div", "hint-row hint-columns");
      for (const [name, text] of [["hint-move", "move"], ["bar", ""], ["hint-num", "win"], ["hint-num", "draw"], ["hint-vs", "vs best"], ["hint-why", ""]]) {
        head.append(el("span", name, text));
      }
      table.append(head);
    }
    for (const [rank, m] of result.moves.slice(0, shown).entries()) {
      table.append(hintRow(rank, m, onChoose));
    }
    container.append(table);
    if (result.moves.length > HINT_ROWS) {
      const more = button(state.hintsExpanded ? `show the top ${HINT_ROWS}` : `show all ${result.moves.length}`, { action: "hint-all" });
      more.classList.add("hint-more");
      more.addEventListener("click", () => {
        state.hintsExpanded = !state.hintsExpanded;
        drawHints(container, result, onChoose);
      });
      container.append(more);
    }
  });
}

const HINT_ROWS = 5;

// One move of a hint: its name, a win/draw bar, win, draw and the difference from the best with
// its 95% interval, and its reasons behind a "why" toggle. Clicking the row plays the move.
function hintRow(rank, m, onChoose) {
  const row = el("div", "hint-row");
  row.dataset.move = m.move;
  row.append(el("span", "hint-move", moveLabel(m.move)));
  if (m.win !== undefined) {
    const bar = el("span", "bar");
    const win = el("span", "bar-win");
    win.style.width = pct(m.win);
    const draw = el("span", "bar-draw");
    draw.style.width = pct(m.draw);
    bar.append(win, draw);
    bar.title = m.sure ? "a sure win (R15)" : m.ci95 ? `win chance, 95% interval ${pct(m.ci95[0])}–${pct(m.ci95[1])}` : "";
    row.append(bar, el("span", "hint-num", pct(m.win)), el("span", "hint-num", pct(m.draw)));
    const vs = rank === 0 ? "best" : m.diff_ci95
      ? `${(-m.diff).toFixed(2)} ±${((m.diff_ci95[1] - m.diff_ci95[0]) / 2).toFixed(2)}`
      : "";
    const cell = el("span", "hint-vs", vs);
    if (rank > 0 && m.diff_ci95) cell.title = `expected result vs the best: ${(-m.diff_ci95[1]).toFixed(2)} to ${(-m.diff_ci95[0]).toFixed(2)} (95%)`;
    row.append(cell);
  } else {
    row.append(el("span", "hint-num", `${m.score}`));
  }
  const reasons = (m.reasons || []).map(moveLabel).join("; ");
  if (reasons) {
    const details = el("details", "hint-why");
    details.append(el("summary", "", "why"), el("div", "reasons", reasons));
    details.addEventListener("click", (event) => event.stopPropagation());
    row.append(details);
  }
  if (onChoose) row.addEventListener("click", () => onChoose(m.move));
  return row;
}

async function runHint(position, container, progressBar, onChoose) {
  if (container.id === "analysis-output" && boardInvalid()) return;
  const signal = startSearch();
  container.dataset.state = "running";
  container.replaceChildren(el("div", "hint-head", "sampling…"));
  try {
    const quick = await api("hint", { position, static: true, labels: "french" });
    drawHints(container, quick, onChoose);
    container.prepend(el("div", "hint-head", "sampling… (static ranking meanwhile)"));
    progressBar.hidden = false;
    progressBar.value = 0;
    const result = await stream(
      "hint",
      { position, labels: "french" },
      (p) => { progressBar.max = p.planned || 1; progressBar.value = p.done; },
      {
        signal,
        onEarly: (early) => {
          drawHints(container, early, onChoose);
          container.dataset.state = "early";
          container.prepend(el("div", "hint-head", "sampling… (an early estimate meanwhile)"));
        },
      },
    );
    drawHints(container, result, onChoose);
    container.dataset.state = "done";
    status("hint done");
    // On a phone the answer is below the board: bring its verdict into view.
    if (window.matchMedia("(max-width: 600px)").matches) container.scrollIntoView({ block: "start", behavior: "smooth" });
  } catch (error) {
    container.dataset.state = "failed";
    failed(error);
  } finally {
    progressBar.hidden = true;
    endSearch();
  }
}

async function analyzeCurrent() {
  if (boardInvalid()) return;
  const result = await api("analyze", { position: state.current.notation, labels: "french" });
  const out = $("#analysis-output");
  render(out, () => {
    out.replaceChildren(el("div", "hint-head", `phase ${result.phase}, player ${result.to_act} to act`));
    result.players.forEach((p, i) => {
      const outs = p.outs === null ? "hidden hand" : p.outs.map((c) => label(frenchCode(c))).join(" ") || "none";
      const forceable = p.forceable.map((c) => label(frenchCode(c))).join(" ") || "none";
      out.append(el("div", "analysis-row", `Player ${i}: ${p.melded} melded, ${p.hand_count} in hand; outs (R15): ${outs}; forceable (R14): ${forceable}`));
    });
  });
}

async function solveCurrent() {
  if (boardInvalid()) return;
  const signal = startSearch();
  const out = $("#analysis-output");
  out.replaceChildren(el("div", "hint-head", "solving every move…"));
  try {
    const result = await api("solve", { position: state.current.notation, all_moves: true, time_limit: 10, labels: "french" }, { signal });
    render(out, () => {
      out.replaceChildren(el("div", "hint-head", `every move's value (${result.mode}), best first`));
      for (const m of result.moves) {
        const row = el("div", "hint-row");
        row.dataset.move = m.move;
        const value = m.values[result.to_act];
        row.append(el("span", "hint-move", moveLabel(m.move)));
        row.append(el("span", "hint-figures", `${value >= 0 ? "+" : ""}${value.toFixed(3)}${m.proven ? " proven" : ""}`));
        out.append(row);
      }
    });
  } catch (error) {
    failed(error);
  } finally {
    endSearch();
  }
}

// ------------------------------------------------------------------ setup
function readInput(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    const data = JSON.parse(trimmed);
    if (data && data.type === "puzzle") return { input: data.position, description: String(data.description || data.title || "") };
    const inner = data && data.position && typeof data.position === "object" ? data.position : data;
    return { input: data, description: String(data.description ?? inner.description ?? "") };
  }
  return { input: trimmed, description: "" };
}

async function openText(text) {
  const first = text.trim().split("\n")[0] || "";
  if (first.includes('"conquian-record"')) {
    $("#review-text").value = text;
    setMode("review");
    status("a game record: opened in Review");
    return;
  }
  let parsed;
  try {
    parsed = readInput(text);
  } catch (error) {
    problem(`not JSON: ${error.message}`);
    return;
  }
  try {
    await openPosition(parsed.input, { description: parsed.description });
  } catch (error) {
    // Shown on the board where the data can be drawn, the message by its zone.
    if (parsed.input && typeof parsed.input === "object") {
      const data = parsed.input.position && typeof parsed.input.position === "object" ? parsed.input.position : parsed.input;
      state.editing = structuredClone(data);
      $("#description").textContent = parsed.description;
      drawEditing(error.message);
    } else {
      failed(error);
    }
  }
}

function drawEditing(message) {
  const position = state.editing;
  try {
    drawBoard($("#board"), position, {});
  } catch {
    $("#board").replaceChildren();
  }
  $("#edit-status").textContent = message ? `Not valid: ${message}` : "Valid position.";
  $("#edit-status").dataset.valid = message ? "false" : "true";
  const onControl = drawSetupControls($("#setup-controls"), position, (fn) => editPosition(fn).catch(failed), message);
  showProblem($("#board"), zoneOf(message), onControl ? "" : message, $("#problem"));
  const line = $("#notation-line");
  if (message) {
    line.textContent = `invalid position: ${message}`;
    line.dataset.invalid = "true";
  } else {
    delete line.dataset.invalid;
  }
}

// Change the position being edited with `fn` (which may return a new one) and check it.
async function editPosition(fn) {
  if (!state.editing) state.editing = structuredClone(state.current.position);
  try {
    const replaced = fn(state.editing);
    if (replaced) state.editing = replaced;
  } catch (error) {
    state.invalid = error.message;
    drawEditing(error.message);
    return;
  }
  await validateEditing();
}

function drawPalette() {
  const palette = $("#palette");
  render(palette, () => {
    palette.replaceChildren();
    for (const code of DECK) {
      const card = cardElement(code);
      if (state.chosenCard === code) card.classList.add("chosen");
      card.addEventListener("click", () => {
        state.chosenCard = state.chosenCard === code ? null : code;
        drawPalette();
        status(state.chosenCard ? `${label(code)} chosen: click a zone on the board` : "");
      });
      palette.append(card);
    }
  });
}

function removeCard(position, code) {
  const same = (c) => frenchCode(c) === code;
  for (const player of position.players) {
    if (Array.isArray(player.hand)) player.hand = player.hand.filter((c) => !same(c));
    player.layout = (player.layout || []).map((m) => m.filter((c) => !same(c))).filter((m) => m.length);
  }
  if (Array.isArray(position.stock)) position.stock = position.stock.filter((c) => !same(c));
  position.dead = (position.dead || []).filter((c) => !same(c));
  if (position.centre && same(position.centre.card)) position.centre = null;
}

async function placeCard(zoneName) {
  if (!state.chosenCard) {
    status("click a card of the palette first");
    return;
  }
  if (!state.editing) state.editing = structuredClone(state.current.position);
  const position = state.editing;
  const code = state.chosenCard;
  const [kind, seat] = zoneName.split("-");
  const player = seat === undefined ? null : position.players[Number(seat)];
  if (player && kind === "hand" && !Array.isArray(player.hand)) {
    status(`player ${seat}'s hand is hidden: give his cards first`);
    return;
  }
  if (kind === "stock" && !Array.isArray(position.stock)) {
    status("the stock order is hidden: its cards cannot be placed");
    return;
  }
  removeCard(position, code);
  if (kind === "hand") player.hand.push(code);
  else if (kind === "layout") {
    if (!player.layout.length || (state.newMeld && state.layoutTarget === zoneName)) player.layout.push([]);
    player.layout[player.layout.length - 1].push(code);
    state.newMeld = false;
  } else if (kind === "stock") position.stock.push(code);
  else if (kind === "dead") position.dead.push(code);
  else if (kind === "centre") position.centre = { card: code, kind: "turned", source: position.to_act, declined: [] };
  state.layoutTarget = zoneName;
  await validateEditing();
}

async function validateEditing() {
  const position = state.editing;
  try {
    const result = await api("notation", { position, labels: "french" });
    state.current = { ...state.current, notation: result.notation, position: result.position, over: false };
    state.editing = structuredClone(result.position);
    state.invalid = null;
    drawCurrent();
    drawEditing("");
    problem("");
    const url = new URL(window.location.href); // the address bar follows the position shown
    url.searchParams.set("position", result.notation);
    window.history.replaceState(null, "", url);
  } catch (error) {
    state.invalid = error.message;
    $("#analysis-moves").replaceChildren();
    $("#analysis-output").replaceChildren();
    drawEditing(error.message);
  }
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function loadExamples() {
  if (!state.examples) state.examples = await api("examples", { labels: "french" });
  const select = $("#setup-examples");
  select.replaceChildren();
  for (const p of state.examples.positions) {
    const option = el("option", "", `${p.name}${p.valid ? "" : " (invalid, on purpose)"}`);
    option.value = p.name;
    select.append(option);
  }
  const records = $("#review-examples");
  records.replaceChildren();
  for (const r of state.examples.records) {
    const option = el("option", "", r.name);
    option.value = r.name;
    records.append(option);
  }
  // Only the bots that can play on this server (ismcts needs the openspiel extra).
  if (state.examples.bots) {
    const bots = $("#play-bot");
    bots.replaceChildren(...state.examples.bots.map((name) => {
      const option = el("option", "", name);
      option.value = name;
      return option;
    }));
  }
  drawPuzzleList();
}

async function openExample(name) {
  const example = state.examples.positions.find((p) => p.name === name);
  if (!example) return;
  if (example.valid) await openPosition(example.notation, { description: example.description });
  else await openText(JSON.stringify(example.data));
}

// ------------------------------------------------------------------ play
function gameNames(game) {
  return game.players.map((name, p) => (p === game.seat ? "you" : name));
}

function drawGame(result) {
  const game = state.game;
  state.current = {  // your view; once the deal is over, every hand and the stock shown
    notation: result.over ? result.notation : result.view,
    position: result.over ? result.position : result.view_position,
    description: "",
    names: gameNames(game),
    over: result.over,
    winner: result.winner,
  };
  render($("#board"), drawCurrent);
  game.log.push(...result.played);
  drawPlayLog();
  const moves = $("#play-moves");
  game.step = (game.step || 0) + 1;
  moves.dataset.step = String(game.step);
  if (result.over) {
    const text = result.winner === null ? "The deal is a draw (R18)." : result.winner === game.seat ? "You won!" : `Player ${result.winner} won.`;
    moves.replaceChildren(el("div", "game-over", text));
    moves.dataset.over = "true";
    status(text);
    return;
  }
  moves.dataset.over = "false";
  drawMoves(moves, result.moves || [], (entry) => playMove(entry.text));
}

// The game's log, drawn again when the labels switch (each line keeps its move's text, shown
// in the labels of the moment).
function drawPlayLog() {
  const log = $("#play-log");
  render(log, () => {
    const game = state.game;
    log.replaceChildren(...(game ? game.log : []).map((p) => {
      const who = p.player === null ? "stock" : p.player === game.seat ? "you" : `player ${p.player}`;
      const line = el("div", "log-line", `${who}: ${moveLabel(p.shown)}`);
      line.dataset.player = p.player === null ? "" : String(p.player);
      return line;
    }));
    log.scrollTop = log.scrollHeight;
  });
}

// The Play tab's buttons that need a game in progress.
function playControls(enabled) {
  for (const action of ["play-hint", "take-back", "save-record"]) {
    const b = $(`[data-panel="play"] [data-action="${action}"]`);
    if (b) b.disabled = !enabled;
  }
}

async function playStep(move) {
  const game = state.game;
  const request = { position: game.full, seat: game.seat, bots: game.bot, seed: game.seed, labels: "french" };
  if (move) request.move = move;
  $("#play-moves").dataset.busy = "true";
  try {
    const result = await api("play", request);
    game.full = result.notation;
    game.history.push(...result.played.map((p) => p.move));
    game.last = result;
    drawGame(result);
  } finally {
    $("#play-moves").dataset.busy = "false";
  }
}

async function playMove(text) {
  if ($("#play-moves").dataset.busy === "true") return; // a double click sends one move
  const game = state.game;
  game.snapshots.push({ full: game.full, length: game.history.length, log: game.log.length });
  $("#play-hint").replaceChildren();
  await playStep(text).catch(failed);
}

async function newGame() {
  const variant = $("#play-variant").value;
  const seed = Number($("#play-seed").value) || 0;
  const bot = $("#play-bot").value;
  $("#play-hint").replaceChildren();
  try {
    const dealt = await api("deal", { variant, seed, seat: 0, labels: "french" });
    const players = dealt.position.players.map((_, p) => (p === 0 ? "human" : bot));
    state.game = { start: dealt.notation, full: dealt.notation, seat: 0, bot, seed, players, history: [], snapshots: [], log: [] };
    drawPlayLog();
    await playStep(null);
    playControls(true);
  } catch (error) {
    // No game: nothing of a half-started one stays on the tab.
    state.game = null;
    drawPlayLog();
    $("#play-moves").replaceChildren(el("div", "problem", `No game started: ${error.message}`));
    playControls(false);
    throw error;
  }
}

async function takeBack() {
  const game = state.game;
  if (!game || !game.snapshots.length) {
    status("nothing to take back");
    return;
  }
  const snap = game.snapshots.pop();
  game.full = snap.full;
  game.history.length = snap.length;
  game.log.length = snap.log;
  drawPlayLog();
  $("#play-moves").dataset.busy = "true";
  try {
    const result = await api("play", { position: game.full, seat: game.seat, bots: game.bot, seed: game.seed, labels: "french" });
    game.last = result;
    drawGame({ ...result, played: [] });
  } finally {
    $("#play-moves").dataset.busy = "false";
  }
}

async function gameRecord() {
  const game = state.game;
  const result = await api("record", { position: game.start, moves: game.history, players: game.players, seed: game.seed });
  return result.record;
}

// ------------------------------------------------------------------ review
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??", best: "", good: "" };

// The review chart: each player's win chance after his decisions (0-100%) against the ply, with
// labelled axes, a legend, and marks at mistakes and blunders; a record of one decision is a dot.
function drawChart(container, review) {
  render(container, () => {
    container.replaceChildren();
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    const [width, height] = [360, 170];
    const [left, right, top, bottom] = [40, 12, 10, 32];
    const plotW = width - left - right;
    const plotH = height - top - bottom;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("class", "chart-svg");
    svg.setAttribute("role", "img");
    const moves = review.moves;
    const first = Math.min(...review.plies.map((p) => p.ply), 1);
    const last = Math.max(first + 1, ...review.plies.map((p) => p.ply));
    const x = (ply) => left + ((ply - first) / (last - first)) * plotW;
    const y = (win) => top + (1 - win) * plotH;
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    // Axes: win chance 0, 50, 100% on the left; plies along the bottom.
    for (const win of [0, 0.5, 1]) {
      add("line", { x1: left, x2: width - right, y1: y(win), y2: y(win), class: win === 0.5 ? "grid mid" : "grid" });
      add("text", { x: left - 4, y: y(win) + 4, "text-anchor": "end", class: "axis" }, `${win * 100}%`);
    }
    for (const ply of [...new Set([first, Math.round((first + last) / 2), last])]) {
      add("text", { x: x(ply), y: height - bottom + 14, "text-anchor": "middle", class: "axis" }, String(ply));
    }
    add("text", { x: left + plotW / 2, y: height - 3, "text-anchor": "middle", class: "axis-title" }, "ply");
    add("text", { x: 10, y: top + plotH / 2, "text-anchor": "middle", class: "axis-title", transform: `rotate(-90 10 ${top + plotH / 2})` }, "win chance");
    const colours = ["#2b6cb0", "#c05621", "#2f855a", "#805ad5"];
    const players = [...new Set(moves.map((m) => m.player))].sort();
    for (const player of players) {
      const mine = moves.filter((m) => m.player === player);
      const colour = colours[player % colours.length];
      if (mine.length > 1) {
        add("polyline", {
          points: mine.map((m) => `${x(m.ply)},${y(m.win_played)}`).join(" "),
          fill: "none", stroke: colour, "stroke-width": 2,
        });
      }
      for (const m of mine) {
        const marked = m.label === "blunder" || m.label === "mistake";
        const dot = add("circle", { cx: x(m.ply), cy: y(m.win_played), r: marked ? 5 : 3, fill: colour });
        if (marked) dot.setAttribute("class", `dot-${m.label}`);
        dot.append(Object.assign(document.createElementNS(ns, "title"), { textContent: `ply ${m.ply}, player ${m.player}: ${pct(m.win_played)}${marked ? `, ${m.label}` : ""}` }));
      }
    }
    const legend = el("div", "chart-legend");
    for (const player of review.summary.map((s) => s.player)) {
      const none = players.includes(player) ? "" : " (no decision to review)";
      const key = el("span", "legend-key", `■ player ${player}${none}`);
      key.style.color = colours[player % colours.length];
      legend.append(key);
    }
    legend.append(el("span", "legend-key", "● large: mistake or blunder"));
    container.append(el("div", "hint-head", "Each player's win chance after his decisions, by ply"), svg, legend);
  });
}

function drawReview(review) {
  const summary = $("#review-summary");
  render(summary, () => {
    summary.replaceChildren();
    for (const s of review.summary) {
      const name = review.players && review.players[s.player] ? ` (${review.players[s.player]})` : "";
      summary.append(el("div", "summary-row",
        `Player ${s.player}${name}: accuracy ${s.accuracy === null ? "none (no decision of his to review: every move forced)" : s.accuracy}; ` +
        `${counted(s.blunder, "blunder")}, ${counted(s.mistake, "mistake")}, ` +
        `${counted(s.inaccuracy, "inaccuracy", "inaccuracies")}`));
    }
  });
  drawChart($("#review-chart"), review);
  const list = $("#review-moves");
  const byPly = new Map(review.moves.map((m) => [m.ply, m]));
  render(list, () => {
    list.replaceChildren();
    for (const p of review.plies) {
      const marked = byPly.get(p.ply);
      const row = el("div", "review-row");
      row.dataset.ply = String(p.ply);
      const who = p.player === null ? "stock" : `P${p.player}`;
      row.append(el("span", "ply", `${p.ply}. ${who}`), el("span", "review-move", moveLabel(p.move)));
      if (marked) {
        row.dataset.label = marked.label;
        row.append(el("span", `mark mark-${marked.label}`, `${MARKS[marked.label]} ${marked.label}`));
      }
      row.addEventListener("click", () => showPly(p, marked));
      list.append(row);
    }
  });
}

async function showPly(ply, marked) {
  $$(".review-row.selected").forEach((r) => r.classList.remove("selected"));
  $(`.review-row[data-ply="${ply.ply}"]`)?.classList.add("selected");
  const shown = await api("notation", { position: ply.before, labels: "french" });
  state.current = { notation: ply.before, position: shown.position, description: "", names: state.review?.players || [], over: false };
  render($("#board"), drawCurrent);
  let text = `Before ply ${ply.ply}: played ${moveLabel(ply.move)}`;
  if (marked) text += `; best ${moveLabel(marked.best)} (win ${pct(marked.win_best)} against ${pct(marked.win_played)}): ${marked.label}`;
  status(text);
}

async function runReview() {
  const text = $("#review-text").value;
  if (!text.trim()) {
    problem("paste a record, upload one, or use a bundled one");
    return;
  }
  const signal = startSearch();
  const bar = $("#review-progress");
  bar.hidden = false;
  bar.value = 0;
  problem("");
  try {
    // No samples given: each decision samples until its verdict is settled, as `conquian review`
    // does by default, so that the board and the command give the same marks.
    const samples = Number($("#review-samples").value) || 0;
    const request = { record: text, labels: "french" };
    if (samples > 0) request.samples = samples;
    const review = await stream(
      "review",
      request,
      (p) => { bar.max = p.planned || 1; bar.value = p.done; },
      { signal },
    );
    state.review = review;
    drawReview(review);
    status("review done");
  } catch (error) {
    failed(error);
  } finally {
    bar.hidden = true;
    endSearch();
  }
}

// ------------------------------------------------------------------ puzzles
function drawPuzzleList() {
  const list = $("#puzzle-list");
  render(list, () => {
    list.replaceChildren();
    for (const p of state.examples.puzzles) {
      const b = button(`${p.name}: ${p.title}`, { puzzle: p.name });
      b.addEventListener("click", () => openPuzzle(p.name).catch(failed));
      list.append(b);
    }
  });
}

async function openPuzzle(name) {
  const result = await api("puzzle", { name, labels: "french" });
  const player = result.question.player ?? result.to_act;
  state.puzzle = { ...result, player, played: 0, position: result.notation, log: [] };
  await openPosition(result.notation, { description: result.description, keepUrl: true });
  $("#puzzle-prompt").textContent = `${result.title}. ${result.prompt}`;
  const out = $("#puzzle-result");
  out.textContent = "";
  delete out.dataset.correct;
  delete out.dataset.solved;
  $("#puzzle-answer").replaceChildren();
  drawPuzzleLog();
  drawMoves($("#puzzle-moves"), result.moves, (entry) => puzzleMove(entry).catch(failed));
}

// The puzzle's moves so far, drawn again when the labels switch.
function drawPuzzleLog() {
  const log = $("#puzzle-log");
  render(log, () => {
    log.replaceChildren(...(state.puzzle?.log || []).map(([who, move, note]) => (
      el("div", "log-line", `${who}: ${moveLabel(move)}${note ? ` (${note})` : ""}`)
    )));
  });
}

// One move of the puzzle checked: the first against the stored answer, the next ones by solving
// the position (every card is known); a good move is played and the defence answers with its
// best move, until the puzzle's player has to choose again or the deal ends.
async function puzzleMove(entry) {
  const pz = state.puzzle;
  let correct;
  let reason;
  if (!pz.played) {
    const checked = await api("puzzle", { name: pz.name, move: entry.text, labels: "french" });
    ({ correct, reason } = checked.check);
  } else {
    const solved = await api("solve", { position: pz.position, all_moves: true, labels: "french" });
    const best = solved.moves[0];
    const mine = solved.moves.find((m) => m.move === entry.text);
    correct = Boolean(mine && mine.proven && mine.values[pz.player] >= best.values[pz.player] - 1e-9);
    reason = correct ? "it keeps the best result (solved)" : `${moveLabel(best.move)} does better`;
  }
  const out = $("#puzzle-result");
  out.textContent = `${moveLabel(entry.text)}: ${correct ? "correct" : "not the answer"} (${reason})`;
  out.dataset.correct = String(correct);
  if (!correct || pz.kind === "best_pay") return;
  pz.played += 1;
  pz.log.push(["you", entry.text, ""]);
  drawPuzzleLog();
  let now = await api("play", { position: pz.position, move: entry.text, labels: "french" });
  for (let guard = 0; guard < 100 && !now.over; guard += 1) {
    let reply;
    let who;
    if (now.phase === "turn") {
      reply = (await api("moves", { position: now.notation, labels: "french" })).moves[0].text;
      who = "stock";
    } else if (now.to_act !== pz.player) {
      reply = (await api("solve", { position: now.notation, all_moves: true, labels: "french" })).moves[0].move;
      who = `player ${now.to_act}`;
    } else {
      const mine = (await api("moves", { position: now.notation, labels: "french" })).moves;
      if (mine.length !== 1 || mine[0].text !== "pass") break; // his choice
      reply = "pass"; // his only move (R12): played for him, as in `conquian play`
      who = "you";
    }
    pz.log.push([who, reply, who === "you" ? "your only move" : ""]);
    drawPuzzleLog();
    now = await api("play", { position: now.notation, move: reply, labels: "french" });
  }
  pz.position = now.notation;
  await openPosition(now.notation, { description: pz.description, keepUrl: true });
  if (now.over) {
    const won = now.winner === pz.player;
    out.textContent = won ? `Solved: player ${pz.player} wins.` : `The deal ended: ${now.winner === null ? "a draw" : `player ${now.winner} won`}.`;
    out.dataset.solved = String(won);
    $("#puzzle-moves").replaceChildren();
    return;
  }
  const next = await api("moves", { position: now.notation, labels: "french" });
  drawMoves($("#puzzle-moves"), next.moves, (e) => puzzleMove(e).catch(failed));
}

async function revealPuzzle() {
  if (!state.puzzle) return;
  const result = await api("puzzle", { name: state.puzzle.name, reveal: true, labels: "french" });
  const out = $("#puzzle-answer");
  out.replaceChildren();
  const answer = result.answer || {};
  for (const m of answer.moves || []) out.append(el("div", "answer", moveLabel(m)));
  for (const c of answer.pays || []) out.append(el("div", "answer", `pay ${label(frenchCode(c))}`));
}

// ------------------------------------------------------------------ modes
function setMode(mode) {
  state.mode = mode;
  for (const b of $$("nav [data-mode]")) b.classList.toggle("active", b.dataset.mode === mode);
  for (const panel of $$(".panel")) panel.hidden = panel.dataset.panel !== mode;
  document.body.dataset.mode = mode;
  problem("");
  if (mode === "setup") {
    drawPalette();
    if (state.current && !state.invalid) state.editing = structuredClone(state.current.position);
    drawEditing(state.invalid || "");
  }
  if (mode === "analysis" && state.current && !state.game) loadMoves().catch(failed);
  if (mode === "analysis" && state.game && state.current) loadMoves().catch(failed);
}

function wire() {
  for (const b of $$("nav [data-mode]")) b.addEventListener("click", () => setMode(b.dataset.mode));
  const on = (action, fn) => {
    for (const b of $$(`[data-action="${action}"]`)) {
      b.addEventListener("click", () => Promise.resolve().then(fn).catch(failed));
    }
  };
  on("hint", () => runHint(state.current.notation, $("#analysis-output"), $("#hint-progress"),
    (move) => previewMove({ text: move, kind: "", after: null })));
  on("static-hint", async () => {
    const result = await api("hint", { position: state.current.notation, static: true, labels: "french" });
    drawHints($("#analysis-output"), result);
  });
  on("analyze", analyzeCurrent);
  on("solve", solveCurrent);
  on("stop", () => state.running?.abort());
  on("open-text", () => openText($("#setup-text").value));
  on("open-example", () => openExample($("#setup-examples").value));
  on("deal", async () => {
    const result = await api("deal", {
      variant: $("#deal-variant").value,
      seed: Number($("#deal-seed").value) || 0,
      after: Number($("#deal-after").value) || 0,
      labels: "french",
    });
    await openPosition(result.notation);
  });
  on("new-meld", () => {
    state.newMeld = true;
    status("the next card placed in a layout starts a new meld");
  });
  on("copy-notation", async () => {
    const text = state.current?.notation || "";
    $("#setup-text").value = text;
    try {
      await navigator.clipboard.writeText(text);
      status("notation copied");
    } catch {
      status("notation put in the text box above");
    }
  });
  on("download-json", () => download("position.json", `${JSON.stringify(state.current.position, null, 1)}\n`, "application/json"));
  on("new-game", newGame);
  on("play-hint", () => runHint(state.game.last.view, $("#play-hint"), $("#hint-progress"), null));
  on("take-back", takeBack);
  on("save-record", async () => download("game.jsonl", await gameRecord(), "application/x-ndjson"));
  on("review-game", async () => {
    $("#review-text").value = await gameRecord();
    setMode("review");
    await runReview();
  });
  on("load-record", () => {
    const r = state.examples.records.find((x) => x.name === $("#review-examples").value);
    if (r) $("#review-text").value = r.text;
  });
  on("review", runReview);
  on("reveal", revealPuzzle);

  $("#setup-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) await openText(await file.text()).catch(failed);
  });
  $("#review-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) $("#review-text").value = await file.text();
  });
  $("#labels").addEventListener("change", (event) => {
    setLabels(event.target.value);
    for (const fn of renders.values()) fn();
    if (state.editing && state.mode === "setup") drawEditing($("#edit-status").dataset.valid === "false" ? $("#problem").textContent : "");
  });
  on("clear-board", () => {
    $("#description").textContent = ""; // the notes were about the position cleared
    return editPosition((p) => emptyPosition(p.variant || "classic"));
  });
  $("#board").addEventListener("click", (event) => {
    if (state.mode !== "setup") return;
    const zone = event.target.closest("[data-zone]");
    if (zone) placeCard(zone.dataset.zone).catch(failed);
  });
}

async function start() {
  wire();
  playControls(false); // no game yet
  const given = new URLSearchParams(window.location.search).get("position");
  try {
    await loadExamples();
    if (given) await openPosition(given, { keepUrl: true });
    else {
      const first = state.examples.positions.find((p) => p.name === "forcing") || state.examples.positions.find((p) => p.valid);
      await openPosition(first.notation, { description: first.description, keepUrl: true });
    }
  } catch (error) {
    failed(error);
  }
  document.body.dataset.ready = "true";
}

start();
