// The Play tab: a deal played against the server's bots, with a log, hints, take-backs and the
// game's record to save or review.

import { api } from "./api.js";
import { moveLabel } from "./cards.js";
import { drawMoves, runHint } from "./analysis.js";
import { $, download, drawCurrent, el, failed, render, state, status } from "./shared.js";

function gameNames(game) {
  return game.players.map((name, p) => (p === game.seat ? "you" : name));
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
    const text = result.winner === null ? "The deal is a draw (R18)." : result.winner === game.seat ? "You won!" : `Player ${result.winner} won.`;
    moves.replaceChildren(el("div", "game-over", text));
    moves.dataset.over = "true";
    if (state.mode === "play") status(text);
    return;
  }
  moves.dataset.over = "false";
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

// The Play tab's buttons that need a game.
export function playControls(enabled) {
  for (const action of ["play-hint", "take-back", "save-record", "review-game"]) {
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

export async function newGame() {
  const variant = $("#play-variant").value;
  const seed = Number($("#play-seed").value) || 0;
  const bot = $("#play-bot").value;
  $("#play-hint").replaceChildren();
  status("");
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
    state.shown.play = null;
    render($("#board"), drawCurrent);
    status("");
    drawPlayLog();
    $("#play-moves").replaceChildren(el("div", "problem", `No game started: ${error.message}`));
    playControls(false);
    throw error;
  }
}

export async function takeBack() {
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

export async function gameRecord() {
  const game = state.game;
  const result = await api("record", { position: game.start, moves: game.history, players: game.players, seed: game.seed });
  return result.record;
}

// The Play tab's Hint button: a hint of your view of the deal.
export function playHint() {
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
