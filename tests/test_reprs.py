"""Every value type's repr is a Python expression that rebuilds it from its text (python-chess style):
cards, card sets, moves, offers, rules and game states."""

from __future__ import annotations

from conftest import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer.core.cards as cards_module
import analyzer.core.moves as moves_module
from analyzer.core.cards import Card, CardSet, Labels, parse_card
from analyzer.core.moves import Force, LayIn, Pass, Take, parse_move
from analyzer.core.dealing import deal
from analyzer.formats.position import load_position
from analyzer.formats.sniff import read_position
from analyzer.core.plain import relabel
from analyzer.core.rules import Rules, get_rules
from analyzer.core.state import GameState, Offer

NAMESPACE = {
    **{name: getattr(cards_module, name) for name in cards_module.__all__},
    **{name: getattr(moves_module, name) for name in moves_module.__all__},
    "Offer": Offer,
    "Rules": Rules,
    "get_rules": get_rules,
    "load_position": load_position,
    "parse_card": parse_card,
}


def rebuilt(value: object) -> object:
    return eval(repr(value), dict(NAMESPACE))


def test_legal_moves_print_as_text_not_bit_masks() -> None:
    # print(state.legal_moves()) shows text, not LayIn(layout=(559240, 17895424), pay=36).
    state = read_position(EXAMPLES / "forcing.json").apply(parse_move("force 0"))
    text = repr(state.legal_moves())
    assert text == (
        "[LayIn.parse('lay [AC 2C 3C 4C 5C] [4S 5S 6S 7S] pay KS'), "
        "LayIn.parse('lay [AC 2C 3C 4C 5C] [4S 5S 6S 7S] pay KH')]"
    )
    assert [rebuilt(m) for m in state.legal_moves()] == state.legal_moves()


def test_move_reprs() -> None:
    assert repr(Pass()) == "Pass.parse('pass')"
    assert repr(Force(1)) == "Force.parse('force 1')"
    take = parse_move("take [2S 3S 4S] pay 7S")
    assert repr(take) == "Take.parse('take [2S 3S 4S] pay 7S')" and rebuilt(take) == take
    assert isinstance(Take.parse("take [2S 3S 4S] out"), Take)
    assert isinstance(LayIn.parse("lay [2S 3S 4S] out"), LayIn)


def test_a_move_type_parses_only_its_moves() -> None:
    import pytest

    from analyzer.core.errors import IllegalMoveError

    with pytest.raises(IllegalMoveError, match="is a Pass move, not a Take move"):
        Take.parse("pass")


def test_card_and_card_set_reprs() -> None:
    assert repr(Card.parse("10o", Labels.SPANISH)) == "Card.parse('JD')"
    cs = CardSet.parse("7c 7o 7e")
    assert repr(cs) == "CardSet.parse('7S 7H 7D')" and rebuilt(cs) == cs


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["classic", "megajogos"]), st.integers(0, 30))
def test_state_repr_rebuilds_the_state(seed: int, variant: str, plies: int) -> None:
    import random

    rng = random.Random(seed)
    state = deal(variant, seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_moves()))
    assert repr(state).startswith("load_position({")
    assert rebuilt(state) == state


def test_state_offer_and_rules_reprs() -> None:
    state = read_position(EXAMPLES / "forcing.json")
    assert "'centre': {'card': '5C'" in repr(state)
    assert repr(state.centre) == "Offer(parse_card('5C'), 'turned', 0, (0,), None)"
    assert rebuilt(state.centre) == state.centre
    assert repr(state.rules) == "get_rules('classic')"
    french = relabel(deal("megajogos", 1), "french")
    assert repr(french.rules) == "get_rules('megajogos').with_labels('french')"
    assert rebuilt(french.rules) == french.rules and rebuilt(french) == french
    assert isinstance(rebuilt(state), GameState)


def test_solver_results_show_cards_as_text_not_masks() -> None:
    from analyzer.core.cards import mask_of, parse_cards
    from analyzer.solver.partition import best_take, solve_arrangement

    rules = get_rules("classic")
    found = solve_arrangement(mask_of(parse_cards("5H 6H 7H KS KH KD 2C")), rules)
    assert repr(found) == (
        "Arrangement(feasible=True, melds='[5H 6H 7H] [KS KH KD]', melded=6, "
        "unmelded='2C', optimal=True)"
    )
    take = best_take(0, mask_of(parse_cards("5H 6H 2C 3D")), parse_card("7H"), rules)
    assert take is not None
    assert "melds='[5H 6H 7H]'" in repr(take) and "used='5H 6H'" in repr(take)
