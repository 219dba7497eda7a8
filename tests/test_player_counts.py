"""Player counts as data and custom rules in a position (R8, RULES.md section 4).

Every preset states the player counts it allows; the MegaJogos rules are played by 2, 3 or 4.
A position's player count is the length of its ``players`` list, and a position may change
rule options on top of its variant.  Rules checks, move generation and the searches at these
counts are in test_state.py, test_search.py and test_native_core.py (both cores); the golden
playthroughs in test_records.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import one_error_line, run

from analyzer.analysis.engines import engine_for
from analyzer.core.dealing import deal
from analyzer.core.errors import PositionError
from analyzer.core.rules import CLASSIC, MEGAJOGOS, PRESETS, RULE_OPTIONS, Rules, get_rules
from analyzer.core.state import dump_position
from analyzer.formats.notation import NotationError, format_notation, parse_notation
from analyzer.formats.position import load_position

FOUR = MEGAJOGOS.with_players(4)
TWO = MEGAJOGOS.with_players(2)


# ----------------------------------------------------------------------------- the rules


def test_every_preset_states_its_player_counts() -> None:
    assert CLASSIC.player_counts == (2,)
    assert MEGAJOGOS.player_counts == (2, 3, 4)
    for rules in PRESETS.values():
        assert rules.players in rules.player_counts
        for n in rules.player_counts:
            other = rules.with_players(n)
            # R8: n hands of hand_size and a stock of the rest of the 40 cards.
            assert other.players == n and other.stock_size == 40 - n * rules.hand_size > 0
            assert other.stock_size > 0


def test_a_count_the_variant_does_not_allow_is_refused_naming_r8() -> None:
    with pytest.raises(ValueError, match=r"^classic is played by 2 players, not 3 \(R8\)$"):
        CLASSIC.with_players(3)
    with pytest.raises(ValueError, match=r"^megajogos is played by 2, 3 or 4 players, not 5 \(R8\)$"):
        MEGAJOGOS.with_players(5)


@pytest.mark.parametrize(
    ("rules", "options", "needle"),
    [
        (CLASSIC, {"hand_size": 20}, r"classic deals 2 x 20 = 40 cards: the deck has 40 and a stock must be left \(R1, R8\)"),
        (MEGAJOGOS, {"players": 4, "hand_size": 10}, r"megajogos is played by 2 or 3 players, not 4|deals 4 x 10 = 40"),
        (CLASSIC, {"hand_size": 4, "max_run": 4}, r"needs 5 melded cards to go out, which takes a run of 5, but max_run is 4 \(R5, R15\)"),
        (CLASSIC, {"hand_size": 1}, r"hand_size must be at least 2 .*\(R4, R15\)"),
        (CLASSIC, {"max_run": 11}, r"max_run must be 3 to 10 .* \(R5\)"),
        (CLASSIC, {"jokers": 2}, r"unknown rule option\(s\) 'jokers'"),
        (CLASSIC, {"force_when": "never"}, r"force_when='never' is not one of after_decline, any_offer"),
        (CLASSIC, {"hand_melds": "maybe"}, r"hand_melds must be true or false"),
        (CLASSIC, {"max_run": "8"}, r"max_run must be a whole number"),
    ],
)  # fmt: skip
def test_impossible_options_are_refused_with_the_rule(rules: Rules, options: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        rules.with_options(options)


def test_options_change_the_rules_and_overrides_name_exactly_the_changes() -> None:
    rules = CLASSIC.with_options({"max_run": 10, "force_when": "any_offer", "hand_melds": "true"})
    assert (rules.max_run, str(rules.force_when), rules.hand_melds) == (10, "any_offer", True)
    assert rules.overrides() == {"max_run": 10, "force_when": "any_offer", "hand_melds": True}
    assert CLASSIC.overrides() == {} and FOUR.overrides() == {}  # the count is not an override
    assert CLASSIC.with_options({"max_run": None, "exchange": "", "hand_size": -1}) is CLASSIC
    assert set(rules.overrides()) <= set(RULE_OPTIONS)
    # Fewer cards dealt keep every count that can still be dealt; more drop those that cannot.
    assert MEGAJOGOS.with_options({"hand_size": 12}).player_counts == (2, 3)


@pytest.mark.parametrize(
    "rules",
    [CLASSIC, MEGAJOGOS, TWO, FOUR, TWO.with_options({"max_run": 8}),
     CLASSIC.with_labels("spanish").with_options({"on_stock_out": "fewest_in_hand"})],
)  # fmt: skip
def test_repr_is_the_expression_that_builds_the_rules(rules: Rules) -> None:
    assert eval(repr(rules), {"get_rules": get_rules}) == rules
    assert repr(rules).startswith("get_rules(")


# ----------------------------------------------------------------------------- positions


@pytest.mark.parametrize(
    "rules",
    [TWO, FOUR, CLASSIC.with_options({"max_run": 10, "force_when": "any_offer", "hand_melds": True}),
     FOUR.with_options({"force_fit": "rearrange", "exchange": "none"})],
    ids=["megajogos-2p", "megajogos-4p", "classic-custom", "megajogos-4p-custom"],
)  # fmt: skip
def test_positions_and_notation_carry_the_count_and_the_overrides(rules: Rules) -> None:
    state = deal(rules, seed=5)
    data = dump_position(state)
    assert len(data["players"]) == rules.players
    assert data.get("rules", {}) == rules.overrides()
    again = load_position(json.loads(json.dumps(data)))
    assert again == state and again.rules == rules
    text = format_notation(state)
    assert (" rules:" in text) == bool(rules.overrides())
    assert parse_notation(text) == state and format_notation(parse_notation(text)) == text


def _four_player_data() -> dict:
    return dump_position(deal(FOUR, seed=2))


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda d: d.update(players=d["players"][:1]), r"'players' must list 2, 3 or 4 players for megajogos, got 1 \(R8\)"),
        (lambda d: d.update(rules={"players": 3}), r"rules.players is 3 but 'players' lists 4 players \(R8\)"),
        (lambda d: d.update(rules={"hand_size": 10}), r"rules: megajogos deals 4 x 10 = 40 cards"),
        (lambda d: d.update(rules={"max_run": 2}), r"rules.max_run must be at least 3"),
        (lambda d: d.update(rules={"jokers": 2}), r"unknown key 'jokers' in rules \(known: discard_force, exchange, force_fit"),
        (lambda d: d.update(variant="classic"), r"'players' must list 2 players for classic, got 4 \(R8\)"),
    ],
)  # fmt: skip
def test_a_position_with_a_count_or_options_the_rules_forbid_is_refused(change, needle: str) -> None:  # type: ignore[no-untyped-def]
    data = _four_player_data()
    change(data)
    with pytest.raises(PositionError, match=needle):
        load_position(data)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("megajogos spanish - - 1/2/3/4/5", r"megajogos is played by 2, 3 or 4 players, separated by '/'; got 5"),
        ("classic french - - 10/10/10", r"classic has 2 players, separated by '/'; got 3"),
        ("classic french - - 10/10 - - 20 rules:max_run=2", r"field 'rules' at column 39: max_run must be 3 to 10"),
        ("classic french - - 10/10 - - 20 rules:jokers=1", r"field 'rules' at column 39: unknown rule option 'jokers'"),
        ("classic french - - 10/10 - - 20 rules:max_run", r"field 'rules' at column 39: expected NAME=VALUE"),
        ("classic french - - 10/10 - - 20 rules:players=3", r"players=3 but the 'players' field lists 2 players \(R8\)"),
        ("classic french - - 10/10 - - 20 rules:max_run=8 rules:max_run=9", r"'rules:' given twice"),
    ],
)  # fmt: skip
def test_notation_errors_name_the_field_and_the_rule(text: str, needle: str) -> None:
    with pytest.raises(NotationError, match=needle):
        parse_notation(text)


def test_an_option_in_the_notation_changes_what_the_other_fields_may_hold() -> None:
    # A hidden hand of 11 cards is more than classic deals, unless the rules deal 11 (R8).
    with pytest.raises(NotationError, match="more than the 10 dealt"):
        parse_notation("classic french - - 11/11 - - 18")
    state = parse_notation("classic french - - 11/11 - - 18 rules:hand_size=11")
    assert state.rules.hand_size == 11 and state.rules.target == 12


# ----------------------------------------------------------------------------- commands


@pytest.mark.parametrize("players", [2, 4])
def test_commands_deal_hint_solve_and_simulate_at_other_counts(players: int, tmp_path: Path) -> None:
    position = tmp_path / "position.json"
    code, _, err = run("deal", "--variant", "megajogos", "--players", str(players), "--seed", "4",
                       "--after", "1", "-o", str(position))  # fmt: skip
    assert code == 0, err
    data = json.loads(position.read_text())
    assert len(data["players"]) == players and "rules" not in data
    code, out, err = run("hint", str(position), "--samples", "2", "--json")
    assert code == 0, err
    hint = json.loads(out)
    state = load_position(data)
    assert {e["move"] for e in hint["moves"]} == {m.text(state.rules.labels) for m in state.legal_moves()}
    code, out, err = run("simulate", "--variant", "megajogos", "--players", str(players),
                         "--games", "3", "--json")  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert summary["players"] == players and len(summary["bots"]) == players
    assert summary["games"] == 3


def test_solve_at_four_players_equals_plain_max_n(tmp_path: Path) -> None:
    from test_search import plain_minimax, small_positions

    state = small_positions(FOUR, 1, 0)[0]
    position = tmp_path / "four.json"
    position.write_text(json.dumps(dump_position(state)))
    code, out, err = run("solve", str(position), "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["proven"] is True
    assert answer["values"] == pytest.approx(list(plain_minimax(state)))


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("deal", "--players", "3"), "--players: classic is played by 2 players, not 3 (R8)"),
        (("play", "--players", "3"), "--players: classic is played by 2 players, not 3 (R8)"),
        (("simulate", "--variant", "megajogos", "--players", "5"), "--players"),
    ],
)
def test_a_player_count_the_variant_does_not_allow_is_a_usage_error(args: tuple[str, ...], needle: str) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert one_error_line(err) and needle in err


def test_play_seats_four_players(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    code, out, err = run("play", "--variant", "megajogos", "--players", "4", "--seed", "1",
                         "--record", str(record), input="quit\n")  # fmt: skip
    assert code == 0, err
    assert "conquian play: megajogos, 4 players, you are player 0." in out
    header = json.loads(record.read_text().splitlines()[0])
    assert len(header["players"]) == 4 and len(header["start"]["players"]) == 4


def test_the_engine_protocol_deals_other_counts_and_names_a_bad_one() -> None:
    from analyzer.service.requests import answer

    reply, _ = answer(json.dumps({"id": 1, "cmd": "deal", "variant": "megajogos", "players": 4, "seed": 1}))
    assert reply["ok"], reply
    position = reply["result"]["position"]
    assert len(position["players"]) == 4 and load_position(position).rules == FOUR
    reply, _ = answer(json.dumps({"id": 2, "cmd": "deal", "variant": "classic", "players": 3}))
    assert not reply["ok"] and reply["field"] == "players"
    assert reply["error"] == "players: classic is played by 2 players, not 3 (R8)"


def test_the_rules_in_force_are_shown_and_the_fitted_leaf_is_for_the_preset_alone() -> None:
    from analyzer.search.evaluation import evaluator_for

    custom = CLASSIC.with_options({"max_run": 10, "hand_melds": True})
    assert deal(custom, seed=1).describe().startswith("classic (max_run=10, hand_melds=true), ")
    assert deal(FOUR, seed=1).describe().startswith("megajogos, 4 players, ")
    assert deal(CLASSIC, seed=1).describe().startswith("classic, ")
    # A model fitted on a preset's own rules never scores other rules (R8, section 4).
    for rules in PRESETS.values():
        assert evaluator_for(rules) is not None and evaluator_for(rules.with_labels("spanish")) is not None
    assert evaluator_for(custom) is None and evaluator_for(FOUR) is None and evaluator_for(TWO) is None
    text = ("classic french - - AH,2H,3H,5C,6C,7C,JD,QD,KD,KS/10 QS:turned:0 - 19 "
            "rules:max_run=10,hand_melds=true")  # fmt: skip
    code, out, err = run("hint", text, "--samples", "2", "--engine", "pimc")
    assert code == 0, err
    flat = " ".join(out.split())
    assert "classic (max_run=10, hand_melds=true), offer" in flat
    assert "the rest scored by the melded-card lead (no evaluation is fitted" in flat
    # With no fitted leaf the default engine is IS-MCTS, which needs none (engines.AUTO).
    code, out, err = run("hint", text, "--samples", "200", "--json")
    assert code == 0, err
    assert json.loads(out)["method"] == "ismcts"
    assert engine_for("auto", custom).name == "v3" and engine_for("auto", TWO).name == "v3"
    assert engine_for("auto", CLASSIC).name == "v2"
    code, out, err = run("analyze", text, "--json")
    assert code == 0 and json.loads(out)["rules"] == {"max_run": 10, "hand_melds": True}


def test_every_rule_option_can_be_overridden_and_huge_numbers_are_quoted() -> None:
    state = parse_notation("classic french - - 10/10 - - 20 rules:rearrange=own,force_fit=rearrange")
    assert str(state.rules.force_fit) == "rearrange"
    with pytest.raises(NotationError, match=r"max_run=99999999999 is out of range"):
        parse_notation("classic french - - 10/10 - - 20 rules:max_run=99999999999")


def test_a_four_player_game_is_recorded_replayed_and_reviewed(tmp_path: Path) -> None:
    records = tmp_path / "games"
    code, _, err = run("simulate", "--variant", "mexican_9_10", "--players", "4", "--games", "1",
                       "--seed", "2", "--records", str(records))  # fmt: skip
    assert code == 0, err
    record = str(records / "game-000000.jsonl")
    code, out, err = run("replay", record, "--json")
    assert code == 0, err
    assert json.loads(out)["variant"] == "mexican_9_10"
    code, out, err = run("review", record, "--samples", "20", "--json")
    assert code == 0, err
    review = json.loads(out)
    assert [entry["player"] for entry in review["summary"]] == [0, 1, 2, 3]
