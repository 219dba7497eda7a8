"""Entering a game on the board's Review tab in a real browser (Debian's chromium driven by
Playwright, as tests/test_web_browser.py), after a second fresh user's round: a move entered
wrongly taken back (Undo last move) or replaced by promoting a variation to the main line, both
checked by the server; the game being entered kept in the browser and offered back, and asked
for before it is replaced unsaved; messages cleared when what they were about changes, the
form's beside its Start; `pass` typed at a turn read as the move; the pickers of unseen cards
one row per suit; the notation wrapping only at spaces and commas; the hint's moves on one
line; the text box in the labels shown. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import ARGS, CHROMIUM, MANY, WAIT, open_board, sync_api
from test_web_browser_board import symbols
from test_web_browser_view import (
    RECORDS,
    enter_game,
    main_moves,
    saved_record,
    shown,
    tab,
    type_move,
    view_record,
)
from web_support import ARTIFACTS, served

from analyzer.service.requests import answer


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with served(workers=2, queue=4, time_cap=120) as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


SIZES = [(1280, 800), (390, 844)]
BEGIN = ["turn JS", "pass", "pass"]
"""classic-view's first three moves (its viewer is player 1; move 4 turns 6H from the stock)."""


def record_of(header: dict[str, Any], moves: list[str], labels: str = "french") -> list[dict[str, Any]]:
    """The server's record of ``moves`` from the view record's start (``record`` with ``view``):
    its lines, as Save writes them."""
    request = {"id": 1, "cmd": "record", "position": header["start"], "moves": moves, "view": header["view"], "labels": labels}
    reply = answer(json.dumps(request))[0]
    assert reply["ok"], reply
    return [json.loads(line) for line in reply["result"]["record"].splitlines()]


def wait_dialogs(page: Any, count: int) -> None:
    """Wait until the page has shown ``count`` dialogs (a question is asked after the click)."""
    for _ in range(200):
        if len(page.dialogs) >= count:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{len(page.dialogs)} dialogs, expected {count}: {page.dialogs}")


def variations(page: Any) -> dict[str, list[str]]:
    """Each variation of the tree (its line id) and its moves."""
    found = {}
    for box in page.query_selector_all("#review-moves .variation"):
        rows = box.query_selector_all(":scope > .variation-row")
        found[box.get_attribute("data-line")] = [r.get_attribute("data-move") for r in rows]
    return found


def test_a_wrong_move_is_taken_back_and_a_variation_promoted_to_the_main_line(browser: Any, base: str) -> None:
    """The user's case: move 4 entered wrongly (6D turned, not 6H). Undo last move takes it
    back (the record saved loses it); the right move then entered. Entered wrongly again, the
    right one played from the position before it opens a variation, which goes on; a second
    variation inside it; 'Promote to main line' makes the inner one the game's moves, two levels
    up, the moves it replaced kept as variations; Save writes the new main line as the server
    writes it; Undo last move with a variation under the last move asks first."""
    header, _, _ = view_record("classic-view")
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        enter_game(page, header, [(None, "turn JS"), (1, "pass"), (0, "pass")])
        assert page.is_disabled('[data-action="promote-this-variation"]')
        page.click('#entry-cards [data-card="6D"]')  # wrong: 6H was turned
        shown(page, "m:4")
        assert main_moves(page) == [*BEGIN, "turn 6D"]
        page.click('[data-action="entry-undo"]')
        shown(page, "m:3")
        assert main_moves(page) == BEGIN and variations(page) == {}
        assert saved_record(page) == record_of(header, BEGIN)
        assert "Took back move 4" in page.inner_text("#status")
        page.click('#entry-cards [data-card="6H"]')
        shown(page, "m:4")
        assert main_moves(page) == [*BEGIN, "turn 6H"]
        # Wrong again; the right move played from the position before it: a variation.
        page.click('[data-action="entry-undo"]')
        shown(page, "m:3")
        page.click('#entry-cards [data-card="6D"]')
        shown(page, "m:4")
        page.click('#review-moves .review-row[data-ply="4"]')
        shown(page, "m:3")
        page.click('#entry-cards [data-card="6H"]')
        shown(page, "v1:1")
        page.click('#entry-choices [data-move="pass"]')  # player 0, hidden from you
        shown(page, "v1:2")
        page.click('#entry-moves [data-move="pass"]')  # you
        shown(page, "v1:3")
        page.click('#entry-cards [data-card="7D"]')
        shown(page, "v1:4")
        # Inside it, another card turned at its move 7: a variation of the variation.
        page.click('#review-moves .variation-row[data-line="v1"][data-index="3"]')
        shown(page, "v1:3")
        page.click('#entry-cards [data-card="7S"]')
        shown(page, "v2:1")
        assert main_moves(page) == [*BEGIN, "turn 6D"]
        assert page.is_enabled('[data-action="promote-this-variation"]')
        page.screenshot(path=str(ARTIFACTS / "entry-before-promote.png"), full_page=True)
        page.click('[data-action="promote-this-variation"]')
        game = [*BEGIN, "turn 6H", "pass", "pass", "turn 7S"]
        page.wait_for_function(f"() => document.querySelectorAll('#review-moves .review-row').length === {len(game)}", timeout=WAIT)
        shown(page, f"m:{len(game)}")  # the position selected stays the one shown
        assert main_moves(page) == game
        assert sorted(variations(page).values()) == [["turn 6D"], ["turn 7D"]]
        # Each replaced line hangs under the move that took its place.
        assert page.get_attribute('#review-moves .review-row[data-ply="4"] + .variation .variation-row', "data-move") == "turn 6D"
        assert page.get_attribute('#review-moves .review-row[data-ply="7"] + .variation .variation-row', "data-move") == "turn 7D"
        assert page.is_disabled('[data-action="promote-this-variation"]')
        assert saved_record(page) == record_of(header, game)
        page.screenshot(path=str(ARTIFACTS / "entry-promoted.png"), full_page=True)
        # A variation's own Promote (in its head): the old move 7 back in the game.
        page.click('#review-moves .review-row[data-ply="7"] + .variation [data-action="promote-variation"]')
        seventh = "() => document.querySelector('#review-moves .review-row[data-ply=\"7\"]').dataset.move === 'turn 7D'"
        page.wait_for_function(seventh, timeout=WAIT)
        assert main_moves(page) == [*game[:6], "turn 7D"]
        # Undo of a move with a variation under it asks first; dismissed, nothing changes.
        page.answer = False
        page.click('[data-action="entry-undo"]')
        wait_dialogs(page, 1)
        assert page.dialogs[-1][0] == "confirm" and "1 variation" in page.dialogs[-1][1]
        assert main_moves(page) == [*game[:6], "turn 7D"]
        page.answer = True
        page.click('[data-action="entry-undo"]')
        shown(page, "m:6")
        assert main_moves(page) == game[:6] and sorted(variations(page).values()) == [["turn 6D"]]
        assert errors == [], errors
    finally:
        context.close()


def kept(page: Any) -> dict[str, Any] | None:
    """The game kept in the browser's storage, as the page wrote it."""
    text = page.evaluate("() => window.localStorage.getItem('conquian.entering')")
    return json.loads(text) if text else None


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_game_being_entered_is_kept_offered_back_and_asked_for(browser: Any, base: str, width: int, height: int) -> None:
    """After every accepted move the game is in the browser's storage; a button that would
    replace it unsaved asks first (dismissed: it stays); a reload warns, then offers it back,
    and it goes on from its last move; once saved, nothing is asked; Discard forgets it."""
    header, _, _ = view_record("classic-view")
    context, page, errors = tab(browser, base, width, height)
    try:
        open_board(page)
        assert page.is_hidden("#restore-entry")
        enter_game(page, header, [(None, "turn JS"), (1, "pass")])
        stored = kept(page)
        assert stored and stored["moves"] == 2 and stored["unsaved"] is True
        assert [json.loads(line) for line in stored["record"].splitlines()] == record_of(header, BEGIN[:2])
        # Use bundled record, dismissed: the game entered stays.
        page.answer = False
        page.select_option("#review-examples", "classic-missed-win")
        page.click('[data-action="load-record"]')
        wait_dialogs(page, 1)
        assert page.dialogs[-1][0] == "confirm" and "not saved" in page.dialogs[-1][1]
        assert main_moves(page) == BEGIN[:2] and kept(page)["moves"] == 2
        # Open, dismissed: the same.
        page.click('[data-action="open-record"]')
        wait_dialogs(page, 2)
        assert main_moves(page) == BEGIN[:2]
        page.answer = True
        # A reload warns first (the game is not saved), then offers the game back.
        page.reload()
        page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
        assert page.dialogs[-1][0] == "beforeunload"
        assert page.is_visible("#restore-entry")
        offer = page.inner_text("#restore-entry")
        assert "Go on with the game you were entering?" in offer and "2 moves" in offer and "not saved" in offer
        page.screenshot(path=str(ARTIFACTS / f"entry-offered-{width}.png"), full_page=True)
        page.click('[data-action="restore-entry"]')
        shown(page, "m:2")
        assert main_moves(page) == BEGIN[:2] and page.is_hidden("#restore-entry")
        assert page.get_attribute('[data-zone="hand-0"]', "data-hidden") == "true"  # player 1's view again
        page.click('#entry-choices [data-move="pass"]')
        shown(page, "m:3")
        assert kept(page)["moves"] == 3
        # Saved: nothing asked before it is replaced, nor before the page is left.
        assert saved_record(page) == record_of(header, BEGIN)
        assert kept(page)["unsaved"] is False
        asked = len(page.dialogs)
        page.select_option("#review-examples", "classic-missed-win")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        assert len(page.dialogs) == asked and main_moves(page)[:2] == ["pass", "turn 2C"]
        assert kept(page) is None  # no longer the game being entered
        # Another game entered, then the page reopened: Discard forgets it.
        page.click('[data-action="enter-game"]')
        page.click('[data-action="entry-start"]')
        page.wait_for_selector("#entry-form-error:not(:empty)", timeout=WAIT)  # no hand yet
        open_board(page)
        assert page.is_hidden("#restore-entry")  # the form's hand was never started
        enter_game(page, header, [(None, "turn JS")])
        open_board(page)
        assert page.is_visible("#restore-entry")
        page.click('[data-action="discard-entry"]')
        assert page.is_hidden("#restore-entry") and kept(page) is None
        open_board(page)
        assert page.is_hidden("#restore-entry")
        assert errors == [], errors
    finally:
        context.close()


def test_messages_clear_when_what_they_were_about_changes(browser: Any, base: str) -> None:
    """The form's message is beside Start, not under the board, and goes when the hand is fixed
    and the game starts; the composer's message from Out goes when the melds are edited."""
    header, _, _ = view_record("classic-view")
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.click('[data-action="enter-game"]')
        page.select_option("#entry-variant", "classic")
        hand = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KS"]
        for code in hand:
            page.click(f'#entry-palette [data-card="{code}"]')
        page.select_option("#entry-variant", "megajogos")  # 8 cards a hand (R8)
        page.click('[data-action="entry-start"]')
        page.wait_for_selector("#entry-form-error:not(:empty)", timeout=WAIT)
        said = page.inner_text("#entry-form-error")
        assert "8 cards in megajogos: 10 clicked so far (R8)" in said and page.inner_text("#problem") == ""
        start = page.locator('[data-action="entry-start"]').bounding_box()
        near = page.locator("#entry-form-error").bounding_box()
        assert 0 <= near["y"] - start["y"] < 80, (start, near)  # beside Start, not under the board
        page.screenshot(path=str(ARTIFACTS / "entry-form-message.png"), full_page=True)
        page.click('#entry-palette [data-card="QS"]')
        assert page.inner_text("#entry-form-error") == ""  # the hand changed
        page.click('#entry-palette [data-card="KS"]')
        page.click('[data-action="entry-start"]')
        shown(page, "m:0")
        assert page.inner_text("#entry-form-error") == "" and page.inner_text("#problem") == ""
        # The composer: Out refused, then a card clicked into his melds clears the message.
        open_board(page)
        enter_game(page, header, [(None, "turn JS"), (1, "pass"), (0, "pass"), (None, "turn 6H")])
        page.click('#entry-choices [data-action="compose-take"]')
        page.click('#composer-cards [data-card="6H"]')
        page.click('#entry-composer [data-action="composer-out"]')
        page.wait_for_function("() => document.querySelector('#entry-error').textContent !== ''", timeout=WAIT)
        page.click('#composer-cards [data-card="6D"]')
        page.wait_for_selector('#entry-composer .composer-meld [data-card="6D"]', timeout=WAIT)
        assert page.inner_text("#entry-error") == ""
        assert errors == [], errors
    finally:
        context.close()


def test_pass_typed_at_a_turn_is_the_move_and_opens_refusal_has_no_field_name(browser: Any, base: str) -> None:
    """`pass` typed at a turn of the stock is sent as `pass` (refused by the rules, R10, in the
    server's words), not as `turn pass`; a card alone is still the card turned. A record that
    does not read, opened, says why without the API's field name in front."""
    header, _, _ = view_record("classic-view")
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        enter_game(page, header, [(None, "turn JS"), (1, "pass"), (0, "pass")])
        for typed in ("pass", "Pass"):
            request = {"id": 1, "cmd": "record", "position": header["start"], "moves": [*BEGIN, typed], "view": 1, "labels": "french"}
            refused = answer(json.dumps(request))[0]
            assert not refused["ok"] and "(R10)" in refused["error"] and "not a card" not in refused["error"]
            page.evaluate("() => { document.querySelector('#entry-error').textContent = ''; }")
            type_move(page, typed)
            page.wait_for_function("() => document.querySelector('#entry-error').textContent !== ''", timeout=WAIT)
            assert page.inner_text("#entry-error") == symbols(refused["error"].removeprefix("moves: "))
        type_move(page, "6h")
        shown(page, "m:4")
        # Open: the server's reading, without "text: ".
        bad = (RECORDS / "classic-missed-win.jsonl").read_text() + "\nnot json"
        refused = answer(json.dumps({"id": 1, "cmd": "record", "text": bad, "labels": "french"}))[0]
        assert refused["field"] == "text" and refused["error"].startswith("text: ")
        page.fill("#review-text", bad)
        page.click('[data-action="open-record"]')
        page.wait_for_function("() => document.querySelector('#problem').textContent !== ''", timeout=WAIT)
        assert page.inner_text("#problem") == refused["error"].removeprefix("text: ")
        assert errors == [], errors
    finally:
        context.close()


def rows_of(page: Any, selector: str) -> list[list[str]]:
    """The cards of a palette (data-card) by the row they are drawn on, top to bottom."""
    boxes = page.eval_on_selector_all(
        f"{selector} [data-card]",
        "cs => cs.map((c) => [c.dataset.card, Math.round(c.getBoundingClientRect().top), c.getBoundingClientRect().left])",
    )
    rows: dict[int, list[tuple[float, str]]] = {}
    for code, top, left in boxes:
        rows.setdefault(top, []).append((left, code))
    return [[code for _, code in sorted(row)] for _, row in sorted(rows.items())]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_card_turned_is_picked_in_one_row_per_suit(browser: Any, base: str, width: int, height: int) -> None:
    """The cards not seen, to click the card turned: one row per suit (S H D C), each card in
    its rank's column, as the hand's palette lays them out."""
    header, _, _ = view_record("classic-view")
    context, page, errors = tab(browser, base, width, height)
    try:
        open_board(page)
        enter_game(page, header, [])
        rows = rows_of(page, "#entry-cards")
        assert [{code[-1] for code in row} for row in rows] == [{"S"}, {"H"}, {"D"}, {"C"}], rows
        # A rank's cards one above another: the column of each card is its rank's.
        lefts = page.eval_on_selector_all(
            "#entry-cards [data-card]", "cs => cs.map((c) => [c.dataset.card, Math.round(c.getBoundingClientRect().left)])"
        )
        column: dict[str, set[int]] = {}
        for code, left in lefts:
            column.setdefault(code[:-1], set()).add(left)
        assert all(len(x) == 1 for x in column.values()), column
        assert sum(len(r) for r in rows) == 30  # 40 less his 10 cards
        page.screenshot(path=str(ARTIFACTS / f"entry-turn-picker-{width}.png"), full_page=True)
        assert errors == [], errors
    finally:
        context.close()


def line_breaks(page: Any) -> list[str]:
    """Where the notation line wraps: for each break, the text on either side of it."""
    result: list[str] = page.evaluate(
        """() => {
          const line = document.querySelector('#notation-line');
          const chars = [];
          const walk = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
          for (let node = walk.nextNode(); node; node = walk.nextNode()) {
            for (let i = 0; i < node.data.length; i += 1) {
              const range = document.createRange();
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              const box = range.getClientRects()[0];
              if (box) chars.push([node.data[i], Math.round(box.top)]);
            }
          }
          const breaks = [];
          for (let k = 1; k < chars.length; k += 1) {
            const text = (from, to) => chars.slice(Math.max(0, from), to).map((c) => c[0]).join('');
            if (chars[k][1] > chars[k - 1][1] + 2) breaks.push(text(k - 6, k) + '|' + text(k, k + 6));
          }
          return breaks;
        }"""
    )
    return result


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_notation_wraps_only_at_spaces_and_commas_and_hint_moves_keep_one_line(
    browser: Any, base: str, width: int, height: int
) -> None:
    """The notation line breaks after a space or a comma, never inside a card; no sideways
    scroll. The sampled hint's rows: each move on one line where the table has room for it."""
    context, page, errors = tab(browser, base, width, height)
    try:
        open_board(page, MANY)
        breaks = line_breaks(page)
        assert page.inner_text("#notation-line") == MANY
        assert all(b.split("|")[0][-1] in " ," or b.split("|")[1][0] == " " for b in breaks), breaks
        if width < 600:
            assert breaks  # a phone wraps it
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # The preview of a move wraps the same way.
        page.click('#analysis-moves [data-move="pass"]')
        page.wait_for_function("() => document.querySelector('#notation-line').textContent.startsWith('after')", timeout=WAIT)
        assert all(b.split("|")[0][-1] in " ," or b.split("|")[1][0] == " " for b in line_breaks(page)), line_breaks(page)
        page.click('[data-action="hint"]')
        page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
        heights = page.eval_on_selector_all(
            "#analysis-output .hint-row[data-move] .hint-move",
            "ms => ms.map((m) => [m.textContent, m.getBoundingClientRect().height / parseFloat(getComputedStyle(m).fontSize)])",
        )
        assert heights and all(ems < 1.8 for _, ems in heights), heights  # one line: about 1.2 em
        page.screenshot(path=str(ARTIFACTS / f"hint-moves-one-line-{width}.png"), full_page=True)
        assert errors == [], errors
    finally:
        context.close()


def test_the_record_text_box_follows_the_labels_shown(browser: Any, base: str) -> None:
    """The text box holds the record as Save writes it: a game entered in French labels is
    rewritten in Spanish ones when they are switched (R2), and a record opened in the other
    labels is shown in the page's; a text edited by hand is left as it is."""
    header, _, _ = view_record("classic-view")
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        enter_game(page, header, [(None, "turn JS"), (1, "pass")])
        assert json.loads(page.input_value("#review-text").splitlines()[0])["start"]["labels"] == "french"
        page.select_option("#labels", "spanish")
        page.wait_for_function("() => document.querySelector('#review-text').value.includes('\"labels\": \"spanish\"')", timeout=WAIT)
        box = [json.loads(line) for line in page.input_value("#review-text").splitlines()]
        assert box == saved_record(page) == record_of(header, BEGIN[:2], "spanish")
        assert box[1]["move"] == "turn 10e"  # JS (R2)
        # Reviewed after the switch: the same game (its tree kept, nothing asked).
        asked = len(page.dialogs)
        page.fill("#review-samples", "2")
        page.click('#right [data-panel="review"] [data-action="review"]')
        page.wait_for_selector("#review-summary .summary-row[data-player]", timeout=WAIT)
        assert len(page.dialogs) == asked and main_moves(page) == BEGIN[:2]
        # A record written in French labels, opened on a page showing Spanish ones.
        page.select_option("#review-examples", "classic-missed-win")
        page.click('[data-action="load-record"]')
        page.wait_for_function("() => document.querySelector('#review-text').value.includes('\"labels\": \"spanish\"')", timeout=WAIT)
        assert [json.loads(line) for line in page.input_value("#review-text").splitlines()] == saved_record(page)
        # Edited by hand: the box is the user's, not rewritten.
        edited = page.input_value("#review-text") + "\n"
        page.fill("#review-text", edited)
        page.select_option("#labels", "french")
        page.wait_for_function("() => document.querySelector('#review-moves').textContent.includes('♣')", timeout=WAIT)
        assert page.input_value("#review-text") == edited
        assert errors == [], errors
    finally:
        context.close()

