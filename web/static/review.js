// The Review tab: a game record reviewed by the engine (each player's accuracy, a chart of his win
// chance, every ply with its mark), each ply shown on the board on a click.

import { stream } from "./api.js";
import { moveLabel } from "./cards.js";
import { $, $$, boardPosition, counted, drawCurrent, el, endSearch, failed, pct, problem, render, startSearch, state, status } from "./shared.js";

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
    if (review.match) {
      const row = el("div", "summary-row match-deal",
        `Match record: deal ${review.match.deal} of ${review.match.deals}` +
        (review.match.deals > 1 ? " (choose another with 'deal', then Review)" : ""));
      row.dataset.deal = String(review.match.deal);
      row.dataset.deals = String(review.match.deals);
      summary.append(row);
    }
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
  const review = state.review;
  const shown = await boardPosition(ply.before, { names: review?.players || [] });
  if (state.review !== review) return; // another review began meanwhile
  state.shown.review = shown;
  render($("#board"), drawCurrent);
  let text = `Before ply ${ply.ply}: played ${moveLabel(ply.move)}`;
  if (marked) text += `; best ${moveLabel(marked.best)} (win ${pct(marked.win_best)} against ${pct(marked.win_played)}): ${marked.label}`;
  if (state.mode !== "review") return;
  status(text);
  // On a phone the list of moves is below the board: bring the explanation (and the board under
  // it) into view.
  if (window.matchMedia("(max-width: 600px)").matches) $("#status").scrollIntoView({ block: "start", behavior: "smooth" });
}

// A new review: the last one's results, board and status line go (they were about its record).
function clearReview() {
  state.review = null;
  state.shown.review = null;
  for (const id of ["#review-summary", "#review-chart", "#review-moves"]) $(id).replaceChildren();
  if (state.mode === "review") {
    render($("#board"), drawCurrent);
    status("");
  }
}

export async function runReview() {
  const text = $("#review-text").value;
  if (!text.trim()) {
    problem("paste a record, upload one, or use a bundled one");
    return;
  }
  const signal = startSearch();
  clearReview();
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
    const deal = Number($("#review-deal").value) || 0;
    if (deal > 0) request.deal = deal; // a match record's deal (the server refuses it for a game)
    const review = await stream(
      "review",
      request,
      (p) => { bar.max = p.planned || 1; bar.value = p.done; },
      { signal },
    );
    state.review = review;
    drawReview(review);
    // The board shows the record's start until a ply is chosen.
    if (review.plies.length) {
      const start = await boardPosition(review.plies[0].before, { names: review.players || [] });
      if (state.review === review && !state.shown.review) {
        state.shown.review = start;
        render($("#board"), drawCurrent);
      }
    }
  } catch (error) {
    failed(error);
  } finally {
    bar.hidden = true;
    endSearch();
  }
}

// The list of bundled records.
export function drawRecordList() {
  const records = $("#review-examples");
  records.replaceChildren();
  for (const r of state.examples.records) {
    const option = el("option", "", r.name);
    option.value = r.name;
    records.append(option);
  }
}

// The bundled record chosen, put in the text box.
export function loadRecord() {
  const r = state.examples.records.find((x) => x.name === $("#review-examples").value);
  if (r) $("#review-text").value = r.text;
}
