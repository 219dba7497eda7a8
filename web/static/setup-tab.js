// The Setup tab: a position opened from text, a file, an example or a new deal, and edited on
// the board (a palette card placed on a zone) and with setup.js's controls, checked at each change.

import { api, messageOf } from "./api.js";
import { drawBoard, showProblem, zoneOf } from "./board.js";
import { DECK, cardElement, cardName, frenchCode, label, moveLabel, problemLabel } from "./cards.js";
import { openPosition } from "./analysis.js";
import { cardMoved, drawSetupControls, emptyPosition, optionOf } from "./setup.js";
import {
  $, boardDefaults, defaultPlayers, download, drawCurrent, el, failed, fillPlayersSelect, fillVariantSelect, problem, readText, render, state,
  status, switchMode,
} from "./shared.js";

// ------------------------------------------------------------------ open
function readInput(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    const data = JSON.parse(trimmed);
    if (data && data.type === "puzzle") return { input: data.position, description: String(data.description || data.title || "") };
    const inner = data && data.position && typeof data.position === "object" ? data.position : data;
    return { input: data, description: String(data.description ?? inner.description ?? "") };
  }
  return { input: trimmed, description: "" };
}

export async function openText(text) {
  state.unopened = null; // a text opened here replaces the address's
  const first = text.trim().split("\n")[0] || "";
  if (first.includes('"conquian-record"') || first.includes('"conquian-match"')) {
    $("#review-text").value = text;
    switchMode("review");
    status(first.includes('"conquian-match"') ? "a match record: opened in Review (its first deal is reviewed)" : "a game record: opened in Review");
    return;
  }
  let parsed;
  try {
    parsed = readInput(text);
  } catch (error) {
    problem(`not JSON: ${error.message}`);
    notOpened(`not JSON: ${error.message}`);
    return;
  }
  try {
    await openPosition(parsed.input, { description: parsed.description });
    showWrittenLabels(parsed.input);
    editOpened();
    pickShownExample();
  } catch (error) {
    // Shown on the board where the data can be drawn, the message by its zone: the position
    // being edited, invalid until it is fixed (Analysis refuses it meanwhile).
    const data = parsed.input && typeof parsed.input === "object" && parsed.input.position && typeof parsed.input.position === "object"
      ? parsed.input.position
      : parsed.input;
    // Only a position the board can draw (a list of player objects) is opened for editing;
    // anything else ({"variant": "classic"}, a list, ...) gets the server's message alone.
    const drawable = data && typeof data === "object" && Array.isArray(data.players)
      && data.players.length > 0 && data.players.every((p) => p && typeof p === "object" && !Array.isArray(p));
    if (drawable) {
      state.editing = structuredClone(data);
      state.invalid = error.message;
      if (state.current) state.current.description = parsed.description;
      $("#description").textContent = parsed.description;
      $("#analysis-output").replaceChildren();
      $("#analysis-cards").replaceChildren();
      $("#analysis-moves").replaceChildren();
      drawEditing(error.message);
    } else {
      problem(messageOf(error)); // without the server's field prefix, as the status line says it
      notOpened(messageOf(error));
    }
  }
}

// The text opened is no position the board can draw: the board keeps the one before, and the
// validity line says so (it follows the last text opened, not the board's earlier position).
// The labels a text opened was written in (a notation's second field, a file's "labels"), or
// null where it does not say: the board then shows the position in them, as it was written (R2).
function writtenLabels(input) {
  if (typeof input === "string") {
    const field = /^\s*\S+\s+(french|spanish)\s/i.exec(input);
    return field ? field[1].toLowerCase() : null;
  }
  const inner = input && typeof input.position === "object" && input.position ? input.position : input;
  const value = inner && typeof inner.labels === "string" ? inner.labels.toLowerCase() : null;
  return value === "french" || value === "spanish" ? value : null;
}

function showWrittenLabels(input) {
  const written = writtenLabels(input);
  const select = $("#labels");
  if (!written || select.value === written) return;
  select.value = written;
  select.dispatchEvent(new Event("change")); // every view redrawn, as a switch by hand does
}

function notOpened(message, shown = "the board still shows the position before") {
  const line = $("#edit-status");
  line.textContent = `Not opened: ${moveLabel(message)}; ${shown}.`;
  line.dataset.valid = "false";
  line.dataset.notOpened = message; // as the server wrote it: a labels switch writes it again
}

// The address's position did not open (main.js): said under the board and in Setup's status,
// its text put in Setup's box to mend, until another position is opened or edited.
export function addressNotOpened(text, message, { underBoard = true } = {}) {
  state.unopened = { text, message };
  if (underBoard) problem(`The address's position did not open: ${problemLabel(message)}. The bundled example is shown instead.`);
  $("#setup-text").value = text;
  notOpened(problemLabel(message), "the board shows the bundled example");
}

// An uploaded file opened as a text (a file that is not UTF-8 is not opened: said so).
export async function openUpload(file) {
  let text;
  try {
    text = await readText(file);
  } catch (error) {
    problem(error.message);
    notOpened(error.message);
    return;
  }
  await openText(text);
}

export async function openExample(name) {
  const example = state.examples.positions.find((p) => p.name === name);
  if (!example) return;
  if (example.valid) {
    await openPosition(example.notation, { description: example.description });
    editOpened();
  }
  else await openText(JSON.stringify(example.data));
  $("#setup-examples").value = name;
}

// The list of bundled positions to open; it shows the example on the board, if one is.
export function drawExampleList() {
  const select = $("#setup-examples");
  const none = el("option", "", "choose an example…");
  none.value = "";
  none.disabled = true;
  select.replaceChildren(none);
  for (const p of state.examples.positions) {
    const option = el("option", "", `${p.name}${p.valid ? "" : " (invalid, on purpose)"}`);
    option.value = p.name;
    select.append(option);
  }
  pickShownExample();
}

// The example picker set to the bundled example the board shows (none: its prompt).
export function pickShownExample() {
  const select = $("#setup-examples");
  const shown = state.current && !state.invalid
    ? state.examples?.positions.find((p) => p.valid && p.notation === state.current.notation)
    : null;
  select.value = shown ? shown.name : "";
}

// The New deal controls: every preset, and the player counts of the one chosen (the server's
// --variant and --players first).
export function drawDealChoices() {
  const { variant } = boardDefaults();
  fillVariantSelect($("#deal-variant"), variant);
  dealVariantChosen();
}

// Another variant for a new deal: its own player counts, its own count chosen.
export function dealVariantChosen() {
  const variant = $("#deal-variant").value;
  fillPlayersSelect($("#deal-players"), variant, defaultPlayers(variant));
}

// The Deal button: a new deal of the variant, player count and seed chosen, after that many moves.
export async function dealPosition({ keepUrl = false } = {}) {
  const result = await api("deal", {
    variant: $("#deal-variant").value,
    players: Number($("#deal-players").value),
    seed: Number($("#deal-seed").value) || 0,
    after: Number($("#deal-after").value) || 0,
    labels: "french",
  });
  await openPosition(result.notation, { keepUrl });
  editOpened();
  pickShownExample();
}

// ------------------------------------------------------------------ edit
// A position opened in Setup is the one edited: the board's zones and every control drawn
// from it (its variant, player count, phase, ...), not from the position before.
function editOpened() {
  if (state.mode !== "setup" || !state.current) return;
  state.editing = structuredClone(state.current.position);
  drawEditing("");
}

export function drawEditing(message) {
  const position = state.editing;
  try {
    drawBoard($("#board"), position, {});
    zonesAsButtons();
  } catch {
    $("#board").replaceChildren();
  }
  markPlaced();
  delete $("#edit-status").dataset.notOpened;
  $("#edit-status").textContent = message ? `Not valid: ${problemLabel(message)}` : "Valid position.";
  $("#edit-status").dataset.valid = message ? "false" : "true";
  const onControl = drawSetupControls(
    $("#setup-controls"), position, (fn) => editPosition(fn).catch(failed), message, state.variants?.variants, { forceable },
  );
  showProblem($("#board"), zoneOf(message), onControl ? "" : message, $("#problem"));
  const line = $("#notation-line");
  if (message) {
    line.textContent = `invalid position: ${problemLabel(message)}`;
    line.dataset.invalid = "true";
  } else {
    delete line.dataset.invalid;
  }
}

// An edit makes another position: the notes of the one opened (its description) and the
// analysis of it no longer apply.
function edited() {
  state.unopened = null; // the address's text is no longer what Setup is about
  status(""); // a line about the action before no longer applies
  if (state.current) state.current.description = "";
  $("#description").textContent = "";
  $("#analysis-output").replaceChildren();
  $("#analysis-cards").replaceChildren();
  $("#why-output").replaceChildren();
}

// The players the player to act may force with the centre card (R14): the server's legal moves
// of `position` (none when it is not valid).
async function forceable(position) {
  try {
    const result = await api("moves", { position, labels: "french" });
    return result.moves.filter((m) => m.kind === "force").map((m) => m.player);
  } catch {
    return [];
  }
}

// While the server checks an edit, the status says so: neither valid nor invalid yet.
function checking() {
  const line = $("#edit-status");
  line.textContent = "Checking the position...";
  line.dataset.valid = "checking";
}

// The position an edit starts from: the board's, else (none opened) an empty classic table.
function startingEdit() {
  return state.current ? structuredClone(state.current.position) : emptyPosition("classic", state.variants?.variants, 2);
}

// Change the position being edited with `fn` (which may return a new one, or a promise of
// one) and check it.
async function editPosition(fn) {
  if (!state.editing) state.editing = startingEdit();
  edited();
  checking();
  try {
    const replaced = await fn(state.editing);
    if (replaced) state.editing = replaced;
  } catch (error) {
    if (error.refused) {
      // A value refused before any change: the position and its validity stay as they were.
      drawEditing(state.invalid || "");
      $("#edit-status").textContent = `Not changed: ${error.message}.`;
      return;
    }
    state.invalid = error.message;
    drawEditing(error.message);
    return;
  }
  await validateEditing();
}

// The 40 cards to place, each a button (Tab to it, Enter or Space chooses it); the chosen one
// is marked (aria-pressed) without drawing the palette again, so the focus stays on it.
export function drawPalette() {
  const palette = $("#palette");
  render(palette, () => {
    palette.replaceChildren();
    for (const code of DECK) {
      const card = cardElement(code, { tag: "button" });
      card.addEventListener("click", () => {
        state.chosenCard = state.chosenCard === code ? null : code;
        markChosen();
        status(state.chosenCard ? `${label(code)} chosen: click a zone on the board (or Tab to it and press Enter)` : "");
      });
      palette.append(card);
    }
    markChosen();
    markPlaced();
  });
}

// Where each card of `position` is (its French code -> [zone, words]): the zone as the board
// names it (data-zone) and the place in words for the palette's titles.
function placedCards(position) {
  const where = new Map();
  const put = (cards, zone, words) => {
    for (const c of Array.isArray(cards) ? cards : []) {
      const code = frenchCode(c);
      if (code && !where.has(code)) where.set(code, [zone, words]);
    }
  };
  (Array.isArray(position?.players) ? position.players : []).forEach((player, p) => {
    put(player?.hand, `hand-${p}`, `in player ${p}'s hand`);
    for (const meld of Array.isArray(player?.layout) ? player.layout : []) put(meld, `layout-${p}`, `in player ${p}'s layout`);
  });
  if (position?.centre) put([position.centre.card], "centre", "the centre card");
  put(position?.stock, "stock", "in the stock");
  put(position?.dead, "dead", "a dead card");
  // A hidden hand's card chosen to pass (R9) is in the position though no zone shows it.
  (Array.isArray(position?.exchange?.chosen) ? position.exchange.chosen : []).forEach((c, p) => {
    put(c ? [c] : [], `chosen-${p}`, `chosen by player ${p} to pass (R9)`);
  });
  return where;
}

// The palette's cards already placed are dimmed (data-placed: the zone), each titled with where
// it is: choosing one moves it.
function markPlaced() {
  const where = placedCards(state.editing || state.current?.position);
  for (const card of $("#palette").querySelectorAll("[data-card]")) {
    const code = card.dataset.card;
    const place = where.get(code);
    card.classList.toggle("placed", Boolean(place));
    if (place) card.dataset.placed = place[0];
    else delete card.dataset.placed;
    card.title = place ? `${label(code)}: ${place[1]} (choose it to move it)` : `${label(code)}: not placed`;
    card.setAttribute("aria-label", place ? `${cardName(code)}, ${place[1]}` : cardName(code));
  }
}

function markChosen() {
  for (const card of $("#palette").querySelectorAll("[data-card]")) {
    const chosen = card.dataset.card === state.chosenCard;
    card.classList.toggle("chosen", chosen);
    card.setAttribute("aria-pressed", String(chosen));
  }
}

function removeCard(position, code) {
  const same = (c) => frenchCode(c) === code;
  for (const player of position.players) {
    if (Array.isArray(player.hand)) player.hand = player.hand.filter((c) => !same(c));
    player.layout = (player.layout || []).map((m) => m.filter((c) => !same(c))).filter((m) => m.length);
  }
  if (Array.isArray(position.stock)) position.stock = position.stock.filter((c) => !same(c));
  position.dead = (position.dead || []).filter((c) => !same(c));
  if (position.centre && same(position.centre.card)) position.centre = null;
}

// A centre card placed by a click: the upcard turned by the dealer where the rules turn one and
// nothing has been played yet (R10a), else a card turned by the player to act (R10).
function newCentre(position, code) {
  const fresh = position.players.every((p) => !(p.layout || []).length) && !(position.dead || []).length;
  if (fresh && optionOf(position, state.variants?.variants, "upcard", false) === true) {
    return { card: code, kind: "upcard", source: position.dealer ?? 0, declined: [] };
  }
  return { card: code, kind: "turned", source: position.to_act, declined: [] };
}

async function placeCard(zoneName) {
  if (!state.chosenCard) {
    status("click a card of the palette first");
    return;
  }
  if (!state.editing) state.editing = startingEdit();
  const position = state.editing;
  const code = state.chosenCard;
  const [kind, seat] = zoneName.split("-");
  const player = seat === undefined ? null : position.players[Number(seat)];
  if (player && kind === "hand" && !Array.isArray(player.hand)) {
    status(`player ${seat}'s hand is hidden: give his cards first`);
    return;
  }
  if (kind === "stock" && !Array.isArray(position.stock)) {
    status("the stock order is hidden: its cards cannot be placed");
    return;
  }
  const centred = kind === "centre" && position.centre ? frenchCode(position.centre.card) : null;
  const displaced = centred !== code ? centred : null; // the centre card a placed card replaces
  removeCard(position, code);
  edited(); // "... chosen: click a zone" is done
  // One centre card at a time: the one it replaces leaves the board, and the line says so.
  if (displaced) status(`${label(displaced)} taken off the board: ${label(code)} is the centre card now`);
  if (kind === "hand") player.hand.push(code);
  else if (kind === "layout") {
    if (!player.layout.length || state.newMeld) player.layout.push([]);
    player.layout[player.layout.length - 1].push(code);
    state.newMeld = false;
  } else if (kind === "stock") position.stock.push(code);
  else if (kind === "dead") position.dead.push(code);
  else if (kind === "centre") position.centre = newCentre(position, code);
  cardMoved(position, code, zoneName); // a chosen card moved out of its chooser's hand (R9)
  await validateEditing();
}

let checks = 0; // edits sent to the server to check; only the last one's answer is shown

async function validateEditing() {
  const position = state.editing;
  const ticket = ++checks;
  checking();
  try {
    const result = await api("notation", { position, labels: "french" });
    if (ticket !== checks) return; // a later edit is being checked: this answer is out of date
    state.current = { ...state.current, notation: result.notation, position: result.position, over: false, description: "", names: [] };
    state.editing = structuredClone(result.position);
    state.invalid = null;
    state.unchecked = null;
    drawCurrent();
    drawEditing("");
    problem("");
    pickShownExample();
    const url = new URL(window.location.href); // the address bar follows the position shown
    url.searchParams.set("position", result.notation);
    url.searchParams.delete("record"); // the address holds what is shown: this position
    window.history.replaceState(null, "", url);
  } catch (error) {
    if (ticket !== checks) return;
    if (error.status === 0) {
      // The server could not be reached: the edit is not known to be invalid, only unchecked
      // (checked again before any analysis, and by the next edit).
      state.unchecked = error.message;
      problem(`The edit could not be checked: ${error.message}`);
      $("#edit-status").textContent = "Not checked: the server could not be reached.";
      $("#edit-status").dataset.valid = "unchecked";
      return;
    }
    state.unchecked = null;
    state.invalid = error.message;
    $("#analysis-moves").replaceChildren();
    $("#analysis-output").replaceChildren();
    $("#analysis-cards").replaceChildren();
    drawEditing(error.message);
  }
}

// Analysis asks Setup to check an edit again that the server could not check (see boardInvalid).
state.recheck = validateEditing;

// A click on the board in Setup: the chosen card placed on the zone clicked.
export function boardClicked(event) {
  if (state.mode !== "setup") return;
  const zone = event.target.closest("[data-zone]");
  if (zone) placeCard(zone.dataset.zone).catch(failed);
}

// Enter or Space on a zone in Setup (each zone is a button there): the chosen card placed on it,
// and the focus back on the zone once the board is drawn again.
export function boardKey(event) {
  if (state.mode !== "setup" || (event.key !== "Enter" && event.key !== " ")) return;
  const zone = event.target.closest("[data-zone]");
  if (!zone) return;
  event.preventDefault();
  const name = zone.dataset.zone;
  placeCard(name).then(() => $(`#board [data-zone="${name}"]`)?.focus()).catch(failed);
}

// The zones of the board edited, reachable by the keyboard (Tab) as buttons.
function zonesAsButtons() {
  for (const zone of $("#board").querySelectorAll("[data-zone]")) {
    zone.tabIndex = 0;
    zone.setAttribute("role", "button");
    zone.setAttribute("aria-label", `place the chosen card: ${zone.dataset.zone.replace("-", " of player ")}`);
  }
}

// The position being edited drawn again (the labels switched), with the problem it shows.
export function redrawEditing() {
  // The problem as the server wrote it (French codes), so that it is shown in the new labels.
  const unopened = $("#edit-status").dataset.notOpened;
  if (unopened !== undefined && state.editing && state.mode === "setup") {
    drawEditing(state.invalid || "");
    notOpened(unopened);
    return;
  }
  if (!state.editing || state.mode !== "setup") return;
  const { valid } = $("#edit-status").dataset;
  const line = $("#edit-status").textContent; // a check under way, or one the server missed
  drawEditing(valid === "false" ? state.invalid || $("#problem").textContent : "");
  if (valid === "checking" || valid === "unchecked") {
    $("#edit-status").textContent = line;
    $("#edit-status").dataset.valid = valid;
  }
}

export function newMeld() {
  state.newMeld = true;
  status("the next card placed in a layout starts a new meld");
}

// The chosen palette card taken off the board: out of the hand, layout, stock, dead cards or
// centre it was in (a meld left empty goes with it), and no longer chosen to pass (R9).
export async function removeChosen() {
  const code = state.chosenCard;
  if (!code) {
    status("click a card of the palette first");
    return;
  }
  if (!placedCards(state.editing || state.current?.position).has(code)) {
    status(`${label(code)} is not on the board`);
    return;
  }
  await editPosition((position) => {
    removeCard(position, code);
    cardMoved(position, code, null); // into no hand: no longer chosen to pass (R9)
  });
  status(`${label(code)} taken off the board`);
}

export function clearBoard() {
  // The same variant, player count and custom rules; its notes gone with the cards.
  return editPosition((p) => {
    const empty = emptyPosition(p.variant || "classic", state.variants?.variants, p.players.length);
    if (p.rules) empty.rules = p.rules;
    return empty;
  });
}

// ------------------------------------------------------------------ save
export async function copyNotation() {
  if (!state.current) return status("no position is open: nothing to copy");
  // The notation is the server's writing of a valid position: an edited board that is not valid
  // (or not yet checked) has none, and the last valid position's would not be what is shown.
  if (state.editing && (state.invalid || state.unchecked)) {
    return status("the board's position is not valid: no notation to copy (Download JSON saves it as it is)");
  }
  const text = state.current.notation;
  $("#setup-text").value = text;
  try {
    await navigator.clipboard.writeText(text);
    status("notation copied");
  } catch {
    status("notation put in the text box above");
  }
}

export function downloadJson() {
  // What the board shows: the position being edited, valid or not (nothing the user entered is
  // lost), else the position opened.
  const shown = state.editing || state.current?.position;
  if (!shown) return status("no position is open: nothing to download");
  download("position.json", `${JSON.stringify(shown, null, 1)}\n`, "application/json");
  if (state.editing && (state.invalid || state.unchecked)) status("downloaded as it is on the board, not valid yet");
}
