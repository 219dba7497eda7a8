"""The action encoding of the interop bridges: engine moves <-> integers, one to one (no extra needed)."""

from __future__ import annotations

import dataclasses

import pytest
from interop_support import random_states

from analyzer.core.cards import parse_card
from analyzer.core.errors import ConquianError, IllegalMoveError
from analyzer.interop.codec import ARRANGEMENTS, MAX_HAND, ActionCodec
from analyzer.core.melds import catalog
from analyzer.core.moves import Give, Pass, Take
from analyzer.formats.position import load_position
from analyzer.core.rules import CLASSIC, MEGAJOGOS, get_rules
from analyzer.core.legal import layouts_for


def test_action_counts_are_the_documented_ones() -> None:
    # docs/openspiel.md: 41 + n + M + (h * 2**(h-1) + 1) * 4
    assert ActionCodec("classic").num_actions == 41 + 2 + 182 + 5121 * 4 == 20709
    assert ActionCodec("megajogos").num_actions == 41 + 3 + 194 + 1025 * 4 == 4338


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_every_position_maps_its_moves_one_to_one(variant: str) -> None:
    codec = ActionCodec(variant)
    positions = 0
    for state in random_states(variant, games=25, seed=3):
        if state.is_terminal():
            assert codec.legal_actions(state) == []
            continue
        moves = (
            [m for m, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_moves()
        )
        table = codec.table(state)
        assert sorted(table) == list(table) == codec.legal_actions(state)
        assert len(table) == len(moves) and set(table.values()) == set(moves)
        for action, move in table.items():
            assert 0 <= action < codec.num_actions
            assert codec.decode(state, action) == move
            assert codec.encode(state, move) == action
        positions += 1
    assert positions > 500


def test_fixed_blocks_give_pass_force_meld() -> None:
    codec = ActionCodec("megajogos")
    assert codec.pass_action == 40
    assert (codec.force_base, codec.meld_base) == (41, 44)
    assert codec.place_base == 44 + len(catalog(MEGAJOGOS))
    assert codec.describe(parse_card("7o", codec.rules.labels)) == "give 7o"
    assert codec.describe(40) == "pass"
    assert codec.describe(42) == "force 1"
    assert codec.describe(codec.meld_base).startswith("meld [")
    assert codec.describe(codec.num_actions).startswith("no action")


def test_placements_encode_hand_positions_pay_and_arrangement() -> None:
    # RULES.md worked example 4: 6H 7H JH melded, JS JD in hand; 5H taken (R13).
    state = load_position(
        {
            "variant": "classic",
            "dealer": 1,
            "to_act": 0,
            "players": [
                {
                    "hand": ["JS", "JD", "KC", "AS", "2D", "3C", "4C"],
                    "layout": [["6H", "7H", "JH"]],
                },
                {"hand": 10, "layout": []},
            ],
            # Two cards dead: player 0 took the first card turned and paid QS, passed by
            # player 1, who turned QD, passed by both (R13, R17).
            "stock": 17,
            "dead": ["QS", "QD"],
            "centre": {"card": "5H", "kind": "turned", "source": 0, "declined": []},
        }
    )
    codec = ActionCodec(CLASSIC)
    hand = state.hand(0)
    take = Take.parse("take [5H 6H 7H] [JS JH JD] pay KC")
    action = codec.encode(state, take)
    code, slot = divmod(action - codec.place_base, ARRANGEMENTS)
    cards = sorted(parse_card(c) for c in ["JS", "JD", "KC", "AS", "2D", "3C", "4C"])
    pay = cards.index(parse_card("KC"))
    others = [c for c in cards if c != parse_card("KC")]
    bits = sum(1 << j for j, c in enumerate(others) if c in (parse_card("JS"), parse_card("JD")))
    assert (
        code
        == pay * 2 ** (CLASSIC.hand_size - 1) + bits
        == codec.placement_code(
            hand, (1 << parse_card("JS")) | (1 << parse_card("JD")), parse_card("KC")
        )
    )
    assert slot == 0
    assert "pay hand position" in codec.describe(action)


def test_a_move_or_action_not_legal_here_is_refused_in_one_line() -> None:
    state = next(s for s in random_states("classic", 1) if not s.is_chance_node())
    codec = ActionCodec("classic")
    illegal = next(a for a in range(codec.num_actions) if a not in codec.table(state))
    with pytest.raises(IllegalMoveError, match=f"action {illegal} .* is not legal") as info:
        codec.decode(state, illegal)
    assert "\n" not in str(info.value)
    with pytest.raises(IllegalMoveError, match="illegal move"):
        codec.encode(state, Give(0) if not isinstance(codec.table(state).get(0), Give) else Pass())


def test_hands_over_the_encoding_limit_are_refused() -> None:
    big = dataclasses.replace(CLASSIC, hand_size=MAX_HAND + 1)
    with pytest.raises(ConquianError, match="at most 10 cards"):
        ActionCodec(big)


@pytest.mark.parametrize("variant", ["classic", "megajogos"])
def test_no_set_of_cards_has_more_arrangements_than_the_slots(variant: str) -> None:
    """Exhaustive: every set of at most hand_size + 1 cards that can be melded (R4-R6) has at
    most ARRANGEMENTS arrangements differing in lay-off exposure (R14), the engine's count."""
    rules = get_rules(variant)
    melds = sorted(catalog(rules))
    target = rules.target
    sets: set[int] = set()

    def grow(start: int, used: int, count: int) -> None:
        if used:
            sets.add(used)
        for i in range(start, len(melds)):
            meld = melds[i]
            if not meld & used and count + meld.bit_count() <= target:
                grow(i + 1, used | meld, count + meld.bit_count())

    grow(0, 0, 0)
    most = max(len(layouts_for(cards, rules)) for cards in sets)
    assert most <= ARRANGEMENTS
    assert most == (4 if variant == "classic" else 2)  # the count is sharp: slots are used
