"""The endgame's equilibrium on the board in a real browser (Debian's chromium driven by
Playwright, as tests/test_web_browser.py; docs/web.md, "The endgame's equilibrium"): All moves'
values on a late two-player view, Hint with Exact (Analysis, and Review at the position
selected), Deal by the reading, and the note where the endgame is too large to solve, at a
desktop's and a phone's size with no sideways scroll. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from test_web_browser import WAIT, open_board
from test_web_browser_board import CODE, HIDDEN, symbols
from test_web_browser_review import ask, base, browser  # noqa: F401 (module fixtures, shared)
from test_web_browser_view import RECORDS, shown, tab
from web_support import ARTIFACTS

from analyzer.service.endgames import EQUAL, PLAYED

LATE = (
    "classic french 0 1 1[4D,5D,6D][7H,7D,7C][6S,7S,JS]/3D,QH[2H,3H,4H,5H,6H][4C,5C,6C] "
    "3C:paid:0:- KD,KC,2D,KH,3S,AH,JD,2C,JH,4S,2S,AS,AC,5S,QD,JC 3 paid:KH,5S,6H,3C/KC,JC,6S"
)
"""Player 1's view late in a classic deal (`conquian deal --seed 438 --after 38 --view 1`): 3
stock cards, player 0's one card hidden; its endgame has about ten thousand positions, and its
equilibrium mixes two moves (found by solving the views of seeded deals)."""


SIZES = [(1280, 800), (390, 844)]


def requests_of(page: Any) -> list[dict[str, Any]]:
    """The bodies of the engine requests the page sends from now on (to /api and /api/stream)."""
    sent: list[dict[str, Any]] = []

    def keep(request: Any) -> None:
        if request.method == "POST" and request.url.split("?")[0].endswith(("/api", "/api/stream")):
            sent.append(json.loads(request.post_data or "{}"))

    page.on("request", keep)
    return sent


def rows(page: Any, container: str) -> list[dict[str, Any]]:
    """The equilibrium's rows under ``container``: move, probability, value, the texts shown and
    the bar's filled share."""
    found = []
    for row in page.locator(f"{container} .eq-row[data-move]").all():
        bar, fill = row.locator(".eq-bar").bounding_box(), row.locator(".eq-fill").bounding_box()
        found.append(
            {
                "move": row.get_attribute("data-move"),
                "p": float(row.get_attribute("data-probability")),
                "value": float(row.get_attribute("data-value")),
                "name": row.locator(".hint-move").inner_text(),
                "p_text": row.locator(".eq-p").inner_text(),
                "value_text": row.locator(".eq-value").inner_text(),
                "filled": (fill["width"] if fill else 0.0) / bar["width"],
                "box": row.bounding_box(),
            }
        )
    return found


def check_equilibrium(page: Any, container: str, server: dict[str, Any], width: int) -> list[str]:
    """What is wrong with the equilibrium drawn under ``container``, the server's ``server``."""
    wrong = []
    shown_rows = rows(page, container)
    if {r["move"] for r in shown_rows} != set(server["move_values"]):
        wrong.append(f"the rows are not the moves: {[r['move'] for r in shown_rows]}")
    total = sum(r["p"] for r in shown_rows)
    if abs(total - 1) > 1e-3:
        wrong.append(f"the probabilities add up to {total}")
    hand = float(page.get_attribute(f"{container} .eq-hand", "data-value"))
    for r in shown_rows:
        if r["name"] != symbols(r["move"]):
            wrong.append(f"the move is written {r['name']!r}")
        if abs(r["p"] - server["strategy"].get(r["move"], 0)) > 1e-9 or abs(r["value"] - server["move_values"][r["move"]]) > 1e-9:
            wrong.append(f"{r['move']}: not the server's figures")
        if abs(r["filled"] - r["p"]) > 0.03:
            wrong.append(f"{r['move']}: its bar is {r['filled']:.2f} full for a probability of {r['p']}")
        if r["p"] >= PLAYED:
            # Each move the equilibrium plays is worth the hand's value.
            if abs(r["value"] - hand) > 0.01:
                wrong.append(f"{r['move']}: played, worth {r['value']}, the hand {hand}")
            if r["p_text"] not in (f"{round(100 * r['p'])}%", "<1%"):
                wrong.append(f"{r['move']}: probability written {r['p_text']!r}")
        elif r["p_text"] != "0":
            wrong.append(f"{r['move']}: not played, written {r['p_text']!r}")
        if abs(float(r["value_text"]) - r["value"]) > 0.0005:
            wrong.append(f"{r['move']}: value written {r['value_text']!r}")
        if r["box"]["x"] < 0 or r["box"]["x"] + r["box"]["width"] > width:
            wrong.append(f"{r['move']}: its row goes off the screen: {r['box']}")
    probabilities = [r["p"] for r in shown_rows]
    if probabilities != sorted(probabilities, reverse=True):
        wrong.append("the moves are not most likely first")
    if abs(hand - server["value"]) > 1e-9:
        wrong.append(f"the hand's value {hand}, the server's {server['value']}")
    size = page.locator(f"{container} .eq-size")
    if float(size.get_attribute("data-exploitability")) != server["exploitability"] or "Exploitability" not in size.inner_text():
        wrong.append(f"the exploitability line: {size.inner_text()!r}")
    if int(size.get_attribute("data-deals")) != server["deals"] or f"{server['deals']:,} deals" not in size.inner_text():
        wrong.append(f"the size line: {size.inner_text()!r}")
    if page.evaluate("document.documentElement.scrollWidth") > width:
        wrong.append("the page scrolls sideways")
    return wrong


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_all_moves_values_on_a_late_view_show_the_equilibrium(browser: Any, base: str, width: int, height: int) -> None:
    """All moves' values on a two-player view: each legal move's probability in the equilibrium
    (the mix as bars) and value, the hand's value, the exploitability, the size and what the
    uniform deal assumes; a row previews its move with its figures; Deal by the reading sends
    "read" and the answer says so."""
    server = ask("solve", position=LATE)
    played = [m for m, p in server["strategy"].items() if p >= PLAYED]
    assert server["method"] == "equilibrium" and len(played) >= 2, "the position no longer mixes: the test would prove little"
    context, page, errors = tab(browser, base, width, height)
    try:
        sent = requests_of(page)
        open_board(page, LATE)
        page.wait_for_selector("#analysis-moves [data-move]", timeout=WAIT)
        legal = {b.get_attribute("data-move") for b in page.query_selector_all("#analysis-moves [data-move]")}
        page.click('[data-action="solve"]')
        page.wait_for_selector("#analysis-output[data-state=done] .eq-table", timeout=WAIT)
        wrong = check_equilibrium(page, "#analysis-output", server, width)
        assert {r["move"] for r in rows(page, "#analysis-output")} == legal
        assert page.locator("#analysis-output .eq-mix").is_visible()  # the mix is said
        prior = page.locator("#analysis-output .eq-prior")
        assert prior.get_attribute("data-prior") == "uniform" and "ignores what earlier play said" in prior.inner_text()
        assert not any("read" in body for body in sent if body.get("cmd") == "solve")
        page.screenshot(path=str(ARTIFACTS / f"exact-all-moves-{width}.png"), full_page=True)
        # A move the equilibrium plays, clicked: the board after it, and its figures there.
        move = played[-1]
        page.locator(f'#analysis-output .eq-row[data-move="{move}"]').click()
        page.locator("#why-output .why-line").first.wait_for(timeout=WAIT)
        assert page.inner_text("#notation-line").startswith(f"after {symbols(move)}: ")
        line = page.inner_text("#why-output .why-line")
        assert "In the endgame's equilibrium" in line and f"{round(100 * server['strategy'][move])}%" in line, line
        # Deal by the reading: "read" sent, and the answer is the reading's.
        page.click('[data-action="back"]')
        page.check("#hint-read")
        page.click('[data-action="solve"]')
        page.wait_for_selector('#analysis-output[data-state=done] .eq-prior[data-prior="read"]', timeout=WAIT)
        assert [body.get("read") for body in sent if body.get("cmd") == "solve"] == [None, True]
        wrong += check_equilibrium(page, "#analysis-output", ask("solve", position=LATE, read=True), width)
        assert "reading" in page.inner_text("#analysis-output .eq-prior")
        assert wrong == [] and errors == [], (wrong, errors)
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_hint_with_exact_says_solved_and_where_too_large_says_why_not(browser: Any, base: str, width: int, height: int) -> None:
    """Hint with Exact on the late view: the verdict says solved, the rows each move's
    probability and value (no win or draw chances over sampled deals). Unticked, the default hint
    solves it too: its endgame is small (at most AUTO_MAX_NODES positions). On a view whose endgame is far too large, Exact gives the sampled hint with the
    server's note."""
    server = ask("hint", position=LATE, exact=True)
    assert server["verdict"] == "solved"
    context, page, errors = tab(browser, base, width, height)
    try:
        sent = requests_of(page)
        open_board(page, LATE)
        page.wait_for_selector("#analysis-moves [data-move]", timeout=WAIT)
        page.click('[data-action="hint"]')  # Exact off: the default hint solves a small endgame too
        page.wait_for_selector("#analysis-output[data-state=done] .eq-table", timeout=WAIT)
        assert page.locator("#analysis-output .bar-win").count() == 0
        page.check("#hint-exact")
        page.click('[data-action="hint"]')
        page.wait_for_selector("#analysis-output[data-state=done] .eq-table", timeout=WAIT)
        hints = [body for body in sent if body.get("cmd") == "hint" and not body.get("static")]
        assert [body.get("exact") for body in hints] == [None, True] and "read" not in hints[-1]
        verdict = page.locator("#analysis-output .hint-verdict")
        assert verdict.get_attribute("data-verdict") == "solved" and "the endgame solved" in verdict.inner_text()
        top = max(server["move_values"].values())
        for move in (m for m, p in server["strategy"].items() if p >= PLAYED and server["move_values"][m] >= top - EQUAL):
            assert symbols(move) in verdict.inner_text()
        wrong = check_equilibrium(page, "#analysis-output", server, width)
        assert page.locator("#analysis-output .bar-win").count() == 0  # no win chances
        assert page.locator('#analysis-output [data-action="hint-lines"]').count() == 0  # no sampled deal to show
        page.screenshot(path=str(ARTIFACTS / f"exact-hint-{width}.png"), full_page=True)
        # Spanish labels: the rows and the verdict rewritten, as every move the page shows.
        page.select_option("#labels", "spanish")
        spanish = page.inner_text("#analysis-output .eq-table") + page.inner_text("#analysis-output .hint-verdict")
        assert not CODE.search(spanish) and not re.search("[♠♥♦♣]", spanish), spanish
        page.select_option("#labels", "french")
        # Far too large: the sampled hint, and the server's note saying why.
        open_board(page, HIDDEN)
        page.wait_for_selector("#analysis-moves [data-move]", timeout=WAIT)
        page.check("#hint-exact")
        page.click('[data-action="hint"]')
        page.wait_for_selector("#analysis-output[data-state=done] .hint-row .bar-win", state="attached", timeout=WAIT)
        note = page.locator('#analysis-output .hint-note[data-note="exact"]')
        assert "too many to solve exactly" in note.inner_text() and "the sampled hint instead" in note.inner_text()
        assert page.get_attribute("#analysis-output .hint-verdict", "data-verdict") in ("clear", "close", "only")
        assert page.locator("#analysis-output .eq-table").count() == 0
        if page.evaluate("document.documentElement.scrollWidth") > width:
            wrong.append("the page scrolls sideways with the note")
        page.screenshot(path=str(ARTIFACTS / f"exact-hint-too-large-{width}.png"), full_page=True)
        assert wrong == [] and errors == [], (wrong, errors)
    finally:
        context.close()


def test_the_review_hint_with_exact_follows_the_position_selected(browser: Any, base: str) -> None:
    """The bundled view record: at a late decision of its player the Review tab's Hint with
    Exact is solved (a row clicked plays its move); at an early one, the sampled hint with the
    note."""
    text = (RECORDS / "classic-view.jsonl").read_text()
    record = ask("record", text=text)
    view = record["view"]
    choices = [k + 1 for k, ply in enumerate(record["plies"]) if ply["player"] == view and not ply["move"].startswith("turn")]

    def exact_at(ply: int) -> dict[str, Any]:
        return ask("hint", position=record["plies"][ply - 1]["before"], exact=True, samples=1)

    early = choices[0]
    assert "notes" in exact_at(early), "the first decision is solved: the test would not see the note"
    late, server = 0, {}
    for ply in reversed(choices):  # the last decision whose equilibrium mixes
        server = exact_at(ply)
        if server.get("verdict") == "solved" and sum(p >= PLAYED for p in server["strategy"].values()) >= 2:
            late = ply
            break
    assert late, "no decision of the record whose equilibrium mixes"
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-view")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        page.click(f'.review-row[data-ply="{late}"]')
        shown(page, f"m:{late - 1}")
        page.check("#review-exact")
        page.click('[data-action="review-hint"]')
        page.wait_for_selector("#review-hint[data-state=done] .eq-table", timeout=WAIT)
        assert page.get_attribute("#review-hint .hint-verdict", "data-verdict") == "solved"
        wrong = check_equilibrium(page, "#review-hint", server, 1280)
        page.screenshot(path=str(ARTIFACTS / "exact-review-hint.png"), full_page=True)
        # The position selected changes: the hint is asked there, sampled where too large.
        page.click(f'.review-row[data-ply="{early}"]')
        shown(page, f"m:{early - 1}")
        page.click('[data-action="review-hint"]')
        page.wait_for_selector("#review-hint[data-state=done] .hint-row .bar-win", state="attached", timeout=WAIT)
        assert "too many to solve exactly" in page.inner_text('#review-hint .hint-note[data-note="exact"]')
        # Back at the late one: a row of the solved hint clicked plays its move there.
        page.click(f'.review-row[data-ply="{late}"]')
        shown(page, f"m:{late - 1}")
        page.click('[data-action="review-hint"]')
        page.wait_for_selector("#review-hint[data-state=done] .eq-table", timeout=WAIT)
        played = page.get_attribute(f'.review-row[data-ply="{late}"]', "data-move")
        page.locator(f'#review-hint .eq-row[data-move="{played}"]').click()
        shown(page, f"m:{late}")  # the record's own move: the main line followed
        assert wrong == [] and errors == [], (wrong, errors)
    finally:
        context.close()
