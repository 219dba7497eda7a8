// The analysis board page (docs/web.md): the tabs (analysis.js, setup-tab.js, play.js, review.js,
// puzzles.js) wired to the page's buttons, the switch between them, and the first position opened.

import { setLabels } from "./cards.js";
import { analyzeCurrent, cardsCurrent, guaranteesCurrent, hintCurrent, leavePreview, loadMoves, openPosition, solveCurrent, staticHint } from "./analysis.js";
import {
  addressNotOpened, boardClicked, boardKey, clearBoard, copyNotation, dealPosition, dealVariantChosen, downloadJson, drawDealChoices, drawEditing,
  drawExampleList, drawPalette, newMeld, openExample, removeChosen, openText, openUpload, pickShownExample, redrawEditing,
} from "./setup-tab.js";
import {
  drawBotList, drawPlayChoices, drawSeatBots, gameRecord, newGame, nextDeal, playBotChosen, playControls, playHint,
  playMatchChosen, playVariantChosen, saveRecord, takeBack,
} from "./play.js";
import {
  closeThisVariation, copyTreeRecord, discardKept, drawRecordList, enterTyped, loadRecord, offerKept, openRecord, openSharedRecord,
  promoteThisVariation, relabelRecord, restoreKept, reviewControls, reviewHint, reviewKey, runReview, saveTreeRecord, shareTreeRecord,
  startEntry, toggleCards, toggleEntryForm, undoLast,
} from "./review.js";
import { entryPlayersChosen, entryVariantChosen, formError } from "./entry.js";
import { leavingLoses, mayReplace } from "./keep.js";
import { drawPuzzleList, revealPuzzle } from "./puzzles.js";
import {
  $, $$, boardDefaults, drawCurrent, failed, loadExamples, loadVariants, problem, readText, render, renders, setModeSwitch, state,
  status,
} from "./shared.js";

// Each tab shows only what belongs to it: its own board (drawCurrent), no status or problem
// line of the tab left, no preview of a move.
function setMode(mode) {
  state.mode = mode;
  for (const b of $$("nav [data-mode]")) {
    b.classList.toggle("active", b.dataset.mode === mode);
    b.setAttribute("aria-pressed", String(b.dataset.mode === mode));
  }
  for (const panel of $$(".panel")) panel.hidden = panel.dataset.panel !== mode;
  document.body.dataset.mode = mode;
  problem("");
  status("");
  leavePreview();
  render($("#board"), drawCurrent);
  if (mode === "setup") {
    drawPalette();
    if (state.current && !state.invalid) state.editing = structuredClone(state.current.position);
    drawEditing(state.invalid || "");
    pickShownExample();
    // Setup's status says it (its line under the board would say it twice).
    if (state.unopened) addressNotOpened(state.unopened.text, state.unopened.message, { underBoard: false });
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
  on("guarantees", guaranteesCurrent);
  on("cards", cardsCurrent);
  on("stop", () => state.running?.abort());
  on("open-text", () => openText($("#setup-text").value));
  on("open-example", () => openExample($("#setup-examples").value));
  on("deal", dealPosition);
  on("new-meld", newMeld);
  on("remove-card", removeChosen);
  on("copy-notation", copyNotation);
  on("download-json", downloadJson);
  on("new-game", newGame);
  on("next-deal", nextDeal);
  on("play-hint", playHint);
  on("take-back", takeBack);
  on("save-record", saveRecord);
  on("review-game", async () => {
    if (!mayReplace("the game played")) return;
    $("#review-text").value = await gameRecord();
    setMode("review");
    await runReview();
  });
  on("load-record", loadRecord);
  on("open-record", () => openRecord());
  on("review", runReview);
  on("enter-game", toggleEntryForm);
  on("entry-start", startEntry);
  on("entry-enter", enterTyped);
  on("record-save", saveTreeRecord);
  on("record-copy", copyTreeRecord);
  on("record-share", shareTreeRecord);
  on("review-hint", reviewHint);
  on("review-cards", toggleCards);
  on("close-this-variation", closeThisVariation);
  on("promote-this-variation", promoteThisVariation);
  on("entry-undo", undoLast);
  on("restore-entry", restoreKept);
  on("discard-entry", discardKept);
  // A game being entered, not saved, copied or shared: the browser asks before the page is left
  // (it is kept in the browser's storage all the same, offered back when the page opens).
  window.addEventListener("beforeunload", (event) => {
    if (!leavingLoses()) return;
    event.preventDefault();
    event.returnValue = "";
  });
  $("#entry-variant").addEventListener("change", entryVariantChosen);
  $("#entry-players").addEventListener("change", entryPlayersChosen);
  // A message of the form is about what was chosen: another choice clears it.
  $("#entry-form").addEventListener("change", () => formError(""));
  $("#entry-text").addEventListener("keydown", (event) => {
    if (event.key === "Enter") Promise.resolve().then(enterTyped).catch(failed);
  });
  document.addEventListener("keydown", reviewKey);
  on("reveal", revealPuzzle);

  // An upload is read once: the same file chosen again is read again.
  $("#setup-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) await openUpload(file).catch(failed);
  });
  $("#review-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    // A file that is not UTF-8 text is no record: the text box and the record shown stay.
    let text;
    try {
      text = await readText(file);
    } catch (error) {
      failed(error);
      return;
    }
    if (!mayReplace(file.name)) return;
    $("#review-text").value = text;
    await openRecord().catch(failed);
  });
  $("#labels").addEventListener("change", (event) => {
    setLabels(event.target.value);
    // A move previewed on the board is put back first: the redrawn board is the position's.
    leavePreview();
    for (const fn of renders.values()) fn();
    redrawEditing();
    relabelRecord().catch(failed); // the record in the text box as Save writes it
  });
  on("clear-board", clearBoard);
  $("#deal-variant").addEventListener("change", dealVariantChosen);
  $("#play-variant").addEventListener("change", playVariantChosen);
  $("#play-players").addEventListener("change", drawSeatBots);
  $("#play-bot").addEventListener("change", playBotChosen);
  $("#play-match").addEventListener("input", playMatchChosen);
  $("#board").addEventListener("click", boardClicked);
  $("#board").addEventListener("keydown", boardKey);
}

// The bundled example the board opens on (RULES.md's worked example 5); `keepUrl`: the address
// is left as it is (false: it follows the position shown).
async function openFirstExample({ keepUrl = true } = {}) {
  const first = state.examples.positions.find((p) => p.name === "forcing") || state.examples.positions.find((p) => p.valid);
  await openPosition(first.notation, { description: first.description, keepUrl });
}

async function start() {
  setModeSwitch(setMode); // a tab opening another one (Setup a record in Review) goes through setMode
  wire();
  playControls(false); // no game yet
  reviewControls(); // no record yet
  const params = new URLSearchParams(window.location.search);
  const given = params.get("position");
  const shared = params.get("record");
  try {
    await Promise.all([loadExamples(), loadVariants()]);
    drawExampleList();
    drawRecordList();
    drawBotList();
    drawPlayChoices();
    drawDealChoices();
    drawPuzzleList();
    const defaults = boardDefaults();
    if (shared) {
      // A record in the address (docs/web.md): opened in Review, Analysis on its start; one that
      // does not open is said, and Analysis opens the bundled example.
      setMode("review");
      try {
        await openSharedRecord(shared);
      } catch (error) {
        await openFirstExample();
        failed(error);
      }
    } else if (given) {
      try {
        await openPosition(given, { keepUrl: true });
      } catch (error) {
        if (error.status === 0) throw error;
        // The address's position does not open: the board shows the bundled example (every
        // button works on it), the reason is said, and Setup has the address's text to mend.
        await openFirstExample({ keepUrl: false }); // the address follows the board (docs/web.md)
        addressNotOpened(given, error.message);
      }
    } else if (defaults.given) {
      // conquian serve --variant/--players: the board opens on a deal of them.
      await dealPosition({ keepUrl: true });
    } else {
      await openFirstExample();
    }
    pickShownExample(); // the picker shows the example opened, not merely the first of the list
  } catch (error) {
    failed(error);
  }
  offerKept(); // a game being entered when the page was last left
  document.body.dataset.ready = "true";
}

start();
