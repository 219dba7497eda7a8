"""The Play tab in a real browser (Debian's chromium driven by Playwright, as
tests/test_web_browser.py): an old error under the board is cleared by a game started, and the
Hint button is disabled once the deal is over (no move to rank) and enabled on the next
decision. Screenshots go to tests/artifacts/."""

# ruff: noqa: F811 (the tests take the imported fixtures by name)
from __future__ import annotations

from typing import Any

from test_web_browser import (  # noqa: F401 (base, browser and page are the module's fixtures)
    WAIT,
    base,
    browser,
    open_board,
    page,
    play_to_the_end,
)


def start_game(page: Any, deals: str = "1") -> None:
    """New game: classic against greedy, seed 3, a match of ``deals`` deals."""
    page.select_option("#play-variant", "classic")
    page.select_option("#play-bot", "greedy")
    page.fill("#play-seed", "3")
    page.fill("#play-match", deals)
    page.click('[data-action="new-game"]')


def test_a_game_started_clears_the_error_under_the_board(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="play"]')
    start_game(page, "99999")
    page.wait_for_selector("#play-moves .problem", timeout=WAIT)
    assert "at most 1000 deals, not 99999" in page.inner_text("#problem")
    # A match of 1: the game starts and neither copy of the refusal stays.
    start_game(page, "1")
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    assert page.inner_text("#problem") == ""
    assert page.locator("#play-moves .problem").count() == 0


def test_hint_is_disabled_once_the_deal_is_over_and_enabled_again_after(page: Any) -> None:
    open_board(page)
    page.click('nav [data-mode="play"]')
    hint = page.locator('[data-panel="play"] [data-action="play-hint"]')
    start_game(page)
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    assert hint.is_enabled()
    play_to_the_end(page, passing=True)
    # No move to rank: the button cannot send a request the server must refuse.
    assert hint.is_disabled()
    assert page.inner_text("#problem") == "" and page.inner_text("#play-hint") == ""
    # Taken back, the deal is not over: a decision to hint again.
    page.click('[data-panel="play"] [data-action="take-back"]')
    page.wait_for_selector('#play-moves[data-over="false"][data-busy="false"] [data-move]', timeout=WAIT)
    assert hint.is_enabled()
    play_to_the_end(page, passing=True)
    assert hint.is_disabled()
    # A new deal: enabled again.
    start_game(page)
    page.wait_for_selector('#play-moves[data-over="false"][data-busy="false"] [data-move]', timeout=WAIT)
    assert hint.is_enabled()


def test_a_new_game_is_busy_until_its_deal_is_dealt(page: Any) -> None:
    """The last game's moves on the Play tab are not the new game's: the tab is busy from the
    click until the new deal's first choice is drawn, so a click on them sends nothing."""
    open_board(page)
    page.click('nav [data-mode="play"]')
    start_game(page)
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.post_data or "") if "/api" in request.url else None)
    page.route("**/api**", lambda route: None)  # the server's answer to the deal is late
    start_game(page)
    assert page.get_attribute("#play-moves", "data-busy") == "true"
    page.locator("#play-moves [data-move] >> nth=0").click()  # an old move: ignored
    page.unroute("**/api**")
    page.wait_for_selector('#play-moves[data-busy="false"] [data-move]', timeout=WAIT)
    assert not any('"move"' in body for body in sent), sent
    assert page.inner_text("#problem") == ""
