"""The board in a real browser (Debian's chromium driven by Playwright, as tests/test_web_browser.py):
one label style for every card and move the page writes, an all-moves request that fails and the
preview after it, the phone's review and hint rows, and the setup palette marking the cards
placed. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import ARGS, CHROMIUM, MANY, WAIT, cards, open_board, sync_api
from web_support import ARTIFACTS, FORCING, served

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CODE = re.compile(r"(?<![\w♠♥♦♣])(?:A|[2-7]|J|Q|K)[SHDC](?![\w♠♥♦♣])")
"""A card written as its French code ("3C"): the page writes "3♣" wherever it shows a card."""

HIDDEN = FORCING.replace("KS,KH[", "2[", 1)
"""Worked example 5 with player 0's hand hidden (a count): its endgame is far too large to solve."""

# What the page writes about cards and moves (not the notation line, which is the notation).
SHOWN = ["#analysis-output", "#analysis-moves", "#why-output", "#status", "#problem", "#board",
         "#puzzle-moves", "#puzzle-result", "#puzzle-log", "#puzzle-answer", "#review-moves"]  # fmt: skip


def symbols(text: str) -> str:
    """A French move text as the page shows it with French labels: "pay 4S" -> "pay 4♠"."""
    return CODE.sub(lambda m: m.group(0)[:-1] + SYMBOLS[m.group(0)[-1]], text)


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


def tab(browser: Any, base: str, width: int, height: int) -> tuple[Any, Any, list[str]]:
    """A new page of the board at ``width`` x ``height`` (a phone's when 390 wide), and the list
    its script errors go to."""
    phone = {"is_mobile": True, "has_touch": True} if width <= 600 else {}
    context = browser.new_context(viewport={"width": width, "height": height}, **phone)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.base = base
    return context, page, errors


def codes_shown(page: Any) -> dict[str, list[str]]:
    """The French card codes written in each part of the page that shows cards or moves."""
    found = {}
    for selector in SHOWN:
        text = page.inner_text(selector)
        if CODE.search(text):
            found[selector] = CODE.findall(text)
    return found


def test_every_card_and_move_is_written_as_the_buttons_write_it(browser: Any, base: str) -> None:
    """French labels: hint rows, the verdict, reasons, the why, puzzle moves, answers and log, and
    review rows say "3♣" as the move buttons do, never "3C"; Spanish labels: "3b" everywhere."""
    context, page, errors = tab(browser, base, 1280, 800)
    try:
        open_board(page, MANY)
        page.wait_for_selector("#analysis-moves [data-move]", timeout=WAIT)
        page.click('[data-action="hint"]')
        page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
        rows = page.locator("#analysis-output .hint-row[data-move]")
        for k in range(rows.count()):
            row = rows.nth(k)
            assert row.locator(".hint-move").inner_text() == symbols(row.get_attribute("data-move"))
        rows.nth(0).locator("summary").click()  # the reasons shown
        take = page.locator("#analysis-moves .move-group .move-kind").first.inner_text()
        assert "♦" in take or "♠" in take or "♥" in take or "♣" in take, take  # the buttons' style
        rows.nth(1).click()
        page.locator("#why-output .why-line").first.wait_for(timeout=WAIT)
        assert codes_shown(page) == {}, codes_shown(page)
        page.screenshot(path=str(ARTIFACTS / "labels-hint.png"), full_page=True)
        # A puzzle: a wrong move, the answer revealed, a right move played on.
        page.click('nav [data-mode="puzzles"]')
        page.click('[data-puzzle="classic-win-1"]')
        page.wait_for_selector("#puzzle-moves [data-move]", timeout=WAIT)
        page.click('#puzzle-moves [data-move="pass"]')
        page.wait_for_selector('#puzzle-result[data-correct="false"]', timeout=WAIT)
        page.click('[data-action="reveal"]')
        page.wait_for_selector("#puzzle-answer .answer", timeout=WAIT)
        assert "pay 4♠" in page.inner_text("#puzzle-answer")
        move = "take [3H 4H 5H] [5D 6D 7D JD] [JS JH JC] pay 4S"
        page.click(f'#puzzle-moves [data-move="{move}"]')
        page.wait_for_selector('#puzzle-result[data-correct="true"]', timeout=WAIT)
        page.wait_for_selector("#puzzle-log .log-line", timeout=WAIT)
        assert page.inner_text("#puzzle-result").startswith(symbols(move))
        assert codes_shown(page) == {}, codes_shown(page)
        page.screenshot(path=str(ARTIFACTS / "labels-puzzle.png"), full_page=True)
        # A record reviewed: its moves and the explanation of a ply.
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-missed-win")
        page.click('[data-action="load-record"]')
        page.fill("#review-samples", "2")
        page.click('#right [data-panel="review"] [data-action="review"]')
        page.locator('.review-row[data-ply="7"]').wait_for(timeout=WAIT)
        page.click('.review-row[data-ply="7"]')
        page.wait_for_function("() => document.querySelector('#status').innerText.includes('Before ply 7')", timeout=WAIT)
        assert codes_shown(page) == {}, codes_shown(page)
        # Spanish labels: the same texts in Spanish, no symbol and no French code left.
        page.select_option("#labels", "spanish")
        spanish = page.inner_text("#review-moves")
        assert not CODE.search(spanish) and not re.search("[♠♥♦♣]", spanish), spanish
        assert errors == [], errors
    finally:
        context.close()


def test_all_moves_values_that_fail_say_so_and_a_preview_clears_the_error(browser: Any, base: str) -> None:
    """A hidden hand whose endgame is too large to solve exactly: the output says why instead of
    "solving every move…", and the error under the board goes when a move is previewed."""
    context, page, errors = tab(browser, base, 1280, 800)
    try:
        open_board(page, HIDDEN)
        page.wait_for_selector('#analysis-moves [data-move="force 0"]', timeout=WAIT)
        page.click('[data-action="solve"]')
        page.wait_for_function("() => document.querySelector('#problem').innerText.includes('too many to solve exactly')", timeout=WAIT)
        page.wait_for_selector('[data-action="stop"][disabled]', state="attached", timeout=WAIT)  # nothing runs
        wrong = []
        output = page.inner_text("#analysis-output")
        if "solving every move" in output or "no values:" not in output or "too many to solve exactly" not in output:
            wrong.append(f"the output after the error: {output!r}")
        if page.get_attribute("#analysis-output", "data-state") != "failed":
            wrong.append("the output is not marked failed")
        page.click('#analysis-moves [data-move="force 0"]')
        page.locator("#why-output .why-line").first.wait_for(timeout=WAIT)
        assert page.inner_text("#notation-line").startswith("after force 0: ")
        if page.inner_text("#problem"):
            wrong.append(f"the error stays under the preview: {page.inner_text('#problem')!r}")
        page.screenshot(path=str(ARTIFACTS / "solve-hidden-hand.png"), full_page=True)
        assert wrong == [] and errors == [], (wrong, errors)
    finally:
        context.close()


def test_on_a_phone_hint_rows_have_their_win_bars(browser: Any, base: str) -> None:
    context, page, errors = tab(browser, base, 390, 844)
    try:
        open_board(page, MANY)
        page.click('[data-action="hint"]')
        page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
        for row in page.locator("#analysis-output .hint-row[data-move]").all():
            bar, win = row.locator(".bar"), row.locator(".bar-win")
            assert bar.is_visible(), row.inner_text()
            box = bar.bounding_box()
            assert box["width"] > 20 and box["x"] + box["width"] <= 390, box
            # The green part is the win chance shown beside it.
            shown = int(row.locator(".hint-num").first.inner_text().rstrip("%"))
            assert abs(win.bounding_box()["width"] - box["width"] * shown / 100) <= 1.5
            row_box = row.bounding_box()
            assert row_box["x"] >= 0 and row_box["x"] + row_box["width"] <= 390, row_box
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#analysis-output").screenshot(path=str(ARTIFACTS / "phone-hint-bars.png"))
        assert errors == [], errors
    finally:
        context.close()


def test_on_a_phone_the_explanation_of_a_reviewed_move_comes_into_view(browser: Any, base: str) -> None:
    """A ply chosen far down a long record's list: the explanation above the board is scrolled
    into view."""
    context, page, errors = tab(browser, base, 390, 844)
    try:
        open_board(page, FORCING)
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-hint-vs-greedy")
        page.click('[data-action="load-record"]')
        page.fill("#review-samples", "1")
        page.click('#right [data-panel="review"] [data-action="review"]')
        last = page.locator('#review-moves .review-row[data-ply="33"]')
        last.wait_for(timeout=WAIT)
        last.scroll_into_view_if_needed()
        last.click()
        page.wait_for_function("() => document.querySelector('#status').innerText.includes('Before ply 33')", timeout=WAIT)
        page.wait_for_function(
            "() => { const r = document.querySelector('#status').getBoundingClientRect();"
            " return r.top >= 0 && r.bottom <= window.innerHeight; }",
            timeout=WAIT,
        )
        page.screenshot(path=str(ARTIFACTS / "phone-review-explanation.png"))
        assert errors == [], errors
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_palette_marks_the_cards_placed_and_says_where(browser: Any, base: str, width: int, height: int) -> None:
    context, page, errors = tab(browser, base, width, height)
    try:
        open_board(page, FORCING)
        page.click('nav [data-mode="setup"]')
        page.wait_for_selector("#palette .card.placed", timeout=WAIT)
        zones = ["hand-0", "hand-1", "layout-0", "layout-1", "centre", "dead"]
        board = {code: zone for zone in zones for code in cards(page, zone)}
        placed = {
            c.get_attribute("data-card"): c.get_attribute("data-placed")
            for c in page.query_selector_all("#palette .card.placed")
        }
        assert placed == board and len(placed) == 22  # the 18 of the hidden stock are not placed
        king = page.locator('#palette [data-card="KS"]')
        assert "in player 0's hand" in (king.get_attribute("title") or "")
        assert "the centre card" in (page.get_attribute('#palette [data-card="5C"]', "title") or "")
        assert page.locator('#palette [data-card="AS"]').get_attribute("data-placed") is None
        dimmed = page.eval_on_selector('#palette [data-card="KS"]', "e => Number(getComputedStyle(e).opacity)")
        assert dimmed < 0.6
        page.locator("#palette").screenshot(path=str(ARTIFACTS / f"palette-{width}.png"))
        # A placed card moved: the palette follows the board.
        page.click('#palette [data-card="2H"]')
        page.click('[data-zone="dead"]')
        page.wait_for_selector('#palette [data-card="2H"][data-placed="dead"]', timeout=WAIT)
        assert "a dead card" in (page.get_attribute('#palette [data-card="2H"]', "title") or "")
        page.click('[data-action="clear-board"]')
        page.wait_for_function("() => !document.querySelector('#palette .card.placed')", timeout=WAIT)
        assert errors == [], errors
    finally:
        context.close()


def test_who_can_win_shows_each_players_guarantee_and_the_outcomes_left(browser: Any, base: str) -> None:
    """"Who can win" on a three-player deal with every card known: one row per player with his
    guarantee (solve with "guarantees", docs/solve.md) and the outcomes left, as the library
    proves them; on a position whose stock order is unknown, the server's reason."""
    from analyzer.bots.deals import deal_position
    from analyzer.formats.notation import format_notation
    from analyzer.search.guarantees import guarantees

    state, _ = deal_position("megajogos", seed=3, after=3)
    found = guarantees(state)
    words = {"win": "he wins whatever the others do", "draw": "he can force a draw",
             "loss": "the others can always make him lose"}  # fmt: skip
    context, page, errors = tab(browser, base, 1280, 800)
    try:
        open_board(page, format_notation(state))
        page.click('[data-action="guarantees"]')
        page.wait_for_selector('#analysis-output[data-state="done"]', timeout=WAIT)
        rows = [page.inner_text(f'#analysis-output [data-player="{p}"]') for p in range(3)]
        for g, row in zip(found.players, rows, strict=True):
            assert row.startswith(f"Player {g.player}") and words[g.result or ""] in row, row
        names = ["a draw" if o is None else f"player {o} wins" for o in found.outcomes]
        left = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        assert left in page.inner_text("#analysis-output")
        page.screenshot(path=str(ARTIFACTS / "who-can-win.png"), full_page=True)
        open_board(page, FORCING)
        page.click('[data-action="guarantees"]')
        page.wait_for_selector('#analysis-output[data-state="failed"]', timeout=WAIT)
        assert "stock order" in page.inner_text("#analysis-output")
        assert "stock order" in page.inner_text("#problem")
        # The next request that answers clears the refusal: it is not about the new answer.
        page.click('[data-action="hint"]')
        page.wait_for_selector('#analysis-output[data-state="done"]', timeout=WAIT)
        assert page.inner_text("#problem").strip() == ""
        page.click('[data-action="guarantees"]')
        page.wait_for_selector('#analysis-output[data-state="failed"]', timeout=WAIT)
        page.click('[data-action="analyze"]')
        page.wait_for_function("() => document.querySelector('#problem').textContent.trim() === ''", timeout=WAIT)
        page.click('[data-action="guarantees"]')  # the card table is an answer too
        page.wait_for_selector('#analysis-output[data-state="failed"]', timeout=WAIT)
        page.wait_for_function("() => document.querySelector('#problem').textContent.trim() !== ''", timeout=WAIT)
        page.click('[data-action="cards"]')
        page.wait_for_function("() => document.querySelector('#problem').textContent.trim() === ''", timeout=WAIT)
        assert errors == [], errors
    finally:
        context.close()


def test_a_placed_card_is_taken_off_the_board(browser: Any, base: str) -> None:
    """Setup's "Take the chosen card off the board": the card chosen in the palette leaves the
    zone it was in (a dead card, a card of a meld: the rest of the meld stays), the palette shows
    it not placed, and the position is checked again; a card not on the board, or no card chosen,
    is said and changes nothing."""
    context, page, errors = tab(browser, base, 1280, 800)
    try:
        open_board(page, FORCING)
        page.click('nav [data-mode="setup"]')
        page.wait_for_selector("#palette .card.placed", timeout=WAIT)
        page.click('[data-action="remove-card"]')
        assert page.inner_text("#status") == "click a card of the palette first"
        page.click('#palette [data-card="AS"]')
        page.click('[data-action="remove-card"]')
        assert "is not on the board" in page.inner_text("#status")
        assert cards(page, "dead") == ["7D"] and len(cards(page, "layout-0")) == 8
        page.click('#palette [data-card="AS"]')  # unchosen
        page.click('#palette [data-card="7D"]')
        page.click('[data-action="remove-card"]')
        page.wait_for_selector('#palette [data-card="7D"]:not(.placed)', timeout=WAIT)
        page.wait_for_function("() => !['checking', ''].includes(document.querySelector('#edit-status').dataset.valid || '')", timeout=WAIT)
        assert cards(page, "dead") == []
        assert "taken off the board" in page.inner_text("#status")
        page.click('#palette [data-card="7D"]')  # unchosen
        page.click('#palette [data-card="4S"]')
        page.click('[data-action="remove-card"]')
        page.wait_for_selector('#palette [data-card="4S"]:not(.placed)', timeout=WAIT)
        page.wait_for_function("() => !['checking', ''].includes(document.querySelector('#edit-status').dataset.valid || '')", timeout=WAIT)
        assert cards(page, "layout-0") == ["AC", "2C", "3C", "4C", "5S", "6S", "7S"]
        assert "KS" in cards(page, "hand-0") and cards(page, "centre") == ["5C"]
        page.screenshot(path=str(ARTIFACTS / "setup-card-taken-off.png"), full_page=True)
        # A card placed on the centre replaces its card, which leaves the board: said.
        page.click('#palette [data-card="4S"]')  # unchosen
        page.click('#palette [data-card="QD"]')
        page.click('[data-zone="centre"]')
        page.wait_for_selector('#palette [data-card="5C"]:not(.placed)', timeout=WAIT)
        assert cards(page, "centre") == ["QD"] and "QD" not in cards(page, "hand-1")
        assert page.inner_text("#status") == "5♣ taken off the board: Q♦ is the centre card now"
        # An invalid board has no notation to copy; Download JSON saves it as it is.
        assert page.get_attribute("#edit-status", "data-valid") == "false"
        page.click('[data-action="copy-notation"]')
        assert "not valid: no notation to copy" in page.inner_text("#status")
        with page.expect_download() as saved:
            page.click('[data-action="download-json"]')
        data = json.loads(open(saved.value.path(), encoding="utf-8").read())
        assert data["centre"]["card"] == "QD" and "4S" not in json.dumps(data["players"][0]["layout"])
        # New meld: the next card placed in a layout starts a meld there, whichever layout.
        page.click('#palette [data-card="QD"]')  # unchosen
        page.click('[data-action="new-meld"]')
        page.click('#palette [data-card="KD"]')
        page.click('[data-zone="layout-1"]')
        page.wait_for_selector('[data-zone="layout-1"] [data-card="KD"]', timeout=WAIT)
        page.click('#palette [data-card="KD"]')  # unchosen
        page.click('[data-action="new-meld"]')
        page.click('#palette [data-card="KC"]')
        page.click('[data-zone="layout-0"]')
        page.wait_for_selector('[data-zone="layout-0"] [data-card="KC"]', timeout=WAIT)
        melds = page.eval_on_selector_all('[data-zone="layout-0"] .meld', "ms => ms.map(m => [...m.querySelectorAll('[data-card]')].map(c => c.dataset.card))")
        assert melds[-1] == ["KC"], melds
        page.click('[data-action="clear-board"]')  # a line about the action before goes
        page.wait_for_function("() => !document.querySelector('#palette .card.placed')", timeout=WAIT)
        assert page.inner_text("#status") == ""
        # An empty zone says so rather than showing nothing.
        assert "none" in page.inner_text('[data-zone="dead"]') and "empty" in page.inner_text('[data-zone="hand-0"]')
        assert errors == [], errors
    finally:
        context.close()
