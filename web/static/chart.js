// The review chart (the Review tab): each player's win chance after his decisions, by ply.

import { el, pct, render } from "./shared.js";

// The review chart: each player's win chance after his decisions (0-100%) against the ply, with
// labelled axes, a legend, and marks at mistakes and blunders; a record of one decision is a dot.
export function drawChart(container, review) {
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
    // A view's review (docs/review.md) is about its player alone.
    const seats = review.summary.map((s) => s.player).filter((p) => review.view === null || review.view === undefined || p === review.view);
    for (const player of seats) {
      const none = players.includes(player) ? "" : " (no decision to review)";
      const key = el("span", "legend-key", `■ player ${player}${none}`);
      key.style.color = colours[player % colours.length];
      legend.append(key);
    }
    legend.append(el("span", "legend-key", "● large: mistake or blunder"));
    container.append(el("div", "hint-head", "Each player's win chance after his decisions, by ply"), svg, legend);
  });
}
