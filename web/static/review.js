// The Review tab (docs/web.md): a game record opened as a move tree (tree.js) or entered move by
// move as it was played at a table (entry.js), reviewed by the engine (each player's accuracy, a
// chart of his win chance, every decision marked), the position selected shown on the board with
// its explanation, the hint, the card table and the Analysis tab following it; variations played
// from any position; the record saved, copied or put in the address.

import { ApiError, api, messageOf, stream } from "./api.js";
import { HINT_SETTINGS, adoptPosition, cardsInto, exactOptions, runHint } from "./analysis.js";
import { drawChart } from "./chart.js";
import { currentLabels, moveLabel } from "./cards.js";
import { drawEntryForm, drawInput, entryStart, formError, hideInput, typedMove } from "./entry.js";
import { dropKept, keepGame, keptGame, keptText, mayReplace } from "./keep.js";
import { decodeRecord, encodeRecord } from "./records.js";
import {
  addMove, closeLine, cursorOf, drawTree, forget, newNode, newTree, overAt, pathTo, plyAt, positionAt, promote, sameCursor, step,
  takeBackLast,
} from "./tree.js";
import {
  $, boardPosition, counted, download, drawCurrent, el, endSearch, failed, pct, problem, render, renders, startSearch, state, status,
  switchMode,
} from "./shared.js";

// Each opening or review of a record takes a token: an answer for an older one is dropped.
let opening = 0;

// ------------------------------------------------------------------ the tree
function treeNames(tree) {
  const n = tree.startData?.players?.length || 0;
  return Array.from({ length: n }, (_, p) => (p === tree.view ? "you" : tree.players?.[p] || ""));
}

// The tree of the record `source.text` (deal `source.deal` of a match record): the server reads
// and checks it as `conquian replay` does (`record` with `text`: every line, a view record
// against what its player knows) and answers its start, moves and every ply's positions; a
// review of the same text keeps the tree and its variations.
async function treeOf(source) {
  const request = { text: source.text, labels: "french" };
  if (source.deal > 1) request.deal = source.deal;
  const result = await api("record", request);
  const game = { start: result.start, view: result.view, players: result.players, seed: result.seed };
  const start = result.plies.length ? result.plies[0].before : result.notation;
  const tree = newTree({ start, startData: game.start, view: game.view, players: game.players });
  tree.seed = game.seed;
  tree.source = source;
  tree.cache = new Map();
  for (const ply of result.plies) tree.main.moves.push(newNode(ply));
  const last = tree.main.moves[tree.main.moves.length - 1];
  if (last) Object.assign(last, { over: result.over, winner: result.winner });
  if (game.view !== null) tree.cache.set(JSON.stringify(pathTo({ line: tree.main, index: tree.main.moves.length })), inputPart(result));
  tree.record = result.record;
  return tree;
}

function drawTreeNow() {
  const list = $("#review-moves");
  const tree = state.tree;
  const draw = () => {
    if (!tree) {
      list.replaceChildren();
      forget(list);
      return;
    }
    drawTree(list, tree, state.cursor, {
      onSelect: (cursor) => select(cursor, { scroll: true }).catch(failed),
      onClose: (line) => select(closeLine(tree, line)).catch(failed),
      onPromote: (line) => promoteLine(line).catch(failed),
    });
  };
  // A labels switch draws the moves again in full; otherwise the rows stay as they are when
  // only the selection or the marks change.
  renders.set(list, () => {
    forget(list);
    draw();
  });
  draw();
  list.dataset.cursor = state.tree ? `${state.cursor.line.id}:${state.cursor.index}` : "";
  const inVariation = Boolean(state.tree && state.cursor.line.parent);
  $('[data-action="close-this-variation"]').disabled = !inVariation;
  $('[data-action="promote-this-variation"]').disabled = !inVariation;
  $('[data-action="entry-undo"]').disabled = !state.tree?.main.moves.length;
  for (const action of ["record-save", "record-copy", "record-share", "review-hint", "review-cards"]) {
    $(`[data-action="${action}"]`).disabled = !state.tree;
  }
}

// The address's record (a shared link) dropped: it is no longer the record shown.
function dropSharedRecord() {
  if (!new URLSearchParams(window.location.search).has("record")) return;
  const url = new URL(window.location.href);
  url.searchParams.delete("record");
  window.history.replaceState(null, "", url);
  $("#share-link").hidden = true;
}

// No record shown: the tree, its review, its positions and the input of moves cleared (a record
// that does not read leaves nothing of the one before, which is no longer the text box's).
function clearTree() {
  state.tree = null;
  state.cursor = null;
  state.review = null;
  state.shown.review = null;
  selecting += 1; // a selection under way is dropped
  dropSharedRecord();
  hideInput();
  for (const id of ["#review-summary", "#review-chart", "#review-hint", "#review-cards"]) render($(id), () => $(id).replaceChildren());
  drawTreeNow();
  delete $("#review-moves").dataset.shown;
  if (state.mode === "review") {
    render($("#board"), drawCurrent);
    status(""); // its explanation was about a position of the record before
  }
}

// A tree shown from its start (a record opened) or its end (a game entered).
function install(tree, cursor, { keepUrl = false } = {}) {
  state.tree = tree;
  problem(""); // a message about the record before is not about this one
  if (!keepUrl) dropSharedRecord();
  state.review = tree.review;
  if (!tree.review) {
    for (const id of ["#review-summary", "#review-chart"]) render($(id), () => $(id).replaceChildren());
  }
  $("#share-link").hidden = true;
  return select(cursor || { line: tree.main, index: 0 });
}

// What the status line says of the position selected: the move played there and, once reviewed,
// the better move and the mark.
function explanation(tree, cursor) {
  const { line, index } = cursor;
  const ply = plyAt(cursor);
  if (index < line.moves.length) {
    const node = line.moves[index];
    let text = `Before ply ${ply}: played ${moveLabel(node.move)}`;
    if (line.parent) text += " (in a variation)";
    const marked = line === tree.main ? tree.review?.moves.find((m) => m.ply === ply) : null;
    if (marked) text += `; best ${moveLabel(marked.best)} (win ${pct(marked.win_best)} against ${pct(marked.win_played)}): ${marked.label}`;
    return text;
  }
  if (overAt(tree, cursor)) {
    const last = line.moves[index - 1];
    const end = last.winner === null ? "a draw (R18)" : last.winner === tree.view ? "you won" : `player ${last.winner} won`;
    return `After ply ${ply - 1}: the deal is over, ${end}.`;
  }
  if (!index && !line.parent) return "The start of the game: enter or choose the first move below.";
  return `After ply ${ply - 1}${line.parent ? " (a variation)" : ""}: the next move is entered below.`;
}

// What the input of the next move reads of an answer (the rest, the plies and the record, can
// be long and is not kept).
function inputPart({ next, moves, description, over, winner }) {
  return { next, moves, description, over, winner };
}

// The answer the input of the next move needs: for a view, the `record` answer of the path (its
// `next`, `description`), else the position's legal moves; kept per path.
async function inputInfo(tree, cursor) {
  const path = pathTo(cursor);
  const key = JSON.stringify(path);
  if (!tree.cache.has(key)) {
    const info = tree.view !== null
      ? await api("record", { position: tree.startData, moves: path, view: tree.view, labels: "french" })
      : await api("moves", { position: positionAt(tree, cursor), labels: "french" });
    tree.cache.set(key, inputPart(info));
  }
  return tree.cache.get(key);
}

let selecting = 0;

// The position at `cursor` selected: marked in the tree at once, then drawn on the board with its
// explanation, made the Analysis tab's position, and the next move's input drawn for it.
export async function select(cursor, { scroll = false } = {}) {
  const tree = state.tree;
  state.cursor = cursor;
  drawTreeNow();
  const token = ++selecting;
  const notation = positionAt(tree, cursor);
  const over = overAt(tree, cursor);
  const last = over ? cursor.line.moves[cursor.index - 1] : null;
  const shown = await boardPosition(notation, { names: treeNames(tree), over, winner: last ? last.winner : null });
  if (token !== selecting || state.tree !== tree) return;
  state.shown.review = shown;
  adoptPosition({ ...shown, description: `From the Review tab: ${explanation(tree, cursor).replace(/:.*$/, "")}.` });
  $("#review-hint").replaceChildren();
  if (state.mode === "review") {
    render($("#board"), drawCurrent);
    status(explanation(tree, cursor));
    // On a phone the list is below the board: bring the explanation (and the board) into view.
    if (scroll && window.matchMedia("(max-width: 600px)").matches) $("#status").scrollIntoView({ block: "start", behavior: "smooth" });
  }
  const cards = $('[data-action="review-cards"]');
  if (cards.getAttribute("aria-pressed") === "true") cardsInto($("#review-cards"), notation, shown.position).catch(failed);
  else render($("#review-cards"), () => $("#review-cards").replaceChildren());
  const info = await inputInfo(tree, cursor);
  if (token !== selecting || state.tree !== tree) return;
  drawInput({
    key: `${cursor.line.id}:${cursor.index}:${JSON.stringify(pathTo(cursor))}`,
    ply: plyAt(cursor),
    view: tree.view,
    info,
    position: shown.position,
    onMove: (text) => playMove(text),
  });
  $("#review-moves").dataset.shown = `${cursor.line.id}:${cursor.index}`;
}

// `text` played at the position selected, checked by the server (a view: `record` with `view` on
// the path's moves; else `play`): the line goes on, a variation is followed or opened; at the end
// of the main line the game (its record) grows. An illegal move rejects with the server's words
// and changes nothing.
async function playMove(text) {
  const tree = state.tree;
  const from = state.cursor;
  const grows = from.line === tree.main && from.index === tree.main.moves.length;
  if (grows && !claim(tree)) {
    throw new Error("not entered: the game kept in this browser stays; Go on with it or Discard it (the bar at the top) first");
  }
  let node;
  let info = null;
  if (tree.view !== null) {
    const request = { position: tree.startData, moves: [...pathTo(from), text], view: tree.view, labels: "french" };
    if (tree.players) request.players = tree.players;
    info = await api("record", request);
    const ply = info.plies[info.plies.length - 1];
    node = newNode({ ...ply, over: info.over, winner: info.winner });
  } else {
    const before = positionAt(tree, from);
    const result = await api("play", { position: before, move: text, labels: "french" });
    const played = result.played[0];
    node = newNode({ move: played.move, player: played.player, before, after: result.notation, over: result.over, winner: result.winner });
  }
  if (state.tree !== tree || !sameCursor(state.cursor, from)) return;
  problem(""); // an earlier message (a hint's row that failed) is not about this move
  const cursor = addMove(tree, from, node);
  if (info) tree.cache.set(JSON.stringify(pathTo(cursor)), inputPart(info));
  if (grows) await gameChanged(tree, info ? info.record : (await api("record", recordRequest(tree, "french"))).record);
  await select(cursor);
}

// ------------------------------------------------------------------ the game being entered
// The game kept in the browser (keep.js) offered back by the bar at the top of the page, until it
// is taken up or discarded, or another game takes its place there.
let offered = null;

// Whether the main line of `tree` may change: a tree that becomes the game being entered takes
// the browser's storage from the game kept there and offered back, asked when that one was not
// saved.
function claim(tree) {
  if (tree.entered || !offered) return true;
  if (offered.unsaved && !window.confirm(
    `The game you were entering before (${keptText(offered)}) is kept in this browser and offered above. ` +
    "Discard it, to keep this game in its place?",
  )) return false;
  hideOffer();
  return true;
}

// The main line changed on the page (a game started, a move added at its end, taken back, a
// variation promoted), `record` its record (French labels) as the server wrote it: the game
// being entered, unsaved; kept in the browser and put in the text box. A review of the game
// before no longer applies (its summary counts other moves): it goes.
async function gameChanged(tree, record) {
  tree.record = record;
  tree.entered = true;
  tree.unsaved = true;
  if (tree.review) {
    tree.review = null;
    if (state.tree === tree) state.review = null;
    for (const id of ["#review-summary", "#review-chart"]) render($(id), () => $(id).replaceChildren());
  }
  keepGame(tree);
  await showRecord(tree);
}

// Saved, copied or shared: the game being entered may be replaced without a question.
function gameSaved(tree) {
  tree.unsaved = false;
  if (tree.entered) keepGame(tree);
}

// The bar offering the game kept in the browser, shown when the page opens (main.js) unless that
// game is over and was saved.
export function offerKept() {
  const kept = keptGame();
  if (!kept) return;
  if (kept.over && !kept.unsaved) {
    dropKept();
    return;
  }
  offered = kept;
  $("#restore-text").textContent = `Go on with the game you were entering? ${keptText(kept)}.`;
  $("#restore-entry").hidden = false;
}

function hideOffer() {
  offered = null;
  $("#restore-entry").hidden = true;
}

// "Go on": the game kept opened in the Review tab (read by the server as any record), at the end
// of its main line, the game being entered again.
export async function restoreKept() {
  const kept = offered;
  if (!kept || !mayReplace("the game you were entering before")) return;
  switchMode("review");
  const token = ++opening;
  const tree = await treeOf({ text: kept.record, deal: 1 }).catch((error) => {
    throw withoutField(error);
  });
  if (token !== opening) return;
  hideOffer();
  Object.assign(tree, { entered: true, unsaved: kept.unsaved });
  $("#review-deal").value = "";
  await install(tree, { line: tree.main, index: tree.main.moves.length });
  await showRecord(tree);
  status(`The game you were entering, ${counted(tree.main.moves.length, "move")}: go on below from its last move.`);
}

export function discardKept() {
  dropKept();
  hideOffer();
}

// Undo last move: the main line's last move taken back, as `conquian record`'s undo (with the
// variations played instead of it, asked first), the moves left checked by the server as any
// entry is (`record` on them); the position before it selected, to enter the right move there.
export async function undoLast() {
  const tree = state.tree;
  const n = tree?.main.moves.length || 0;
  if (!n) return;
  const last = tree.main.moves[n - 1];
  const branches = last.variations.length;
  if (branches && !window.confirm(
    `Take back move ${n}, ${moveLabel(last.move)}? The ${counted(branches, "variation")} played instead of it go with it.`,
  )) return;
  if (!claim(tree)) return;
  const moves = pathTo({ line: tree.main, index: n - 1 });
  const info = await api("record", { ...recordRequest(tree, "french"), moves });
  if (state.tree !== tree || tree.main.moves[n - 1] !== last || tree.main.moves.length !== n) return;
  const cursor = takeBackLast(tree);
  if (tree.view !== null) tree.cache.set(JSON.stringify(moves), inputPart(info));
  await gameChanged(tree, info.record);
  await select(cursor);
  if (state.mode === "review") status(`Took back move ${n}: ${moveLabel(last.move)}. ${explanation(tree, cursor)}`);
}

// Promote to main line: the variation `line` made the game's moves (tree.js promote), the line it
// replaces kept as a variation; the new main line checked by the server as any entry is.
export async function promoteLine(line) {
  const tree = state.tree;
  if (!tree || !line.parent || !claim(tree)) return;
  const end = () => pathTo({ line, index: line.moves.length });
  const moves = end();
  const info = await api("record", { ...recordRequest(tree, "french"), moves });
  if (state.tree !== tree || !tree.lines.has(line.id) || JSON.stringify(end()) !== JSON.stringify(moves)) return;
  const at = pathTo(state.cursor);
  promote(tree, line);
  if (tree.view !== null) tree.cache.set(JSON.stringify(moves), inputPart(info));
  await gameChanged(tree, info.record);
  const cursor = cursorOf(tree, at) || { line: tree.main, index: tree.main.moves.length };
  await select(cursor);
  if (state.mode === "review") {
    status(`The variation is the main line now (${counted(moves.length, "move")}; the moves it replaced are a variation). ${explanation(tree, cursor)}`);
  }
}

export function promoteThisVariation() {
  if (state.tree && state.cursor.line.parent) return promoteLine(state.cursor.line);
  return undefined;
}

// The record request of the main line, in `labels`.
function recordRequest(tree, labels) {
  const moves = pathTo({ line: tree.main, index: tree.main.moves.length });
  const request = {
    position: tree.startData,
    moves: labels === "french" ? moves : moves.map((m) => moveLabel(m)),
    labels,
  };
  if (tree.view !== null) request.view = tree.view;
  if (tree.players) request.players = tree.players;
  if (tree.seed !== null && tree.seed !== undefined && tree.view === null) request.seed = tree.seed;
  return request;
}

// The game's record (its main line) in the labels shown (R2).
async function recordText() {
  const tree = state.tree;
  const labels = currentLabels();
  if (labels === "french" && tree.record) return tree.record;
  return (await api("record", recordRequest(tree, labels))).record;
}

// The record shown put in the text box in the labels shown (as Save writes it), so that Review
// reviews it and the tree, its variations with it, is kept; the address's record (another one)
// dropped.
async function showRecord(tree) {
  if (await writeBox(tree)) dropSharedRecord();
}

async function writeBox(tree) {
  const text = await recordText();
  if (state.tree !== tree) return false;
  $("#review-text").value = text;
  tree.source = { text, deal: 1 };
  return true;
}

function isMatch(text) {
  return text.trimStart().split("\n", 1)[0].includes('"conquian-match"');
}

// The labels a record's text is written in (its start's `labels`, French by default, R2).
function labelsOf(text) {
  try {
    return JSON.parse(text.trimStart().split("\n", 1)[0])?.start?.labels || "french";
  } catch {
    return "french";
  }
}

// The text box, while it holds the record shown (not edited by hand, not a match record, whose
// other deals it keeps), in the labels shown: rewritten as Save writes it when the labels are
// switched or a record written in the other labels is opened.
export async function relabelRecord() {
  const tree = state.tree;
  const text = $("#review-text").value;
  if (!tree || !tree.source || text !== tree.source.text || isMatch(text) || labelsOf(text) === currentLabels()) return;
  await writeBox(tree);
}

// ------------------------------------------------------------------ opening
// The record in the text box opened as a move tree, without reviewing it.
export async function openRecord({ text = $("#review-text").value, keepUrl = false } = {}) {
  if (!text.trim()) {
    problem("paste a record, upload one, or use a bundled one");
    return;
  }
  if (!mayReplace("the record in the text box")) return;
  const token = ++opening;
  const deal = Number($("#review-deal").value) || 1;
  problem("");
  let tree;
  try {
    tree = await treeOf({ text, deal });
  } catch (error) {
    if (token === opening) clearTree();
    throw withoutField(error);
  }
  if (token !== opening) return;
  await install(tree, null, { keepUrl });
  await relabelRecord();
}

// A refusal of the record in the text box told without the API's field name ("text: line 3:
// …" -> "line 3: …", "record: …" likewise): the line is about the record opened or reviewed.
function withoutField(error) {
  if (error instanceof ApiError && ["text", "record"].includes(error.field)) error.message = messageOf(error);
  return error;
}

// A record an address carries (`?record=`, records.js): opened in the Review tab.
export async function openSharedRecord(code) {
  const text = await decodeRecord(code);
  $("#review-text").value = text;
  await openRecord({ text, keepUrl: true });
  status("A record from the address: its moves below; Review marks them.");
}

// ------------------------------------------------------------------ review
function drawReview(review) {
  const summary = $("#review-summary");
  render(summary, () => {
    summary.replaceChildren();
    if (review.match) {
      const row = el("div", "summary-row match-deal",
        `Match record: deal ${review.match.deal} of ${review.match.deals}` +
        (review.match.deals > 1 ? " (choose another with 'deal', then Review)" : ""));
      row.dataset.deal = String(review.match.deal);
      row.dataset.deals = String(review.match.deals);
      summary.append(row);
    }
    // A view record's review is about its player's decisions alone (docs/review.md).
    const view = review.view ?? null;
    if (view !== null) summary.append(el("div", "summary-row", `Player ${view}'s view: his decisions reviewed from what he saw.`));
    for (const s of review.summary.filter((x) => view === null || x.player === view)) {
      const name = review.players && review.players[s.player] ? ` (${review.players[s.player]})` : "";
      const row = el("div", "summary-row",
        `Player ${s.player}${name}: ${s.accuracy === null ? "no accuracy (every move of his was forced: no decision to review)" : `accuracy ${s.accuracy}`}; ` +
        `${counted(s.blunder, "blunder")}, ${counted(s.mistake, "mistake")}, ` +
        `${counted(s.inaccuracy, "inaccuracy", "inaccuracies")}`);
      row.dataset.player = String(s.player);
      summary.append(row);
    }
  });
  drawChart($("#review-chart"), review);
}

// The samples box read: {samples} (0: empty, sample until each verdict is settled, as `conquian
// review` does) or {error}, said beside the box, for anything but a whole number from 1.
function samplesChosen() {
  const box = $("#review-samples");
  const text = box.value.trim();
  let error = "";
  if (box.validity.badInput) error = "a whole number of deals per decision, at least 1 (empty: until decided)";
  else if (text && !/^[0-9]+$/.test(text)) error = `${text} is not a whole number of at least 1 (empty: until decided)`;
  else if (text && Number(text) < 1) error = "at least 1 deal per decision (empty: until decided)";
  $("#review-samples-problem").textContent = error;
  box.setAttribute("aria-invalid", String(Boolean(error)));
  return error ? { error } : { samples: text ? Number(text) : 0 };
}

export async function runReview() {
  const text = $("#review-text").value;
  if (!text.trim()) {
    problem("paste a record, upload one, or use a bundled one");
    return;
  }
  const chosen = samplesChosen();
  if (chosen.error) {
    $("#review-samples").focus();
    return;
  }
  const same = state.tree?.source?.text === text && state.tree.source.deal === (Number($("#review-deal").value) || 1);
  if (!same && !mayReplace("the record in the text box")) return;
  const token = ++opening;
  const signal = startSearch();
  const bar = $("#review-progress");
  bar.hidden = false;
  bar.value = 0;
  problem("");
  const dealBox = Number($("#review-deal").value) || 0;
  const kept = state.tree && state.tree.source?.text === text && state.tree.source.deal === (dealBox || 1) ? state.tree : null;
  let tree = kept;
  try {
    // The tree of this record (unless it is the one shown), listed with the review's marks.
    if (!tree) {
      if (state.tree) {
        state.tree.review = null;
        for (const id of ["#review-summary", "#review-chart"]) render($(id), () => $(id).replaceChildren());
      }
      // A record that does not open is told by the review's own message, the server's.
      tree = await Promise.resolve()
        .then(() => treeOf({ text, deal: dealBox || 1 }))
        .catch(() => null);
      if (token !== opening) return;
      // The record shown before is not the text box's: it goes (the review says what is wrong).
      if (!tree && state.tree) clearTree();
    }
    // No samples given: each decision samples until its verdict is settled, as `conquian review`
    // does by default, so that the board and the command give the same marks.
    const { samples } = chosen;
    const request = { record: text, labels: "french" };
    if (samples > 0) request.samples = samples;
    if (dealBox > 0) request.deal = dealBox; // a match record's deal (the server refuses it for a game)
    const review = await stream("review", request, (p) => { bar.max = p.planned || 1; bar.value = p.done; }, { signal });
    if (token !== opening) return;
    if (!tree) {
      // Not opened by itself (the review's message is the one to read when it fails): its plies.
      tree = newTree({ start: review.plies[0]?.before, startData: review.position, view: review.view ?? null, players: review.players });
      for (const ply of review.plies) tree.main.moves.push(newNode(ply));
      Object.assign(tree, { cache: new Map(), source: { text, deal: dealBox || 1 }, seed: null });
    }
    tree.review = review;
    drawReview(review);
    if (tree !== state.tree) {
      await install(tree);
      await relabelRecord();
    }
    state.review = review;
    drawTreeNow();
    if (state.mode === "review" && state.tree === tree) status(explanation(tree, state.cursor));
  } catch (error) {
    if (token === opening && error.field === "record") {
      // The record does not read (the server's reading of its lines): nothing of it is shown,
      // and nothing of the record before.
      clearTree();
    } else if (tree && tree !== state.tree && token === opening) {
      // The review failed otherwise (stopped, busy): the record's moves are listed all the same.
      await install(tree).catch(() => {});
    }
    failed(withoutField(error));
  } finally {
    bar.hidden = true;
    endSearch();
  }
}

// ------------------------------------------------------------------ the move tree's keys
// Left and Right step through the moves, Home and End go to the start and the line's end, when
// the Review tab is shown and no text box, list or input has the keys.
export function reviewKey(event) {
  if (state.mode !== "review" || !state.tree) return;
  if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
  event.preventDefault();
  const next = step(state.tree, state.cursor, event.key);
  if (!sameCursor(next, state.cursor)) select(next).catch(failed);
}

// ------------------------------------------------------------------ the position selected
export function reviewHint() {
  const shown = state.shown.review;
  const tree = state.tree;
  const out = $("#review-hint");
  if (!shown || !tree) return undefined;
  const position = shown.position;
  const acting = position.to_act;
  const turn = !position.centre && !position.exchange;
  if (shown.over || turn || !Array.isArray(position.players[acting]?.hand)) {
    const why = shown.over ? "the deal is over" : turn ? "the next move is a turn of the stock (R10)"
      : `player ${acting}'s hand is hidden from you: a hint is for the decisions of a player whose hand is known (Cards shows where his cards may be)`;
    render(out, () => out.replaceChildren(el("div", "hint-head", `No hint here: ${why}.`)));
    return undefined;
  }
  // Exact (and Deal by the reading) beside the Hint: the endgame's equilibrium where it is small.
  const { settings, note } = hintSettings(tree, state.cursor);
  const exact = { settings: { ...settings, ...exactOptions($("#review-exact"), $("#review-read")) }, note };
  return runHint(shown.notation, out, $("#review-progress"), (move) => playMove(move).catch((error) => problem(error.message)), exact);
}

// The settings of the Review tab's hint at `cursor`. On the main line, the review's for that ply
// (docs/review.md: the decision at ply k is evaluated with seed S + k, S the review's seed, with
// its samples and engine), so that the hint ranks the moves as the review marked them; before a
// review, the seed the board's review gives the ply (S = 0). In a variation, which no review
// evaluates, the board's own seed, 0.
function hintSettings(tree, cursor) {
  const ply = plyAt(cursor);
  if (cursor.line !== tree.main) {
    return { settings: { ...HINT_SETTINGS }, note: { seed: HINT_SETTINGS.seed, text: `Seed ${HINT_SETTINGS.seed}: a variation's position, which no review evaluates (the board's seed).` } };
  }
  const review = tree.review?.settings;
  const base = review ? review.seed : 0;
  const settings = { seed: base + ply };
  if (review && !review.until_decided) settings.samples = review.samples;
  if (review?.engine) settings.engine = review.engine;
  if (review && review.time_limit !== null && review.time_limit !== undefined) settings.time_limit = review.time_limit;
  const whose = review ? "the review's" : "the one a review of this record gives it";
  let text = `Seed ${settings.seed}: ${whose} for ply ${ply} (seed ${base} + ${ply}, as conquian review evaluates this decision), so the hint and the review's mark agree.`;
  // A review with a fixed number of IS-MCTS iterations ran one search per decision, where a hint
  // runs several (docs/review.md): the same seed does not give the same figures there.
  if (review && !review.until_decided && review.one_tree) {
    text = `Seed ${settings.seed}, the review's for ply ${ply} (seed ${base} + ${ply}), with its ${review.samples} iterations; but the review ran one IS-MCTS search per decision and a hint runs several, so their figures can differ (a review with samples left empty agrees with the hint).`;
  }
  return { settings, note: { seed: settings.seed, text } };
}

// The Cards toggle: the card table of each position selected while it is on.
export function toggleCards() {
  const b = $('[data-action="review-cards"]');
  const on = b.getAttribute("aria-pressed") !== "true";
  b.setAttribute("aria-pressed", String(on));
  const shown = state.shown.review;
  if (on && shown) return cardsInto($("#review-cards"), shown.notation, shown.position);
  render($("#review-cards"), () => $("#review-cards").replaceChildren());
  return undefined;
}

export function closeThisVariation() {
  if (state.tree && state.cursor.line.parent) return select(closeLine(state.tree, state.cursor.line));
  return undefined;
}

// ------------------------------------------------------------------ entering a game
export function toggleEntryForm() {
  const form = $("#entry-form");
  form.hidden = !form.hidden;
  if (!form.hidden) {
    drawEntryForm();
    form.scrollIntoView({ block: "nearest" });
  }
}

// Start: the new deal from your view, checked by the server (`record` with `view`, no move yet);
// what is wrong with the form is said beside Start (entry.js formError), not under the board.
export async function startEntry() {
  formError("");
  let start;
  try {
    start = entryStart();
  } catch (error) {
    formError(error.message);
    return;
  }
  const { position, seat } = start;
  const token = ++opening;
  let result;
  try {
    result = await api("record", { position, moves: [], view: seat, labels: "french" });
  } catch (error) {
    if (token === opening) formError(messageOf(error));
    return;
  }
  if (token !== opening) return;
  const tree = newTree({ start: result.notation, startData: position, view: seat });
  Object.assign(tree, { cache: new Map([["[]", inputPart(result)]]), record: result.record, seed: null });
  if (!mayReplace("a new game") || !claim(tree)) return;
  $("#review-deal").value = "";
  $("#entry-form").hidden = true;
  await install(tree);
  await gameChanged(tree, result.record);
  status(`A new game from player ${seat}'s view: enter each move as it happened, by clicks below.`);
}

export function enterTyped() {
  const input = $("#entry-text");
  if (!state.tree) return undefined;
  return typedMove({ onMove: (text) => playMove(text) }, input);
}

// ------------------------------------------------------------------ saving
export async function saveTreeRecord() {
  const tree = state.tree;
  download("game.jsonl", await recordText(), "application/x-ndjson");
  gameSaved(tree);
}

export async function copyTreeRecord() {
  const tree = state.tree;
  const text = await recordText();
  $("#review-text").value = text;
  $("#review-deal").value = ""; // one game's record, a match's deal included
  tree.source = { text, deal: 1 };
  try {
    await navigator.clipboard.writeText(text);
    gameSaved(tree);
    status("record copied (and put in the text box above)");
  } catch {
    status("record put in the text box above: copy it from there");
  }
}

// The record put in the address (`?record=`), the link shown to copy.
export async function shareTreeRecord() {
  const tree = state.tree;
  const text = await recordText();
  const url = new URL(window.location.href);
  url.searchParams.delete("position");
  url.searchParams.set("record", await encodeRecord(text));
  window.history.replaceState(null, "", url);
  const link = $("#share-link");
  link.value = url.href;
  link.hidden = false;
  link.select();
  gameSaved(tree); // the address holds it (a reload opens it)
  try {
    await navigator.clipboard.writeText(url.href);
    status(`link copied (${url.href.length} characters): it opens this record in Review`);
  } catch {
    status("the link is in the address bar and the box below: it opens this record in Review");
  }
}

// ------------------------------------------------------------------ the bundled records
export function drawRecordList() {
  const records = $("#review-examples");
  records.replaceChildren();
  for (const r of state.examples.records) {
    const option = el("option", "", r.name);
    option.value = r.name;
    records.append(option);
  }
}

// The bundled record chosen, put in the text box and opened.
export async function loadRecord() {
  const r = state.examples.records.find((x) => x.name === $("#review-examples").value);
  if (!r || !mayReplace(`the bundled record ${r.name}`)) return;
  $("#review-text").value = r.text;
  $("#review-deal").value = "";
  await openRecord({ text: r.text });
}

// No tree: the input of moves hidden (main.js calls it once).
export function reviewControls() {
  hideInput();
  drawTreeNow();
}
