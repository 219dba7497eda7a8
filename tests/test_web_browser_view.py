"""The board's Review tab in a real browser (Debian's chromium driven by Playwright, as
tests/test_web_browser.py): a game entered by clicks as it was played at a table, from one
player's view, saved, shared by address and reviewed with the marks `conquian review` gives; the
move tree stepped with the keys, a variation opened, continued and closed; the hint's lines and
the card grid at a desktop's and a phone's size; an illegal move entered. Screenshots go to
tests/artifacts/."""

from __future__ import annotations

import base64
import json
import re
import urllib.parse
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import ARGS, CHROMIUM, WAIT, open_board, sync_api
from test_web_browser_board import symbols
from web_support import ARTIFACTS, FORCING, ROOT, served

from analyzer.core.cards import Labels
from analyzer.core.seen import parse_seen_move

RECORDS = ROOT / "examples" / "records"


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


def tab(browser: Any, base: str, width: int = 1280, height: int = 800) -> tuple[Any, Any, list[str]]:
    """A new page of the board at ``width`` x ``height`` (a phone's when 390 wide) that accepts
    downloads, and the list its script errors go to. Its dialogs (the question before a game
    being entered is replaced, the warning before the page is left) are answered by
    ``page.answer`` (True: accept, the default) and listed in ``page.dialogs`` as (type,
    message)."""
    phone = {"is_mobile": True, "has_touch": True} if width <= 600 else {}
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True, **phone)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.base = base
    page.dialogs = []
    page.answer = True

    def answer(dialog: Any) -> None:
        page.dialogs.append((dialog.type, dialog.message))
        if page.answer:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    return context, page, errors


def view_record(name: str) -> tuple[dict[str, Any], list[dict[str, Any]], list[tuple[int | None, str]]]:
    """A bundled view record: its header, its lines after the header, and each move as (player,
    French text), as the page writes moves."""
    lines = [json.loads(line) for line in (RECORDS / f"{name}.jsonl").read_text().splitlines()]
    own = Labels(lines[0]["start"].get("labels", "french"))
    moves = [(m["player"], parse_seen_move(m["move"], own).text(Labels.FRENCH)) for m in lines[1:] if "move" in m]
    return lines[0], lines[1:], moves


def shown(page: Any, cursor: str) -> None:
    """Wait until the position ``cursor`` (``line:index``) is drawn with its input."""
    page.wait_for_selector(f'#review-moves[data-shown="{cursor}"]', timeout=WAIT)


def main_moves(page: Any) -> list[str]:
    return [r.get_attribute("data-move") for r in page.query_selector_all("#review-moves .review-row")]


def composer_melds(page: Any) -> list[list[str]]:
    frames = page.query_selector_all("#entry-composer .composer-meld")
    return [[c.get_attribute("data-card") for c in f.query_selector_all(".card")] for f in frames]


def compose(page: Any, text: str) -> None:
    """Another player's take, lay-in or hand-only meld entered with the composer, by clicks as a
    user makes them: each meld of the new layout built in the meld it shares most cards with
    (an empty one for a new meld), its cards clicked from the palette or moved from another meld
    (a rearrangement, R13), then Pay… and the card paid, or Out."""
    kind = text.split()[0]
    if kind in ("take", "meld"):
        page.click(f'#entry-choices [data-action="compose-{kind}"]')
    page.wait_for_selector("#entry-composer", timeout=WAIT)
    targets = [m.split() for m in re.findall(r"\[([^\]]*)\]", text)]
    start = composer_melds(page)
    used: set[int] = set()
    plan: list[Any] = []
    for target in targets:
        overlap = [(len(set(m) & set(target)), i) for i, m in enumerate(start) if i not in used and m]
        best = max(overlap, default=(0, -1))
        plan.append(best[1] if best[0] else None)
        if best[0]:
            used.add(best[1])
    first_new = True
    for k, target in enumerate(targets):
        index = plan[k]
        if index is None:
            if not first_new:
                page.click('#entry-composer [data-action="composer-new-meld"]')
            first_new = False
            index = plan[k] = len(composer_melds(page)) - 1
        page.click(f'#entry-composer [data-action="composer-choose"][data-meld="{index}"]')
        for card in target:
            melds = composer_melds(page)
            if card in melds[index]:
                continue
            if any(card in m for m in melds):
                page.click(f'#entry-composer .composer-meld [data-card="{card}"]')  # moved here
            else:
                page.click(f'#composer-cards [data-card="{card}"]')
    melds = composer_melds(page)
    assert [set(melds[i]) for i in plan] == [set(t) for t in targets], (text, melds)
    if kind == "meld":
        page.click('#entry-composer [data-action="composer-enter"]')
    elif text.endswith(" out"):
        page.click('#entry-composer [data-action="composer-out"]')
    else:
        page.click('#entry-composer [data-action="composer-pay"]')
        page.click(f'#composer-cards [data-card="{text.rsplit(" ", 1)[1]}"]')


def enter_game(page: Any, header: dict[str, Any], moves: list[tuple[int | None, str]]) -> None:
    """The deal set up on the form (variant, players, dealer, your seat, your hand clicked on the
    palette), then every move entered by clicks: a turn's card among those not seen, your moves
    from your legal moves, another player's pass, force or 'give ?' from his choices, the card
    passed to you from the palette, his takes and lay-ins with the composer. Nothing is typed."""
    start, viewer = header["start"], header["view"]
    own = Labels(start.get("labels", "french"))
    page.click('nav [data-mode="review"]')
    page.click('[data-action="enter-game"]')
    page.select_option("#entry-variant", start["variant"])
    page.select_option("#entry-players", str(len(start["players"])))
    page.select_option("#entry-dealer", str(start["dealer"]))
    page.select_option("#entry-seat", str(viewer))
    for card in start["players"][viewer]["hand"]:
        code = parse_seen_move(f"give {card}", own).text(Labels.FRENCH).split()[1]
        page.click(f'#entry-palette [data-card="{code}"]')
    page.click('[data-action="entry-start"]')
    shown(page, "m:0")
    for k, (player, text) in enumerate(moves):
        if text.startswith("turn "):
            page.click(f'#entry-cards [data-card="{text.split()[1]}"]')
        elif player == viewer:
            page.click(f'#entry-moves [data-move="{text}"]')
        elif text in ("pass", "give ?") or text.startswith("force "):
            page.click(f'#entry-choices [data-move="{text}"]')
        elif text.startswith("give "):
            page.click(f'#entry-cards [data-card="{text.split()[1]}"]')  # the card passed to you (R9)
        else:
            compose(page, text)
        try:
            shown(page, f"m:{k + 1}")
        except Exception:
            raise AssertionError(f"move {k + 1} {text!r} not entered: {page.inner_text('#entry-error')!r}") from None


def cli_marks(path: Path) -> dict[int, str]:
    from cli_run import run_process

    done = run_process("review", str(path), "--json")
    assert done.returncode == 0, done.stderr
    return {m["ply"]: m["label"] for m in json.loads(done.stdout)["moves"]}


def board_marks(page: Any) -> dict[int, str]:
    return {int(r.get_attribute("data-ply")): r.get_attribute("data-label")
            for r in page.query_selector_all("#review-moves .review-row[data-label]")}  # fmt: skip


def saved_record(page: Any) -> list[dict[str, Any]]:
    with page.expect_download(timeout=WAIT) as download:
        page.click('[data-action="record-save"]')
    return [json.loads(line) for line in Path(download.value.path()).read_text().splitlines()]


@pytest.mark.parametrize(("name", "labels"), [("classic-view", "french"), ("megajogos-view", "spanish")])
def test_enter_a_real_table_game_by_clicks_save_share_and_review_it(browser: Any, base: str, name: str, labels: str) -> None:
    """The bundled view record entered on the board by clicks alone (every move has a click
    path: nothing is typed); the record saved equals the file (in the labels shown); its address
    opens the same moves; its review marks equal `conquian review FILE --json`'s, and the summary
    is the viewer's alone."""
    header, lines, moves = view_record(name)
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.select_option("#labels", labels)
        enter_game(page, header, moves)
        assert main_moves(page) == [m for _, m in moves]
        assert page.inner_text(f'#review-moves .tree-end[data-index="{len(moves)}"]').startswith("end:")
        # The deal is over: nothing more to enter, no text box or Enter offered.
        assert "nothing more to enter" in page.inner_text("#entry-head")
        assert page.is_hidden("#entry-text") and page.is_hidden('[data-action="entry-enter"]')
        saved = saved_record(page)
        assert saved[0]["view"] == header["view"] and saved[0]["start"] == header["start"]
        assert saved[1:] == lines  # every move, as the file writes it, and the result
        page.screenshot(path=str(ARTIFACTS / f"view-entered-{name}.png"), full_page=True)
        # Shared by address: the record's moves open in Review.
        page.click('[data-action="record-share"]')
        page.wait_for_selector("#share-link:not([hidden])", timeout=WAIT)
        link = page.input_value("#share-link")
        assert "?record=" in link and len(link) < len((RECORDS / f"{name}.jsonl").read_text())
        # The address's code as docs/web.md gives it: raw DEFLATE in base64url, no padding.
        code = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["record"][0]
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        assert [json.loads(line) for line in zlib.decompress(packed, -15).decode().splitlines()] == saved
        page.goto(link)
        page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
        shown(page, "m:0")
        assert main_moves(page) == [m for _, m in moves]
        assert page.get_attribute(f'[data-zone="hand-{(header["view"] + 1) % len(header["start"]["players"])}"]', "data-hidden") == "true"
        # Reviewed on the board: the same marks as the command's, the viewer's summary alone.
        page.click('#right [data-panel="review"] [data-action="review"]')
        page.wait_for_selector("#review-summary .summary-row[data-player]", timeout=WAIT)
        expected = cli_marks(RECORDS / f"{name}.jsonl")
        assert expected and board_marks(page) == expected
        players = [r.get_attribute("data-player") for r in page.query_selector_all("#review-summary .summary-row[data-player]")]
        assert players == [str(header["view"])]
        page.screenshot(path=str(ARTIFACTS / f"view-reviewed-{name}.png"), full_page=True)
        assert errors == [], errors
    finally:
        context.close()


def test_a_view_record_uploaded_is_reviewed_from_its_players_view(browser: Any, base: str) -> None:
    """An uploaded view record opens as its player saw it (the other hands as counts) and its
    review marks his decisions as `conquian review` does, the summary his alone."""
    _, _, moves = view_record("megajogos-view")
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.set_input_files("#review-file", str(RECORDS / "megajogos-view.jsonl"))
        shown(page, "m:0")
        assert main_moves(page) == [m for _, m in moves]
        hands = [page.get_attribute(f'[data-zone="hand-{p}"]', "data-hidden") for p in range(3)]
        assert hands == [None, "true", "true"] and page.locator('[data-zone="hand-0"] [data-card]').count() == 8
        page.click('#right [data-panel="review"] [data-action="review"]')
        page.wait_for_selector("#review-summary .summary-row[data-player]", timeout=WAIT)
        assert board_marks(page) == cli_marks(RECORDS / "megajogos-view.jsonl")
        assert [r.get_attribute("data-player") for r in page.query_selector_all("#review-summary [data-player]")] == ["0"]
        page.click('.review-row[data-ply="40"]')  # his take of 4e: marked, explained
        page.wait_for_function("() => document.querySelector('#status').innerText.includes('Before ply 40')", timeout=WAIT)
        assert "best" in page.inner_text("#status")
        assert errors == [], errors
    finally:
        context.close()


def test_the_move_tree_steps_with_the_keys_and_keeps_a_variation_apart(browser: Any, base: str) -> None:
    """Left, Right, Home and End step through the moves (not while a text box has the keys); a
    different move at a decision opens a variation under it, which goes on and is closed, the
    game's moves unchanged throughout."""
    _, _, moves = view_record("classic-view")
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-view")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        game = main_moves(page)
        assert game == [m for _, m in moves]
        page.focus("#review-moves")
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        shown(page, "m:3")
        assert "selected" in (page.get_attribute('.review-row[data-ply="4"]', "class") or "")
        page.keyboard.press("End")
        shown(page, f"m:{len(moves)}")
        page.keyboard.press("Home")
        shown(page, "m:0")
        # Ply 18: the viewer's take paying JH (a mistake); paying AH instead opens a variation.
        page.click('.review-row[data-ply="18"]')
        shown(page, "m:17")
        assert page.get_attribute('[data-zone="hand-0"]', "data-hidden") == "true"  # his view
        other = "take [KS KH KD KC] pay AH"
        page.click(f'#entry-moves [data-move="{other}"]')
        shown(page, "v1:1")
        variation = page.locator('#review-moves .variation[data-line="v1"]')
        assert variation.locator(".variation-row").count() == 1
        assert page.get_attribute('.review-row[data-ply="18"]', "data-move") == moves[17][1]
        # It goes on: player 0 passes AH.
        page.click('#entry-choices [data-move="pass"]')
        shown(page, "v1:2")
        assert [r.get_attribute("data-move") for r in variation.locator(".variation-row").all()] == [other, "pass"]
        assert main_moves(page) == game
        # Keys in a text box are the box's.
        page.focus("#entry-text")
        page.keyboard.press("ArrowLeft")
        assert page.get_attribute("#review-moves", "data-cursor") == "v1:2"
        page.focus("#review-moves")
        for cursor in ("v1:1", "v1:0", "m:17"):
            page.keyboard.press("ArrowLeft")
            shown(page, cursor)
        page.click('#review-moves .variation-row[data-index="1"]')
        shown(page, "v1:1")
        page.screenshot(path=str(ARTIFACTS / "tree-variation.png"), full_page=True)
        page.click('[data-action="close-variation"][data-line="v1"]')
        shown(page, "m:17")
        assert page.locator("#review-moves .variation").count() == 0 and main_moves(page) == game
        assert errors == [], errors
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_hints_lines_and_the_card_grid_are_shown(browser: Any, base: str, width: int, height: int) -> None:
    """Show lines: under each move of the hint, the line it expects on one sampled deal, its
    sampled cards marked; Cards: one 4x10 grid per other player and the stock, each place's
    chances adding up to its count of cards, the cards seen greyed; no sideways scroll."""
    context, page, errors = tab(browser, base, width, height)
    try:
        open_board(page, FORCING)
        page.click('[data-action="hint"]')
        page.wait_for_selector("#analysis-output[data-state=done]", timeout=WAIT)
        assert page.locator("#analysis-output .hint-line").count() == 0  # the hint asks for none
        page.click('#analysis-output [data-action="hint-lines"]')
        page.wait_for_selector('#analysis-output[data-lines="shown"]', timeout=WAIT)
        lines = page.locator("#analysis-output .hint-row .hint-line")
        assert lines.count() == page.locator("#analysis-output .hint-row[data-move]").count() == 2
        first = lines.first
        assert "sampled deal" in first.inner_text() and "not known" in first.inner_text()
        assert first.locator(".sampled").count() >= 1 and first.locator(".sampled").first.inner_text().endswith("*")
        page.click('[data-action="cards"]')
        page.wait_for_selector("#analysis-cards[data-state=done]", timeout=WAIT)
        check_grids(page, "#analysis-cards", ["0", "stock"], {"0": 2, "stock": 18})
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(ARTIFACTS / f"lines-cards-analysis-{width}.png"), full_page=True)
        # The Review tab: a view record's decision, its hint with the lines; a row played from
        # there opens a variation.
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-view")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        page.click('.review-row[data-ply="18"]')
        shown(page, "m:17")
        page.click('[data-action="review-hint"]')
        page.wait_for_selector("#review-hint[data-state=done]", timeout=WAIT)
        page.click('#review-hint [data-action="hint-lines"]')
        page.wait_for_selector('#review-hint[data-lines="shown"]', timeout=WAIT)
        rows = page.locator("#review-hint .hint-row[data-move]")
        assert rows.count() >= 2 and page.locator("#review-hint .hint-row .hint-line").count() == rows.count()
        assert "sampled deal" in page.inner_text("#review-hint .hint-line")
        played = page.get_attribute('.review-row[data-ply="18"]', "data-move")
        other = next(r for r in rows.all() if r.get_attribute("data-move") != played)
        move = other.get_attribute("data-move")
        other.locator(".hint-move").click()
        shown(page, "v1:1")
        assert page.get_attribute("#review-moves .variation-row", "data-move") == move
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(ARTIFACTS / f"lines-review-{width}.png"), full_page=True)
        # A view record's position with three players: the card grid.
        page.select_option("#review-examples", "megajogos-view")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        page.click('.review-row[data-ply="13"]')  # player 0's take of 7e (his own view)
        shown(page, "m:12")
        page.click('[data-action="review-cards"]')
        page.wait_for_selector("#review-cards[data-state=done]", timeout=WAIT)
        check_grids(page, "#review-cards", ["1", "2", "stock"], None)
        page.click('.review-row[data-ply="7"]')  # the grid follows the position selected
        shown(page, "m:6")
        page.wait_for_selector("#review-cards[data-state=done] .card-grid", timeout=WAIT)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(ARTIFACTS / f"lines-cards-review-{width}.png"), full_page=True)
        assert errors == [], errors
    finally:
        context.close()


def check_grids(page: Any, box: str, places: list[str], counts: dict[str, int] | None) -> None:
    """One grid per place, 40 cells each; a place's chances add up to its count of cards; each
    unseen card's chances add up to 1; the cards seen are greyed in every grid alike."""
    grids = page.locator(f"{box} .card-grid-box")
    assert [g.get_attribute("data-place") for g in grids.all()] == places
    totals: dict[str, float] = {}
    per_card: dict[str, float] = {}
    seen = None
    for grid in grids.all():
        cells = grid.locator(".grid-cell")
        assert cells.count() == 40
        place = grid.get_attribute("data-place")
        values = cells.evaluate_all("cs => cs.map((c) => [c.dataset.card, c.dataset.p ?? null])")
        totals[place] = sum(float(p) for _, p in values if p is not None)
        for card, p in values:
            if p is not None:
                per_card[card] = per_card.get(card, 0.0) + float(p)
        greyed = {card for card, p in values if p is None}
        assert seen is None or greyed == seen
        seen = greyed
        title = grid.locator(".card-grid-title").inner_text()
        found = re.search(r"\((\d+) cards?\)", title)
        assert found, title
        count = int(found.group(1))
        assert abs(totals[place] - count) < 0.01, (place, totals[place], count)
        if counts is not None:
            assert count == counts[place]
    assert all(abs(total - 1) < 0.001 for total in per_card.values())
    assert page.locator(f"{box} .cards-basis").inner_text().strip()


def test_an_illegal_entered_move_shows_the_servers_message_and_changes_nothing(browser: Any, base: str) -> None:
    from analyzer.service.requests import answer

    header, _, moves = view_record("classic-view")
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        enter_game(page, header, moves[:4])
        record = page.input_value("#review-text")
        # Player 0 takes 6H with 5S 5D 5C and pays KS: KS is in your hand (R1). No click path
        # makes this move (no palette offers him KS), so it is typed.
        page.fill("#entry-text", "take [5♠ 5♦ 5♣] [6♥ 6♦ 6♣] pay K♠")
        page.click('[data-action="entry-enter"]')
        page.wait_for_function("() => document.querySelector('#entry-error').textContent !== ''", timeout=WAIT)
        request = {"id": 1, "cmd": "record", "position": header["start"], "view": 1, "labels": "french",
                   "moves": [m for _, m in moves[:4]] + ["take [5S 5D 5C] [6H 6D 6C] pay KS"]}  # fmt: skip
        got = answer(json.dumps(request))[0]
        assert not got["ok"] and "(R1" in got["error"] and got["error"].startswith("moves: move 5 ")
        # The line is about the move entered: the API's field name is left out.
        assert page.inner_text("#entry-error") == symbols(got["error"].removeprefix("moves: "))
        assert page.input_value("#review-text") == record and len(main_moves(page)) == 4
        assert page.get_attribute("#review-moves", "data-shown") == "m:4"
        page.screenshot(path=str(ARTIFACTS / "view-illegal-move.png"), full_page=True)
        # An address whose record does not decode says so; Analysis has the bundled example.
        page.goto(page.base + "/?record=AAAA")
        page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
        assert "cannot be read" in page.inner_text("#problem")
        assert page.locator("#review-moves .tree-row").count() == 0
        page.click('nav [data-mode="analysis"]')
        assert page.inner_text("#notation-line") == FORCING
        assert errors == [], errors
    finally:
        context.close()


def board_order(codes: list[str]) -> list[str]:
    """Cards in the order the board shows a hand (the server's: by rank, then suit S H D C)."""
    from analyzer.core.cards import parse_card

    return sorted(codes, key=parse_card)


def test_the_entry_form_offers_the_upcard_only_where_the_rules_turn_one_and_lists_the_hand_as_the_board(browser: Any, base: str) -> None:
    """classic turns no upcard (R10a): its form has no upcard choice, and a card clicked goes in
    the hand; the hand chosen is listed in the board's order, the order the board then shows it
    in; cooncan1913 turns one up: its choice is shown."""
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.click('[data-action="enter-game"]')
        page.select_option("#entry-variant", "classic")
        clicked = ["4S", "5S", "KD", "AS", "4C", "3S", "JH", "7C", "2D", "QS"]
        for code in clicked:
            page.click(f'#entry-palette [data-card="{code}"]')
        listed = page.inner_text("#entry-chosen")
        assert f"10 of 10 cards: {symbols(' '.join(board_order(clicked)))}." in listed, listed
        assert "Upcard" not in listed
        assert page.is_hidden("#entry-upcard-choice") and page.is_hidden('[data-control="entry-upcard"]')
        page.screenshot(path=str(ARTIFACTS / "entry-form-classic.png"), full_page=True)
        page.click('[data-action="entry-start"]')
        shown(page, "m:0")
        hand = [c.get_attribute("data-card") for c in page.query_selector_all('[data-zone="hand-0"] [data-card]')]
        assert hand == board_order(clicked)
        # A variant that turns an upcard up (R10a): the choice is offered.
        page.click('[data-action="enter-game"]')
        page.select_option("#entry-variant", "cooncan1913")
        assert page.is_visible("#entry-upcard-choice") and page.is_visible('[data-control="entry-upcard"]')
        assert errors == [], errors
    finally:
        context.close()


def type_move(page: Any, text: str) -> None:
    page.fill("#entry-text", text)
    page.press("#entry-text", "Enter")


def test_the_text_box_takes_the_shorthands_of_conquian_record(browser: Any, base: str) -> None:
    """As `conquian record` reads them: a bare card at a turn is the card turned (R10), in either
    case and in the labels shown, and `?` a pass made face down (`give ?`, R9); in a view being
    entered and in a record with every card known."""
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        header, _, moves = view_record("classic-view")
        assert moves[0] == (None, "turn JS")
        enter_game(page, header, [])
        type_move(page, "js")
        shown(page, "m:1")
        assert main_moves(page) == ["turn JS"] and page.inner_text("#entry-error") == ""
        # megajogos, Spanish labels: player 1 passes face down to player 2 first.
        header, _, moves = view_record("megajogos-view")
        assert moves[0] == (1, "give ?")
        open_board(page)  # a new page: a new form
        page.select_option("#labels", "spanish")
        enter_game(page, header, [])
        type_move(page, "?")
        shown(page, "m:1")
        assert main_moves(page) == ["give ?"]
        # A record with every card known: at its turn of the stock (ply 2, 2C), the card alone.
        page.select_option("#labels", "french")
        page.select_option("#review-examples", "classic-missed-win")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        turn = main_moves(page)[1]
        assert turn == "turn 2C"
        page.click('.review-row[data-ply="2"]')
        shown(page, "m:1")
        type_move(page, "2c")
        shown(page, "m:2")
        assert page.inner_text("#entry-error") == "" and page.locator("#review-moves .variation").count() == 0
        assert errors == [], errors
    finally:
        context.close()


def test_the_text_box_and_enter_go_at_the_end_of_the_deal(browser: Any, base: str) -> None:
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.select_option("#review-examples", "classic-view")
        page.click('[data-action="load-record"]')
        shown(page, "m:0")
        assert page.is_visible("#entry-text") and page.is_visible('[data-action="entry-enter"]')
        page.focus("#review-moves")
        page.keyboard.press("End")
        shown(page, f"m:{len(main_moves(page))}")
        assert "nothing more to enter" in page.inner_text("#entry-head")
        assert page.is_hidden("#entry-text") and page.is_hidden('[data-action="entry-enter"]')
        page.keyboard.press("ArrowLeft")
        shown(page, f"m:{len(main_moves(page)) - 1}")
        assert page.is_visible("#entry-text") and page.is_visible('[data-action="entry-enter"]')
        assert errors == [], errors
    finally:
        context.close()


def forced_lay_in() -> tuple[str, int, str]:
    """A view record of a greedy game in which another player than the viewer is forced and lays
    the centre card in (R14): (its text, the lay-in's ply, the lay-in in French labels)."""
    from analyzer.bots.game import play_game
    from analyzer.formats.records import record_lines, replay_lines, view_lines

    for seed in range(40):
        game = play_game("megajogos", ["greedy"] * 3, seed)
        for ply, (player, move) in enumerate(game.moves, 1):
            text = move.text(Labels.FRENCH)
            if player is not None and text.startswith("lay "):
                replay = replay_lines(record_lines(game.start, game.moves, game.final))
                return "\n".join(view_lines(replay, (player + 1) % 3)), ply, text
    raise AssertionError("no forced lay-in in 40 greedy megajogos games")


def test_the_lay_in_composer_offers_the_centre_card_alone(browser: Any, base: str) -> None:
    """Another player forced (R14) lays the centre card in, adding no hand card: the composer
    offers the centre card alone to click into his layout; the lay-in is entered by clicks."""
    text, ply, lay = forced_lay_in()
    context, page, errors = tab(browser, base)
    try:
        open_board(page)
        page.click('nav [data-mode="review"]')
        page.fill("#review-text", text)
        page.click('[data-action="open-record"]')
        shown(page, "m:0")
        page.click(f'.review-row[data-ply="{ply}"]')
        shown(page, f"m:{ply - 1}")
        page.wait_for_selector('#entry-composer[data-kind="lay"]', timeout=WAIT)
        centre = page.get_attribute('[data-zone="centre"] [data-card]', "data-card")
        offered = [c.get_attribute("data-card") for c in page.query_selector_all("#composer-cards [data-card]")]
        assert offered == [centre], offered
        page.screenshot(path=str(ARTIFACTS / "composer-lay-in.png"), full_page=True)
        compose(page, lay)  # his melds, the centre card clicked in, then Pay… and the card paid
        shown(page, f"m:{ply}")
        assert page.inner_text("#entry-error") == "" and page.locator("#review-moves .variation").count() == 0
        assert errors == [], errors
    finally:
        context.close()
