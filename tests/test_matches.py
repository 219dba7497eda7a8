"""Matches and stakes (R21): the stake rules, matches between bots, match records, the commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import one_error_line, run

from analyzer.bots.match import play_match, standings
from analyzer.bots.simulate import simulate
from analyzer.core.errors import ConquianError
from analyzer.core.rules import CLASSIC, MEGAJOGOS, PRESETS
from analyzer.core.stakes import StakeRule, Standing, default_stakes
from analyzer.formats.matches import match_lines, replay_match_lines
from analyzer.formats.records import RecordError

D = None  # a drawn deal


@pytest.mark.parametrize(
    ("rule", "winners", "scores", "stakes", "pools"),
    [
        # single: a win pays 1 from each loser, a draw nothing.
        ("single", [0, D, 1, 1], [(1, -1), (1, -1), (0, 0), (-1, 1)], [1, 1, 1, 1], [0, 0, 0, 0]),
        # double_after_draw: the deal after a draw is worth 2, back to 1 after a win; two draws in
        # a row do not double it again.
        ("double_after_draw", [D, 1, D, D, 0], [(0, 0), (-2, 2), (-2, 2), (-2, 2), (0, 0)],
         [2, 1, 2, 2, 1], [0, 0, 0, 0, 0]),
        # tableau: each player puts 1 into the pool on a draw; the next winner takes it.
        ("tableau", [D, D, 0, D], [(-1, -1), (-2, -2), (3, -3), (2, -4)], [1, 1, 1, 1],
         [2, 4, 0, 2]),
    ],
)  # fmt: skip
def test_stake_rules_r21(rule: str, winners: list, scores: list, stakes: list, pools: list) -> None:  # type: ignore[type-arg]
    got = standings(rule, 2, winners, dealer=1)[1:]
    assert [s.scores for s in got] == scores
    assert [s.stake for s in got] == stakes
    assert [s.pool for s in got] == pools
    assert [s.dealer for s in got] == [0, 1, 0, 1][: len(got)] + [0] * (len(got) - 4)
    for s in got:
        assert sum(s.scores) == -s.pool  # stakes move between players and the pool only


def test_three_players_pay_the_winner_each() -> None:
    after = Standing.start("tableau", 3).after(None).after(2)
    assert after.scores == (-2, -2, 4) and after.pool == 0 and after.dealer == 2


def test_every_preset_has_a_stake_rule_and_bad_input_is_named() -> None:
    assert default_stakes(CLASSIC) is StakeRule.DOUBLE_AFTER_DRAW
    assert default_stakes(MEGAJOGOS) is StakeRule.SINGLE
    assert all(isinstance(default_stakes(r), StakeRule) for r in PRESETS.values())
    with pytest.raises(ValueError, match="unknown stake rule 'triple'"):
        Standing.start("triple", 2)
    with pytest.raises(ValueError, match="winner must be a seat from 0 to 1, not 2"):
        Standing.start("single", 2).after(2)


def test_a_match_between_bots_is_the_run_simulate_plays() -> None:
    match = play_match("classic", ["greedy", "random"], 5, seed=4)
    games = list(simulate("classic", ["greedy", "random"], 5, seed=4, match=5))
    assert [g.start for g in match.deals] == [g.start for g in games]
    assert [g.final.winner for g in match.deals] == [g.final.winner for g in games]
    dealers = [g.start.dealer for g in match.deals]
    assert dealers == [(dealers[0] + k) % 2 for k in range(5)]  # the deal passes round (R21)
    expected = standings("double_after_draw", 2, [g.final.winner for g in match.deals], dealers[0])
    assert list(match.standings) == expected
    with pytest.raises(ConquianError, match="at least 1 deal"):
        play_match("classic", ["greedy", "random"], 0)


def _record(deals: int = 4, stakes: str = "tableau") -> list[str]:
    match = play_match(MEGAJOGOS.with_players(2), ["greedy", "random"], deals, seed=9, stakes=stakes)
    games = [(g.start, g.moves, g.final) for g in match.deals]
    return match_lines(games, match.standings[0], seeds=[g.seed for g in match.deals], seed=9)


def test_match_records_replay_and_recompute_the_stakes() -> None:
    lines = _record()
    replay = replay_match_lines(lines)
    assert len(replay.deals) == 4 and all(d.finished for d in replay.deals)
    assert json.loads(lines[-1])["standing"] == replay.final.as_dict()
    assert replay.final.rule is StakeRule.TABLEAU


@pytest.mark.parametrize(
    ("tamper", "needle"),
    [
        (lambda ls: ls[:-1] + [json.dumps({"standing": {**json.loads(ls[-1])["standing"], "scores": [5, -5]}})],
         r"the standing line says .* but the deals give"),
        (lambda ls: [ls[0].replace('"tableau"', '"triple"')] + ls[1:], "line 1: stakes must be"),
        (lambda ls: [ls[0]], "holds no deal"),
        (lambda ls: [ls[0], '{"n": 1, "move": "pass"}'] + ls[1:], "line 2: expected a deal's record header"),
    ],
)  # fmt: skip
def test_a_match_record_that_does_not_add_up_is_refused(tamper, needle: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RecordError, match=needle):
        replay_match_lines(tamper(_record()))


def test_a_deal_out_of_turn_or_after_an_unfinished_one_is_refused() -> None:
    lines = _record(2)
    starts = [i for i, t in enumerate(lines) if '"conquian-record"' in t]
    second = lines[starts[1] :]
    # Deal 1 again as deal 2: dealt by the same player, not the next one (R21).
    swapped = lines[: starts[1]] + lines[starts[0] : starts[1]] + [second[-1]]
    with pytest.raises(RecordError, match=r"deal 2 is dealt by player \d, but the deal passes to player \d"):
        replay_match_lines(swapped[:-1])
    cut = lines[: starts[0] + 3] + second[:-1]  # deal 1 stops after two moves
    with pytest.raises(RecordError, match="deal 2 follows deal 1, which is not finished"):
        replay_match_lines(cut)


# ----------------------------------------------------------------------------- commands


def test_play_a_match_records_it_and_replay_and_review_read_it(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    code, out, err = run("play", "--match", "2", "--seed", "5", "--record", str(record),
                         input="1\n" * 400)  # fmt: skip
    assert code == 0, err
    assert "a match of 2 deals, stakes double_after_draw" in out
    assert "Deal 1 of 2:" in out and "Match over after 2 deals" in out
    code, out, err = run("replay", str(record), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["match"] and len(data["deals"]) == 2
    winners = [d["winner"] for d in data["deals"]]
    assert data["scores"] == list(standings("double_after_draw", 2, winners, data["deals"][0]["dealer"])[-1].scores)
    code, out, err = run("review", str(record), "--deal", "2", "--samples", "2", "--json")
    assert code == 0, err
    assert "summary" in json.loads(out)
    code, _, err = run("review", str(record), "--deal", "3")
    assert code == 2 and one_error_line(err) and "holds 2 deals" in err


def test_simulate_matches_reports_the_stake_won_per_deal() -> None:
    code, out, err = run("simulate", "--games", "8", "--match", "4", "--bots", "greedy,random",
                         "--seed", "3", "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["match"] == 4 and data["matches"] == 2 and data["stakes"] == "double_after_draw"
    greedy, rand = data["bot_stake_per_deal"]["greedy"], data["bot_stake_per_deal"]["random"]
    assert greedy["mean"] == pytest.approx(-rand["mean"])  # two players: zero-sum
    low, high = greedy["ci95"]
    assert low <= greedy["mean"] <= high
    assert sum(data["stake_per_deal"]) == pytest.approx(0)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("simulate", "--match", "2", "--stakes", "triple"), "--stakes: unknown stake rule 'triple'"),
        (("review", "examples/records/classic-hint-vs-greedy.jsonl", "--deal", "1"), "--deal is for a match record"),
    ],
)
def test_match_options_are_checked(args: tuple[str, ...], needle: str) -> None:
    from conftest import ROOT

    args = tuple(str(ROOT / a) if a.startswith("examples/") else a for a in args)
    code, _, err = run(*args)
    assert code == 2 and one_error_line(err) and needle in err


def test_the_variants_request_lists_every_preset_with_its_counts_and_stakes() -> None:
    from analyzer.service.requests import answer

    reply, _ = answer(json.dumps({"id": 1, "cmd": "variants"}))
    assert reply["ok"], reply
    listed = {v["name"]: v for v in reply["result"]["variants"]}
    assert set(listed) == set(PRESETS)
    for name, rules in PRESETS.items():
        assert listed[name]["player_counts"] == list(rules.player_counts)
        assert listed[name]["stakes"] == str(default_stakes(rules))
    assert reply["result"]["stakes"] == [r.value for r in StakeRule]


def test_the_standing_request_counts_the_stakes_as_the_library_does() -> None:
    from analyzer.service.requests import answer

    winners = [None, None, 1, 0]
    reply, _ = answer(json.dumps({"id": 1, "cmd": "standing", "stakes": "tableau", "dealer": 1,
                                  "winners": winners}))  # fmt: skip
    assert reply["ok"], reply
    expected = standings("tableau", 2, winners, dealer=1)
    assert reply["result"]["scores"] == list(expected[-1].scores)
    assert reply["result"]["dealer"] == expected[-1].dealer
    assert reply["result"]["won"] == [list(b.won(a)) for a, b in zip(expected, expected[1:], strict=False)]
    for request, field in [({"stakes": "triple"}, "stakes"), ({"winners": [2]}, "winners"),
                           ({"winners": "0,1"}, "winners"), ({"winners": [True]}, "winners")]:  # fmt: skip
        reply, _ = answer(json.dumps({"id": 2, "cmd": "standing", **request}))
        assert not reply["ok"] and reply["field"] == field, reply


def test_a_pool_left_at_the_end_of_a_match_goes_back_in_equal_shares() -> None:
    end = standings("tableau", 3, [None, None])[-1]
    assert end.pool == 6 and sum(end.scores) == -6
    closed = end.closed()
    assert closed.pool == 0 and closed.scores == (0, 0, 0)
    assert Standing.start("single", 2).closed() == Standing.start("single", 2)


@pytest.mark.parametrize("rule", ["tableau", "double_after_draw", "single"])
def test_two_bots_stake_figures_are_opposite_whatever_the_rule(rule: str) -> None:
    code, out, err = run("simulate", "--games", "12", "--match", "3", "--stakes", rule, "--bots",
                         "greedy,random", "--seed", "5", "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    greedy, rand = data["bot_stake_per_deal"]["greedy"], data["bot_stake_per_deal"]["random"]
    assert greedy["mean"] == pytest.approx(-rand["mean"])
    # Whole matches and one bot per seat: the seat and the bot figures are the same figure.
    assert data["stake_per_deal"][0] == pytest.approx(greedy["mean"])


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--games", "10", "--match", "3"), "--games 10 is not a whole number of matches of 3 deals"),
        (("--games", "3", "--match", "3", "--first", "1"), "--first 1 does not start a match of 3 deals"),
    ],
)
def test_simulate_plays_whole_matches(args: tuple[str, ...], needle: str) -> None:
    code, _, err = run("simulate", *args)
    assert code == 2 and one_error_line(err) and needle in err


def _header(lines: list[str], **changes: object) -> list[str]:
    header = json.loads(lines[0])
    header.update(changes)
    return [json.dumps(header), *lines[1:]]


@pytest.mark.parametrize(
    ("tamper", "needle"),
    [
        (lambda ls: ls[:-1] + ['{"standing": {}}'], "line .*: missing key 'stakes' in standing"),
        (lambda ls: ls[:-1] + [ls[-1].replace('"deals"', '"note": 1, "deals"')], "unknown key 'note'"),
        (lambda ls: _header(ls, variant="classic"), "the match header says variant 'classic', but deal 1 is megajogos"),
        (lambda ls: _header(ls, players=["a", "b", "c"]), "'players' names 3 players, but the deals have 2 seats"),
        (lambda ls: _header(ls, deals="x"), "line 1: deals"),
        (lambda ls: _header(ls, seed=-3), "line 1: seed"),
        (lambda ls: _header(ls, stakes=None), "line 1: stakes"),
    ],
)  # fmt: skip
def test_match_headers_and_standings_are_checked_as_strictly_as_game_records(tamper, needle: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RecordError, match=needle):
        replay_match_lines(tamper(_record(2)))


def test_notes_are_allowed_in_a_match_record() -> None:
    lines = _header(_record(2), **{"x-note": "a friendly match"})
    assert len(replay_match_lines(lines).deals) == 2


def test_variants_lists_each_presets_stake_rule() -> None:
    code, out, _ = run("variants", "--json")
    listed = {v["name"]: v for v in json.loads(out)["variants"]}
    assert code == 0 and all(listed[n]["stakes"] == str(default_stakes(r)) for n, r in PRESETS.items())


def test_simulated_matches_are_written_as_match_records_that_replay(tmp_path: Path) -> None:
    records = tmp_path / "run"
    code, out, err = run("simulate", "--games", "6", "--match", "3", "--bots", "greedy,random",
                         "--seed", "4", "--records", str(records), "--json")  # fmt: skip
    assert code == 0, err
    matches = sorted(records.glob("match-*.jsonl"))
    assert [p.name for p in matches] == ["match-000000.jsonl", "match-000003.jsonl"]
    total = [0, 0]
    for path in matches:
        replay = replay_match_lines(path.read_text().splitlines())
        assert len(replay.deals) == 3
        total = [a + b for a, b in zip(total, replay.final.closed().scores, strict=True)]
    # The run's figure per seat is the match records' scores over its deals.
    assert json.loads(out)["stake_per_deal"] == pytest.approx([t / 6 for t in total])
    # A continued run keeps the directory (its games and its matches).
    code, _, err = run("simulate", "--games", "3", "--first", "6", "--match", "3", "--bots",
                       "greedy,random", "--seed", "4", "--records", str(records))  # fmt: skip
    assert code == 0, err
    assert (records / "match-000006.jsonl").exists()


def test_the_review_request_reviews_a_deal_of_a_match_record() -> None:
    from analyzer.service.requests import answer

    text = "\n".join(_record(2))
    reply, _ = answer(json.dumps({"id": 1, "cmd": "review", "record": text, "deal": 2, "samples": 2}))
    assert reply["ok"], reply
    assert reply["result"]["match"] == {"deal": 2, "deals": 2}
    second = replay_match_lines(text.splitlines()).deals[1]
    assert len(reply["result"]["plies"]) == len(second.moves)
    reply, _ = answer(json.dumps({"id": 2, "cmd": "review", "record": text, "deal": 3}))
    assert not reply["ok"] and reply["field"] == "deal" and "holds 2 deals" in reply["error"]
    game = "\n".join(_record(1)[1:-1])  # the first deal alone: a game record
    reply, _ = answer(json.dumps({"id": 3, "cmd": "review", "record": game, "deal": 1}))
    assert not reply["ok"] and reply["field"] == "deal"


def test_stakes_without_a_match_is_noted_not_refused() -> None:
    # An option with no effect where it is given is noted on standard error (README, Errors).
    code, out, err = run("simulate", "--games", "2", "--stakes", "tableau", "--json")
    assert code == 0 and json.loads(out)["games"] == 2
    assert one_error_line(err)
    assert "--stakes is the stake rule of a match: it has no effect without --match N" in err


def test_review_of_a_tableau_match_gives_the_pool_left_back(tmp_path: Path) -> None:
    # hoyle1897 plays Foster's tableau (R21); passing every card, seed 2's match of 3 ends with a
    # pool on the table, which review reports as replay does, shared back in equal shares.
    record = tmp_path / "match.jsonl"
    code, out, err = run("play", "--variant", "hoyle1897", "--match", "3", "--seed", "2",
                         "--record", str(record), input="pass\n" * 400)  # fmt: skip
    assert code == 0, err
    code, out, err = run("replay", str(record), "--json")
    replayed = json.loads(out)
    assert code == 0 and replayed["standing"]["pool"] > 0, replayed
    code, out, err = run("review", str(record), "--samples", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["pool"] == replayed["standing"]["pool"] and data["scores"] == replayed["scores"]
    assert data["final_scores"] == replayed["final_scores"] and sum(data["final_scores"]) == 0
    code, out, err = run("review", str(record), "--samples", "2")
    assert code == 0 and f"{data['pool']} in the pool" in out and "equal shares (R21)" in out


def test_a_match_cut_short_counts_in_matches_but_not_in_complete_matches() -> None:
    """A run stopped inside a match (Ctrl-C) counts that match's deals (matches) but wrote no
    match record for it: complete_matches counts the whole ones, and the text says so."""
    from analyzer.bots.match import MatchSummary
    from cli.simulate import _cut_short

    games = list(simulate(CLASSIC, ["greedy", "random"], 4, 5))
    summary = MatchSummary(CLASSIC, 3, default_stakes(CLASSIC))
    for game in games:
        summary.add(game)
    data = {"games": 4, **summary.as_dict()}
    assert data["matches"] == 2 and data["complete_matches"] == 1
    assert _cut_short(data) == ", the last cut short after 1 of 3 deals"
    whole = MatchSummary(CLASSIC, 2, default_stakes(CLASSIC))
    for game in games:
        whole.add(game)
    assert whole.as_dict()["complete_matches"] == 2 and _cut_short({"games": 4, **whole.as_dict()}) == ""
