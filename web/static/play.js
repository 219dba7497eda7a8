// The Play tab: a deal, or a match of deals (R21), played against the server's bots at any
// player count the variant allows, with a log, hints, take-backs, the match's running score and
// the deal's record to save or review. The score is the server's `standing` answer: the page
// keeps who won each deal and never counts a stake itself.

import { api } from "./api.js";
import { moveLabel } from "./cards.js";
import { drawMoves, runHint } from "./analysis.js";
import {
  $, boardDefaults, counted, defaultPlayers, download, drawCurrent, el, failed, fillPlayersSelect, fillSelect, fillVariantSelect,
  problem, render, state, status, variantInfo,
} from "./shared.js";

function gameNames(game) {
  return game.players.map((name, p) => (p === game.seat ? "you" : name));
}

function who(p, seat = 0) {
  return p === seat ? "you" : `player ${p}`;
}

// ------------------------------------------------------------------ choices
// The variant, player count, bots and stakes to choose from: every preset (the server's
// --variant and --players first), the counts the chosen one allows, one bot per other seat.
export function drawPlayChoices() {
  fillVariantSelect($("#play-variant"), boardDefaults().variant);
  fillSelect($("#play-stakes"), state.variants.stakes.map((rule) => [rule, rule.replaceAll("_", " ")]));
  playVariantChosen();
  playMatchChosen();
  drawScoreText();
}

// Another variant: its own player count (R8) and its own stake rule (R21).
export function playVariantChosen() {
  const variant = $("#play-variant").value;
  fillPlayersSelect($("#play-players"), variant, defaultPlayers(variant));
  const info = variantInfo(variant);
  if (info) $("#play-stakes").value = info.stakes;
  drawSeatBots();
}

// One bot choice per other seat when there are two or more of them; the "bots" choice sets
// them all.
export function drawSeatBots() {
  const players = Number($("#play-players").value) || 2;
  const box = $("#play-seat-bots");
  const all = $("#play-bot");
  const kept = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.replaceChildren();
  if (players <= 2) return;
  for (let p = 1; p < players; p += 1) {
    const choice = el("select");
    choice.dataset.seat = String(p);
    choice.setAttribute("aria-label", `player ${p}'s bot`);
    fillSelect(choice, Array.from(all.options).map((o) => [o.value, o.textContent]), kept[p - 1] ?? all.value);
    const label = el("label", "", `player ${p} `);
    label.append(choice);
    box.append(label);
  }
}

export function playBotChosen() {
  for (const choice of $("#play-seat-bots").querySelectorAll("select")) choice.value = $("#play-bot").value;
}

// The stake rule matters only to a match of two deals or more.
export function playMatchChosen() {
  $("#play-stakes").disabled = matchDeals() <= 1;
}

function matchDeals() {
  const text = $("#play-match").value.trim();
  return /^[0-9]+$/.test(text) ? Number(text) : 1;
}

// The bots of the seats other than yours (seat 0), in seat order.
function seatBots(players) {
  const chosen = Array.from($("#play-seat-bots").querySelectorAll("select")).map((s) => s.value);
  return Array.from({ length: players - 1 }, (_, i) => chosen[i] || $("#play-bot").value);
}

// The seed box read as a whole number (kept whole past 2**53 as a BigInt), from 0 to 2**63 - 1
// as every seed (analyzer.search.limits.MAX_SEED).
function readSeed() {
  const text = $("#play-seed").value.trim();
  if (text === "") return 0n;
  if (!/^[0-9]+$/.test(text) || BigInt(text) > 2n ** 63n - 1n) {
    throw new Error(`the seed must be a whole number from 0 to 9223372036854775807, got ${text}`);
  }
  return BigInt(text);
}

// The seed of deal `index` of a match seeded `seed`: analyzer.bots.game.game_seed, so that the
// board deals a match's deals as `conquian play --match` and `simulate --match` deal them.
export function gameSeed(seed, index) {
  return (BigInt(seed) * 1000003n + BigInt(index) * 7919n + 12345n) % (2n ** 63n);
}

function drawGame(result) {
  const game = state.game;
  state.shown.play = {  // your view; once the deal is over, every hand and the stock shown
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
    // How it was won where nobody went out (the server's words, as `conquian play` prints them).
    const how = result.ending ? `: ${result.ending}` : "";
    const text = result.winner === null ? "The deal is a draw (R18)." : result.winner === game.seat ? `You won${how}!` : `Player ${result.winner} won${how}.`;
    moves.replaceChildren(el("div", "game-over", text));
    moves.dataset.over = "true";
    moves.dataset.winner = result.winner === null ? "" : String(result.winner);
    if (state.mode === "play") status(text);
    return;
  }
  moves.dataset.over = "false";
  delete moves.dataset.winner;
  if (state.mode === "play") status(""); // an earlier result (taken back) or hint no longer applies
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

// The Play tab's buttons that need a game; Take back needs a move of yours to take back too,
// Hint a decision of yours to rank.
export function playControls(enabled) {
  for (const action of ["save-record", "review-game"]) {
    const b = $(`[data-panel="play"] [data-action="${action}"]`);
    if (b) b.disabled = !enabled;
  }
  drawTakeBack();
  drawPlayHint();
}

// Hint is enabled while the deal shown waits for a decision of yours: not before the first
// answer of a deal, nor once the deal is over (no move left to rank).
function drawPlayHint() {
  const b = $('[data-panel="play"] [data-action="play-hint"]');
  if (b) b.disabled = !state.game?.last || state.game.last.over;
}

// Take back is enabled once you have made a decision of this deal (not at your first one).
function drawTakeBack() {
  const b = $('[data-panel="play"] [data-action="take-back"]');
  if (b) b.disabled = !state.game?.snapshots.length;
}

async function playStep(move) {
  const game = state.game;
  const request = { position: game.full, seat: game.seat, bots: game.bots, seed: game.seed, labels: "french" };
  if (move) request.move = move;
  $("#play-moves").dataset.busy = "true";
  try {
    const result = await api("play", request);
    game.full = result.notation;
    game.history.push(...result.played.map((p) => p.move));
    game.last = result;
    problem(""); // an earlier error (a refused game, a failed move or hint) no longer applies
    drawGame(result);
    drawTakeBack();
    drawPlayHint();
    await drawScore(result);
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

// New game: a single deal (a match of 1), or the first deal of a match of N deals (R21) whose
// deals are dealt with seeds derived from the game's seed, the first dealer drawn with the first.
export async function newGame() {
  const variant = $("#play-variant").value;
  const players = Number($("#play-players").value) || defaultPlayers(variant);
  const bots = seatBots(players);
  const deals = matchDeals();
  $("#play-hint").replaceChildren();
  status("");
  problem("");
  try {
    const seed = readSeed();
    if (deals > 1000) throw new Error(`a match has at most 1000 deals, not ${deals}`);
    state.match = deals > 1
      ? { deals, seed, stakes: $("#play-stakes").value, players, dealer: null, winners: [], before: null, after: null }
      : null;
    await startDeal({ variant, players, bots, seed: state.match ? gameSeed(seed, 0) : seed, dealer: null });
  } catch (error) {
    // No game: nothing of a half-started one stays on the tab.
    state.game = null;
    state.match = null;
    state.shown.play = null;
    render($("#board"), drawCurrent);
    status("");
    drawPlayLog();
    drawScoreText();
    $("#play-moves").replaceChildren(el("div", "problem", `No game started: ${error.message}`));
    playControls(false);
    throw error;
  }
}

// Deal and play up to your first choice; a match's standing before the deal is asked first.
async function startDeal({ variant, players, bots, seed, dealer }) {
  // Busy from the start: the last deal's moves are not this one's (and a click on them is ignored).
  $("#play-moves").dataset.busy = "true";
  try {
    await dealAndPlay({ variant, players, bots, seed, dealer });
  } finally {
    $("#play-moves").dataset.busy = "false";
  }
}

async function dealAndPlay({ variant, players, bots, seed, dealer }) {
  const request = { variant, players, seed, seat: 0, labels: "french" };
  if (dealer !== null) request.dealer = dealer;
  const dealt = await api("deal", request);
  const match = state.match;
  if (match) {
    if (match.dealer === null) match.dealer = dealt.position.dealer; // drawn with the first deal's seed
    match.before = await standing(match.winners);
    match.after = null;
  }
  const names = dealt.position.players.map((_, p) => (p === 0 ? "human" : bots[p - 1]));
  state.game = {
    variant, start: dealt.notation, full: dealt.notation, seat: 0, bots, bot: bots[0], seed, players: names,
    history: [], snapshots: [], log: [],
  };
  drawPlayHint(); // no decision of this deal yet
  const centre = dealt.position.centre;
  if (centre && centre.kind === "upcard") {
    // R10a: the dealer turns a card up at the deal; the log says which, before any move.
    state.game.log.push({ player: centre.source, shown: `deals and turns up ${centre.card} (R10a)` });
  }
  $("#play-hint").replaceChildren();
  drawPlayLog();
  await playStep(null);
  playControls(true);
}

// ------------------------------------------------------------------ match
// The standing of the match after the deals won by `winners` (null: a draw), the server's.
function standing(winners) {
  const match = state.match;
  return api("standing", { players: match.players, dealer: match.dealer, stakes: match.stakes, winners });
}

// The score after the deal just played (when it is over), else before it.
async function drawScore(result) {
  const match = state.match;
  if (match && result.over && state.game) {
    match.after = await standing([...match.winners, result.winner]);
  } else if (match) {
    match.after = null;
  }
  drawScoreText();
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// The match's score as the last standing says it: the deal, everyone's score, the next deal's
// stake, dealer and pool; the end of the match and who won it.
function drawScoreText() {
  const box = $("#play-score");
  const next = $('[data-panel="play"] [data-action="next-deal"]');
  const match = state.match;
  for (const key of ["deal", "deals", "scores", "winners", "dealer", "seed", "over"]) delete box.dataset[key];
  next.hidden = !match;
  next.disabled = true;
  if (!match || !match.before) {
    box.replaceChildren();
    return;
  }
  const k = match.winners.length; // deals done before this one
  const over = match.after && k + 1 >= match.deals;
  // At the end a pool left on the table goes back in equal shares (R21): the closed scores.
  const shown = over ? { ...match.after, scores: match.after.closed || match.after.scores } : match.after || match.before;
  const game = state.game;
  box.dataset.deal = String(k + 1);
  box.dataset.deals = String(match.deals);
  box.dataset.scores = shown.scores.join(",");
  box.dataset.winners = JSON.stringify(match.after ? [...match.winners, game.last.winner] : match.winners);
  box.dataset.dealer = String(match.dealer);
  box.dataset.seed = String(game.seed);
  const head = el("div", "score-head");
  const stakes = match.stakes.replaceAll("_", " ");
  if (match.after) {
    const mine = match.after.won.at(-1)[game.seat];
    const paid = mine > 0 ? `you won ${mine}` : mine < 0 ? (game.last.winner === null ? `you put ${-mine} into the pool` : `you paid ${-mine}`) : "nothing paid";
    head.textContent = `Deal ${k + 1} of ${match.deals} (stakes: ${stakes}): ${paid}.`;
  } else {
    head.textContent = `Deal ${k + 1} of ${match.deals} (stakes: ${stakes}): player ${match.before.dealer} deals, for a stake of ${match.before.stake}${match.before.pool ? ` and a pool of ${match.before.pool}` : ""}.`;
  }
  const table = el("div", "score-table");
  shown.scores.forEach((score, p) => {
    const cell = el("span", "score-cell", `${who(p, game.seat)} ${signed(score)}`);
    cell.dataset.player = String(p);
    cell.dataset.score = String(score);
    table.append(cell);
  });
  const lines = [head, table];
  if (match.after && !over) {
    lines.push(el("div", "score-next", `Next deal: player ${match.after.dealer} deals, stake ${match.after.stake}${match.after.pool ? `, ${match.after.pool} in the pool` : ""}.`));
    next.disabled = false;
  } else if (over) {
    box.dataset.over = "true";
    const best = Math.max(...shown.scores);
    const leaders = shown.scores.flatMap((s, p) => (s === best ? [p] : []));
    let text;
    if (leaders.length === shown.scores.length) text = "the match is level";
    else if (leaders.length === 1) text = leaders[0] === game.seat ? "you won the match" : `player ${leaders[0]} won the match`;
    else text = `${leaders.map((p) => who(p, game.seat)).join(" and ")} share the lead`;
    if (match.after.pool) {
      lines.push(el("div", "score-pool", `The ${match.after.pool} left in the pool go back to the players in equal shares.`));
    }
    const end = el("div", "match-over", `Match over after ${counted(match.deals, "deal")}: ${text} (${signed(best)}).`);
    lines.push(end);
  }
  box.replaceChildren(...lines);
}

// Next deal: the deal passes round the table (the standing's dealer, R21), dealt with the next
// derived seed.
export async function nextDeal() {
  const match = state.match;
  const game = state.game;
  if (!match || !game || !match.after || match.winners.length + 1 >= match.deals) {
    status("no deal to play next: start a match of two deals or more, and finish this deal");
    return;
  }
  match.winners.push(game.last.winner);
  await startDeal({ variant: game.variant, players: match.players, bots: game.bots, seed: gameSeed(match.seed, match.winners.length), dealer: match.after.dealer });
}

export async function takeBack() {
  const game = state.game;
  if (!game || !game.snapshots.length) {
    status("nothing to take back");
    return;
  }
  const snap = game.snapshots.pop();
  drawTakeBack();
  game.full = snap.full;
  game.history.length = snap.length;
  game.log.length = snap.log;
  drawPlayLog();
  $("#play-moves").dataset.busy = "true";
  try {
    const result = await api("play", { position: game.full, seat: game.seat, bots: game.bots, seed: game.seed, labels: "french" });
    game.last = result;
    problem("");
    drawGame({ ...result, played: [] });
    drawPlayHint();
    await drawScore(result);
  } finally {
    $("#play-moves").dataset.busy = "false";
  }
}

export async function gameRecord() {
  const game = state.game;
  const result = await api("record", { position: game.start, moves: game.history, players: game.players, seed: game.seed });
  return result.record;
}

// The Play tab's Hint button: a hint of your view of the deal.
export function playHint() {
  if (!state.game?.last || state.game.last.over) {
    status(state.game ? "no hint: the deal is over" : "no hint: no game yet");
    return undefined;
  }
  problem("");
  return runHint(state.game.last.view, $("#play-hint"), $("#hint-progress"), null);
}

export async function saveRecord() {
  download("game.jsonl", await gameRecord(), "application/x-ndjson");
}

// Only the bots that can play on this server (ismcts needs the openspiel extra).
export function drawBotList() {
  if (state.examples.bots) {
    const bots = $("#play-bot");
    bots.replaceChildren(...state.examples.bots.map((name) => {
      const option = el("option", "", name);
      option.value = name;
      return option;
    }));
  }
}
