"""The web board in a real browser: Playwright for Python driving Debian's chromium (launched by
path: no browser can be downloaded here) against the board served on the loopback.
Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import ARTIFACTS, FORCING, ROOT, example, need_web, served

need_web()
sync_api = pytest.importorskip(
    "playwright.sync_api", reason='Playwright is not installed: pip install -e ".[webtest]"'
)
CHROMIUM = os.environ.get("CONQUIAN_CHROMIUM", "/usr/bin/chromium")
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"no chromium at {CHROMIUM}: apt-get install -y chromium (.ci/run installs it)",
        allow_module_level=True,
    )

ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
WAIT = 60_000  # ms: a loaded CI machine is slow, a failing wait still ends


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


@pytest.fixture()
def page(browser: Any, base: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1300, "height": 950}, accept_downloads=True)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    # A 4xx answer is logged by the browser as a failed resource: the page expects those.
    tab.on(
        "console",
        lambda m: errors.append(m.text)
        if m.type == "error" and not m.text.startswith("Failed to load resource")
        else None,
    )
    tab.base = base  # type: ignore[attr-defined]
    yield tab
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert not errors, errors


def open_board(page: Any, position: str | None = None) -> None:
    url = page.base + "/"
    if position is not None:
        url += "?position=" + urllib.parse.quote(position)
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)


def cards(page: Any, zone: str) -> list[str]:
    return [c.get_attribute("data-card") for c in page.query_selector_all(f'[data-zone="{zone}"] [data-card]')]


def test_open_a_position_by_url_and_read_its_cards(page: Any) -> None:
    open_board(page, FORCING)
    assert cards(page, "hand-0") == ["KS", "KH"]
    assert cards(page, "layout-0") == ["AC", "2C", "3C", "4C", "4S", "5S", "6S", "7S"]
    assert cards(page, "hand-1") == ["AH", "2H", "2D", "3S", "3D", "5D", "6H", "JD", "QH", "QD"]
    assert cards(page, "centre") == ["5C"] and cards(page, "dead") == ["7D"]
    assert page.get_attribute('[data-zone="stock"]', "data-count") == "18"
    assert page.get_attribute('[data-zone="centre"]', "data-kind") == "turned"
    assert "to act" in page.inner_text('[data-seat="1"] .seat-title')
    page.wait_for_selector('#analysis-moves [data-move="force 0"]', timeout=WAIT)
    # Spanish labels: the text changes, the data-card codes do not (R2).
    page.select_option("#labels", "spanish")
    assert page.inner_text('[data-zone="centre"] [data-card="5C"]') == "5b"
    assert cards(page, "hand-0") == ["KS", "KH"]
    assert page.inner_text('[data-zone="hand-0"] [data-card="KH"]') == "12c"


def test_set_up_a_position_by_clicking_and_see_what_is_wrong(page: Any) -> None:
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    # 2H from player 1's hand to the dead cards: his hand is one short (R7).
    page.click('#palette [data-card="2H"]')
    page.click('[data-zone="dead"]')
    problem = page.locator('[data-problem-for="hand-1"]')
    problem.wait_for(timeout=WAIT)
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    assert "(R7)" in problem.inner_text() and problem.inner_text().startswith("player 1")
    status = page.inner_text("#edit-status")  # the server's "position: " is not said twice
    assert status.startswith("Not valid: player 1") and "position:" not in status, status
    assert page.inner_text("#notation-line").startswith("invalid position: player 1")
    assert "wrong" in (page.get_attribute('[data-zone="hand-1"]', "class") or "")
    assert "2H" in cards(page, "dead")
    # While the board is invalid the analysis refuses to answer for the last valid position.
    page.click('nav [data-mode="analysis"]')
    page.click('[data-action="hint"]')
    page.wait_for_function("document.querySelector('#problem').textContent.includes('not valid')", timeout=WAIT)
    assert page.locator("#analysis-moves [data-move]").count() == 0
    assert page.locator("#analysis-output .hint-row[data-move]").count() == 0
    page.click('nav [data-mode="setup"]')
    # Back into his hand: valid again, and the notation follows.
    page.click('#palette [data-card="2H"]')
    page.click('#palette [data-card="2H"]')
    page.click('[data-zone="hand-1"]')
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert "2H" in cards(page, "hand-1") and "2H" not in cards(page, "dead")
    assert page.inner_text('[data-problem-for="hand-1"]') == ""
    with page.expect_download() as download:
        page.click('[data-action="download-json"]')
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert "2H" in saved["players"][1]["hand"] and saved["dead"] == ["7D"]


def test_upload_a_megajogos_position_and_deal_one(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="setup"]')
    page.set_input_files("#setup-file", str(ROOT / "examples" / "positions" / "example3-megajogos-nine-card-run.json"))
    page.locator("#description", has_text="worked example 3").wait_for(timeout=WAIT)
    assert page.locator("[data-seat]").count() == 3  # megajogos: 3 players
    page.wait_for_selector('[data-zone="layout-0"] [data-card="JS"]', timeout=WAIT)  # 10e: French codes
    assert cards(page, "centre") == ["QS"]  # 11e
    page.select_option("#deal-variant", "megajogos")
    page.fill("#deal-seed", "2")
    page.fill("#deal-after", "4")
    before = page.inner_text("#notation-line")
    page.click('[data-action="deal"]')
    # The uploaded position is megajogos too: wait for the new deal's notation, not the variant.
    page.wait_for_function(
        "(before) => document.querySelector('#notation-line').textContent !== before", arg=before, timeout=WAIT
    )
    page.wait_for_selector('#board[data-variant="megajogos"] [data-zone="hand-2"] [data-card]', timeout=WAIT)
    dealt = sum(len(cards(page, z)) for z in ("hand-0", "hand-1", "hand-2", "layout-0", "layout-1",
                                               "layout-2", "stock", "dead", "centre"))  # fmt: skip
    assert dealt == 40  # R1: every card drawn once


def test_hint_on_worked_example_6_puts_going_out_first(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="setup"]')
    page.fill("#setup-text", json.dumps(example("example6-going-out")))
    page.click('[data-action="open-text"]')
    page.wait_for_selector('[data-zone="hand-0"][data-count="0"]', timeout=WAIT)
    page.click('nav [data-mode="analysis"]')
    page.click('[data-action="hint"]')
    page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
    rows = [r.get_attribute("data-move") for r in page.query_selector_all("#analysis-output .hint-row[data-move]")]
    assert rows and rows[0].startswith("take ") and rows[0].endswith(" out"), rows  # R15
    assert "sampled deals" in page.inner_text("#analysis-output .hint-head")
    verdict = page.locator("#analysis-output .hint-verdict")
    assert verdict.get_attribute("data-verdict") == "clear" and "clearly best" in verdict.inner_text()
    assert "going out" in page.inner_text("#description") or "goes out" in page.inner_text("#description")


def test_the_boards_vs_best_range_holds_the_whole_interval(page: Any) -> None:
    """The hint table's "vs best" on the board is the command's (vs_best): the range shown holds
    the whole 95% interval in the cell's title (the bundled position's is not centred)."""
    import re

    open_board(page)
    page.click('[data-action="hint"]')
    page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
    cells = page.query_selector_all("#analysis-output .hint-row[data-move] .hint-vs")[1:]
    assert cells
    for cell in cells:
        shown = re.fullmatch(r"([+-]\d\.\d\d) ±(\d\.\d\d)", cell.inner_text().strip())
        interval = re.search(r"(-?\d\.\d\d) to (-?\d\.\d\d)", cell.get_attribute("title") or "")
        assert shown is not None and interval is not None, cell.inner_text()
        centre, half = float(shown[1]), float(shown[2])
        assert centre - half <= float(interval[1]) + 0.005 and centre + half >= float(interval[2]) - 0.005


def test_play_a_classic_deal_against_greedy_to_its_end(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="play"]')
    page.select_option("#play-variant", "classic")
    page.select_option("#play-bot", "greedy")
    page.fill("#play-seed", "3")
    page.click('[data-action="new-game"]')
    moves = page.locator("#play-moves")
    # A move taken back: the log and the choices are those before it.
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    logged = page.locator("#play-log .log-line").count()
    offered = [c.get_attribute("data-move") for c in page.query_selector_all("#play-moves [data-move]")]
    page.click(f'#play-moves [data-move="{offered[-1]}"]')
    page.wait_for_selector(f"#play-log .log-line >> nth={logged}", timeout=WAIT)
    page.wait_for_selector('#play-moves[data-busy="false"]', timeout=WAIT)
    step = int(moves.get_attribute("data-step") or 0)
    page.click('[data-action="take-back"]')
    page.wait_for_selector(f'#play-moves[data-step="{step + 1}"]', state="attached", timeout=WAIT)
    assert page.locator("#play-log .log-line").count() == logged
    assert [c.get_attribute("data-move") for c in page.query_selector_all("#play-moves [data-move]")] == offered
    for _ in range(120):
        page.wait_for_selector('#play-moves[data-busy="false"]', timeout=WAIT)
        if moves.get_attribute("data-over") == "true":
            break
        choices = page.query_selector_all("#play-moves [data-move]")
        assert len(choices) >= 2  # a single legal move is played for the player
        texts = [c.get_attribute("data-move") for c in choices]
        # Go out when possible, else take, else the first choice: clicked as a player would.
        pick = next((t for t in texts if t.endswith(" out")), None) or next(
            (t for t in texts if t.startswith("take")), texts[0]
        )
        before = page.locator("#play-log .log-line").count()
        page.click(f'#play-moves [data-move="{pick}"]')
        page.wait_for_selector(f"#play-log .log-line >> nth={before}", timeout=WAIT)
    else:
        pytest.fail("the deal did not end within 120 clicks")
    result = page.inner_text("#play-moves .game-over")
    assert re.fullmatch(r"You won!|Player 1 won\.|The deal is a draw \(R18\)\.", result), result
    assert page.locator('#play-log .log-line[data-player="1"]').count() > 0
    with page.expect_download() as download:
        page.click('[data-action="save-record"]')
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["format"] == "conquian-record" and "result" in json.loads(lines[-1])
    # The result is said while it holds: once the last move is taken back, it is gone.
    assert page.inner_text("#status") == result
    page.click('[data-action="take-back"]')
    page.wait_for_selector('#play-moves[data-over="false"] [data-move]', timeout=WAIT)
    assert page.inner_text("#status") == ""


def test_open_a_record_and_see_the_blunder_marked(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="review"]')
    page.select_option("#review-examples", "classic-missed-win")
    page.click('[data-action="load-record"]')
    page.fill("#review-samples", "4")
    page.click('#right [data-panel="review"] [data-action="review"]')
    blunder = page.locator('.review-row[data-label="blunder"]')
    blunder.first.wait_for(timeout=WAIT)
    assert blunder.count() == 1 and blunder.get_attribute("data-ply") == "7"
    assert "??" in blunder.inner_text()
    blunder.click()
    page.wait_for_selector('.review-row.selected[data-ply="7"]', timeout=WAIT)
    # The status is written once the position before the ply is drawn (an answer away).
    page.wait_for_function("() => document.querySelector('#status').innerText.includes('best take')", timeout=WAIT)
    assert "blunder" in page.inner_text("#status")
    assert page.locator("#review-chart svg circle").count() >= 1  # a point per decision reviewed


def test_solve_a_puzzle_with_the_answer_hidden_until_asked(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="puzzles"]')
    page.click('[data-puzzle="classic-win-1"]')
    page.wait_for_selector("#puzzle-moves [data-move]", timeout=WAIT)
    assert "find a move that wins" in page.inner_text("#puzzle-prompt")
    assert page.inner_text("#puzzle-answer") == ""
    assert cards(page, "centre") == ["4H"]
    page.click('#puzzle-moves [data-move="pass"]')
    page.wait_for_selector('#puzzle-result[data-correct="false"]', timeout=WAIT)
    page.click('[data-action="reveal"]')
    page.wait_for_selector("#puzzle-answer .answer", timeout=WAIT)
    assert "pay 4♠" in page.inner_text("#puzzle-answer")  # cards as the buttons show them
    page.click('#puzzle-moves [data-move="take [3H 4H 5H] [5D 6D 7D JD] [JS JH JC] pay 4S"]')
    page.wait_for_selector('#puzzle-result[data-correct="true"]', timeout=WAIT)
    # Played on: player 1 defends (solved), the stock turns QD, and player 0 goes out (R15).
    out = '#puzzle-moves [data-move="take [3H 4H 5H] [JS JH JC] [5D 6D 7D JD QD] out"]'
    page.wait_for_selector(out, timeout=WAIT)
    assert "player 1: pass" in page.inner_text("#puzzle-log")
    page.click(out)
    page.wait_for_selector('#puzzle-result[data-solved="true"]', timeout=WAIT)
    assert page.inner_text("#puzzle-result") == "Solved: player 0 wins."


def test_descriptions_are_text_never_html(page: Any) -> None:
    hostile = '<img src=x onerror="document.body.dataset.owned=1"><script>document.body.dataset.owned=2</script>'
    data = {**example("forcing"), "description": hostile, "x-note": hostile}
    open_board(page)
    page.click('nav [data-mode="setup"]')
    page.fill("#setup-text", json.dumps(data))
    page.click('[data-action="open-text"]')
    page.locator("#description", has_text="onerror").wait_for(timeout=WAIT)
    assert page.inner_text("#description") == hostile
    assert page.locator("#description img, #description script").count() == 0
    assert page.locator("body img").count() == 0
    assert page.get_attribute("body", "data-owned") is None


def test_the_board_screenshot(page: Any) -> None:
    """Worked example 5 with a sampled hint beside it: the picture in docs/web.md."""
    open_board(page, FORCING)
    page.click('[data-action="hint"]')
    page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
    assert page.locator("#analysis-output .hint-row[data-move]").count() == 2
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "board.png"))
    if os.environ.get("CONQUIAN_UPDATE_SCREENSHOT"):
        page.screenshot(path=str(ROOT / "docs" / "images" / "board.png"))


MANY = (
    "classic french 1 0 3S,3D,3C,4S,4D,5C,6D,KS,KD,KC/AS,2H,4C,5S,6S,6H,7S,QS,QH,QC 5D:turned:0:- - "
    "JD,7C,5H,7D,2C,JH,JS,JC,AD,AH,4H,KH,6C,2D,QD,2S,AC,7H,3H"
)
"""A classic position whose player to act has 45 choices (takes of 5D with pays, and pass)."""


def test_a_hint_on_45_choices_is_compact_and_expands_on_request(browser: Any, base: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.base = base
    try:
        open_board(page, MANY)
        page.click('[data-action="hint"]')
        page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
        rows = page.locator("#analysis-output .hint-row[data-move]")
        assert rows.count() == 5  # the top five, then "Show all 45"
        more = page.locator('#analysis-output [data-action="hint-all"]')
        assert more.inner_text() == "Show all 45"
        # At most about two screens tall at 1280x800, the verdict and the top moves first.
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= 2 * 800, height
        page.screenshot(path=str(ARTIFACTS / "hint-compact.png"), full_page=True)
        # Reasons open per move on request; a click on "why" does not play the move.
        first = rows.nth(0)
        assert not first.locator(".reasons").is_visible()
        first.locator("summary").click()
        assert first.locator(".reasons").is_visible() and first.locator(".reasons").inner_text()
        more.click()
        assert page.locator("#analysis-output .hint-row[data-move]").count() == 45
        assert page.locator('#analysis-output [data-action="hint-all"]').inner_text() == "Show the top 5"
    finally:
        context.close()


def test_the_board_fits_a_phone(browser: Any, base: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.base = base
    try:
        open_board(page, FORCING)
        # No sideways scrolling; the navigation on one row; the board first, Hint on screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        tops = {round(b.bounding_box()["y"]) for b in page.query_selector_all("nav [data-mode]")}
        assert len(tops) == 1, tops
        board = page.query_selector("#board").bounding_box()
        hint = page.query_selector('[data-action="hint"]').bounding_box()
        assert board["y"] < 200 and hint["y"] + hint["height"] <= 844
        # Every button of the analysis bar on screen with its whole label (none cut, Stop too).
        cut = page.evaluate(
            """() => [...document.querySelectorAll('[data-panel="analysis"] > .buttons button')]
                .filter((b) => { const r = b.getBoundingClientRect();
                  return b.scrollWidth > b.clientWidth + 1 || r.left < 0 || r.right > 390 || r.bottom > 844; })
                .map((b) => b.innerText)"""
        )
        assert cut == [], cut
        # The centre card's words are not one per line.
        centre = page.query_selector('[data-zone="centre"]').inner_text()
        assert "turned by player 0" in centre.replace("\n", " ")
        assert "turned\nby" not in centre
        page.click('[data-action="hint"]')
        page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(ARTIFACTS / "phone-hint.png"))
    finally:
        context.close()


def test_play_logs_follow_the_labels_and_a_failed_game_leaves_no_half_game(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="play"]')
    assert page.locator('[data-action="play-hint"]').is_disabled()  # no game yet
    page.select_option("#play-variant", "classic")
    page.select_option("#play-bot", "greedy")
    page.fill("#play-seed", "3")
    page.click('[data-action="new-game"]')
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    assert not page.locator('[data-action="play-hint"]').is_disabled()
    french = page.inner_text("#play-log")
    page.select_option("#labels", "spanish")
    spanish = page.inner_text("#play-log")
    assert french and spanish != french  # the log is written again in the new labels
    page.select_option("#labels", "french")
    assert page.inner_text("#play-log") == french
    # A game the server refuses (an unknown bot, put in the list by hand): no half-started game.
    page.evaluate(
        "() => { const o = document.createElement('option'); o.value = 'nosuchbot'; "
        "o.textContent = 'nosuchbot'; document.querySelector('#play-bot').append(o); }"
    )
    page.select_option("#play-bot", "nosuchbot")
    page.click('[data-action="new-game"]')
    page.wait_for_selector("#play-moves .problem", timeout=WAIT)
    assert "No game started" in page.inner_text("#play-moves")
    assert page.inner_text("#play-log") == ""
    assert page.locator('[data-action="play-hint"]').is_disabled()
    assert page.locator('[data-action="take-back"]').is_disabled()


def test_the_review_chart_has_axes_both_players_and_reads_with_one_decision(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="review"]')
    page.select_option("#review-examples", "classic-missed-win")
    page.click('[data-action="load-record"]')
    page.fill("#review-samples", "4")
    page.click('#right [data-panel="review"] [data-action="review"]')
    page.locator('.review-row[data-label="blunder"]').first.wait_for(timeout=WAIT)
    chart = page.locator("#review-chart svg")
    texts = [t.text_content() for t in chart.locator("text").all()]
    assert {"0%", "50%", "100%", "ply", "win chance"} <= set(texts)
    legend = page.inner_text("#review-chart .chart-legend")
    assert "player 0" in legend and "player 1" in legend
    assert chart.locator("circle.dot-blunder").count() == 1
    summary = page.inner_text("#review-summary")
    assert "accuracy -" not in summary and re.search(r"accuracy [0-9]", summary)
    page.screenshot(path=str(ARTIFACTS / "review-chart.png"))
    # A record of one decision: its dot is drawn inside the chart, not half clipped.
    from analyzer.analysis.review import decisions
    from analyzer.formats.records import replay_lines

    record = (ROOT / "examples" / "records" / "classic-missed-win.jsonl").read_text().splitlines()
    replay = replay_lines(record)
    first = min(decisions(replay.start, replay.moves))  # the ply of the first decision
    lines = [line for line in record[1:] if "move" in json.loads(line)][:first]
    page.fill("#review-text", "\n".join([record[0], *lines]))
    page.click('#right [data-panel="review"] [data-action="review"]')
    # The short record's review is drawn (its plies listed), then its one dot.
    # (Predicates as functions: an expression string would be run by eval, which the CSP forbids.)
    page.wait_for_function(
        "(n) => document.querySelectorAll('#review-moves .review-row').length === n",
        arg=len(lines), timeout=WAIT,
    )  # fmt: skip
    page.wait_for_function(
        "() => document.querySelectorAll('#review-chart svg circle').length === 1", timeout=WAIT
    )
    box = page.locator("#review-chart svg").bounding_box()
    dot = page.locator("#review-chart svg circle").bounding_box()
    assert box["x"] < dot["x"] and dot["x"] + dot["width"] < box["x"] + box["width"]
    assert box["y"] < dot["y"] and dot["y"] + dot["height"] < box["y"] + box["height"]


def test_enter_a_position_by_clicks_alone_and_hint_it(page: Any) -> None:
    """The setup editor enters every part of a position: cards by the palette and the zones,
    the rest by its controls. Classic, 5C turned by player 0 and declined by him, player 1 to
    act, player 0's ten cards hidden, 19 in the stock (R10, R11)."""
    from analyzer.service.requests import answer

    hand = ["AH", "2H", "3C", "4C", "5D", "6H", "3S", "JD", "QD", "QH"]
    wanted = {
        "variant": "classic", "dealer": 1, "to_act": 1,
        "players": [{"hand": 10, "layout": []}, {"hand": hand, "layout": []}],
        "stock": 19, "dead": [],
        "centre": {"card": "5C", "kind": "turned", "source": 0, "declined": [0]},
    }  # fmt: skip
    reply, _ = answer(json.dumps({"id": 1, "cmd": "notation", "position": wanted, "labels": "french"}))
    assert reply["ok"], reply
    expected = reply["result"]
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.click('[data-action="clear-board"]')
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    assert page.inner_text("#description") == ""
    assert all(cards(page, zone) == [] for zone in ("hand-0", "hand-1", "centre", "dead"))
    for card in hand:
        page.click(f'#palette [data-card="{card}"]')
        page.click('[data-zone="hand-1"]')
    count = f"() => document.querySelectorAll('[data-zone=\"hand-1\"] [data-card]').length === {len(hand)}"
    page.wait_for_function(count, timeout=WAIT)
    page.select_option('[data-control="hand-0"]', "hidden")
    page.locator('[data-control="count-0"]').fill("19")  # over the hand size: refused in its range
    page.locator('[data-control="count-0"]').dispatch_event("change")
    page.wait_for_function("() => document.querySelector('#edit-status').textContent.startsWith('Not changed')", timeout=WAIT)
    assert "hidden hand count must be a whole number from 0 to 10, got \"19\"" in page.inner_text("#edit-status")
    page.locator('[data-control="count-0"]').fill("10")
    page.locator('[data-control="count-0"]').dispatch_event("change")
    page.wait_for_selector('[data-zone="hand-0"][data-count="10"]', timeout=WAIT)
    page.locator('[data-control="stock-count"]').fill("19")
    page.locator('[data-control="stock-count"]').dispatch_event("change")
    page.wait_for_selector('[data-zone="stock"][data-count="19"]', timeout=WAIT)
    page.click('#palette [data-card="5C"]')
    page.click('[data-zone="centre"]')
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)  # offered to its turner
    # Declined by player 0 while player 0 is still to act: the problem is shown on "to act" (R11).
    page.check('[data-control="declined-0"]')
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    problem = page.locator('[data-control-problem="to_act"]')
    assert "player 1 is offered" in problem.inner_text() and "(R11)" in problem.inner_text()
    assert page.get_attribute("#notation-line", "data-invalid") == "true"
    page.select_option('[data-control="to_act"]', "1")
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert page.inner_text("#notation-line") == expected["notation"]
    assert page.get_attribute("#notation-line", "data-invalid") is None
    assert page.inner_text('[data-control-problem="to_act"]') == ""
    page.screenshot(path=str(ARTIFACTS / "setup-editor.png"), full_page=True)
    # The hint on the position entered is the hint on its notation.
    page.click('nav [data-mode="analysis"]')
    page.click('[data-action="hint"]')
    page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
    rows = page.query_selector_all("#analysis-output .hint-row[data-move]")
    shown = [r.get_attribute("data-move") for r in rows]
    hint = {"id": 2, "cmd": "hint", "position": expected["notation"], "labels": "french"}
    reply, _ = answer(json.dumps(hint))
    assert reply["ok"], reply
    ranked = [m["move"] for m in reply["result"]["moves"]]
    assert len(ranked) > 1 and shown == ranked[: len(shown)] and len(shown) == min(5, len(ranked))


def test_a_variant_change_keeps_the_cards_placed(page: Any) -> None:
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.select_option('[data-control="variant"]', "megajogos")
    page.wait_for_selector('[data-zone="hand-2"]', timeout=WAIT)
    assert cards(page, "hand-0") == ["KS", "KH"] and cards(page, "centre") == ["5C"]
    assert cards(page, "hand-2") == [] and page.get_attribute('[data-control="variant"]', "value") is None
    assert page.eval_on_selector('[data-control="variant"]', "e => e.value") == "megajogos"
    page.select_option('[data-control="variant"]', "classic")
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert page.inner_text("#notation-line") == FORCING


def test_a_move_clicked_in_a_hint_is_compared_with_the_hint_settings(page: Any) -> None:
    """The why of a hint's row uses the hint's own samples and seed: its figures are the row's,
    and the preview it draws goes when the tab is left."""
    open_board(page, FORCING)
    page.click('[data-action="hint"]')
    page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
    deals = re.match(r"Evaluated on (\d+) sampled deals? ", page.inner_text("#analysis-output .hint-head"))
    assert deals, page.inner_text("#analysis-output .hint-head")
    row = page.locator('#analysis-output .hint-row[data-move="force 0"]')
    win = row.locator(".hint-num").first.inner_text()
    best = page.locator("#analysis-output .hint-row[data-move]").first
    best_move, best_win = best.get_attribute("data-move"), best.locator(".hint-num").first.inner_text()
    row.click()
    line = page.locator("#why-output .why-line").first
    line.wait_for(timeout=WAIT)
    text = line.inner_text()
    assert f"wins {win} (best {best_move}: {best_win}) over {deals.group(1)} sampled deals" in text, text
    # The row's preview: the board after the move; another tab and back shows the position.
    assert page.inner_text("#notation-line").startswith("after force 0: ")
    page.click('nav [data-mode="setup"]')
    assert page.inner_text("#notation-line") == FORCING
    page.click('nav [data-mode="analysis"]')
    assert page.inner_text("#notation-line") == FORCING and page.inner_text("#why-output") == ""
    assert cards(page, "centre") == ["5C"]


def test_each_tab_shows_only_what_belongs_to_it(page: Any) -> None:
    open_board(page)  # the bundled 'forcing' example, its description above the board
    assert "worked example 5" in page.inner_text("#description")
    # Play before any game: no board of another tab, no button that needs a game.
    page.click('nav [data-mode="play"]')
    assert "No game yet" in page.inner_text("#board .board-empty")
    assert page.locator("#board [data-card]").count() == 0
    assert page.inner_text("#description") == "" and page.inner_text("#notation-line") == ""
    for action in ("play-hint", "take-back", "save-record", "review-game"):
        assert page.locator(f'[data-panel="play"] [data-action="{action}"]').is_disabled(), action
    page.fill("#play-seed", "3")
    page.click('[data-action="new-game"]')
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    assert not page.locator('[data-action="review-game"]').is_disabled()
    game = page.inner_text("#notation-line")
    # Review and Puzzles have their own boards: not the game's.
    page.click('nav [data-mode="review"]')
    assert "No record reviewed yet" in page.inner_text("#board .board-empty")
    assert page.inner_text("#notation-line") == ""
    page.click('nav [data-mode="puzzles"]')
    assert "No puzzle open" in page.inner_text("#board .board-empty")
    page.click('nav [data-mode="play"]')
    assert page.inner_text("#notation-line") == game
    # Analysis kept its position (the game did not replace it); a move's preview is left with it.
    page.click('nav [data-mode="analysis"]')
    assert page.inner_text("#notation-line") == FORCING and "worked example 5" in page.inner_text("#description")
    page.click('#analysis-moves [data-move="force 0"]')
    page.wait_for_function("() => document.querySelector('#notation-line').textContent.startsWith('after force 0')", timeout=WAIT)
    page.click('nav [data-mode="setup"]')
    assert page.inner_text("#notation-line") == FORCING
    # A status line goes once it no longer applies: a card chosen, then placed; another tab.
    page.click('#palette [data-card="7D"]')
    assert "chosen" in page.inner_text("#status")
    page.click('[data-zone="dead"]')  # 7D is already dead: placed again, the same position
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert page.inner_text("#status") == ""
    page.click('#palette [data-card="QD"]')
    assert "chosen" in page.inner_text("#status")
    page.click('nav [data-mode="analysis"]')
    assert page.inner_text("#status") == ""
    # An edit, or Clear the board, takes the example's description away for good.
    page.click('nav [data-mode="setup"]')
    page.click('[data-zone="hand-1"]')  # QD placed (where it was): an edit all the same
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert page.inner_text("#description") == ""
    page.click('nav [data-mode="analysis"]')
    assert page.inner_text("#description") == ""
    page.click('nav [data-mode="setup"]')
    page.select_option("#setup-examples", "forcing")
    page.click('[data-action="open-example"]')
    page.locator("#description", has_text="worked example 5").wait_for(timeout=WAIT)
    page.click('[data-action="clear-board"]')
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    assert page.inner_text("#description") == ""
    for mode in ("analysis", "setup"):
        page.click(f'nav [data-mode="{mode}"]')
        assert page.inner_text("#description") == "", mode


def test_every_tab_fits_a_phone_without_sideways_scrolling(browser: Any, base: str) -> None:
    """At 390x844: no tab wider than the screen (the Setup palette included), every button of
    the analysis bar on screen (Cards and Stop too), and a review's move numbers kept with their moves."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.base = base
    try:
        open_board(page, FORCING)
        for mode in ("analysis", "setup", "play", "review", "puzzles"):
            page.click(f'nav [data-mode="{mode}"]')
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (mode, width)
        page.click('nav [data-mode="analysis"]')
        bar = page.query_selector_all('[data-panel="analysis"] > .buttons button')
        assert len(bar) == 7  # Hint, Static hint, Analyze, All moves' values, Who can win, Cards, Stop
        for b in bar:
            box = b.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (b.inner_text(), box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (b.inner_text(), box)
        page.screenshot(path=str(ARTIFACTS / "phone-analysis-bar.png"))
        # A long record reviewed: each "33. P0" on one line, beside its move.
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-hint-vs-greedy")
        page.click('[data-action="load-record"]')
        page.fill("#review-samples", "1")
        page.click('#right [data-panel="review"] [data-action="review"]')
        page.wait_for_selector('#review-moves .review-row[data-ply="33"]', timeout=WAIT)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        lines = page.evaluate(
            "() => Array.from(document.querySelectorAll('#review-moves .review-row .ply')).map((e) => {"
            " const r = document.createRange(); r.selectNodeContents(e); return r.getClientRects().length; })"
        )
        assert lines and all(n == 1 for n in lines), lines
        page.screenshot(path=str(ARTIFACTS / "phone-review.png"), full_page=True)
    finally:
        context.close()


def test_moves_are_named_once_and_the_setup_is_usable_by_keyboard(page: Any) -> None:
    open_board(page)
    # The picker shows the example on the board, not merely the first of its list.
    assert page.eval_on_selector("#setup-examples", "e => e.value") == "forcing"
    # "force" once, then whom; "pass" alone.
    page.wait_for_selector('#analysis-moves [data-move="force 0"]', timeout=WAIT)
    groups = [g.inner_text().split() for g in page.query_selector_all("#analysis-moves .move-group")]
    assert groups == [["force", "player", "0"], ["pass"]], groups
    # The review samples' placeholder is not cut off.
    page.click('nav [data-mode="review"]')
    room = page.evaluate(
        "() => { const e = document.querySelector('#review-samples'); const s = getComputedStyle(e);"
        " const c = document.createElement('canvas').getContext('2d'); c.font = s.font;"
        " return e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)"
        " - c.measureText(e.placeholder).width; }"
    )
    assert room >= 16, room  # the text, and the number box's arrows beside it
    # The palette's cards are buttons: chosen with Enter, placed on a zone with Space.
    page.click('nav [data-mode="setup"]')
    card = page.locator('#palette [data-card="2H"]')
    assert card.evaluate("e => e.tagName") == "BUTTON" and card.get_attribute("aria-pressed") == "false"
    card.focus()
    page.keyboard.press("Enter")
    assert card.get_attribute("aria-pressed") == "true" and "chosen" in page.inner_text("#status")
    assert page.evaluate("document.activeElement.dataset.card") == "2H"  # the focus stays
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.card") == "AH"
    page.locator('[data-zone="dead"]').focus()
    page.keyboard.press("Space")
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    assert "2H" in cards(page, "dead")
    assert page.evaluate("document.activeElement.dataset.zone") == "dead"


# ------------------------------------------------------- variants, player counts, matches
def play_to_the_end(page: Any, clicks: int = 200, *, passing: bool = False) -> str:
    """Play the Play tab's deal to its end, choosing as the classic test does (go out, else
    take, else the first choice), or passing whenever he may; the game-over text."""
    moves = page.locator("#play-moves")
    for _ in range(clicks):
        page.wait_for_selector('#play-moves[data-busy="false"]', timeout=WAIT)
        if moves.get_attribute("data-over") == "true":
            return page.inner_text("#play-moves .game-over")
        texts = [c.get_attribute("data-move") for c in page.query_selector_all("#play-moves [data-move]")]
        assert len(texts) >= 2  # a single legal move is played for the player
        pick = next((t for t in texts if t.endswith(" out")), None) or next(
            (t for t in texts if t.startswith("take")), texts[0]
        )
        if passing and "pass" in texts:
            pick = "pass"
        before = page.locator("#play-log .log-line").count()
        page.click(f'#play-moves [data-move="{pick}"]')
        page.wait_for_selector(f"#play-log .log-line >> nth={before}", timeout=WAIT)
    pytest.fail(f"the deal did not end within {clicks} clicks")


def options(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector_all(f"{selector} option", "os => os.map((o) => o.value)")


def value(page: Any, selector: str) -> str:
    return str(page.eval_on_selector(selector, "e => e.value"))


def test_every_variant_select_lists_the_presets_and_their_player_counts(page: Any) -> None:
    """The variants come from the server's variants answer: every preset in every variant select,
    the player counts of the one chosen, its own count and stake rule by default."""
    from analyzer.core.rules import PRESETS
    from analyzer.core.stakes import default_stakes

    names = list(PRESETS)
    assert len(names) == 6
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    assert options(page, "#deal-variant") == names
    assert options(page, '[data-control="variant"]') == names
    assert value(page, "#deal-variant") == "classic" and options(page, "#deal-players") == ["2"]
    for name, rules in PRESETS.items():
        page.select_option("#deal-variant", name)
        assert options(page, "#deal-players") == [str(n) for n in rules.player_counts], name
        assert value(page, "#deal-players") == str(rules.players), name
    page.click('nav [data-mode="play"]')
    assert options(page, "#play-variant") == names
    for name, rules in PRESETS.items():
        page.select_option("#play-variant", name)
        assert options(page, "#play-players") == [str(n) for n in rules.player_counts], name
        assert value(page, "#play-players") == str(rules.players), name
        assert value(page, "#play-stakes") == str(default_stakes(rules)), name
    assert options(page, "#play-stakes") == ["single", "double_after_draw", "tableau"]
    # The stake rule is a match's: disabled for a single deal.
    assert page.locator("#play-stakes").is_disabled()
    page.fill("#play-match", "3")
    assert not page.locator("#play-stakes").is_disabled()
    # One bot per other seat beyond two players; the bots choice sets them all.
    page.select_option("#play-variant", "megajogos")
    page.select_option("#play-players", "4")
    seats = page.locator("#play-seat-bots select")
    assert seats.count() == 3
    page.select_option("#play-bot", "hint")
    assert [value(page, f'#play-seat-bots select[data-seat="{p}"]') for p in (1, 2, 3)] == ["hint"] * 3
    page.select_option("#play-players", "2")
    assert seats.count() == 0


def test_a_four_player_megajogos_game_to_its_end_with_a_hint(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="play"]')
    page.select_option("#play-variant", "megajogos")
    page.select_option("#play-players", "4")
    page.select_option("#play-bot", "greedy")
    page.fill("#play-seed", "2")
    page.click('[data-action="new-game"]')
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    assert page.locator("#board [data-seat]").count() == 4
    assert page.get_attribute("#board", "data-variant") == "megajogos"
    # Each seat's name and the dealer in one bracket: "Player 3 (greedy, dealer)".
    titles = [page.inner_text(f'[data-seat="{p}"] .seat-title') for p in range(4)]
    names = ["you", "greedy", "greedy", "greedy"]
    for p, title in enumerate(titles):
        assert re.match(rf"Player {p} \({names[p]}(, dealer)?\)( — to act)?$", title), title
    assert sum("dealer" in t for t in titles) == 1, titles
    assert page.locator("#play-score").inner_text() == ""  # a single deal: no match score
    # Asked once: a hint of your view, every choice ranked.
    page.click('[data-action="play-hint"]')
    page.wait_for_selector('#play-hint[data-state="done"]', timeout=WAIT)
    offered = {c.get_attribute("data-move") for c in page.query_selector_all("#play-moves [data-move]")}
    ranked = {r.get_attribute("data-move") for r in page.query_selector_all("#play-hint .hint-row[data-move]")}
    assert ranked and ranked <= offered
    result = play_to_the_end(page)
    assert re.fullmatch(r"You won!|Player [123] won\.|The deal is a draw \(R18\)\.", result), result
    for p in (1, 2, 3):
        assert page.locator(f'#play-log .log-line[data-player="{p}"]').count() > 0, p
    with page.expect_download() as download:
        page.click('[data-action="save-record"]')
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["players"] == ["human", "greedy", "greedy", "greedy"] and head["variant"] == "megajogos"


def test_the_setup_editor_enters_a_four_player_megajogos_position(page: Any) -> None:
    """A three-player deal made a four-player one by the player-count control and eight clicks
    pairs: the notation line is the four-player position's."""
    from analyzer.service.requests import answer

    def ask(**request: Any) -> dict[str, Any]:
        reply, _ = answer(json.dumps({"id": 1, "labels": "french", **request}))
        assert reply["ok"], reply
        result: dict[str, Any] = reply["result"]
        return result

    dealt = ask(cmd="deal", variant="megajogos", players=3, seed=0)["position"]
    moved = dealt["stock"][:8]
    wanted = {**dealt, "stock": dealt["stock"][8:], "players": [*dealt["players"], {"hand": moved, "layout": []}]}
    wanted["exchange"] = {"chosen": [None] * 4}
    expected = ask(cmd="notation", position=wanted)["notation"]
    open_board(page)
    page.click('nav [data-mode="setup"]')
    page.select_option("#deal-variant", "megajogos")
    assert value(page, "#deal-players") == "3"
    page.fill("#deal-seed", "0")
    page.click('[data-action="deal"]')
    page.wait_for_selector('#board[data-variant="megajogos"] [data-zone="hand-2"] [data-card]', timeout=WAIT)
    assert options(page, '[data-control="players"]') == ["2", "3", "4"]
    assert value(page, '[data-control="players"]') == "3"
    assert "exchange" in options(page, '[data-control="phase"]')  # megajogos has one (R9)
    page.select_option('[data-control="players"]', "4")
    page.wait_for_selector('[data-zone="hand-3"]', timeout=WAIT)
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)  # seat 3 has no cards
    assert value(page, '[data-control="players"]') == "4"
    assert page.locator('[data-control="dealer"] option').count() == 4
    for card in moved:
        page.click(f'#palette [data-card="{card}"]')
        page.click('[data-zone="hand-3"]')
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    line = page.inner_text("#notation-line")
    assert line == expected
    assert len(line.split()[4].split("/")) == 4  # four hands
    page.screenshot(path=str(ARTIFACTS / "setup-four-players.png"), full_page=True)
    # Back to two: the seats go with their cards; classic has no exchange to offer.
    page.select_option('[data-control="players"]', "2")
    page.wait_for_selector('[data-zone="hand-2"]', state="detached", timeout=WAIT)
    page.select_option('[data-control="variant"]', "classic")
    page.wait_for_function("() => document.querySelector('[data-control=\"variant\"]').value === 'classic'", timeout=WAIT)
    # The controls are drawn again once the server has checked the edit: wait for that drawing.
    page.wait_for_function(
        "() => ![...document.querySelectorAll('[data-control=\"phase\"] option')].some((o) => o.value === 'exchange')",
        timeout=WAIT,
    )
    assert "exchange" not in options(page, '[data-control="phase"]')
    assert options(page, '[data-control="players"]') == ["2"]


def test_a_match_of_two_deals_keeps_the_score_of_the_standing_request(page: Any) -> None:
    """Play's match: the deal passes round the table, each deal's seed derived from the game's,
    and the score after each deal is the standing request's (R21)."""
    from analyzer.bots.game import game_seed
    from analyzer.bots.simulate import match_dealer
    from analyzer.core.rules import get_rules
    from analyzer.service.requests import answer

    def ask(**request: Any) -> dict[str, Any]:
        reply, _ = answer(json.dumps({"id": 1, **request}))
        assert reply["ok"], reply
        result: dict[str, Any] = reply["result"]
        return result

    seed = 5
    open_board(page)
    page.click('nav [data-mode="play"]')
    page.select_option("#play-variant", "classic")
    page.select_option("#play-bot", "greedy")
    page.fill("#play-seed", str(seed))
    page.fill("#play-match", "2")
    assert value(page, "#play-stakes") == "double_after_draw"  # classic's (R21)
    assert page.locator('[data-action="next-deal"]').is_hidden()
    page.click('[data-action="new-game"]')
    score = page.locator("#play-score")
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    assert score.get_attribute("data-deal") == "1" and score.get_attribute("data-deals") == "2"
    assert score.get_attribute("data-seed") == str(game_seed(seed, 0))
    first = int(score.get_attribute("data-dealer") or -1)
    assert first == match_dealer(get_rules("classic"), seed, 0, 2)  # as play --match draws him
    assert "Deal 1 of 2" in score.inner_text() and page.locator('[data-action="next-deal"]').is_disabled()
    winners: list[int | None] = []
    for deal in (1, 2):
        result = play_to_the_end(page)
        winner = None if "draw" in result else 0 if result == "You won!" else int(result.split()[1])
        winners.append(winner)
        page.wait_for_function(
            "(n) => document.querySelector('#play-score').dataset.winners === JSON.stringify(n)",
            arg=winners, timeout=WAIT,
        )  # fmt: skip
        expected = ask(cmd="standing", players=2, dealer=first, stakes="double_after_draw", winners=winners)
        assert score.get_attribute("data-scores") == ",".join(map(str, expected["scores"]))
        cells = [int(c.get_attribute("data-score")) for c in page.query_selector_all("#play-score .score-cell")]
        if deal == 2:  # the match is over: a pool left goes back in equal shares (R21)
            assert cells == expected["closed"] and sum(cells) == 0
        else:
            assert cells == expected["scores"] and sum(cells) == -expected["pool"]
        shown = score.inner_text()
        assert f"Deal {deal} of 2" in shown and f"you {'+' if cells[0] > 0 else ''}" in shown
        if deal == 1:
            assert f"Next deal: player {expected['dealer']} deals, stake {expected['stake']}" in shown
            assert score.get_attribute("data-over") is None
            page.click('[data-action="next-deal"]')
            page.wait_for_selector('#play-score[data-deal="2"]', timeout=WAIT)
            page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
            # Deal 2: the next dealer (R21) deals the cards of the derived seed.
            assert score.get_attribute("data-seed") == str(game_seed(seed, 1))
            view = page.inner_text("#notation-line").split()
            assert int(view[2]) == expected["dealer"] == (first + 1) % 2
            dealt = ask(cmd="deal", variant="classic", seed=game_seed(seed, 1), dealer=expected["dealer"],
                        labels="french")["position"]  # fmt: skip
            assert sorted(cards(page, "hand-0")) == sorted(dealt["players"][0]["hand"])
            assert page.locator('[data-action="next-deal"]').is_disabled()
    assert score.get_attribute("data-over") == "true"
    final = [int(c.get_attribute("data-score")) for c in page.query_selector_all("#play-score .score-cell")]
    over = page.inner_text("#play-score .match-over")
    assert over.startswith("Match over after 2 deals: ")
    if final[0] == final[1]:
        assert "the match is level" in over
    else:
        assert ("you won the match" if final[0] > final[1] else "player 1 won the match") in over
    assert page.locator('[data-action="next-deal"]').is_disabled()
    page.screenshot(path=str(ARTIFACTS / "play-match.png"), full_page=True)


def test_a_tableau_pool_left_at_the_end_of_a_match_goes_back_in_equal_shares(page: Any) -> None:
    # hoyle1897 plays Foster's tableau (R21): passing every card, deals 1 and 3 of seed 2 are
    # drawn, so a pool is left when the match ends; the final scores are the closed standing's.
    from analyzer.service.requests import answer

    open_board(page)
    page.click('nav [data-mode="play"]')
    page.select_option("#play-variant", "hoyle1897")
    page.select_option("#play-bot", "greedy")
    page.fill("#play-seed", "2")
    page.fill("#play-match", "3")
    assert value(page, "#play-stakes") == "tableau"
    page.click('[data-action="new-game"]')
    score = page.locator("#play-score")
    for deal in (1, 2, 3):
        page.wait_for_selector(f'#play-score[data-deal="{deal}"]', timeout=WAIT)
        play_to_the_end(page, passing=True)
        page.wait_for_function(
            "(n) => JSON.parse(document.querySelector('#play-score').dataset.winners || '[]').length === n",
            arg=deal, timeout=WAIT,
        )  # fmt: skip
        if deal < 3:
            page.click('[data-action="next-deal"]')
    winners = json.loads(score.get_attribute("data-winners") or "[]")
    dealer = int(score.get_attribute("data-dealer") or -1)
    reply, _ = answer(json.dumps({"id": 1, "cmd": "standing", "players": 2, "dealer": dealer,
                                  "stakes": "tableau", "winners": winners}))  # fmt: skip
    expected = reply["result"]
    assert expected["pool"] > 0, winners  # the scenario leaves a pool
    cells = [int(c.get_attribute("data-score")) for c in page.query_selector_all("#play-score .score-cell")]
    assert cells == expected["closed"] and sum(cells) == 0
    text = score.inner_text()
    assert f"The {expected['pool']} left in the pool go back to the players in equal shares." in text
    assert "Match over after 3 deals" in text


def test_the_play_tab_with_four_players_and_a_match_fits_a_phone(browser: Any, base: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.base = base
    try:
        open_board(page)
        page.click('nav [data-mode="play"]')
        page.select_option("#play-variant", "mexican_9_10")
        page.select_option("#play-players", "4")
        page.fill("#play-match", "3")
        page.click('[data-action="new-game"]')
        page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
        page.wait_for_selector("#play-score .score-cell", timeout=WAIT)
        assert page.locator("#play-score .score-cell").count() == 4
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        page.screenshot(path=str(ARTIFACTS / "phone-play-match.png"), full_page=True)
        # The setup editor of a four-player position: its player count and four hands' controls.
        page.click('nav [data-mode="setup"]')
        page.select_option("#setup-examples", "megajogos-four-players")
        page.click('[data-action="open-example"]')
        page.wait_for_selector('[data-control="hand-3"]', timeout=WAIT)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_serve_defaults_start_the_board_on_their_variant_and_count(browser: Any) -> None:
    """create_app(variant=, players=), as conquian serve --variant --players: the deal and play
    controls start with them, and the board opens on a deal of them."""
    with served(workers=1, queue=1, time_cap=60, variant="mexican_9_10", players=3) as (url, _):
        context = browser.new_context(viewport={"width": 1300, "height": 950})
        page = context.new_page()
        page.base = url
        try:
            open_board(page)
            page.wait_for_selector('#board[data-variant="mexican_9_10"]', timeout=WAIT)
            assert page.locator("#board [data-seat]").count() == 3
            assert value(page, "#deal-variant") == "mexican_9_10" and value(page, "#deal-players") == "3"
            assert value(page, "#play-variant") == "mexican_9_10" and value(page, "#play-players") == "3"
            page.click('nav [data-mode="play"]')
            # Another variant: its own count; back to the server's: the server's count.
            page.select_option("#play-variant", "megajogos")
            assert value(page, "#play-players") == "3"
            page.select_option("#play-variant", "mexican")
            assert value(page, "#play-players") == "2"
            page.select_option("#play-variant", "mexican_9_10")
            assert value(page, "#play-players") == "3"
        finally:
            context.close()


def test_a_text_written_in_spanish_labels_is_shown_in_them(page: Any) -> None:
    """A notation opened from Setup in Spanish labels switches the board to them (R2): the line
    reads back as the user wrote it; a French one switches back."""
    from analyzer.core.cards import Labels
    from analyzer.formats.notation import format_notation, parse_notation

    spanish = format_notation(parse_notation(FORCING), Labels.SPANISH)
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.fill("#setup-text", spanish)
    page.click('[data-action="open-text"]')
    page.wait_for_function("() => document.querySelector('#labels').value === 'spanish'", timeout=WAIT)
    assert page.inner_text("#notation-line") == spanish
    page.fill("#setup-text", FORCING)
    page.click('[data-action="open-text"]')
    page.wait_for_function("() => document.querySelector('#labels').value === 'french'", timeout=WAIT)
    assert page.inner_text("#notation-line") == FORCING


@pytest.mark.parametrize(
    "text",
    ['{"variant": "classic"}', '{"players": [{"hand": "x", "layout": 5}, 7]}', "[1, 2]", '{"players": []}'],
)
def test_open_data_that_is_no_drawable_position_shows_the_servers_message(page: Any, text: str) -> None:
    # The page fixture fails the test on any JavaScript error: the message is the server's,
    # shown as a problem, and the board keeps the position it had.
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.fill("#setup-text", text)
    page.click('[data-action="open-text"]')
    page.wait_for_function("() => document.querySelector('#problem').textContent.trim().length > 0", timeout=WAIT)
    assert "Cannot read" not in page.inner_text("#problem")
    assert not page.inner_text("#problem").startswith("position: ")  # the field prefix dropped


def test_the_validity_line_follows_the_last_text_opened(page: Any) -> None:
    """A text that opens no position says so on Setup's validity line (never "Valid position."
    beside the server's error), in the labels shown; a position opened after it is valid again;
    an uploaded file that is not UTF-8 is not opened and says so."""
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    page.fill("#setup-text", '{"variant":"classic","players":7}')
    page.click('[data-action="open-text"]')
    page.wait_for_function("() => document.querySelector('#problem').textContent.includes('players must be a list')", timeout=WAIT)
    status = page.inner_text("#edit-status")
    assert page.get_attribute("#edit-status", "data-valid") == "false" and "Valid position" not in status
    assert "players must be a list, got 7" in status and "position before" in status, status
    page.select_option("#labels", "spanish")  # written again, still about the text
    assert "players must be a list, got 7" in page.inner_text("#edit-status")
    page.select_option("#labels", "french")
    page.fill("#setup-text", FORCING)
    page.click('[data-action="open-text"]')
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert page.inner_text("#edit-status") == "Valid position."
    page.set_input_files("#setup-file", files=[{"name": "p.json", "mimeType": "application/json", "buffer": b'{"variant": "cl\xe1ssic"}'}])
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    assert "p.json is not UTF-8" in page.inner_text("#edit-status") and "p.json is not UTF-8" in page.inner_text("#problem")
    assert page.get_attribute('[data-zone="centre"] [data-card]', "data-card") == "5C"  # the board kept


def test_a_server_that_cannot_be_reached_is_said_so_and_no_spinner_stays(page: Any) -> None:
    open_board(page, FORCING)
    page.route("**/api**", lambda route: route.abort())  # the server stopped
    page.click('[data-action="hint"]')
    page.wait_for_function(
        "() => document.querySelector('#analysis-output').dataset.state === 'failed'", timeout=WAIT
    )
    output = page.inner_text("#analysis-output")
    assert "no hint: the server cannot be reached" in output and "sampling…" not in output
    assert "conquian serve" in page.inner_text("#problem")


def test_the_notation_line_follows_the_labels_and_reads_back(page: Any) -> None:
    open_board(page, FORCING)
    page.select_option("#labels", "spanish")
    line = page.inner_text("#notation-line")
    assert line.startswith("classic spanish ") and "5b:turned:0:0" in line and "5C" not in line
    # The Spanish line is the same position: the server reads it back to the French one.
    from analyzer.core.cards import Labels
    from analyzer.formats.notation import format_notation, parse_notation

    assert format_notation(parse_notation(line), Labels.FRENCH) == FORCING
    page.select_option("#labels", "french")
    assert page.inner_text("#notation-line") == FORCING


def test_a_hint_asked_while_a_move_is_previewed_is_about_the_board_it_shows(page: Any) -> None:
    open_board(page, FORCING)
    page.click('[data-action="hint"]')
    page.wait_for_function("() => document.querySelector('#analysis-output').dataset.state === 'done'", timeout=WAIT)
    page.click('#analysis-output .hint-row[data-move="force 0"]')
    page.wait_for_function("() => document.querySelector('#notation-line').textContent.startsWith('after force 0')", timeout=WAIT)
    page.click('[data-action="hint"]')
    page.wait_for_function("() => document.querySelector('#analysis-output').dataset.state === 'done'", timeout=WAIT)
    assert page.inner_text("#notation-line") == FORCING  # the previewed move was put back
    moves = {r.get_attribute("data-move") for r in page.locator("#analysis-output .hint-row[data-move]").all()}
    assert moves == {"force 0", "pass"}


# ------------------------------------------------------- the setup editor's exchange and force
def test_the_setup_editor_enters_the_exchange_choices_and_hints_them(page: Any) -> None:
    """A megajogos deal in the exchange (R9), dealer 1, so players 2, 0 and 1 choose in that
    order: players 0 and 2 choose a card by the exchange controls, player 1 not yet; the board
    marks the cards, the notation line says chosen:KS,-,KD and the hint answers for it."""
    from analyzer.service.requests import answer

    def ask(**request: Any) -> dict[str, Any]:
        reply, _ = answer(json.dumps({"id": 1, "labels": "french", **request}))
        assert reply["ok"], reply
        result: dict[str, Any] = reply["result"]
        return result

    dealt = ask(cmd="deal", variant="megajogos", players=3, seed=0)["position"]
    assert dealt["dealer"] == 1 and "KS" in dealt["players"][0]["hand"] and "KD" in dealt["players"][2]["hand"]
    wanted = {**dealt, "to_act": 1, "exchange": {"chosen": ["KS", None, "KD"]}}
    expected = ask(cmd="notation", position=wanted)["notation"]
    assert expected.endswith(" chosen:KS,-,KD"), expected
    open_board(page)
    page.click('nav [data-mode="setup"]')
    page.select_option("#deal-variant", "megajogos")
    page.select_option("#deal-players", "3")
    page.fill("#deal-seed", "0")
    page.fill("#deal-after", "0")
    page.click('[data-action="deal"]')
    page.wait_for_selector('[data-control="chosen-2"]', timeout=WAIT)
    # Each player's choices: "not yet", then his hand's cards.
    assert options(page, '[data-control="chosen-0"]') == ["", *dealt["players"][0]["hand"]]
    assert all(value(page, f'[data-control="chosen-{p}"]') == "" for p in range(3))
    # Player 0 before player 2 chooses out of turn: the problem is shown beside the exchange.
    page.select_option('[data-control="chosen-0"]', "KS")
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    problem = page.locator('[data-control-problem="exchange"]')
    assert "player 2 has not chosen yet" in problem.inner_text() and "(R9)" in problem.inner_text()
    page.select_option('[data-control="chosen-2"]', "KD")
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert page.inner_text("#notation-line") == expected
    assert [value(page, f'[data-control="chosen-{p}"]') for p in range(3)] == ["KS", "", "KD"]
    assert value(page, '[data-control="to_act"]') == "1"
    assert page.get_attribute('[data-zone="hand-0"] [data-card="KS"]', "data-exchange") == "chosen"
    assert page.get_attribute('[data-zone="hand-2"] [data-card="KD"]', "data-exchange") == "chosen"
    assert page.locator('[data-zone="hand-1"] [data-exchange="chosen"]').count() == 0
    # A hidden hand may have chosen any card shown nowhere else: here player 1's own eight.
    page.select_option('[data-control="hand-1"]', "hidden")
    page.wait_for_selector('[data-zone="hand-1"][data-hidden="true"]', timeout=WAIT)
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert sorted(options(page, '[data-control="chosen-1"]')) == sorted(["", *dealt["players"][1]["hand"]])
    page.select_option('[data-control="hand-1"]', "shown")
    page.wait_for_selector('[data-zone="hand-1"][data-count="0"]', timeout=WAIT)
    for card in dealt["players"][1]["hand"]:
        page.click(f'#palette [data-card="{card}"]')
        page.click('[data-zone="hand-1"]')
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert page.inner_text("#notation-line") == expected
    # The hint on the position entered is the hint on its notation: player 1 gives a card.
    page.click('nav [data-mode="analysis"]')
    page.click('[data-action="hint"]')
    page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
    shown = [r.get_attribute("data-move") for r in page.query_selector_all("#analysis-output .hint-row[data-move]")]
    ranked = [m["move"] for m in ask(cmd="hint", position=expected)["moves"]]
    assert shown and all(m.startswith("give ") for m in shown), shown
    assert shown == ranked[: len(shown)]


def test_the_forced_phase_forces_a_player_who_can_be_forced(page: Any) -> None:
    """Worked example 5: player 1, offered 5C after player 0 declined it, may force player 0
    (R14). The phase "forced" forces him, and he acts; forcing player 1 himself is shown wrong
    beside the forced player's control, not beside the declines."""
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.select_option('[data-control="phase"]', "forced")
    page.wait_for_selector('[data-control="forced"]', timeout=WAIT)
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert value(page, '[data-control="forced"]') == "0" and value(page, '[data-control="to_act"]') == "0"
    assert page.inner_text("#notation-line") == FORCING.replace(" 1 1 ", " 1 0 ").replace(":0:0 ", ":0:0:0 ")
    page.select_option('[data-control="forced"]', "1")
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    problem = page.inner_text('[data-control-problem="forced"]')
    assert "player 1 is forced" in problem and "cannot force himself" in problem, problem
    assert page.inner_text('[data-control-problem="declined"]') == ""
    assert "wrong" in (page.get_attribute('[data-row="forced"]', "class") or "")
    # Back to the offer: the card is offered to player 1 again.
    page.select_option('[data-control="phase"]', "offer")
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert page.inner_text("#notation-line") == FORCING


def test_take_back_and_show_the_answer_are_enabled_only_when_they_can_act(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="play"]')
    take_back = page.locator('[data-panel="play"] [data-action="take-back"]')
    page.select_option("#play-variant", "classic")
    page.select_option("#play-bot", "greedy")
    page.fill("#play-seed", "3")
    page.click('[data-action="new-game"]')
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    # Your first decision: nothing to take back yet.
    assert take_back.is_disabled() and not page.locator('[data-action="play-hint"]').is_disabled()
    step = int(page.get_attribute("#play-moves", "data-step") or 0)
    offered = [c.get_attribute("data-move") for c in page.query_selector_all("#play-moves [data-move]")]
    page.click(f'#play-moves [data-move="{offered[-1]}"]')
    page.wait_for_selector(f'#play-moves[data-step="{step + 1}"][data-busy="false"]', state="attached", timeout=WAIT)
    assert take_back.is_enabled()
    take_back.click()
    page.wait_for_selector(f'#play-moves[data-step="{step + 2}"][data-busy="false"]', state="attached", timeout=WAIT)
    assert take_back.is_disabled()
    assert page.inner_text("#status") != "nothing to take back"
    # Puzzles: no answer to show before a puzzle is open.
    page.click('nav [data-mode="puzzles"]')
    reveal = page.locator('[data-action="reveal"]')
    assert reveal.is_disabled()
    page.click('[data-puzzle="classic-win-1"]')
    page.wait_for_selector("#puzzle-moves [data-move]", timeout=WAIT)
    assert reveal.is_enabled()
    reveal.click()
    page.wait_for_selector("#puzzle-answer .answer", timeout=WAIT)


def test_an_edit_is_called_valid_only_once_the_server_has_checked_it(page: Any) -> None:
    """Until the server answers, Setup's status line says the edit is being checked (the line of
    the position before it no longer applies)."""
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    held: list[Any] = []
    page.route("**/api**", lambda route: held.append(route))  # the server's answer is late
    page.click('#palette [data-card="7D"]')
    page.click('[data-zone="dead"]')
    assert page.get_attribute("#edit-status", "data-valid") == "checking"
    assert page.inner_text("#edit-status") == "Checking the position..."
    page.unroute("**/api**")  # the requests held go on to the server
    page.wait_for_selector('#edit-status[data-valid="true"], #edit-status[data-valid="false"]', timeout=WAIT)


def test_a_late_answer_about_an_earlier_edit_does_not_undo_a_later_one(page: Any) -> None:
    """Two edits in a row, the first one's check answered last: the board keeps the second edit
    and says what the server said of it (only the last edit's answer is shown)."""
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    held: list[Any] = []
    page.route("**/api**", lambda route: held.append(route) if not held else route.continue_())
    page.select_option('[data-control="dealer"]', "0")  # its check is held
    page.click('#palette [data-card="2H"]')
    page.click('[data-zone="dead"]')  # player 1's hand one short (R7)
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    assert held, "the first check was not held"
    held[0].continue_()
    page.unroute("**/api**")
    page.wait_for_timeout(1500)  # the first check's answer has come back by now
    assert "2H" in cards(page, "dead")
    assert page.get_attribute("#edit-status", "data-valid") == "false"
    assert "(R7)" in page.inner_text("#edit-status")


def test_an_edit_the_server_could_not_check_is_checked_again_not_called_invalid(page: Any) -> None:
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.route("**/api**", lambda route: route.abort())  # the server is away during the edit
    page.click('#palette [data-card="7D"]')
    page.click('[data-zone="dead"]')
    page.wait_for_function("() => document.querySelector('#problem').textContent.includes('could not be checked')", timeout=WAIT)
    assert page.get_attribute("#notation-line", "data-invalid") is None
    # Neither valid nor invalid on Setup's status line, even after the labels switch.
    page.select_option("#labels", "spanish")
    assert page.get_attribute("#edit-status", "data-valid") == "unchecked"
    assert page.inner_text("#edit-status") == "Not checked: the server could not be reached."
    page.unroute("**/api**")  # back: the edit is checked again before the hint
    page.click('nav [data-mode="analysis"]')
    page.click('[data-action="hint"]')
    page.wait_for_function("() => document.querySelector('#analysis-output').dataset.state === 'done'", timeout=WAIT)
    assert "not valid" not in page.inner_text("#problem")


def test_messages_and_the_setup_centre_follow_the_labels(page: Any) -> None:
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.select_option("#labels", "spanish")
    assert "centre 5b" in page.inner_text("#setup-controls")
    # 2H from player 1's hand to the dead cards: the message names the cards in Spanish.
    page.click('#palette [data-card="2H"]')
    page.click('[data-zone="dead"]')
    problem = page.locator('[data-problem-for="hand-1"]')
    problem.wait_for(timeout=WAIT)
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    assert "2H" not in page.inner_text("body").replace("2H:", "")


def test_a_count_out_of_range_is_refused_beside_its_box_and_the_stock_count_survives_an_order(page: Any) -> None:
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.fill('[data-control="stock-count"]', "-3")
    page.dispatch_event('[data-control="stock-count"]', "change")
    page.wait_for_function("() => document.querySelector('#edit-status').textContent.startsWith('Not changed')", timeout=WAIT)
    assert "the stock count must be a whole number from 0 to 40" in page.inner_text("body")
    # Refused before any change: the position stays valid, and the analysis answers for it.
    assert page.get_attribute("#edit-status", "data-valid") == "true"
    assert page.get_attribute("#notation-line", "data-invalid") is None
    kept = page.input_value('[data-control="stock-count"]')  # the box shows the count again
    assert f'got "-3"; it stays {kept}' in page.inner_text("#edit-status")
    page.fill('[data-control="stock-count"]', "18")
    page.dispatch_event('[data-control="stock-count"]', "change")
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    page.select_option('[data-control="stock"]', "order")
    page.select_option('[data-control="stock"]', "count")
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert page.input_value('[data-control="stock-count"]') == "18"


def test_a_match_record_opens_in_review_and_its_first_deal_is_reviewed(page: Any) -> None:
    from analyzer.bots.match import play_match
    from analyzer.formats.matches import match_lines

    match = play_match("classic", ["greedy", "random"], 2, seed=3)
    text = "\n".join(match_lines([(g.start, g.moves, g.final) for g in match.deals], match.standings[0]))
    open_board(page, FORCING)
    page.click('nav [data-mode="setup"]')
    page.fill("#setup-text", text)
    page.click('[data-action="open-text"]')
    page.wait_for_function("() => document.querySelector('#status').innerText.includes('match record')", timeout=WAIT)
    page.fill("#review-samples", "2")
    page.click('#right [data-panel="review"] [data-action="review"]')
    page.locator(".review-row").first.wait_for(timeout=WAIT)
    assert "Failed" not in page.inner_text("#problem")
    assert "Match record: deal 1 of 2" in page.inner_text("#review-summary")
    # The second deal, chosen with the deal control (R21).
    page.fill("#review-deal", "2")
    page.click('#right [data-panel="review"] [data-action="review"]')
    page.wait_for_selector('#review-summary .match-deal[data-deal="2"]', timeout=WAIT)
    plies = [r.get_attribute("data-ply") for r in page.query_selector_all(".review-row")]
    assert plies and len(plies) == len(match.deals[1].moves)


def open_text(page: Any, data: dict[str, Any]) -> None:
    """Open position data through the setup editor's text box, then go to Analysis."""
    page.click('nav [data-mode="setup"]')
    page.fill("#setup-text", json.dumps(data))
    page.click('[data-action="open-text"]')
    page.wait_for_selector(f'[data-zone="centre"] [data-card="{data["centre"]["card"]}"]', timeout=WAIT)
    page.click('nav [data-mode="analysis"]')


def test_fosters_upcard_and_forcing_with_ones_discard_on_the_board(page: Any) -> None:
    # R10a: the upcard is shown as turned up at the deal by the dealer, with its takes.
    open_board(page)
    open_text(page, example("cooncan1913-upcard"))
    assert page.get_attribute('[data-zone="centre"]', "data-kind") == "upcard"
    assert "turned up at the deal by player 1" in page.inner_text('[data-zone="centre"]')
    assert "(dealer)" in page.inner_text('[data-seat="1"] .seat-title')
    assert "(dealer)" not in page.inner_text('[data-seat="0"] .seat-title')
    page.wait_for_selector('#analysis-moves [data-move="take [2S 2H 2D] pay AS"]', timeout=WAIT)
    # In the setup editor the upcard follows the dealer: its source, and the player offered it.
    page.click('nav [data-mode="setup"]')
    page.select_option('[data-control="dealer"]', "0")
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert value(page, '[data-control="source"]') == "0" and value(page, '[data-control="to_act"]') == "1"
    page.select_option('[data-control="dealer"]', "1")
    page.wait_for_selector('#edit-status[data-valid="true"]', timeout=WAIT)
    assert value(page, '[data-control="source"]') == "1" and value(page, '[data-control="to_act"]') == "0"
    # A card put in the centre of a fresh cooncan1913 deal is the upcard.
    page.click('#palette [data-card="AS"]')
    page.click('[data-zone="centre"]')
    page.wait_for_selector('[data-control="kind"]', timeout=WAIT)
    assert value(page, '[data-control="kind"]') == "upcard"
    # R14a: the payer is offered his paid card first: force or pass only.
    open_text(page, example("cooncan1913-discard-force"))
    page.wait_for_selector('#analysis-moves [data-move="force 1"]', timeout=WAIT)
    moves = page.eval_on_selector_all("#analysis-moves [data-move]", "els => els.map(e => e.dataset.move)")
    assert sorted(set(moves)) == ["force 1", "pass"]
    # The Play tab's log starts with the upcard the dealer turned (R10a).
    page.click('nav [data-mode="play"]')
    page.select_option("#play-variant", "cooncan1913")
    page.fill("#play-seed", "1")
    page.click('[data-action="new-game"]')
    page.wait_for_selector("#play-log .log-line", timeout=WAIT)
    first = page.inner_text("#play-log .log-line >> nth=0")
    assert "deals and turns up" in first and "(R10a)" in first, first


@pytest.mark.parametrize(("given", "named"), [("classic french 1 1 KS,ZZ/AH", "ZZ"), ("classic french 1 1 garbage", "column 20")])
def test_an_invalid_position_in_the_address_is_said_and_the_example_opened(page: Any, given: str, named: str) -> None:
    """A position in the address that does not open: the reason is said, the board opens on the
    bundled example (its moves and hint work), and Setup says the address's text was not opened
    (never "Valid position." about it) with the text in its box to mend."""
    page.goto(page.base + "/?position=" + urllib.parse.quote(given))
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    said = page.inner_text("#problem")
    assert said.startswith("The address's position did not open: ") and "bundled example" in said, said
    assert "position: " not in said  # the server's field prefix is not repeated
    assert named in said  # the server's reason, naming the offending text or its place
    assert cards(page, "hand-0") == ["KS", "KH"]  # worked example 5
    shown = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["position"][0]
    assert shown.startswith("classic french 1 1 KS,KH[")  # the address follows the board
    page.wait_for_selector("#analysis-moves [data-move]", timeout=WAIT)
    page.click('[data-action="hint"]')
    page.wait_for_selector('#analysis-output[data-state="done"]', timeout=WAIT)
    page.click('nav [data-mode="setup"]')
    page.wait_for_selector('#edit-status[data-valid="false"]', timeout=WAIT)
    line = page.inner_text("#edit-status")
    assert line.startswith("Not opened: ") and line.endswith("the board shows the bundled example."), line
    assert page.input_value("#setup-text") == given
    assert page.inner_text("#problem") == ""  # said once, by Setup's status
    page.screenshot(path=str(ARTIFACTS / f"address-not-opened-{len(given)}.png"), full_page=True)
    page.click('#palette [data-card="7D"]')  # an edit of the example: the address's text is done with
    page.click('[data-zone="hand-1"]')
    page.wait_for_function("() => !document.querySelector('#edit-status').innerText.startsWith('Not opened')", timeout=WAIT)
