// The Analysis tab: the position opened on the board, its legal moves (each previewed with its
// why), hints (also the Play tab's), the analysis of outs and forceable cards, every move solved.

import { api, stream } from "./api.js";
import { drawBoard } from "./board.js";
import { loadCards, drawCardGrids } from "./cardgrid.js";
import { frenchCode, label, moveLabel, notationLabel, problemLabel } from "./cards.js";
import { drawEquilibrium, drawNotes, figuresText, isEquilibrium } from "./equilibrium.js";
import {
  $, button, counted, drawCurrent, el, endSearch, failed, pct, problem, render, setNotation, startSearch, state, status,
} from "./shared.js";

// ------------------------------------------------------------------ position
export async function openPosition(input, { description = "", names = [], keepUrl = false } = {}) {
  problem("");
  status(""); // a line about the position before no longer applies
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
  state.unopened = null;
  $("#edit-status").textContent = ""; // a message about an earlier text no longer applies
  render($("#board"), drawCurrent);
  if (!keepUrl) {
    const url = new URL(window.location.href);
    url.searchParams.set("position", result.notation);
    url.searchParams.delete("record"); // the address holds what is shown: this position
    window.history.replaceState(null, "", url);
  }
  clearOutputs();
  if (state.mode === "analysis") await loadMoves();
  return state.current;
}

// The answers about the position before (hint, analysis, card table, a move's preview) go.
export function clearOutputs() {
  $("#analysis-output").replaceChildren();
  $("#analysis-cards").replaceChildren();
  leavePreview();
}

// The Review tab's selected position made the board's (its legal moves, why, hint and card
// table then apply to it), the address bar left as it is: `shown` as drawCurrent takes it.
export function adoptPosition(shown) {
  if (state.current?.notation === shown.notation && !state.invalid) return;
  state.current = { ...shown };
  state.editing = null;
  state.invalid = null;
  clearOutputs();
  listed = { notation: null, moves: [] };
  $("#analysis-moves").replaceChildren();
}

// The sampling settings of the board's hints. A move clicked in a hint (or in the list of legal
// moves) is compared by a why request with the same settings, so that its figures are the hint
// row's: the same seed, the same deals, the same rule for when to stop sampling.
export const HINT_SETTINGS = Object.freeze({ seed: 0 });

// ------------------------------------------------------------------ moves
function meldsText(layout) {
  return layout.map((meld) => `[${meld.map((c) => label(frenchCode(c))).join(" ")}]`).join(" ");
}

// A choice's button within its group, without the kind the group names.
function choiceText(entry) {
  if (entry.kind === "force") return `player ${entry.player}`;
  const shown = moveLabel(entry.text);
  const rest = shown.startsWith(`${entry.kind} `) ? shown.slice(entry.kind.length + 1).trim() : "";
  return rest || shown;
}

// The legal moves grouped as the board offers them: takes by arrangement then pay card.
export function drawMoves(container, entries, onChoose) {
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
      } else if (key === "pass") {
        // One choice whose name says it all: the button alone, not "pass [pass]".
        const b = button(moveLabel(first.text), { move: first.text });
        b.addEventListener("click", () => onChoose(first));
        row.append(b);
      } else {
        // The kind once, then each choice by what differs: "force [player 0]", "give [7♥]".
        row.append(el("span", "move-kind", key));
        for (const entry of list) {
          const b = button(choiceText(entry), { move: entry.text });
          b.title = moveLabel(entry.text);
          b.setAttribute("aria-label", moveLabel(entry.text));
          b.addEventListener("click", () => onChoose(entry));
          row.append(b);
        }
      }
      container.append(row);
    }
    if (!entries.length) container.append(el("div", "none", "no legal move: the deal is over"));
  });
}

const NO_POSITION = "No position is open: open one in Setup (a text, a file, an example or a new deal).";

async function boardInvalid() {
  if (!state.current) {
    problem(NO_POSITION);
    return true;
  }
  // An edit the server could not check (it was unreachable) is checked again first.
  if (state.unchecked && state.recheck) await state.recheck();
  if (state.unchecked) {
    problem(`The edited position could not be checked (${state.unchecked}); try again when the server answers.`);
    return true;
  }
  // An edit left the board invalid: the analysis would answer for the last valid position.
  if (!state.invalid) return false;
  $("#analysis-moves").replaceChildren();
  problem(`The position on the board is not valid (${problemLabel(state.invalid)}): fix it in Setup first.`);
  return true;
}

// The legal moves of the board's position, as last listed (a hint's row previews its entry).
let listed = { notation: null, moves: [] };

export async function loadMoves() {
  if (!state.current || (await boardInvalid())) return;
  const notation = state.current.notation;
  const result = await api("moves", { position: notation, labels: "french" });
  if (state.current?.notation !== notation) return; // another position opened meanwhile
  state.current.over = result.over;
  listed = { notation, moves: result.moves };
  drawMoves($("#analysis-moves"), result.moves, (entry) => previewMove(entry));
}

// A move's preview: the board after it, and its why. Only the latest preview is drawn; a newer
// one, another position or another tab ends it (and stops its search).
let preview = { token: 0, controller: null };

export function leavePreview() {
  preview.controller?.abort();
  preview = { token: preview.token + 1, controller: null };
  $("#why-output").replaceChildren();
}

function comparisonText(c) {
  if (c.exact) {
    const best = c.rank === 1 ? "a best move" : `best ${moveLabel(c.best)}: ${pct(c.best_win)}`;
    return `Legal. Rank ${c.rank} of ${c.of}: wins ${pct(c.win)} under best play (${best}); exact, every card is known.`;
  }
  const deals = counted(c.samples, "sampled deal");
  if (c.move_samples === 0) return `Legal. Not tried by the search over ${deals}; the best, ${moveLabel(c.best)}, wins ${pct(c.best_win)}.`;
  return `Legal. Rank ${c.rank} of ${c.of}: wins ${pct(c.win)} (best ${moveLabel(c.best)}: ${pct(c.best_win)}) over ${deals}.`;
}

// `figures` (equilibrium.js's moveFigures): the move chosen in an equilibrium, whose line is its
// probability and value there, not the sampled comparison.
async function previewMove(entry, figures = null) {
  leavePreview();
  status("");
  problem(""); // an error of an earlier request (a refused solve, a failed hint) is not about this move
  const token = preview.token;
  const controller = new AbortController();
  preview.controller = controller;
  const current = () => token === preview.token && state.mode === "analysis";
  const position = state.current.notation;
  const out = $("#why-output");
  out.replaceChildren(el("div", "", `After ${moveLabel(entry.text)}:`));
  if (entry.after) {
    const shown = await api("notation", { position: entry.after, labels: "french" });
    if (!current()) return;
    drawBoard($("#board"), shown.position, {});
    setNotation($("#notation-line"), `after ${moveLabel(entry.text)}: ${notationLabel(shown.notation)}`);
    const back = button("Back to the position", { action: "back" });
    back.addEventListener("click", () => { leavePreview(); drawCurrent(); });
    out.append(back);
  }
  if (entry.kind === "turn") return;
  try {
    const why = await api(
      "why",
      // view: from the acting player's view, as the hint's row was (no exact search even where
      // every card is known), so the figures are the row's. A move of an equilibrium shows its
      // figures there instead, and the why its facts alone (one sampled deal is enough).
      { position, move: entry.text, labels: "french", view: true, ...HINT_SETTINGS, ...(figures ? { samples: 1 } : {}) },
      { signal: controller.signal },
    );
    if (!current()) return;
    const c = why.comparison;
    const line = figures ? figuresText(figures) : c ? comparisonText(c) : why.legal ? "Legal." : "Illegal.";
    out.append(el("div", "why-line", line));
    for (const fact of why.facts || []) out.append(el("div", "why-line", moveLabel(fact)));
  } catch (error) {
    if (current() && error.name !== "AbortError") out.append(el("div", "why-line", error.message));
  }
}

// ------------------------------------------------------------------ hints
function drawHints(container, result, onChoose) {
  // hint with "exact", solved: the endgame's equilibrium, its moves' probabilities and values.
  if (isEquilibrium(result)) {
    drawEquilibrium(container, result, onChoose, { solved: true });
    return;
  }
  render(container, () => {
    container.replaceChildren();
    const head = result.evaluation === "static"
      ? "Static evaluation (one move deep), best first: points for the position each move leaves (1000 going out, 10 a card melded, 2 an out kept, -3 a card released that fits another layout, ...), not a win chance"
      // The server's sentence of how it searched, the one `conquian hint` prints.
      : `${result.description} ${result.seconds} s; best first`;
    container.append(el("div", "hint-head", head));
    // Which seed sampled it, where the caller says (the Review tab: the review's for the ply).
    const seed = hintContexts.get(container)?.note;
    if (seed && result.evaluation !== "static") {
      const note = el("div", "hint-seed", seed.text);
      note.dataset.seed = String(seed.seed);
      container.append(note);
    }
    drawNotes(container, result); // with "exact", why the endgame was sampled, not solved
    if (result.verdict && result.moves.length) {
      // The server's sentence, the one `conquian hint` prints (cards in the labels shown).
      const verdict = el("div", "hint-verdict", moveLabel(result.verdict_text || ""));
      verdict.dataset.verdict = result.verdict;
      container.append(verdict);
      if (result.prior_text) container.append(el("div", "hint-prior", moveLabel(result.prior_text)));
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
    const context = hintContexts.get(container);
    const lined = result.moves.some((m) => m.line);
    if (context && result.evaluation !== "static" && !lined && !["running", "early"].includes(container.dataset.state) && result.moves.length) {
      // The lines are searched only when asked: the hint itself stays as fast as it was.
      const lines = button("Show lines", { action: "hint-lines" });
      lines.title = "the line the hint expects after each move shown, on one typical sampled deal";
      lines.addEventListener("click", () => showLines(container, result, onChoose).catch(failed));
      container.append(lines);
    }
    if (result.moves.length > HINT_ROWS) {
      const more = button(state.hintsExpanded ? `Show the top ${HINT_ROWS}` : `Show all ${result.moves.length}`, { action: "hint-all" });
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
    // The server's text, the one `conquian hint` prints (± holds the whole interval).
    const vs = m.vs_best ?? (rank === 0 ? "best" : "");
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
  if (m.line) row.append(lineBlock(m.line, rank === 0));
  if (onChoose) row.addEventListener("click", () => onChoose(m.move));
  return row;
}

// The line the hint expects after a move (a hint's `line`, docs/hint.md): the server's heading
// (on which sampled deal, its result, that the hidden cards are the deal's, not known), then its
// moves, each card drawn from the sampled deal marked * (class "sampled").
function lineBlock(line, open) {
  const details = el("details", "hint-line");
  details.dataset.deal = String(line.deal);
  details.dataset.deals = String(line.deals);
  details.dataset.sampled = String(line.sampled);
  details.open = open;
  const [first = "", ...rest] = line.text || [];
  details.append(el("summary", "", `expected line, on sampled deal ${line.deal} of ${line.deals}`));
  details.append(el("div", "line-head", moveLabel(first.replace(/:$/, "."))));
  const list = el("ol", "line-moves");
  for (const text of rest) {
    const item = el("li");
    // A card marked * ("KS*") is the sampled deal's: shown in the labels, marked.
    String(text).split(/((?:A|[2-7]|J|Q|K)[SHDC])\*/).forEach((part, k) => {
      if (k % 2 === 0) item.append(moveLabel(part));
      else {
        const card = el("span", "sampled", `${label(part)}*`);
        card.title = "drawn on the sampled deal: not known";
        item.append(card);
      }
    });
    list.append(item);
  }
  details.append(list);
  details.addEventListener("click", (event) => event.stopPropagation());
  return details;
}

// The hint containers' requests ({position, progressBar, settings, note}), for their lines asked
// later with the same settings.
const hintContexts = new WeakMap();

// The lines of the moves shown (the hint asked again with "line": the same seed and settings,
// so the same ranking), each drawn under its row.
async function showLines(container, result, onChoose) {
  const context = hintContexts.get(container);
  const shown = state.hintsExpanded ? result.moves.length : Math.min(HINT_ROWS, result.moves.length);
  const trigger = container.querySelector('[data-action="hint-lines"]');
  if (trigger) {
    trigger.disabled = true;
    trigger.textContent = "finding the lines…";
  }
  const signal = startSearch();
  const bar = context.progressBar;
  bar.hidden = false;
  bar.value = 0;
  container.dataset.lines = "running";
  try {
    const lined = await stream(
      "hint",
      { position: context.position, labels: "french", ...context.settings, line: true, top: shown },
      (p) => { bar.max = p.planned || 1; bar.value = p.done; },
      { signal },
    );
    const lines = new Map(lined.moves.map((m) => [m.move, m.line]));
    drawHints(container, { ...result, moves: result.moves.map((m) => (lines.get(m.move) ? { ...m, line: lines.get(m.move) } : m)) }, onChoose);
    container.dataset.lines = "shown";
  } catch (error) {
    container.dataset.lines = "failed";
    if (trigger) {
      trigger.disabled = false;
      trigger.textContent = "Show lines";
    }
    throw error;
  } finally {
    bar.hidden = true;
    endSearch();
  }
}

// A hint of `position` drawn into `container`: the static ranking at once, then the sampled one
// with `settings` (the board's, HINT_SETTINGS, unless given: the Review tab gives a reviewed ply
// the review's); `note` ({seed, text}) says under the head which seed sampled it.
// With "exact" in `settings` the endgame is solved where it is small enough (else sampled, with a
// note): its heads meanwhile say "solving…".
export async function runHint(position, container, progressBar, onChoose, { settings = HINT_SETTINGS, note = null } = {}) {
  if (container.id === "analysis-output" && (await boardInvalid())) return;
  hintContexts.set(container, { position, progressBar, settings, note });
  delete container.dataset.lines;
  const signal = startSearch();
  status(""); // a line about an earlier answer no longer applies
  container.dataset.state = "running";
  const doing = settings.exact ? "solving the endgame…" : "sampling…";
  const pending = (text) => {
    const head = el("div", "hint-head", text);
    head.dataset.pending = "true";
    return head;
  };
  container.replaceChildren(pending(doing));
  try {
    const quick = await api("hint", { position, static: true, labels: "french" });
    drawHints(container, quick, onChoose);
    container.prepend(pending(`${doing} (static ranking meanwhile)`));
    progressBar.hidden = false;
    progressBar.value = 0;
    const result = await stream(
      "hint",
      { position, labels: "french", ...settings },
      (p) => { progressBar.max = p.planned || 1; progressBar.value = p.done; },
      {
        signal,
        onEarly: (early) => {
          drawHints(container, early, onChoose);
          container.dataset.state = "early";
          container.prepend(pending(`${doing} (an early estimate meanwhile)`));
        },
      },
    );
    container.dataset.state = "done";
    drawHints(container, result, onChoose);
    // On a phone the answer is below the board: bring its verdict into view.
    if (window.matchMedia("(max-width: 600px)").matches) container.scrollIntoView({ block: "start", behavior: "smooth" });
  } catch (error) {
    container.dataset.state = "failed";
    // The search did not finish: no "sampling…" line may stay as if it were still running.
    for (const head of container.querySelectorAll('.hint-head[data-pending="true"]')) head.remove();
    if (error.name !== "AbortError") {
      container.prepend(el("div", "hint-head", `no hint: ${error.message}`));
    }
    failed(error);
  } finally {
    progressBar.hidden = true;
    endSearch();
  }
}

// The Hint button: a hint of the board's position; clicking one of its moves previews it (the
// board after it, and its why with the hint's own settings).
export function hintCurrent() {
  // A hint is about the position opened: a move previewed on the board (after a click) is put
  // back first, so the board shows the position the hint ranks.
  if (!state.current) return problem(NO_POSITION);
  leavePreview();
  drawCurrent();
  const position = state.current.notation;
  const settings = { ...HINT_SETTINGS, ...exactOptions($("#hint-exact"), $("#hint-read")) };
  return runHint(position, $("#analysis-output"), $("#hint-progress"), (move, figures) => chosen(position, move, figures), { settings });
}

// A move clicked in an answer about `position` (a hint's row, an equilibrium's, a solved move):
// previewed with its why, and with `figures` its probability and value in the equilibrium.
function chosen(position, move, figures = null) {
  if (state.current?.notation !== position) return; // the answer was about another position
  const entry = listed.notation === position ? listed.moves.find((m) => m.text === move) : null;
  previewMove(entry || { text: move, kind: "", after: null }, figures);
}

// A hint's exact options from a panel's boxes (docs/web.md): Exact sends "exact" (the endgame's
// equilibrium from the view of the player to act, where it is small enough; else the sampled
// hint with a note), and with it Deal by the reading sends "read" (the hidden hands dealt by the
// reading of the cards each player gave up, the sampled fallback reading them too). Unticked,
// nothing is sent: the hint is the board's usual one.
export function exactOptions(exactBox, readBox) {
  if (!exactBox?.checked) return {};
  return readBox?.checked ? { exact: true, read: true } : { exact: true };
}

// The Static hint button: the one-move-deep ranking alone.
export async function staticHint() {
  if (!state.current) return problem(NO_POSITION);
  const result = await api("hint", { position: state.current.notation, static: true, labels: "french" });
  drawHints($("#analysis-output"), result);
}

// ------------------------------------------------------------------ the card table
// The seat whose view a card table takes: the one hand a position shows (a view), else the
// player to act (as hint --cards).
export function cardsSeat(position) {
  const shown = (position.players || []).flatMap((p, k) => (Array.isArray(p.hand) ? [k] : []));
  return shown.length === 1 ? shown[0] : position.to_act ?? 0;
}

// The Cards button: the grids of where the cards the player cannot see may be (docs/hint.md).
export async function cardsInto(out, notation, position) {
  out.dataset.state = "running";
  out.replaceChildren(el("div", "hint-head", "reading where the cards can be…"));
  try {
    const cards = await loadCards(notation, cardsSeat(position));
    drawCardGrids(out, cards);
    out.dataset.state = "done";
  } catch (error) {
    render(out, () => out.replaceChildren(el("div", "hint-head", `no card table: ${moveLabel(error.message)}`)));
    out.dataset.state = "failed";
    if (error.name === "AbortError") throw error;
  }
}

export async function cardsCurrent() {
  if (await boardInvalid()) return;
  problem(""); // an earlier request's error is not about this answer
  await cardsInto($("#analysis-cards"), state.current.notation, state.current.position);
}

// ------------------------------------------------------------------ analysis
export async function analyzeCurrent() {
  if (await boardInvalid()) return;
  problem(""); // an earlier request's error is not about this answer
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

// Who can win: every card known, each player's guarantee against any play of the others (solve
// with "guarantees") and the outcomes of best play it leaves; the server's message otherwise.
export async function guaranteesCurrent() {
  if (await boardInvalid()) return;
  const signal = startSearch();
  const out = $("#analysis-output");
  out.dataset.state = "running";
  render(out, () => out.replaceChildren(el("div", "hint-head", "proving each player's guarantee…")));
  try {
    const request = { position: state.current.notation, guarantees: true, time_limit: 10, labels: "french" };
    const result = await api("solve", request, { signal });
    render(out, () => {
      out.replaceChildren(el("div", "hint-head", "who can win: each player against any play of the others"));
      for (const g of result.guarantees) {
        const row = el("div", "analysis-row", `Player ${g.player}: ${g.result ?? "not proven"}: ${g.meaning}`);
        row.dataset.player = String(g.player);
        out.append(row);
      }
      out.append(el("div", "analysis-row", result.summary));
    });
    out.dataset.state = "done";
  } catch (error) {
    render(out, () => {
      out.replaceChildren();
      if (error.name !== "AbortError") out.append(el("div", "hint-head", `no answer: ${error.message}`));
    });
    out.dataset.state = "failed";
    failed(error);
  } finally {
    endSearch();
  }
}

// All moves' values: every hand known, each move solved (solve with "all_moves"); on a two-player
// view, the endgame's equilibrium (each move's probability and value), with "read" when Deal by
// the reading is ticked; an endgame too large is the server's message, naming the hint.
export async function solveCurrent() {
  if (await boardInvalid()) return;
  const signal = startSearch();
  const out = $("#analysis-output");
  const position = state.current.notation;
  const hidden = (state.current.position.players || []).some((p) => !Array.isArray(p.hand));
  out.dataset.state = "running";
  // Through render, so that a labels switch redraws this and not an answer from before.
  render(out, () => out.replaceChildren(el("div", "hint-head", "solving every move…")));
  try {
    // A view is answered by the endgame's equilibrium, which reads neither all_moves nor time_limit.
    const request = hidden ? { position, labels: "french" } : { position, all_moves: true, time_limit: 10, labels: "french" };
    if (hidden && $("#hint-read").checked) request.read = true;
    const result = await api("solve", request, { signal });
    if (isEquilibrium(result)) {
      drawEquilibrium(out, result, (move, figures) => chosen(position, move, figures), { all: true });
      out.dataset.state = "done";
      return;
    }
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
    out.dataset.state = "done";
  } catch (error) {
    // The values did not come: no "solving every move…" may stay as if it were still running.
    render(out, () => {
      out.replaceChildren();
      if (error.name !== "AbortError") out.append(el("div", "hint-head", `no values: ${moveLabel(error.message)}`));
    });
    out.dataset.state = "failed";
    failed(error);
  } finally {
    endSearch();
  }
}
