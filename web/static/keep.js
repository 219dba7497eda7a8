// The game being entered kept in the browser (docs/web.md, "Entering a game"): its record (the
// main line, French labels) in localStorage after every change of its main line, offered back
// when the page opens again; and the question asked before a button replaces it unsaved.
// A tree is the game being entered (`tree.entered`) once its main line was changed on the page
// (started on the form, a move added at its end, taken back, a variation promoted); `tree.unsaved`
// until it is saved, copied or shared.

import { state } from "./shared.js";

const KEY = "conquian.entering";

// The tree's game written to the browser's storage: {version, record, moves, variant, view,
// over, unsaved, time}. A browser that keeps nothing (storage full or refused) is not an error:
// the game is still on the page.
export function keepGame(tree) {
  const moves = tree.main.moves.length;
  const last = moves ? tree.main.moves[moves - 1] : null;
  const kept = {
    version: 1,
    record: tree.record,
    moves,
    variant: tree.startData?.variant || "",
    view: tree.view,
    over: Boolean(last?.over),
    unsaved: Boolean(tree.unsaved),
    time: new Date().toISOString(),
  };
  try {
    window.localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // no storage: nothing kept
  }
}

// The game kept, or null (none, or not one this page wrote).
export function keptGame() {
  let kept = null;
  try {
    kept = JSON.parse(window.localStorage.getItem(KEY) || "null");
  } catch {
    kept = null;
  }
  if (!kept || kept.version !== 1 || typeof kept.record !== "string" || !kept.record.trim()) return null;
  return kept;
}

export function dropKept() {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // no storage
  }
}

// The game kept, in words: "classic, player 0's view, 12 moves, not saved (changed 14:02)".
export function keptText(kept) {
  const when = new Date(kept.time);
  const time = Number.isNaN(when.getTime()) ? "" : ` (changed ${when.toLocaleString()})`;
  const view = kept.view === null || kept.view === undefined ? "every card known" : `player ${kept.view}'s view`;
  const moves = `${kept.moves} move${kept.moves === 1 ? "" : "s"}`;
  return `${kept.variant}, ${view}, ${moves}${kept.over ? ", the deal over" : ""}, ${kept.unsaved ? "not saved, copied or shared" : "saved"}${time}`;
}

// Whether the game shown may be replaced by `what` (a record opened, a new game, a review): asked
// when it is a game being entered that was not saved, copied or shared since its last change.
// Once replaced it is no longer the game being entered: it leaves the browser's storage.
export function mayReplace(what) {
  const tree = state.tree;
  if (!tree || !tree.entered) return true;
  if (tree.unsaved) {
    const n = tree.main.moves.length;
    const ok = window.confirm(
      `The game you are entering (${n} move${n === 1 ? "" : "s"}) is not saved, copied or shared. ` +
      `Replace it with ${what}? It will be lost.`,
    );
    if (!ok) return false;
  }
  tree.entered = false;
  dropKept();
  return true;
}

// Whether the page should warn before it is left (reload, closing the tab): a game being entered
// not saved, copied or shared (it is kept in the browser all the same).
export function leavingLoses() {
  return Boolean(state.tree?.entered && state.tree.unsaved);
}
