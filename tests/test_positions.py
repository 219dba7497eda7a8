"""Loading a position checks the rules (R1, R7, R9, R11, R14), after its shape and its labels."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cli_run import example, forcing, one_error_line, run
from conftest import EXAMPLES

from analyzer.core.errors import PositionError
from analyzer.formats.notation import parse_notation
from analyzer.formats.position import load_position
from analyzer.core.state import Phase

MEGAJOGOS_START: dict[str, Any] = {
    "variant": "megajogos",
    "dealer": 2,
    "stock": 16,
    "players": [
        {"hand": ["1e", "2e", "3e", "4e", "5e", "6e", "7e", "10e"], "layout": []},
        {"hand": ["1o", "2o", "3o", "4o", "5o", "6o", "7o", "10o"], "layout": []},
        {"hand": ["1c", "2c", "3c", "4c", "5c", "6c", "7c", "10c"], "layout": []},
    ],
}


def test_labels_must_be_known() -> None:
    data = forcing()
    data["labels"] = "german"
    with pytest.raises(PositionError, match='labels must be "french" or "spanish"'):
        load_position(data)


def test_exchange_choice_must_be_in_the_hand() -> None:
    data: dict[str, Any] = {
        "variant": "megajogos",
        "dealer": 2,
        "players": [{"hand": ["1e", "2e", "3e", "4e", "5e", "6e", "7e", "10e"], "layout": []},
                    {"hand": ["1o", "2o", "3o", "4o", "5o", "6o", "7o", "10o"], "layout": []},
                    {"hand": 8, "layout": []}],
        "stock": 16,
        "exchange": {"chosen": ["1o", None, None]},
    }  # fmt: skip
    with pytest.raises(PositionError, match="not in his hand"):
        load_position(data)
    del data["exchange"]
    data["players"][0]["gave"] = "1e"
    data["stock"] = 15
    data["centre"] = {"card": "11b", "kind": "turned", "source": 0, "declined": []}
    with pytest.raises(PositionError, match="still in his hand"):
        load_position(data)


def test_exchange_positions_follow_turn_order() -> None:
    state = load_position({**MEGAJOGOS_START, "exchange": {"chosen": ["2e", None, None]}})
    assert state.to_act == 1 and state.phase is Phase.EXCHANGE
    for chosen, needle in (
        ([None, None, "1c"], "player 0 has not chosen"),
        (["2e", "2o", "1c"], "already done"),
    ):
        code, _, err = run("analyze", "-", input=json.dumps({**MEGAJOGOS_START, "exchange": {"chosen": chosen}}))
        assert code == 1 and needle in err


def test_gave_in_classic_is_refused_as_no_exchange() -> None:
    # 'gave' in a classic position is refused because classic has no exchange, not "still in
    # his hand".
    data = forcing()
    data["players"][0]["gave"] = "KH"
    with pytest.raises(PositionError, match=r"classic has no exchange.*\(R9\)"):
        load_position(data)
    data["players"][0]["gave"] = "9Z"
    with pytest.raises(PositionError, match="classic has no exchange"):
        load_position(data)


def _forced(to_act: int, centre: dict[str, Any], name: str = "forcing.json") -> dict[str, Any]:
    data = example(name)
    data["to_act"] = to_act
    data["centre"] = centre
    return data


def test_a_force_no_play_can_reach_is_refused_in_classic() -> None:
    # Player 0 forced with 5C before he declined it: in classic only another player may force,
    # and only a player who has declined the card (R14).
    data = _forced(0, {"card": "5C", "kind": "turned", "source": 0, "declined": [], "forced": 0})
    with pytest.raises(PositionError, match="cannot force himself") as info:
        load_position(data)
    assert "R14" in str(info.value)
    code, out, err = run("analyze", "-", input=json.dumps(data))
    assert code == 1 and one_error_line(err) and "Valid" not in out


def test_the_force_of_worked_example_5_is_accepted() -> None:
    data = _forced(0, {"card": "5C", "kind": "turned", "source": 0, "declined": [0], "forced": 0})
    state = load_position(data)
    assert state.phase is Phase.FORCED and state.to_act == 0


def test_only_a_player_who_declined_may_be_forced_in_classic() -> None:
    # Player 1 turned 5C: he may not force player 0, who has not been offered it yet (R11, R14).
    data = _forced(0, {"card": "5C", "kind": "turned", "source": 1, "declined": [], "forced": 0})
    data["dealer"] = 0
    with pytest.raises(PositionError, match="only a player who has declined it"):
        load_position(data)


def test_a_payer_is_not_forced_with_the_card_he_paid() -> None:
    data = {
        "variant": "megajogos",
        "labels": "french",
        "dealer": 2,
        "to_act": 0,
        "players": [
            {"hand": ["2H", "3D", "4S", "5D", "KC"], "layout": [["AC", "2C", "3C"]]},
            {"hand": 8, "layout": []},
            {"hand": 8, "layout": []},
        ],
        "stock": 15,
        "dead": [],
        "centre": {"card": "4C", "kind": "paid", "source": 0, "declined": [], "forced": 0},
    }
    with pytest.raises(PositionError, match="the card he paid"):
        load_position(data)


def test_a_forced_card_must_fit() -> None:
    data = _forced(0, {"card": "QD", "kind": "turned", "source": 0, "declined": [0], "forced": 0})
    data["dead"] = ["5C"]
    data["players"][1]["hand"] = ["AH", "2H", "2D", "3D", "5D", "6H", "3S", "JD", "7D", "QH"]
    with pytest.raises(PositionError, match="does not fit"):
        load_position(data)


def test_a_card_paid_by_a_player_without_melds_is_refused() -> None:
    # A pay always follows a take or a lay-in (R13, R14), so the payer has melds.
    data = forcing()
    data["to_act"] = 0
    data["centre"] = {"card": "5C", "kind": "paid", "source": 1, "declined": []}
    with pytest.raises(PositionError, match=r"player 1 paid the centre card 5C, but his layout is empty.*\(R13, R14\)"):
        load_position(data)
    code, _, err = run("analyze", "-", input=json.dumps(data))
    assert code == 1 and one_error_line(err) and "layout is empty" in err
    data["to_act"] = 1
    data["centre"] = {"card": "5C", "kind": "paid", "source": 0, "declined": []}
    assert load_position(data).to_act == 1  # paid by player 0, who has melds: possible


def test_a_card_passed_twice_in_the_exchange_is_refused() -> None:
    # Two players cannot both have passed 1o (R9).
    data = json.loads((EXAMPLES.parent / "puzzles" / "megajogos-win-1.json").read_text())["position"]
    load_position(data)
    data["players"][2]["gave"] = data["players"][0]["gave"]
    with pytest.raises(PositionError, match=r"players 0 and 2 both passed 12o in the exchange.*\(R9\)"):
        load_position(data)


@pytest.mark.parametrize(
    ("key", "value", "needle"),
    [
        ("dealer", 5, "dealer must be from 0 to 1 (classic has 2 players), got 5"),
        ("dealer", 3, "dealer must be from 0 to 1 (classic has 2 players), got 3"),
        ("to_act", 7, "to_act must be from 0 to 1 (classic has 2 players), got 7"),
    ],
)
def test_seat_numbers_are_checked_with_the_variants_range(key: str, value: int, needle: str) -> None:
    # "dealer": 5 in a 2-player variant is checked with that variant's range (not "at most 3").
    data = forcing()
    data[key] = value
    code, _, err = run("analyze", "-", input=json.dumps(data))
    assert code == 1 and one_error_line(err) and needle in err, err
    data = forcing()
    data["centre"]["source"] = 9
    with pytest.raises(PositionError, match=r"centre source must be from 0 to 1 \(classic has 2 players\), got 9"):
        load_position(data)


def test_a_hidden_hand_count_is_checked_with_the_variants_hand_size() -> None:
    data = json.loads((EXAMPLES.parent / "puzzles" / "megajogos-win-1.json").read_text())["position"]
    data["players"][1]["hand"] = 11  # megajogos deals 8 (R8), not 10
    with pytest.raises(PositionError, match=r"player 1's hidden hand count must be from 0 to 8 \(megajogos deals 8 cards, R8\), got 11"):
        load_position(data)


def test_views_during_the_exchange_load_back() -> None:
    # A view hides the cards the others chose (R9), written as null like a choice not yet made;
    # who is to act says how far the exchange has gone, so that the exchange views 'deal --view'
    # writes are read by every command.
    from analyzer.bots.deals import deal_position
    from analyzer.core.plain import dump_position
    from analyzer.core.dealing import view

    for seed in range(4):
        for after in range(3):
            state, _ = deal_position("megajogos", seed=seed, after=after)
            assert state.phase is Phase.EXCHANGE
            for seat in range(3):
                seen = view(state, seat)
                assert load_position(dump_position(seen)) == seen


def test_exchange_views_still_follow_turn_order() -> None:
    hidden_1 = {**MEGAJOGOS_START, "players": [MEGAJOGOS_START["players"][0], {"hand": 8, "layout": []},
                                               MEGAJOGOS_START["players"][2]]}  # fmt: skip
    # Player 1's choice is hidden: with player 0 done, player 1 or 2 may be the one to act.
    for to_act in (1, 2):
        state = load_position({**hidden_1, "to_act": to_act, "exchange": {"chosen": ["2e", None, None]}})
        assert state.to_act == to_act and state.phase is Phase.EXCHANGE
    # Player 0's hand is known and he has not chosen: nobody after him can have chosen or act.
    for to_act, chosen, needle in (
        (1, [None, None, None], "player 0 chooses the next card to pass, not player 1"),
        (2, [None, None, "1c"], "player 0 has not chosen yet"),
        (0, ["2e", None, None], "player 1 or 2 chooses the next card to pass, not player 0"),
        (1, [None, None, "1c"], "player 0 has not chosen yet"),
        # A hidden hand's choice shown in another (known) hand.
        (2, ["2e", "1c", None], "player 1 chose 1c in the exchange, but it is not in his hand"),
    ):
        data = {**hidden_1, "to_act": to_act, "exchange": {"chosen": chosen}}
        with pytest.raises(PositionError, match=needle):
            load_position(data)


def test_an_exchange_position_cannot_also_say_who_passed_what() -> None:
    # 'chosen' and 'gave' are not accepted together.
    data = {**MEGAJOGOS_START, "exchange": {"chosen": ["2e", None, None]}}
    data["players"] = [dict(p) for p in data["players"]]
    data["players"][1]["gave"] = "1o"
    with pytest.raises(PositionError, match=r"cannot say who passed what \('gave'\)"):
        load_position(data)


def test_a_gave_card_that_does_not_read_names_the_key_as_the_rule_checks_do() -> None:
    # Both keys are named as the rule checks name them, players[i].gave / players[i].paid (not
    # "player 0's 'paid': not a card" beside "players[0].paid: ...").
    data = {**MEGAJOGOS_START, "stock": 15}
    data["players"] = [dict(p) for p in data["players"]]
    data["players"][0]["gave"] = "9Z"
    data["centre"] = {"card": "11b", "kind": "turned", "source": 0, "declined": []}
    with pytest.raises(PositionError, match=r"^players\[0\]\.gave: .*9Z"):
        load_position(data)


def test_two_players_cannot_choose_the_same_card_in_the_exchange() -> None:
    # 'chosen:-,1o,1o' is refused, as the same card under 'gave' is.
    with pytest.raises(PositionError, match=r"players 1 and 2 both chose 1o in the exchange.*\(R1, R9\)"):
        parse_notation("megajogos spanish 0 0 8/8/8 - - 16 chosen:-,1o,1o")
    code, _, err = run("analyze", "megajogos spanish 0 0 8/8/8 - - 16 chosen:-,1o,1o")
    assert code == 1 and one_error_line(err) and "both chose 1o" in err
    assert parse_notation("megajogos spanish 0 0 8/8/8 - - 16 chosen:-,1o,2o").phase is Phase.EXCHANGE


def test_an_unknown_variant_is_named_before_missing_keys() -> None:
    from analyzer.core.errors import ConquianError
    from analyzer.formats.position import load_position as load

    with pytest.raises(ConquianError, match="unknown variant: 'poker'"):
        load({"variant": "poker"})
    with pytest.raises(ConquianError, match="missing key 'players'"):
        load({"variant": "Classic"})


# ------------------------------------------------- R10, R16: melds before the first card is offered
def _first_turned(layouts: dict[int, list[str]], declined: list[int], to_act: int) -> dict[str, Any]:
    """MEGAJOGOS_START with its first card turned (11b, by player 0, the player after the
    dealer, R10) and offered to ``declined`` then ``to_act``; ``layouts`` moves hand cards of a
    player to his layout (melds from the hand, R16)."""
    data = json.loads(json.dumps(MEGAJOGOS_START))
    for p, cards in layouts.items():
        player = data["players"][p]
        player["hand"] = [c for c in player["hand"] if c not in cards]
        player["layout"] = [cards]
    data.update(stock=15, to_act=to_act, centre={"card": "11b", "kind": "turned", "source": 0, "declined": declined})
    return data


def test_no_meld_is_laid_before_any_card_is_turned() -> None:
    # Melds are laid only by a player offered a card (R13, R16): with the stock whole, nobody is.
    data = json.loads(json.dumps(MEGAJOGOS_START))
    data["players"][1].update(hand=["4o", "5o", "6o", "7o", "10o"], layout=[["1o", "2o", "3o"]])
    with pytest.raises(PositionError, match=r"player 1 has melds, but no card has been turned yet.*\(R10, R13, R16\)"):
        load_position(data)
    # The same under the upcard rules, whose stock is whole only before the upcard is turned.
    upcard = {
        "variant": "cooncan1913", "dealer": 1, "to_act": 0, "stock": 20,
        "players": [{"hand": ["AS", "2S", "3S", "4S", "5S", "6S", "7S"], "layout": [["AH", "2H", "3H"]]},
                    {"hand": ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD", "QD", "KD"], "layout": []}],
    }  # fmt: skip
    for rules in ({}, {"hand_melds": True}):
        with pytest.raises(PositionError, match=r"player 0 has melds, but no card has been turned yet"):
            load_position({**upcard, "rules": rules})


def test_a_meld_laid_before_the_first_card_turned_reached_its_player_is_refused() -> None:
    # R10, R16: the deal's first card turned (no upcard) is offered to its turner first, then in
    # turn order; nothing has been taken, so only a player it has reached has laid melds.
    with pytest.raises(PositionError, match=r"player 1 has melds.*first card turned.*not been offered it.*\(R10, R16\)"):
        load_position(_first_turned({1: ["1o", "2o", "3o"]}, declined=[], to_act=0))
    with pytest.raises(PositionError, match=r"player 2 has melds.*not been offered it"):
        load_position(_first_turned({2: ["1c", "2c", "3c"]}, declined=[0], to_act=1))
    # The turner may lay his melds at once, and each player once it reaches him.
    assert load_position(_first_turned({0: ["1e", "2e", "3e"]}, declined=[], to_act=0)).melded(0) == 3
    reached = load_position(_first_turned({0: ["1e", "2e", "3e"], 1: ["1o", "2o", "3o"]}, declined=[0], to_act=1))
    assert [reached.melded(p) for p in range(3)] == [3, 3, 0]
    # Once the card is dead every player has been offered it: the next card is no first one.
    later = _first_turned({2: ["1c", "2c", "3c"]}, declined=[0], to_act=1)
    later.update(stock=14, dead=["11b"], centre={"card": "12b", "kind": "turned", "source": 1, "declined": []})
    assert load_position(later).melded(2) == 3


def test_without_hand_melds_the_first_card_turned_finds_every_layout_empty() -> None:
    # classic (no R16): a meld needs a centre card taken (R13), and the first one is still offered.
    data = forcing()
    data.update(stock=19, dead=[], to_act=0, centre={"card": "7D", "kind": "turned", "source": 0, "declined": []})
    data["players"][0] = {"hand": ["KH", "KS", "AC", "2C", "3C", "4C"], "layout": [["4S", "5S", "6S", "7S"]]}
    with pytest.raises(PositionError, match=r"player 0 has melds, but nothing has been taken yet.*\(R13, R16\)"):
        load_position(data)
    data["players"][0] = {"hand": ["KH", "KS", "AC", "2C", "3C", "4C", "4S", "5S", "6S", "7S"], "layout": []}
    assert load_position(data).to_act == 0


def test_the_first_card_turned_with_hand_melds_loads_back_at_every_step() -> None:
    # Each player offered the first card turned lays what melds his hand holds, then passes (R10,
    # R16): every position on the way is one the rules reach, so it loads back as it was.
    from analyzer.core.dealing import deal
    from analyzer.core.moves import Meld, Pass
    from analyzer.core.plain import dump_position

    layers = set()
    for seed in range(12):
        state = deal("megajogos", seed)
        while state.phase is Phase.EXCHANGE:
            state = state.apply(state.legal_moves()[0])
        state = state.apply(state.legal_moves()[0])  # the turn of the first card (R10)
        assert state.centre is not None and not state.dead
        while state.phase is Phase.OFFER and not state.dead:
            assert load_position(dump_position(state)) == state
            melds = [m for m in state.legal_moves() if isinstance(m, Meld)]
            if melds:
                layers.add("turner" if state.to_act == state.centre.source else "later")
            state = state.apply(melds[0] if melds else Pass())
    assert layers == {"turner", "later"}  # both have laid melds on the way


def test_the_deals_first_card_is_turned_by_the_player_after_the_dealer() -> None:
    # R10: the first stock card of a deal without an upcard is turned by the player after the
    # dealer (player 0 after dealer 2 in MEGAJOGOS_START); any other source is refused.
    assert load_position(_first_turned({}, [], 0)).centre is not None
    for source in (1, 2):
        data = _first_turned({}, [], source)
        data["centre"]["source"] = source
        with pytest.raises(PositionError, match=rf"first card is turned by the player after the dealer, player 0, not player {source} \(R10\)"):
            load_position(data)
