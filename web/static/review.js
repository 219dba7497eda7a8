// The Review tab (docs/web.md): a game record opened as a move tree (tree.js) or entered move by
// move as it was played at a table (entry.js), reviewed by the engine (each player's accuracy, a
// chart of his win chance, every decision marked), the position selected shown on the board with
// its explanation, the hint, the card table and the Analysis tab following it; variations played
// from any position; the record saved, copied or put in the address.

import { api, stream } from "./api.js";
import { HINT_SETTINGS, adoptPosition, cardsInto, runHint } from "./analysis.js";
import { drawChart } from "./chart.js";
import { currentLabels, moveLabel } from "./cards.js";
import { drawEntryForm, drawInput, entryStart, hideInput, typedMove } from "./entry.js";
import { decodeRecord, encodeRecord } from "./records.js";
import { addMove, closeLine, drawTree, forget, newNode, newTree, overAt, pathTo, plyAt, positionAt, sameCursor, step } from "./tree.js";
import {
  $, boardPosition, counted, download, drawCurrent, el, endSearch, failed, pct, problem, render, renders, startSearch, state, status,
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
  const close = $('[data-action="close-this-variation"]');
  close.disabled = !inVariation;
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
  const grows = from.line === tree.main && from.index === tree.main.moves.length;
  const cursor = addMove(tree, from, node);
  if (info) tree.cache.set(JSON.stringify(pathTo(cursor)), inputPart(info));
  if (grows) {
    tree.record = info ? info.record : (await api("record", recordRequest(tree, "french"))).record;
    await showRecord(tree);
  }
  await select(cursor);
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

// The record entered so far put in the text box (in the labels shown), so that Review reviews it
// and the tree, its variations with it, is kept.
async function showRecord(tree) {
  const text = await recordText();
  if (state.tree !== tree) return;
  $("#review-text").value = text;
  tree.source = { text, deal: 1 };
  dropSharedRecord();
}

// ------------------------------------------------------------------ opening
// The record in the text box opened as a move tree, without reviewing it.
export async function openRecord({ text = $("#review-text").value, keepUrl = false } = {}) {
  if (!text.trim()) {
    problem("paste a record, upload one, or use a bundled one");
    return;
  }
  const token = ++opening;
  const deal = Number($("#review-deal").value) || 1;
  problem("");
  let tree;
  try {
    tree = await treeOf({ text, deal });
  } catch (error) {
    if (token === opening) clearTree();
    throw error;
  }
  if (token !== opening) return;
  await install(tree, null, { keepUrl });
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
        `Player ${s.player}${name}: accuracy ${s.accuracy === null ? "none (no decision of his to review: every move forced)" : s.accuracy}; ` +
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
    if (tree !== state.tree) await install(tree);
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
    failed(error);
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
  return runHint(shown.notation, out, $("#review-progress"), (move) => playMove(move).catch((error) => problem(error.message)),
    hintSettings(tree, state.cursor));
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
  if (review && !review.until_decided && review.engine === "v3") {
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

// Start: the new deal from your view, checked by the server (`record` with `view`, no move yet).
export async function startEntry() {
  const { position, seat } = entryStart();
  const token = ++opening;
  const result = await api("record", { position, moves: [], view: seat, labels: "french" });
  if (token !== opening) return;
  const tree = newTree({ start: result.notation, startData: position, view: seat });
  Object.assign(tree, { cache: new Map([["[]", inputPart(result)]]), record: result.record, seed: null });
  $("#review-deal").value = "";
  $("#entry-form").hidden = true;
  await install(tree);
  await showRecord(tree);
  status(`A new game from player ${seat}'s view: enter each move as it happened, by clicks below.`);
}

export function enterTyped() {
  const input = $("#entry-text");
  if (!state.tree) return undefined;
  return typedMove({ onMove: (text) => playMove(text) }, input);
}

// ------------------------------------------------------------------ saving
export async function saveTreeRecord() {
  download("game.jsonl", await recordText(), "application/x-ndjson");
}

export async function copyTreeRecord() {
  const text = await recordText();
  $("#review-text").value = text;
  try {
    await navigator.clipboard.writeText(text);
    status("record copied (and put in the text box above)");
  } catch {
    status("record put in the text box above: copy it from there");
  }
}

// The record put in the address (`?record=`), the link shown to copy.
export async function shareTreeRecord() {
  const text = await recordText();
  const url = new URL(window.location.href);
  url.searchParams.delete("position");
  url.searchParams.set("record", await encodeRecord(text));
  window.history.replaceState(null, "", url);
  const link = $("#share-link");
  link.value = url.href;
  link.hidden = false;
  link.select();
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
  if (!r) return;
  $("#review-text").value = r.text;
  $("#review-deal").value = "";
  await openRecord({ text: r.text });
}

// No tree: the input of moves hidden (main.js calls it once).
export function reviewControls() {
  hideInput();
  drawTreeNow();
}
