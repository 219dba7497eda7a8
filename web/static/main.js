// The analysis board page (docs/web.md): the tabs (analysis.js, setup-tab.js, play.js, review.js,
// puzzles.js) wired to the page's buttons, the switch between them, and the first position opened.

import { setLabels } from "./cards.js";
import { analyzeCurrent, hintCurrent, loadMoves, openPosition, solveCurrent, staticHint } from "./analysis.js";
import {
  boardClicked, clearBoard, copyNotation, dealPosition, downloadJson, drawEditing, drawExampleList, drawPalette,
  newMeld, openExample, openText, redrawEditing,
} from "./setup-tab.js";
import { drawBotList, gameRecord, newGame, playControls, playHint, saveRecord, takeBack } from "./play.js";
import { drawRecordList, loadRecord, runReview } from "./review.js";
import { drawPuzzleList, revealPuzzle } from "./puzzles.js";
import { $, $$, failed, loadExamples, problem, renders, setModeSwitch, state } from "./shared.js";

function setMode(mode) {
  state.mode = mode;
  for (const b of $$("nav [data-mode]")) b.classList.toggle("active", b.dataset.mode === mode);
  for (const panel of $$(".panel")) panel.hidden = panel.dataset.panel !== mode;
  document.body.dataset.mode = mode;
  problem("");
  if (mode === "setup") {
    drawPalette();
    if (state.current && !state.invalid) state.editing = structuredClone(state.current.position);
    drawEditing(state.invalid || "");
  }
  if (mode === "analysis" && state.current) loadMoves().catch(failed);
}

function wire() {
  for (const b of $$("nav [data-mode]")) b.addEventListener("click", () => setMode(b.dataset.mode));
  const on = (action, fn) => {
    for (const b of $$(`[data-action="${action}"]`)) {
      b.addEventListener("click", () => Promise.resolve().then(fn).catch(failed));
    }
  };
  on("hint", hintCurrent);
  on("static-hint", staticHint);
  on("analyze", analyzeCurrent);
  on("solve", solveCurrent);
  on("stop", () => state.running?.abort());
  on("open-text", () => openText($("#setup-text").value));
  on("open-example", () => openExample($("#setup-examples").value));
  on("deal", dealPosition);
  on("new-meld", newMeld);
  on("copy-notation", copyNotation);
  on("download-json", downloadJson);
  on("new-game", newGame);
  on("play-hint", playHint);
  on("take-back", takeBack);
  on("save-record", saveRecord);
  on("review-game", async () => {
    $("#review-text").value = await gameRecord();
    setMode("review");
    await runReview();
  });
  on("load-record", loadRecord);
  on("review", runReview);
  on("reveal", revealPuzzle);

  $("#setup-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) await openText(await file.text()).catch(failed);
  });
  $("#review-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) $("#review-text").value = await file.text();
  });
  $("#labels").addEventListener("change", (event) => {
    setLabels(event.target.value);
    for (const fn of renders.values()) fn();
    redrawEditing();
  });
  on("clear-board", clearBoard);
  $("#board").addEventListener("click", boardClicked);
}

async function start() {
  setModeSwitch(setMode); // a tab opening another one (Setup a record in Review) goes through setMode
  wire();
  playControls(false); // no game yet
  const given = new URLSearchParams(window.location.search).get("position");
  try {
    await loadExamples();
    drawExampleList();
    drawRecordList();
    drawBotList();
    drawPuzzleList();
    if (given) await openPosition(given, { keepUrl: true });
    else {
      const first = state.examples.positions.find((p) => p.name === "forcing") || state.examples.positions.find((p) => p.valid);
      await openPosition(first.notation, { description: first.description, keepUrl: true });
    }
  } catch (error) {
    failed(error);
  }
  document.body.dataset.ready = "true";
}

start();
