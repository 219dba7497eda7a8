"""The line the hint expects after each move (analyzer.analysis.lines, ``hint --line``): the
search's moves on one typical sampled deal, its sampled cards marked."""

from __future__ import annotations

import json
import re
import math
from dataclasses import replace
import random
from typing import Any

import pytest
from cli_run import run
from conftest import late_position
from web_support import FORCING

import analyzer.analysis.advisor as advisor_module
from analyzer.analysis.advisor import advise
from analyzer.analysis.engines import MCTS_SEARCHES
from analyzer.analysis.lines import LINE_DEALS, LINE_DECISIONS, RESULTS, Line, expected_lines, line_text
from analyzer.core.dealing import deal, view
from analyzer.core.moves import Move
from analyzer.core.rules import get_rules
from analyzer.core.state import GameState
from analyzer.formats.notation import format_notation, parse_notation
from analyzer.search.sampling import sample_deal, unseen_cards
from analyzer.service.requests import answer


def _pick(state: GameState, moves: list[Move], rng: Any) -> Move:
    return rng.choice(moves)


def _mid(variant: str, seed: int) -> GameState:
    """A mid-deal position with a choice, every card known (the hint sees only its view)."""
    for s in range(seed, seed + 50):
        state = late_position(variant, s, 14, _pick)
        if state is not None:
            return state
    raise AssertionError("no position")


def _megajogos3(seed: int) -> GameState:
    """A three-player megajogos position with a choice (the v3 engine's)."""
    rules = get_rules("megajogos").with_players(3)
    rng = random.Random(seed)
    state = deal(rules, seed)
    while True:
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
            continue
        moves = state.legal_moves()
        if state.stock_count <= 14 and len(moves) > 1 and state.centre is not None:
            return state
        state = state.apply(rng.choice(moves))


def _replays(line: Line, state: GameState) -> None:
    """Every step of ``line`` is legal on its deal, forced exactly when alone, a turn by nobody;
    at most LINE_DECISIONS decisions; its sampled cards are ones the player cannot see."""
    hidden = unseen_cards(view(state, state.to_act), state.to_act)
    passed = state.gave[state.to_act] if state.gave else None
    pos = line.deal_state.apply(line.move)
    decisions = 0
    for step in line.steps:
        if step.player is None:
            assert pos.is_chance_node() and pos.chance_outcomes()[0][0] == step.move
        else:
            legal = pos.legal_moves()
            assert step.player == pos.to_act and step.move in legal
            assert step.forced == (len(legal) == 1)
            decisions += not step.forced
        assert step.sampled & ~hidden == 0  # his own cards and the table are never "sampled"
        assert passed is None or not step.sampled >> passed & 1  # R9: its place is known
        pos = pos.apply(step.move)
    assert decisions <= LINE_DECISIONS
    assert (line.end == "over") == pos.is_terminal()
    if line.end == "decisions":
        assert decisions == LINE_DECISIONS
    if line.end == "over":
        assert line.winner == pos.winner


@pytest.mark.parametrize("seed", [1, 2])
def test_lines_of_pimc_are_on_the_hints_own_typical_deal(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    state = _mid("classic", seed)
    drawn: list[GameState] = []

    def recording(*args: Any, **kwargs: Any) -> GameState:
        found = sample_deal(*args, **kwargs)
        drawn.append(found)
        return found

    monkeypatch.setattr(advisor_module, "sample_deal", recording)
    advice = advise(state, samples=24, seed=seed, time_limit=math.inf)
    monkeypatch.undo()
    assert advice.engine == "v2" and len(drawn) == 24
    moves = [e.move for e in advice.estimates[:3]]
    lines = expected_lines(state, advice, moves, seed=seed)
    assert list(lines) == moves
    for move, line in lines.items():
        # The deal is the hint's own k-th deal, drawn again from the seed.
        assert line.deal_state == drawn[line.deal - 1] and line.deals == 24 and line.sampled
        # Typical: the most common likeliest result over the deals, first in seed order.
        per_deal = advice.per_deal[move]
        likeliest = [
            max(RESULTS, key=lambda r, w=w, d=d: {"win": w, "draw": d, "loss": 1 - w - d}[r])
            for w, d in per_deal
        ]
        assert likeliest.count(line.result) == max(likeliest.count(r) for r in RESULTS)
        # The first such deal whose line, searched on, does not end otherwise (else the first,
        # marked not typical): a heading never names a result its line contradicts.
        firsts = [k for k, r in enumerate(likeliest) if r == line.result][:LINE_DEALS]
        ended = None if line.end != "over" else "draw" if line.winner is None else "win" if line.winner == state.to_act else "loss"
        assert line.deal - 1 in firsts
        if line.typical:
            assert ended in (None, line.result), (ended, line.result)
        else:
            assert line.deal - 1 == firsts[0] and ended not in (None, line.result)
        assert line.share == likeliest.count(line.result) / 24
        _replays(line, state)
    # Seeded: the same lines again.
    assert expected_lines(state, advice, moves, seed=seed) == lines


def test_lines_of_ismcts_end_with_the_moves_likeliest_result() -> None:
    state = _megajogos3(3)
    advice = advise(state, seed=2, until_decided=True, searches=MCTS_SEARCHES, time_limit=math.inf)
    assert advice.engine == "v3" and not advice.per_deal
    moves = [e.move for e in advice.estimates[:2]]
    lines = expected_lines(state, advice, moves, seed=2)
    for estimate in advice.estimates[:2]:
        line = lines[estimate.move]
        _replays(line, state)
        shares = {"win": estimate.win, "draw": estimate.draw, "loss": estimate.loss}
        if line.typical:
            assert shares[line.result] == max(shares.values())
        assert 1 <= line.deal <= line.deals
        if line.end == "over":  # its result is the deal's end (else a playout went on)
            assert line.result == ("draw" if line.winner is None else "win" if line.winner == state.to_act else "loss")
    assert expected_lines(state, advice, moves, seed=2) == lines


def test_a_line_on_the_position_itself_samples_nothing() -> None:
    state = _mid("classic", 4)
    advice = advise(state, open_hands=True, time_limit=math.inf)
    line = expected_lines(state, advice, [advice.estimates[0].move], open_hands=True)[advice.estimates[0].move]
    assert not line.sampled and line.deal == 1 and line.deals == 1 and line.deal_state == state
    assert all(step.sampled == 0 for step in line.steps)


def test_the_cpsat_engine_gives_a_line_too() -> None:
    state = _mid("classic", 5)
    advice = advise(state, samples=4, engine="v1", time_limit=math.inf)
    move = advice.estimates[0].move
    line = expected_lines(state, advice, [move], engine="v1")[move]
    assert line.deals == 4
    _replays(line, state)


def _without_extras(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k not in ("cards", "seconds")}
    out["moves"] = [{k: v for k, v in m.items() if k != "line"} for m in data["moves"]]
    return out


@pytest.mark.parametrize("kind", ["classic", "megajogos3"])
def test_line_and_cards_leave_the_hint_unchanged(kind: str) -> None:
    state = _mid("classic", 6) if kind == "classic" else _megajogos3(6)
    position = format_notation(view(state, state.to_act))
    code, plain, _ = run("hint", position, "--json", "--seed", "3")
    assert code == 0
    code, extra, err = run("hint", position, "--json", "--seed", "3", "--line", "--cards", "--top", "3")
    assert code == 0 and not err
    plain_data, extra_data = json.loads(plain), json.loads(extra)
    assert _without_extras(extra_data) == _without_extras({**plain_data, "moves": plain_data["moves"][:3]})
    assert all(m["line"] is not None for m in extra_data["moves"])
    assert "cards" in extra_data
    # The text ranks the same too, with a line under each move whose reasons are shown.
    code, text, _ = run("hint", position, "--seed", "3")
    code2, text_line, _ = run("hint", position, "--seed", "3", "--line")
    assert code == code2 == 0
    # The table's rows ("1   pass") and the reasons ("1. pass: ..."), not a wrapped "3.7 s.".
    row = re.compile(r"^\d+(\. | )|^Best move")
    table = [r for r in text.splitlines() if row.match(r)]
    assert table == [r for r in text_line.splitlines() if row.match(r)]
    assert text_line.count("Expected line, on ") == min(3, len(plain_data["moves"]))


def test_hint_line_json_and_the_engine_request() -> None:
    code, out, err = run("hint", FORCING, "--json", "--line", "--samples", "16")
    assert code == 0 and not err
    data = json.loads(out)
    for m in data["moves"]:
        line = m["line"]
        assert set(line) == {
            "deal", "deals", "result", "typical", "value", "share", "sampled", "moves", "end",
            "winner", "notation", "text",
        }
        assert 1 <= line["deal"] <= line["deals"] == 16 and line["result"] in RESULTS
        assert line["text"][0].startswith(f"Expected line, on sampled deal {line['deal']} of 16")
        for step in line["moves"]:
            assert set(step) == {"player", "move", "forced", "sampled"}
            assert (step["player"] is None) == step["move"].startswith("turn ")
        # The sampled deal is a whole deal consistent with player 1's view.
        whole = parse_notation(line["notation"])
        assert all(h is not None for h in whole.hands) and whole.stock is not None
        assert whole.hands[1] == parse_notation(FORCING).hands[1]
    request = {"id": 1, "cmd": "hint", "position": FORCING, "line": True, "samples": 16, "top": 1}
    reply, _ = answer(json.dumps(request))
    assert reply["ok"] and len(reply["result"]["moves"]) == 1
    assert reply["result"]["moves"][0]["line"] == data["moves"][0]["line"]
    reply, _ = answer(json.dumps({**request, "static": True, "samples": 1}))
    assert reply["ok"] and reply["result"]["notes"][-1] == "'line' has no effect with \"static\": true (no search, so no line)"
    assert "line" not in reply["result"]["moves"][0]
    reply, _ = answer(json.dumps({**request, "line": "yes"}))
    assert not reply["ok"] and reply["field"] == "line"


def test_hint_line_text_marks_the_sampled_cards() -> None:
    code, out, _ = run("hint", FORCING, "--line", "--samples", "16")
    assert code == 0
    assert "Expected line, on sampled deal" in out and "cards marked * are that deal's, sampled, not known" in " ".join(out.split())
    # Player 1's own cards (QH, QD) are never marked; a turned card always is.
    rows = [r.strip() for r in out.splitlines()]
    turns = [r for r in rows if r.startswith("turn ")]
    assert turns and all(r.endswith("*") for r in turns)
    assert not any("QH*" in r or "QD*" in r for r in rows)
    code, _, err = run("hint", FORCING, "--line", "--static")
    assert code == 0 and "--line has no effect" in err


def test_a_line_that_ends_otherwise_than_its_heading_says_so() -> None:
    """A pimc line marked not typical (each deal tried with the move's most common result ended
    otherwise, searched on): its heading names the result as the search's estimate and says the
    line ends otherwise; a typical one does not."""
    state = _mid("classic", 1)
    advice = advise(state, samples=8, seed=1, time_limit=math.inf)
    move = advice.estimates[0].move
    line = expected_lines(state, advice, [move], seed=1)[move]
    typical = " ".join(line_text(replace(line, typical=True), state.rules.labels, player=state.to_act, engine="v2"))
    other = " ".join(line_text(replace(line, typical=False), state.rules.labels, player=state.to_act, engine="v2"))
    assert "ends otherwise" not in typical
    assert "by the search's estimate; searched on to the end, this line ends otherwise" in other
