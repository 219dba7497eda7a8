"""The whole-number options past their documented ranges (analyzer.search.limits, docs/engine.md):
refused before any search, the same on both cores, by the command line (exit 2, one line naming
the option and the value), by the engine (an error answer naming the field and the value) and by
the bot options. 2**63 is one past the largest 64-bit integer: the native core cannot take it,
and the Python core used to search with it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cli_run import forcing, one_error_line, run
from conftest import EXAMPLES, ROOT

from analyzer.analysis.engines import DECIDE_CAP
from analyzer.analysis.whereabouts import DEFAULT_CARD_SAMPLES
from analyzer.bots.registry import check_bot
from analyzer.core.errors import ConquianError
from analyzer.search.limits import MAX_DEPTH, MAX_POSITIONS, MAX_SAMPLES, MAX_SEED, MAX_SPREAD
from cli.engine import answer

pytestmark = pytest.mark.usefixtures("both_cores")

PAST = 2**63
ANYTIME = str(EXAMPLES / "example6-going-out.json")  # every hand known, the stock order not
UNORDERED = json.loads((EXAMPLES / "example6-going-out.json").read_text())
PUZZLE = json.loads((ROOT / "examples" / "puzzles" / "classic-win-1.json").read_text())["position"]
VIEW = forcing()
VIEW["players"][0]["hand"] = 2  # player 1's view: player 0's two cards hidden
RECORD = (ROOT / "examples" / "records" / "classic-hint-vs-greedy.jsonl").read_text()


def refused(args: list[str], option: str, value: int = PAST, input: str | None = None) -> None:
    """``conquian ARGS`` is a usage error naming ``option`` and ``value``, on one line."""
    code, out, err = run(*args, input=input)
    assert code == 2, (code, out, err)
    assert one_error_line(err) and option in err and str(value) in err, err
    assert out == ""


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["solve", ANYTIME, "--budget", str(PAST)], "--budget"),
        (["solve", ANYTIME, "--prove", str(PAST)], "--prove"),
        (["solve", ANYTIME, "--samples", str(PAST)], "--samples"),
        (["solve", ANYTIME, "--seed", str(PAST)], "--seed"),
        (["solve", ANYTIME, "--all-moves", "--exact", "--budget", str(PAST)], "--budget"),
        # A time limit, so that a hint that is not refused ends instead of sampling for ever.
        (["hint", "--samples", str(PAST), "--time-limit", "0.05"], "--samples"),
        (["hint", "--budget", str(PAST), "--time-limit", "0.05"], "--budget"),
        (["hint", "--seed", str(PAST), "--samples", "1"], "--seed"),
        (["hint", "--cards", "--card-samples", str(PAST), "--static"], "--card-samples"),
        (["why", str(EXAMPLES / "forcing.json"), "pass", "--samples", str(PAST), "--time-limit", "0.05"], "--samples"),
        (["review", "-", "--budget", str(PAST), "--samples", "1"], "--budget"),
        (["review", "-", "--samples", str(PAST), "--time-limit", "0.05"], "--samples"),
        (["tree", "-", "--budget", str(PAST), "--depth", "1"], "--budget"),
        (["puzzle", str(ROOT / "examples" / "puzzles" / "classic-win-1.json"), "--budget", str(PAST)], "--budget"),
        (["deal", "--seed", str(PAST)], "--seed"),
        (["simulate", "--games", "1", "--seed", str(PAST)], "--seed"),
    ],
)
def test_the_command_line_refuses_a_number_past_its_range(args: list[str], option: str) -> None:
    # '-' reads standard input: a record to review, else a position with every card known.
    piped = (RECORD if args[0] == "review" else json.dumps(PUZZLE)) if "-" in args else None
    refused(args, option, input=piped)


def test_the_top_of_each_range_is_taken() -> None:
    # The bounds themselves are within what both cores take: a proven solve with the largest
    # budget, a deal with the largest seed.
    code, out, err = run("solve", "-", "--budget", str(MAX_POSITIONS), "--json", input=json.dumps(PUZZLE))
    assert code == 0, err
    assert json.loads(out)["proven"] is True
    code, out, err = run("deal", "--seed", str(MAX_SEED))
    assert code == 0, err


def ask(request: dict[str, Any]) -> dict[str, Any]:
    reply, stop = answer(json.dumps({"id": 7, **request}))
    assert not stop and reply["id"] == 7
    return reply


@pytest.mark.parametrize(
    "request_",
    [
        {"cmd": "solve", "position": PUZZLE, "budget": PAST},
        # The stock order unknown: the anytime answer reads 'samples', 'seed' and 'prove'.
        {"cmd": "solve", "position": UNORDERED, "budget": PAST},
        {"cmd": "solve", "position": UNORDERED, "prove": PAST},
        {"cmd": "solve", "position": UNORDERED, "samples": PAST},
        {"cmd": "solve", "position": UNORDERED, "seed": PAST},
        {"cmd": "solve", "position": VIEW, "budget": PAST},  # the endgame's equilibrium
        {"cmd": "hint", "position": forcing(), "budget": PAST},
        {"cmd": "hint", "position": forcing(), "samples": PAST},
        {"cmd": "hint", "position": forcing(), "seed": PAST, "samples": 1},
        {"cmd": "hint", "position": forcing(), "cards": True, "card_samples": PAST, "static": True},
        {"cmd": "why", "position": forcing(), "move": "pass", "seed": PAST},
        {"cmd": "review", "record": RECORD, "budget": PAST, "samples": 1},
        {"cmd": "review", "record": RECORD, "seed": PAST, "samples": 1},
        {"cmd": "deal", "seed": PAST},
        {"cmd": "play", "position": forcing(), "move": "pass", "seed": PAST},
        {"cmd": "record", "position": PUZZLE, "moves": [], "seed": PAST},
    ],
    ids=lambda r: f"{r['cmd']}-{next(k for k, v in r.items() if v == PAST)}",
)
def test_the_engine_refuses_a_number_past_its_range(request_: dict[str, Any]) -> None:
    field = next(key for key, value in request_.items() if value == PAST)
    reply = ask(request_)
    assert reply["ok"] is False and reply["field"] == field, reply
    assert reply["error"].startswith(f"'{field}' must be from ") and str(PAST) in reply["error"]


def test_the_engine_takes_the_largest_budget() -> None:
    reply = ask({"cmd": "solve", "position": PUZZLE, "budget": MAX_POSITIONS})
    assert reply["ok"] is True and reply["result"]["proven"] is True, reply


@pytest.mark.parametrize(
    ("bot", "bound"),
    [
        (f"hint:node_budget={PAST}", MAX_POSITIONS),
        (f"hint:samples={PAST}", MAX_SAMPLES),
        (f"hint:max_depth={2**31}", MAX_DEPTH),  # the native lookahead's depth is a 32-bit number
        (f"hint:spread={PAST}", MAX_SPREAD),
        (f"hint:leaf=rollout:playouts={PAST}", MAX_SAMPLES),
        (f"mcts:iterations={PAST}", MAX_SAMPLES),
        (f"oracle:max_nodes={PAST}", MAX_POSITIONS),
        (f"oracle-greedy:max_nodes={PAST}", MAX_POSITIONS),
        (f"blind-greedy:samples={PAST}", MAX_SAMPLES),
        (f"exact:budget={PAST}", MAX_POSITIONS),
    ],
)
def test_a_bot_option_past_its_range_is_refused(bot: str, bound: int) -> None:
    with pytest.raises(ConquianError, match=rf"must be at most {bound}$"):
        check_bot(bot)


def test_simulate_refuses_a_bot_option_past_its_range() -> None:
    refused(["simulate", "--games", "1", "--bots", f"hint:node_budget={PAST},greedy"], "node_budget")
    # A whole number too long for a float is said to be out of range, not a crash.
    big = 10**400
    refused(["simulate", "--games", "1", "--bots", f"oracle:max_nodes={big},greedy"], "max_nodes", big)


def test_the_ranges_hold_the_defaults_and_are_documented() -> None:
    assert max(DECIDE_CAP.values()) <= MAX_SAMPLES and DEFAULT_CARD_SAMPLES <= MAX_SAMPLES
    assert MAX_SEED == 2**63 - 1  # the seeds of a match's deals are below 2**63 (game_seed)
    engine_doc = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    for text in (f"from 1 to {MAX_POSITIONS}", f"from 0 to {MAX_POSITIONS}", f"from 1 to {MAX_SAMPLES}",
                 f"from 0 to {MAX_SEED}"):  # fmt: skip
        assert text in engine_doc, text


LARGE = (
    "classic french 0 0 3S,4S,5S,6S,7S,3H,4H,5H,6H,7H,3D,4D,5D,6D,7D,3C,4C,6C,7C/19 "
    "5C:turned:1:1 - 1 rules:hand_size=19"
)
"""Player 0 offered 5C with 19 cards of sets and runs under custom rules (hand_size 19, R8): his
takes (R13) number tens of thousands."""


def test_a_sampled_hint_of_a_position_of_too_many_moves_is_refused_before_any_deal() -> None:
    from analyzer.formats.notation import parse_notation
    from analyzer.search.limits import MAX_CHOICES

    count = len(parse_notation(LARGE).legal_moves())
    assert count > MAX_CHOICES
    code, _, err = run("hint", LARGE)
    assert code == 1 and one_error_line(err), err
    assert f"{count:,} legal moves" in err and f"{MAX_CHOICES:,}" in err and "--static" in err
    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": LARGE}))
    assert not reply["ok"] and f"{count:,} legal moves" in json.dumps(reply["error"]), reply


def test_simulate_games_and_deal_after_have_documented_ranges() -> None:
    from analyzer.service.board import MAX_PLIES
    from cli.simulate import MAX_GAMES

    code, _, err = run("simulate", "--games", str(2**63), "--bots", "greedy,random")
    assert code == 2 and one_error_line(err) and "--games" in err and str(MAX_GAMES) in err.replace(",", ""), err
    code, _, err = run("deal", "--after", str(MAX_PLIES + 1))
    assert code == 2 and "--after" in err, err
    reply = ask({"cmd": "deal", "after": MAX_PLIES + 1})
    assert not reply["ok"] and str(MAX_PLIES) in json.dumps(reply["error"]), reply
