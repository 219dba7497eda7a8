// The Puzzles tab: a bundled puzzle opened on the board, each move checked (the first against
// the stored answer, the next ones by solving) and answered, and the answer shown on request.

import { api } from "./api.js";
import { frenchCode, label, moveLabel } from "./cards.js";
import { drawMoves } from "./analysis.js";
import { $, boardPosition, button, drawCurrent, el, failed, render, state } from "./shared.js";

export function drawPuzzleList() {
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

// The puzzle's position on the Puzzles tab's own board (the Analysis board keeps its position).
async function showPuzzlePosition(notation, over = false, winner = null) {
  const pz = state.puzzle;
  const shown = await boardPosition(notation, { description: pz.description || "", over, winner });
  if (state.puzzle !== pz) return; // another puzzle opened meanwhile
  state.shown.puzzles = shown;
  render($("#board"), drawCurrent);
}

async function openPuzzle(name) {
  const result = await api("puzzle", { name, labels: "french" });
  const player = result.question.player ?? result.to_act;
  state.puzzle = { ...result, player, played: 0, position: result.notation, log: [] };
  $('[data-action="reveal"]').disabled = false; // a puzzle is open: its answer can be shown
  await showPuzzlePosition(result.notation);
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
  await showPuzzlePosition(now.notation, now.over, now.winner ?? null);
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

export async function revealPuzzle() {
  if (!state.puzzle) return;
  const result = await api("puzzle", { name: state.puzzle.name, reveal: true, labels: "french" });
  const out = $("#puzzle-answer");
  out.replaceChildren();
  const answer = result.answer || {};
  for (const m of answer.moves || []) out.append(el("div", "answer", moveLabel(m)));
  for (const c of answer.pays || []) out.append(el("div", "answer", `pay ${label(frenchCode(c))}`));
}
