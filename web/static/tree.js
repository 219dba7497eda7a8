// The Review tab's move tree (docs/web.md), after lichess's analysis board: the game's moves (the
// main line) and the variations played from any of its positions, each kept as a branch under the
// move it is an alternative to, never overwriting the game. A cursor {line, index} points at a
// position: the one before line.moves[index], or with index === line.moves.length the one after
// the line's last move (its end). Moves are French texts, positions notations (the server's).

import { moveLabel } from "./cards.js";
import { el } from "./shared.js";

const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??", best: "", good: "" };

let trees = 0;

// A new tree from its start: `start` the notation, `view` the viewer's seat (a view record, R9's
// `give ?` and hidden hands) or null (every card known), `players` the record's names.
export function newTree({ start, startData, view = null, players = null, variant = "" }) {
  const main = { id: "m", moves: [], parent: null };
  trees += 1;
  return {
    id: trees, version: 0, start, startData, view, players, variant, main, lines: new Map([["m", main]]), next: 1,
    over: false, winner: null, review: null, record: "",
  };
}

// A move of the tree: its text, who made it (null: a turn of the stock, R10), the positions
// before and after it and, after it, whether the deal is over and who won.
export function newNode({ move, player, before, after, over = false, winner = null }) {
  return { move, player, before, after, over, winner, variations: [] };
}

// The position a line starts from: the tree's start, or the one before the move it branches from.
export function lineStart(tree, line) {
  return line.parent ? line.parent.line.moves[line.parent.index].before : tree.start;
}

// The notation of the position at `cursor`.
export function positionAt(tree, { line, index }) {
  if (index < line.moves.length) return line.moves[index].before;
  return line.moves.length ? line.moves[line.moves.length - 1].after : lineStart(tree, line);
}

// The moves played before the line's first move.
function depth(line) {
  return line.parent ? depth(line.parent.line) + line.parent.index : 0;
}

// The ply number (from 1) of the move at `cursor` (of the next move, at a line's end).
export function plyAt({ line, index }) {
  return depth(line) + index + 1;
}

// The moves from the start to `cursor`, in order.
export function pathTo({ line, index }) {
  const own = line.moves.slice(0, index).map((n) => n.move);
  return line.parent ? [...pathTo(line.parent), ...own] : own;
}

// Whether the deal is over at `cursor` (the end of a line whose last move ended it).
export function overAt(tree, { line, index }) {
  return index === line.moves.length && index > 0 && line.moves[index - 1].over;
}

// `node` played at `cursor`; returns the cursor after it. The move the line plays there is
// followed, a variation already starting with it is entered, else a new variation is opened
// under that move; at a line's end the line goes on (the main line: the game entered).
export function addMove(tree, { line, index }, node) {
  changed(tree);
  if (index >= line.moves.length) {
    line.moves.push(node);
    return { line, index: line.moves.length };
  }
  const here = line.moves[index];
  if (here.move === node.move) return { line, index: index + 1 };
  const known = here.variations.find((v) => v.moves[0].move === node.move);
  if (known) return { line: known, index: 1 };
  const variation = { id: `v${tree.next}`, moves: [node], parent: { line, index } };
  tree.next += 1;
  here.variations.push(variation);
  tree.lines.set(variation.id, variation);
  return { line: variation, index: 1 };
}

// A variation closed: it and the variations inside it deleted; the cursor goes to where it
// branched off.
export function closeLine(tree, line) {
  if (!line.parent) return { line, index: 0 };
  changed(tree);
  const from = line.parent.line.moves[line.parent.index];
  from.variations = from.variations.filter((v) => v !== line);
  const drop = (l) => {
    tree.lines.delete(l.id);
    for (const n of l.moves) n.variations.forEach(drop);
  };
  drop(line);
  return { line: line.parent.line, index: line.parent.index };
}

// The main line's last move taken back (as `conquian record`'s undo), with the variations
// played instead of it; returns the cursor at the main line's new end.
export function takeBackLast(tree) {
  const node = tree.main.moves.pop();
  if (!node) return { line: tree.main, index: 0 };
  changed(tree);
  const drop = (l) => {
    tree.lines.delete(l.id);
    for (const n of l.moves) n.variations.forEach(drop);
  };
  node.variations.forEach(drop);
  return { line: tree.main, index: tree.main.moves.length };
}

// The variation `line` made the main line, as lichess's "make main line": at each level, from
// its branch point on, its moves take the place of the line it branched from, whose moves from
// there become a variation under its first move (first among the alternatives there), so that
// no move is lost; the lines branching from the moves moved follow them.
export function promote(tree, line) {
  if (!line.parent) return;
  changed(tree);
  while (line.parent) {
    const { line: up, index: at } = line.parent;
    const anchor = up.moves[at];
    const tail = up.moves.splice(at);
    const old = { id: `v${tree.next}`, moves: tail, parent: { line: up, index: at } };
    tree.next += 1;
    for (const l of tree.lines.values()) {
      if (l === line || !l.parent) continue;
      if (l.parent.line === line) l.parent = { line: up, index: at + l.parent.index };
      else if (l.parent.line === up && l.parent.index > at) l.parent = { line: old, index: l.parent.index - at };
    }
    up.moves.push(...line.moves);
    const head = line.moves[0];
    head.variations = [old, ...anchor.variations.filter((v) => v !== line), ...head.variations];
    anchor.variations = [];
    tree.lines.delete(line.id);
    tree.lines.set(old.id, old);
    line = up;
  }
}

// The cursor at the end of the moves `path` from the start, following the main line and the
// variations; null when the tree has no such line.
export function cursorOf(tree, path) {
  let cursor = { line: tree.main, index: 0 };
  for (const move of path) {
    const { line, index } = cursor;
    if (index >= line.moves.length) return null;
    if (line.moves[index].move === move) {
      cursor = { line, index: index + 1 };
      continue;
    }
    const variation = line.moves[index].variations.find((v) => v.moves[0].move === move);
    if (!variation) return null;
    cursor = { line: variation, index: 1 };
  }
  return cursor;
}

// The cursor one step on (Right), back (Left), at the start (Home) or at the end of its line
// (End); back from a variation's first move is the position it branched from.
export function step(tree, cursor, key) {
  const { line, index } = cursor;
  if (key === "ArrowRight") return index < line.moves.length ? { line, index: index + 1 } : cursor;
  if (key === "ArrowLeft") {
    if (index > 0) return { line, index: index - 1 };
    return line.parent ? { ...line.parent } : cursor;
  }
  if (key === "Home") return { line: tree.main, index: 0 };
  if (key === "End") return { line, index: line.moves.length };
  return cursor;
}

export function sameCursor(a, b) {
  return Boolean(a && b) && a.line === b.line && a.index === b.index;
}

function who(tree, player) {
  if (player === null || player === undefined) return "stock";
  return tree.view === player ? "you" : `P${player}`;
}

// The tree drawn into `container`: the main line's moves (rows data-ply, data-label once
// reviewed), each move's variations indented under it with Promote and Close buttons, and the end
// of each line (the position after its last move). `onSelect(cursor)`, `onPromote(line)` and
// `onClose(line)` are called on clicks; the row of `cursor` is marked selected.
export function drawTree(container, tree, cursor, { onSelect, onClose, onPromote }) {
  if (drawn.get(container) === `${tree.id}:${tree.version}`) {
    // The same moves: the selection and the marks updated in place (the rows stay).
    refresh(container, tree, cursor);
    return;
  }
  drawn.set(container, `${tree.id}:${tree.version}`);
  container.replaceChildren();
  const marks = new Map((tree.review?.moves || []).map((m) => [m.ply, m]));
  const row = (line, index, text, classes = "") => {
    const r = el("div", `tree-row ${classes}`.trim());
    r.dataset.line = line.id;
    r.dataset.index = String(index);
    if (sameCursor(cursor, { line, index })) r.classList.add("selected");
    if (text) r.append(text);
    r.addEventListener("click", () => onSelect({ line, index }));
    return r;
  };
  const drawLine = (line, into) => {
    line.moves.forEach((node, index) => {
      const ply = depth(line) + index + 1;
      const main = line === tree.main;
      const r = row(line, index, null, main ? "review-row" : "variation-row");
      if (main) r.dataset.ply = String(ply);
      r.dataset.move = node.move;
      r.append(el("span", "ply", `${ply}. ${who(tree, node.player)}`), el("span", "review-move", moveLabel(node.move)));
      if (main) mark(r, marks.get(ply));
      into.append(r);
      for (const variation of node.variations) {
        const box = el("div", "variation");
        box.dataset.line = variation.id;
        const head = el("div", "variation-head", `variation from move ${ply}`);
        const close = el("button", "variation-close", "Close");
        close.type = "button";
        close.dataset.action = "close-variation";
        close.dataset.line = variation.id;
        close.title = "delete this variation (the game is not changed)";
        close.addEventListener("click", (event) => {
          event.stopPropagation();
          onClose(variation);
        });
        const up = el("button", "variation-close", "Promote");
        up.type = "button";
        up.dataset.action = "promote-variation";
        up.dataset.line = variation.id;
        up.title = "make this variation the game's moves (the moves it replaces become a variation)";
        up.addEventListener("click", (event) => {
          event.stopPropagation();
          onPromote(variation);
        });
        head.append(up, close);
        box.append(head);
        drawLine(variation, box);
        into.append(box);
      }
    });
    const n = line.moves.length;
    const last = n ? line.moves[n - 1] : null;
    let text;
    if (last && last.over) text = last.winner === null ? "end: the deal is a draw (R18)" : `end: ${who(tree, last.winner) === "you" ? "you win" : `player ${last.winner} wins`}`;
    else if (line === tree.main) text = n ? `→ position after move ${n}` : "→ the start";
    else text = "→ position after the variation (play on from here)";
    into.append(row(line, n, el("span", "tree-end-text", text), "tree-end"));
  };
  drawLine(tree.main, container);
  keepInView(container);
}

// The tree drawn in each container (its id and version): drawn again only when its moves change.
const drawn = new WeakMap();

// A tree's moves changed (a move added, a variation closed): the next drawing is a full one.
export function changed(tree) {
  tree.version += 1;
}

// Drawn again in full at the next drawTree (the labels switched).
export function forget(container) {
  drawn.delete(container);
}

function mark(row, marked) {
  row.querySelector(".mark")?.remove();
  if (!marked) {
    delete row.dataset.label;
    return;
  }
  row.dataset.label = marked.label;
  row.append(el("span", `mark mark-${marked.label}`, `${MARKS[marked.label]} ${marked.label}`.trim()));
}

function refresh(container, tree, cursor) {
  const key = `${cursor.line.id}:${cursor.index}`;
  for (const row of container.querySelectorAll(".tree-row")) {
    row.classList.toggle("selected", `${row.dataset.line}:${row.dataset.index}` === key);
  }
  const marks = new Map((tree.review?.moves || []).map((m) => [m.ply, m]));
  for (const row of container.querySelectorAll(".review-row[data-ply]")) {
    const marked = marks.get(Number(row.dataset.ply));
    if ((marked?.label ?? null) !== (row.dataset.label ?? null)) mark(row, marked);
  }
  keepInView(container);
}

// The selected row kept in view inside the list (the page itself is not scrolled).
function keepInView(container) {
  const selected = container.querySelector(".tree-row.selected");
  if (selected) {
    const box = container.getBoundingClientRect();
    const r = selected.getBoundingClientRect();
    if (r.top < box.top || r.bottom > box.bottom) container.scrollTop += r.top - box.top - box.height / 2;
  }
}
