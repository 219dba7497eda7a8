"""The board's Review tab in a real browser (Debian's chromium driven by Playwright, as
tests/test_web_browser.py): the hint at a reviewed ply sampled with the review's seed for it, so
that the hint and the mark agree (docs/review.md: ply k with seed S + k), and a variation's with the
board's seed; a samples value that is no whole number of at least 1 refused beside its box; a
record that does not read leaves nothing of the record shown before, and a file that is not UTF-8
is not put in the text box. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_browser import ARGS, CHROMIUM, WAIT, open_board, sync_api
from test_web_browser_board import symbols
from test_web_browser_view import RECORDS, main_moves, shown, tab
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


def ask(cmd: str, **fields: Any) -> dict[str, Any]:
    """The engine's answer to one request (the server's request layer, without the server)."""
    reply = answer(json.dumps({"id": 1, "cmd": cmd, "labels": "french", **fields}))[0]
    assert reply["ok"], reply
    result: dict[str, Any] = reply["result"]
    return result


def hint_rows(page: Any) -> list[str]:
    return [r.get_attribute("data-move") for r in page.query_selector_all("#review-hint .hint-row[data-move]")]


def review_button(page: Any) -> None:
    page.click('#right [data-panel="review"] [data-action="review"]')


def test_the_hint_at_a_reviewed_ply_uses_the_reviews_seed_and_agrees_with_its_mark(browser: Any, base: str) -> None:
    """The record reviewed with the defaults (seed 0): at a marked ply k whose hint with seed 0
    ranks otherwise (the conflict a user saw: "close call" where the review marked a mistake), the
    Review tab's hint is the hint with seed k, the review's: its ranking and verdict, the review's
    best move first; it says which seed. In a variation the hint keeps seed 0 and says so."""
    text = (RECORDS / "classic-hint-vs-greedy.jsonl").read_text()
    review = ask("review", record=text)
    seed = review["settings"]["seed"]
    conflict = None
    for marked in review["moves"]:
        if marked["label"] not in ("inaccuracy", "mistake", "blunder"):
            continue
        before = review["plies"][marked["ply"] - 1]["before"]
        own = ask("hint", position=before, seed=seed + marked["ply"])
        board = ask("hint", position=before, seed=0)
        if (own["verdict"], own["moves"][0]["move"]) != (board["verdict"], board["moves"][0]["move"]):
            conflict = (marked, own)
            break
    assert conflict is not None, "no marked ply whose seed-0 hint differs: the test would prove nothing"
    marked, own = conflict
    ply = marked["ply"]
    assert own["moves"][0]["move"] == marked["best"]  # the review's hint is its own evaluation
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-hint-vs-greedy")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        review_button(page)  # empty samples: until decided, as conquian review
        page.wait_for_selector(f'.review-row[data-ply="{ply}"][data-label="{marked["label"]}"]', timeout=WAIT)
        page.click(f'.review-row[data-ply="{ply}"]')
        shown(page, f"m:{ply - 1}")
        page.click('[data-action="review-hint"]')
        page.wait_for_selector("#review-hint[data-state=done]", timeout=WAIT)
        rows = hint_rows(page)
        assert rows == [m["move"] for m in own["moves"]][: len(rows)] and rows[0] == marked["best"]
        assert page.get_attribute("#review-hint .hint-verdict", "data-verdict") == own["verdict"]
        note = page.locator("#review-hint .hint-seed")
        assert note.get_attribute("data-seed") == str(seed + ply)
        assert f"Seed {seed + ply}" in note.inner_text() and f"ply {ply}" in note.inner_text()
        page.screenshot(path=str(ARTIFACTS / "review-hint-seed.png"), full_page=True)
        # A variation: another move played from the hint; its position's hint has seed 0.
        other = next(m for m in rows if m != marked["move"])
        page.click(f'#review-hint .hint-row[data-move="{other}"] .hint-move')
        shown(page, "v1:1")
        page.click('#review-moves .variation-row[data-index="0"]')
        shown(page, "v1:0")
        page.click('[data-action="review-hint"]')
        page.wait_for_selector("#review-hint[data-state=done]", timeout=WAIT)
        assert page.get_attribute("#review-hint .hint-seed", "data-seed") == "0"
        assert "variation" in page.inner_text("#review-hint .hint-seed")
        assert errors == [], errors
    finally:
        context.close()


@pytest.mark.parametrize("value", ["-5", "0", "1.5"])
def test_a_samples_value_that_is_no_whole_number_from_1_is_refused_beside_its_box(browser: Any, base: str, value: str) -> None:
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-missed-win")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        page.fill("#review-samples", value)
        review_button(page)
        page.wait_for_function("() => document.querySelector('#review-samples-problem').textContent !== ''", timeout=WAIT)
        said = page.inner_text("#review-samples-problem")
        assert "at least 1" in said and "until decided" in said, said
        assert page.get_attribute("#review-samples", "aria-invalid") == "true"
        # Nothing reviewed (the box is read before any request): no summary, no mark.
        assert page.inner_text("#review-summary") == "" and page.locator(".review-row[data-label]").count() == 0
        # A whole number is taken, and the message goes.
        page.fill("#review-samples", "2")
        review_button(page)
        page.wait_for_selector('.review-row[data-label="blunder"]', timeout=WAIT)
        assert page.inner_text("#review-samples-problem") == ""
        assert errors == [], errors
    finally:
        context.close()


def bad_player(text: str) -> str:
    """The record with its line 3 (move 2, a turn of the stock) naming player 1."""
    lines = text.splitlines()
    entry = json.loads(lines[2])
    entry["player"] = 1
    lines[2] = json.dumps(entry)
    return "\n".join(lines)


def nothing_shown(page: Any) -> None:
    """No record shown: no move in the tree, the board saying there is none, no input of moves."""
    page.wait_for_function("() => document.querySelectorAll('#review-moves .tree-row').length === 0", timeout=WAIT)
    assert page.locator("#board .board-empty").count() == 1 and page.locator("#board [data-zone]").count() == 0
    assert page.is_hidden("#entry-input")
    assert page.is_disabled('[data-action="review-hint"]') and page.is_disabled('[data-action="record-save"]')


def test_a_record_that_does_not_read_leaves_nothing_of_the_one_before(browser: Any, base: str) -> None:
    """A record whose line 3 names the wrong player, opened or reviewed, or one with a key the
    server refuses, reviewed: its error is said and neither it nor the record shown before is
    listed or drawn. A file that is not UTF-8 is not put in the text box: the box and the record
    shown stay together."""
    good = (RECORDS / "classic-missed-win.jsonl").read_text()
    expected = answer(json.dumps({"id": 1, "cmd": "review", "record": bad_player(good), "samples": 2}))[0]
    assert not expected["ok"] and expected["field"] == "record"
    server_words = symbols(expected["error"].removeprefix("record: "))  # its cards as the page writes them
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-missed-win")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        moves = main_moves(page)
        assert moves[1] == "turn 2C"  # line 3: a turn of the stock, by no player (R10)
        # Opened: the page reads line 3's player as the server does, in its words.
        page.fill("#review-text", bad_player(good))
        page.click('[data-action="open-record"]')
        page.wait_for_function("() => document.querySelector('#problem').textContent !== ''", timeout=WAIT)
        assert server_words in page.inner_text("#problem")
        nothing_shown(page)
        page.screenshot(path=str(ARTIFACTS / "review-record-does-not-read.png"), full_page=True)
        # Reviewed, after the good record is shown again: the same.
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        page.fill("#review-text", bad_player(good))
        review_button(page)
        page.wait_for_function("() => document.querySelector('#problem').textContent !== ''", timeout=WAIT)
        assert server_words in page.inner_text("#problem")
        nothing_shown(page)
        # A key the server refuses (only its reading finds it): reviewed, nothing listed.
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        lines = good.splitlines()
        lines[2] = lines[2].replace('"move"', '"note": "a typo of x-note", "move"')
        page.fill("#review-text", "\n".join(lines))
        page.fill("#review-samples", "2")
        review_button(page)
        page.wait_for_function("() => document.querySelector('#problem').textContent.includes('unknown key')", timeout=WAIT)
        nothing_shown(page)
        assert page.inner_text("#review-summary") == ""
        # A file that is not UTF-8: said so; the text box keeps the record the tree shows.
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        page.set_input_files("#review-file", files=[{"name": "game.jsonl", "mimeType": "application/octet-stream", "buffer": b"\xff\xfe{\x80\x81 not text"}])
        page.wait_for_function("() => document.querySelector('#problem').textContent.includes('not UTF-8')", timeout=WAIT)
        assert "game.jsonl" in page.inner_text("#problem")
        assert page.input_value("#review-text") == good and main_moves(page) == moves
        assert errors == [], errors
    finally:
        context.close()


def test_the_hint_says_when_a_reviews_fixed_iterations_cannot_be_matched(browser: Any, base: str) -> None:
    """A megajogos review given a number of IS-MCTS iterations ran one search per decision, a hint
    several: the hint at its reviewed ply uses the review's seed and iterations and says that the
    figures can differ."""
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "megajogos-view")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        page.fill("#review-samples", "200")
        review_button(page)
        page.wait_for_selector("#review-summary .summary-row[data-player]", timeout=WAIT)
        ply = int(page.get_attribute("#review-moves .review-row[data-label]", "data-ply"))
        page.click(f'.review-row[data-ply="{ply}"]')
        shown(page, f"m:{ply - 1}")
        page.click('[data-action="review-hint"]')
        page.wait_for_selector("#review-hint[data-state=done]", timeout=WAIT)
        note = page.locator("#review-hint .hint-seed")
        assert note.get_attribute("data-seed") == str(ply)
        assert "200 iterations" in note.inner_text() and "can differ" in note.inner_text()
        assert "200 IS-MCTS iterations" in page.inner_text("#review-hint .hint-head")
        assert errors == [], errors
    finally:
        context.close()
