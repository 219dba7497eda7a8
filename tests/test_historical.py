"""Foster's mechanics, each a Rules field any preset may set: the upcard (R10a), borrowing (R13a)
and forcing with one's own discard (R14a), on both cores; the presets hoyle1897 and cooncan1913
(docs/RULES.md section 4, worked examples 10-12)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from analyzer.core.cards import format_card, parse_card
from analyzer.core.dealing import deal
from analyzer.core.errors import PositionError
from analyzer.core.legal import borrow_ok, fitting_cards
from analyzer.core.moves import Force, Give, LayIn, Meld, Pass, Take
from analyzer.core.plain import dump_position
from analyzer.core.rules import (
    CLASSIC,
    COONCAN1913,
    HOYLE1897,
    MEGAJOGOS,
    ForceFit,
    Rearrange,
    get_rules,
)
from analyzer.core.state import Phase
from analyzer.formats.position import load_position

pytestmark = pytest.mark.usefixtures("both_cores")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"


def _layout(text: str) -> tuple[int, ...]:
    """Melds from text: cards separated by spaces, melds by ``|``."""
    return tuple(sum(1 << parse_card(c) for c in part.split()) for part in text.split("|"))


def _example(name: str) -> dict:  # type: ignore[type-arg]
    data = json.loads((EXAMPLES / f"{name}.json").read_text())
    return {k: v for k, v in data.items() if k not in ("description", "rule", "expected")}


# ------------------------------------------------------------------------ R10a: the upcard
@pytest.mark.parametrize("seed", range(6))
def test_the_dealer_turns_the_upcard_and_it_goes_round_to_him_last(seed: int) -> None:
    state = deal(COONCAN1913, seed)
    stock = state.stock
    assert stock is not None and state.centre is not None
    assert (state.centre.kind, state.centre.source) == ("upcard", state.dealer)
    assert state.phase is Phase.OFFER and state.stock_count == COONCAN1913.stock_size - 1
    non_dealer = 1 - state.dealer
    assert state.to_act == non_dealer
    # Passed by the non-dealer, it goes to the dealer; passed by both, it is dead and the
    # non-dealer turns the first stock card (R17: the player after its source).
    after = state.apply(Pass())
    assert after.to_act == state.dealer and after.centre is not None
    assert after.centre.declined == (non_dealer,)
    dead = after.apply(Pass())
    assert dead.phase is Phase.TURN and dead.to_act == non_dealer
    assert dead.dead == (state.centre.card,) and dead.stock == stock


def test_the_upcard_comes_after_the_hands_and_before_an_exchange() -> None:
    # The same seed deals the same hands; the upcard is the card after them, and an exchange
    # (R9) is played with it face up, then it is offered.
    rules = replace(MEGAJOGOS, name="megajogos-upcard", upcard=True)
    plain, up = deal(MEGAJOGOS, 4), deal(rules, 4)
    assert plain.hands == up.hands and plain.stock is not None and up.centre is not None
    assert up.centre.card == plain.stock[0] and up.stock == plain.stock[1:]
    assert up.phase is Phase.EXCHANGE
    state = up
    while state.phase is Phase.EXCHANGE:
        state = state.apply(next(m for m in state.legal_moves() if isinstance(m, Give)))
    assert state.phase is Phase.OFFER and state.centre == up.centre
    assert state.to_act == (up.dealer + 1) % 3


def test_an_upcard_the_rules_do_not_turn_or_out_of_place_is_refused() -> None:
    data = _example("cooncan1913-upcard")
    with pytest.raises(PositionError, match="no card is turned up at the deal"):
        load_position({**data, "variant": "classic"})
    with pytest.raises(PositionError, match="the dealer, player 1, turns the upcard"):
        load_position({**data, "centre": {**data["centre"], "source": 0}})
    # Under the upcard rules a fresh deal always shows it.
    hands = [p["hand"] for p in data["players"]]
    fresh = {**data, "centre": None, "stock": data["stock"] + 1, "to_act": 0}
    fresh["players"] = [{"hand": h + ([data["centre"]["card"]] if k == 0 else []), "layout": []}
                        for k, h in enumerate(hands)]  # fmt: skip
    fresh["players"][0]["hand"].remove(fresh["players"][0]["hand"][0])
    with pytest.raises(PositionError, match="upcard"):
        load_position(fresh)


def test_a_meld_laid_before_the_upcard_reached_its_player_is_refused() -> None:
    # R10a, R16: with hand melds, only a player offered the upcard can have laid a meld from his
    # hand while it is offered; the dealer is offered it last.
    data = {**_example("cooncan1913-upcard"), "rules": {"hand_melds": True}}
    dealer = data["players"][1]
    kings = ["KS", "KH", "KC"]
    melded = {"hand": [c for c in dealer["hand"] if c not in kings], "layout": [kings]}
    early = {**data, "players": [data["players"][0], melded]}
    with pytest.raises(PositionError, match=r"player 1 has melds.*not been offered it.*\(R10a, R16\)"):
        load_position(early)
    assert load_position(data).to_act == 0  # without the meld: the upcard as dealt
    # Once player 0 has passed it, the dealer is offered it and may have laid his kings.
    offered = {**early, "centre": {**early["centre"], "declined": [0]}, "to_act": 1}
    assert load_position(offered).layouts[1] == (_layout("KS KH KC")[0],)


def test_the_upcard_offer_with_hand_melds_loads_back_at_every_step() -> None:
    # Each player offered the upcard lays what melds his hand holds, then passes (R10a, R16):
    # every position on the way is one the rules reach, so it loads back as it was.
    rules = COONCAN1913.with_options({"hand_melds": True})
    layers = set()
    for seed in range(8):
        state = deal(rules, seed)
        while state.phase is Phase.OFFER and state.centre is not None and state.centre.kind == "upcard":
            assert load_position(dump_position(state)) == state
            melds = [m for m in state.legal_moves() if isinstance(m, Meld)]
            if melds:
                layers.add("dealer" if state.to_act == state.dealer else "non-dealer")
            state = state.apply(melds[0] if melds else Pass())
        assert state.phase is Phase.TURN
    assert layers == {"dealer", "non-dealer"}  # both have laid melds on the way


# ----------------------------------------------------------------------- R13a: borrowing
def test_worked_example_10_borrows_an_end_card_never_a_middle_one() -> None:
    data = _example("hoyle1897-borrowing")
    state = load_position(data)
    takes = [m for m in state.legal_moves() if isinstance(m, Take)]
    run = state.layouts[0][0]
    assert takes and all(borrow_ok(state.layouts[0], t.layout) for t in takes)
    # 7H, an end card, is lent in some takes; the run keeps AH-6H in all of them.
    assert any(
        not any(m >> parse_card("7H") & 1 and m & run == run for m in t.layout) for t in takes
    )
    # 4C cannot be taken: 4H is a middle card; with free rearranging the run is split.
    four = {**data, "centre": {**data["centre"], "card": "4C"}}
    assert [m.text() for m in load_position(four).legal_moves()] == ["pass"]
    free = load_position({**four, "rules": {"rearrange": "own"}})
    assert "take [AH 2H 3H] [4H 4D 4C] [5H 6H 7H] pay 7S" in [m.text() for m in free.legal_moves()]


@pytest.mark.parametrize(
    ("old", "new", "ok"),
    [
        ("AH 2H 3H 4H", "AH 2H 3H | 4H 4C 4D", True),  # an end card of a run of four
        ("AH 2H 3H 4H", "2H 3H 4H | AH AC AD", True),  # the other end
        ("AH 2H 3H", "AH AC AD | 2H 2C 2D | 3H 3C 3D", False),  # nothing from a run of three
        ("AH 2H 3H 4H 5H", "AH 2H 3H | 4H 4C 4D | 5H 5C 5D", True),  # the top, then the next
        ("AH 2H 3H 4H 5H 6H", "AH 2H 3H | 4H 5H 6H", False),  # never split in the middle
        ("AH 2H 3H 4H 5H", "AH AC AD | 2H 3H 4H | 5H 5C 5D", True),  # both ends
        ("AH 2H 3H 4H 5H", "AH 2H 3H | 4H 5H 6H", False),  # two cards lent to one meld
        ("7S 7H 7D 7C", "7S 7H 7D | 7C 6C 5C", True),  # one card of a set of four
        ("7S 7H 7D", "7S 7H | 7D 6D 5D", False),  # nothing from a set of three
        ("AH 2H 3H | 4H 5H 6H", "AH 2H 3H 4H 5H 6H", False),  # two melds never merge
        ("AH 2H 3H", "AH 2H 3H 4H", True),  # a lay-off lends nothing
    ],
)
def test_borrowing_limits(old: str, new: str, ok: bool) -> None:
    assert borrow_ok(_layout(old), _layout(new)) is ok


# The other player's hand in the R13a cases below: cards none of them uses.
_SPARE = ["KS", "KH", "QS", "QH", "QD", "JS", "JC", "JD", "2C", "2D", "3D", "QC", "KC", "AC", "AD", "7C", "KD", "2S"]


def _borrower(run: str, hand: str, centre: str, hand_size: int = 10) -> dict:  # type: ignore[type-arg]
    """A hoyle1897 position: player 0 has the run ``run`` melded and ``hand`` in hand, and has
    turned ``centre``; player 1 holds spare cards.  ``hand_size`` above 10 is a custom rule.

    Two cards are dead, so that the run can have been laid (R13, R17): player 0 turned a card
    and took it into the run, paying the first dead card, which player 1 passed; player 1
    turned the second, which both passed; then player 0 turned ``centre``."""
    mine = [*run.split(), *hand.split(), centre]
    other = [c for c in _SPARE if c not in mine][:hand_size]
    dead = [c for c in (format_card(k) for k in range(40)) if c not in mine + other][:2]
    data = {
        "variant": "hoyle1897", "dealer": 1, "to_act": 0,
        "players": [{"hand": hand.split(), "layout": [run.split()]}, {"hand": other, "layout": []}],
        "stock": 40 - len(mine) - len(other) - len(dead), "dead": dead,
        "centre": {"card": centre, "kind": "turned", "source": 0, "declined": []},
    }  # fmt: skip
    return {**data, "rules": {"hand_size": hand_size}} if hand_size != 10 else data


def _takes_melds(data: dict, melds: str) -> bool:  # type: ignore[type-arg]
    """True if a legal take of the position ``data`` leaves the layout ``melds`` (``|`` between
    melds, in any order)."""
    want = sorted(_layout(melds))
    return any(
        isinstance(move, Take) and sorted(move.layout) == want
        for move in load_position(data).legal_moves()
    )


@pytest.mark.parametrize(
    ("run", "hand", "centre", "hand_size", "melds"),
    [
        # top two of a run of five
        ("3H 4H 5H 6H 7H", "6S 6D 7S KC KD", "7C", 10, "3H 4H 5H | 6H 6S 6D | 7H 7S 7C"),
        # bottom two
        ("3H 4H 5H 6H 7H", "3S 4S 4D KC KD", "3C", 10, "3H 3S 3C | 4H 4S 4D | 5H 6H 7H"),
        # one from each end
        ("3H 4H 5H 6H 7H", "3S 7S 7D KC KD", "3C", 10, "3H 3S 3C | 4H 5H 6H | 7H 7S 7D"),
        # three from a run of six: the top three, then one end card and two of the other
        ("AH 2H 3H 4H 5H 6H", "4S 4D 5S 5D 6S KC", "6C", 12,
         "AH 2H 3H | 4H 4S 4D | 5H 5S 5D | 6H 6S 6C"),
        ("AH 2H 3H 4H 5H 6H", "AS AD 5S 5D 6S KC", "6C", 12,
         "AH AS AD | 2H 3H 4H | 5H 5S 5D | 6H 6S 6C"),
        # a run of four that the take makes five lends one card (its limits before the take)
        ("3H 4H 5H 6H", "3S 3D KC KD QS QD", "7H", 10, "3H 3S 3D | 4H 5H 6H 7H"),
    ],
)  # fmt: skip
def test_a_run_lends_from_either_end_as_many_cards_as_leave_three(
    run: str, hand: str, centre: str, hand_size: int, melds: str
) -> None:
    # R13a's worked examples, legal on both cores.
    assert _takes_melds(_borrower(run, hand, centre, hand_size), melds)


@pytest.mark.parametrize(
    ("run", "hand", "centre", "hand_size", "melds"),
    [
        # a run of four lends one card: not its top two, not its bottom two
        ("3H 4H 5H 6H", "2H 5S 5D 6S KC KD", "6C", 10, "2H 3H 4H | 5H 5S 5D | 6H 6S 6C"),
        ("3H 4H 5H 6H", "3S 4S 4D 7H KC KD", "3C", 10, "3H 3S 3C | 4H 4S 4D | 5H 6H 7H"),
        # a run of six lends three, not four
        ("2H 3H 4H 5H 6H 7H", "AH 4S 4D 5S 5D 6S 6D 7S KC", "7C", 15,
         "AH 2H 3H | 4H 4S 4D | 5H 5S 5D | 6H 6S 6D | 7H 7S 7C"),
        # never a middle card
        ("3H 4H 5H 6H 7H", "2H JH 5S KC KD", "5C", 10, "2H 3H 4H | 5H 5S 5C | 6H 7H JH"),
        # a run of four made five by the take still lends one card only
        ("3H 4H 5H 6H", "3S 3D 4S 4D KC KD", "7H", 10, "3H 3S 3D | 4H 4S 4D | 5H 6H 7H"),
    ],
)  # fmt: skip
def test_a_run_never_lends_what_would_leave_fewer_than_three(
    run: str, hand: str, centre: str, hand_size: int, melds: str
) -> None:
    # R13a: illegal under borrowing on both cores, and legal with free rearranging (so it is
    # borrowing that refuses it, not the cards).
    data = _borrower(run, hand, centre, hand_size)
    assert not _takes_melds(data, melds)
    assert _takes_melds({**data, "rules": {**data.get("rules", {}), "rearrange": "own"}}, melds)


def test_two_cards_a_run_lends_never_go_into_one_meld() -> None:
    # R13a: 6H 7H of 3H-7H do not go together to 6H 7H JH; JH is laid off on the whole run.
    data = _borrower("3H 4H 5H 6H 7H", "KS KD QS QD 2C", "JH")
    assert _takes_melds(data, "3H 4H 5H 6H 7H JH")
    assert not _takes_melds(data, "3H 4H 5H | 6H 7H JH")


def test_a_forced_lay_in_borrows_within_the_limits_too() -> None:
    # Under force_fit = rearrange a card fits a layout only where borrowing can place it
    # (R13a, R14): on the run AH-5H, 6H extends it; 5C would need 5H and a second five.
    rules = replace(HOYLE1897, name="hoyle-rearrange-fit", force_fit=ForceFit.REARRANGE)
    run = (sum(1 << parse_card(c) for c in ["AH", "2H", "3H", "4H", "5H"]),)
    fit = fitting_cards(run, rules)
    assert fit >> parse_card("6H") & 1 and not fit >> parse_card("5C") & 1
    # With free rearranging 5C does not fit either: no second five is melded.
    own = replace(rules, name="own-rearrange-fit", rearrange=Rearrange.OWN)
    assert fitting_cards(run, own) == fit


# ------------------------------------------------------------ R14a: forcing with one's discard
def test_worked_example_12_the_payer_may_force_with_his_paid_card_or_pass() -> None:
    state = load_position(_example("cooncan1913-discard-force"))
    assert [m.text() for m in state.legal_moves()] == ["force 1", "pass"]
    forced = state.apply(Force(1))
    assert forced.phase is Phase.FORCED and forced.to_act == 1
    lay = next(m for m in forced.legal_moves() if isinstance(m, LayIn))
    after = forced.apply(lay)
    assert after.centre is not None and after.centre.source == 1 and after.centre.kind == "paid"
    # Passed: player 1 is offered it, may take or pass it, and cannot force player 0 with it.
    passed = state.apply(Pass())
    assert passed.to_act == 1 and passed.centre is not None and passed.centre.declined == (0,)
    assert not passed.forceable_players()


def test_a_paid_card_that_fits_nobody_is_not_offered_back_to_its_payer() -> None:
    # Along seeded deals: after every pay the payer acts first exactly when his card fits
    # another player's layout; otherwise his pass is recorded; he is never forced with it.
    seen_first = seen_skipped = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = deal(COONCAN1913, seed)
        while not state.is_terminal():
            moves = state.legal_moves()
            takes = [m for m in moves if isinstance(m, (Take, LayIn, Force))]
            move = rng.choice(takes) if takes and rng.random() < 0.8 else rng.choice(moves)
            before, state = state, state.apply(move)
            c = state.centre
            if isinstance(move, (Take, LayIn)) and c is not None:
                payer = before.to_act
                fits = fitting_cards(state.layouts[1 - payer], state.rules) >> c.card & 1
                if fits:
                    seen_first += 1
                    assert state.to_act == payer and c.declined == ()
                    assert set(state.legal_moves()) == {Force(1 - payer), Pass()}
                else:
                    seen_skipped += 1
                    assert state.to_act == 1 - payer and c.declined == (payer,)
            if c is not None and c.kind == "paid" and state.phase is Phase.OFFER:
                assert c.source not in state.forceable_players()
    assert seen_first > 5 and seen_skipped > 50


def test_without_the_option_a_payer_is_never_offered_his_card() -> None:
    for seed in range(10):
        rng = random.Random(seed)
        state = deal(CLASSIC, seed)
        while not state.is_terminal():
            c = state.centre
            assert not (c is not None and c.kind == "paid" and state.to_act == c.source)
            state = state.apply(rng.choice(state.legal_moves()))


def test_the_presets_are_classic_with_fosters_mechanics() -> None:
    assert (HOYLE1897.rearrange, HOYLE1897.discard_force, HOYLE1897.upcard) == (
        Rearrange.BORROW,
        True,
        False,
    )
    assert (COONCAN1913.rearrange, COONCAN1913.discard_force, COONCAN1913.upcard) == (
        Rearrange.OWN,
        True,
        True,
    )
    for rules in (HOYLE1897, COONCAN1913):
        assert (rules.players, rules.hand_size, rules.target, rules.max_run) == (2, 10, 11, 10)
        assert get_rules(rules.name) is rules


@pytest.mark.parametrize(
    "options",
    [
        {"upcard": True},
        {"discard_force": True},
        {"rearrange": "borrow"},
        {"upcard": True, "discard_force": True, "rearrange": "borrow", "players": 4},
    ],
    ids=lambda o: ",".join(o),
)
def test_the_new_options_round_trip_through_the_notation_and_the_json(options: dict) -> None:  # type: ignore[type-arg]
    from analyzer.core.plain import dump_position
    from analyzer.formats.notation import format_notation, parse_notation

    rules = MEGAJOGOS.with_options(options)
    rng = random.Random(1)
    state = deal(rules, 3)
    for _ in range(30):
        if state.is_terminal():
            break
        text = format_notation(state)
        for key, value in options.items():
            if key != "players":
                assert f"{key}={str(value).lower()}" in text
        assert parse_notation(text) == state
        assert load_position(dump_position(state)) == state
        state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize(
    ("centre", "move", "needle"),
    [
        ("4C", "take [AH 2H 3H] [4H 4D 4C] [5H 6H 7H] pay 7S", "split into [AH 2H 3H] and [5H 6H 7H]"),
        ("7C", "take [AH 2H 3H 4H 5H] [6H 7H] [7S 7D 7C] pay 4D", "is not a meld"),
        ("7C", "take [AH 2H 3H 4H 5H 6H 7H] [7S 7D 7C] pay 4D", ""),  # legal
    ],
)
def test_why_names_the_borrowing_limit_a_take_breaks(centre: str, move: str, needle: str) -> None:
    from analyzer.solver.why import explain

    data = _example("hoyle1897-borrowing")
    state = load_position({**data, "centre": {**data["centre"], "card": centre}})
    answer = explain(state, move)
    assert answer.legal is (needle == "")
    if needle:
        assert any(needle in fact for fact in answer.facts), answer.facts
        assert "R13a" in " ".join(answer.facts) or "R4" in " ".join(answer.facts) or "R5" in " ".join(answer.facts)


def test_why_a_payer_cannot_take_his_own_card() -> None:
    from analyzer.solver.why import explain

    state = load_position(_example("cooncan1913-discard-force"))
    answer = explain(state, "take [3S 3D 3C 3H] pay KC")
    assert not answer.legal and any("R14a" in fact for fact in answer.facts), answer.facts


@pytest.mark.parametrize(
    ("old", "new", "needle"),
    [
        ("7S 7H 7D", "7S 7H | 7D 6D 5D", "has three cards: it lends none"),
        ("7S 7H 7D 7C", "7S 7H | 7D 7C 6C", "a set of four lends one card"),
        ("AH 2H 3H | 4H 5H 6H", "AH 2H 3H 4H 5H 6H", "are merged"),
        ("AH 2H 3H", "AH AC AD | 2H 2C 2D | 3H 3C 3D", "lends every card"),
        ("AH 2H 3H 4H", "AH AC AD | 2H 3H 4H", ""),
    ],
)
def test_the_borrowing_problem_is_named(old: str, new: str, needle: str) -> None:
    from analyzer.core.cards import Labels
    from analyzer.solver.why import _borrow_problem

    problem = _borrow_problem(_layout(old), _layout(new), Labels.FRENCH)
    assert (problem is None) if not needle else (problem is not None and needle in problem and "R13a" in problem)


def test_positions_the_new_rules_cannot_reach_are_refused() -> None:
    # R10a: no turned card before the upcard; no upcard once a card is melded; R14a: a payer is
    # not offered a card that fits nobody; R8: a stock is left after the upcard too.
    up = _example("cooncan1913-upcard")
    with pytest.raises(PositionError, match="the first card turned is the dealer's upcard"):
        load_position({**up, "centre": {**up["centre"], "kind": "turned", "source": 0}})
    forced = _example("cooncan1913-discard-force")
    unpaid = {**forced, "players": [{k: v for k, v in p.items() if k != "paid"} for p in forced["players"]]}
    with pytest.raises(PositionError, match="the upcard is turned at the deal: it is the first centre card"):
        load_position({**unpaid, "centre": {"card": "3H", "kind": "upcard", "source": 0, "declined": []}})
    # 3H fits player 1's set of threes; with that set moved away the payer may not be asked.
    assert load_position(forced).to_act == 0
    other = {**unpaid, "players": [unpaid["players"][0], {**unpaid["players"][1], "layout": []}]}
    other["players"][1]["hand"] = other["players"][1]["hand"] + ["3S", "3D", "3C"]
    with pytest.raises(PositionError, match=r"fits no other player's layout: he is not offered it"):
        load_position(other)
    assert load_position({**other, "centre": {**other["centre"], "declined": [0]}, "to_act": 1}).to_act == 1
    with pytest.raises(ValueError, match=r"turns one up: the deck has 40 and a stock must be left"):
        MEGAJOGOS.with_options({"hand_size": 13, "upcard": True})


def test_why_a_payer_forces_no_one_with_his_card_but_another_player() -> None:
    from analyzer.solver.why import explain

    state = load_position(_example("cooncan1913-discard-force"))
    answer = explain(state, "force 0")
    assert not answer.legal and "R14a" in answer.facts[0] and "pass" in answer.facts[0]
    passed = state.apply(Pass())  # player 1 may not force player 0, who paid it
    answer = explain(passed, "force 0")
    assert answer.facts == ("player 0 paid 3H: he cannot be forced with it (R14a)",)


def test_the_deal_request_takes_rule_options() -> None:
    # The engine's and the board's 'deal' request: 'rules' as a position's (RULES.md section 4).
    from analyzer.service.requests import answer

    def ask(**request: object) -> dict:  # type: ignore[type-arg]
        reply, _ = answer(json.dumps({"id": 1, "cmd": "deal", **request}))
        return reply  # type: ignore[no-any-return]

    reply = ask(variant="megajogos", players=4, seed=1, rules={"upcard": True, "discard_force": True})
    assert reply["ok"], reply
    position = reply["result"]["position"]
    assert position["rules"] == {"upcard": True, "discard_force": True}
    assert position["centre"]["kind"] == "upcard" and len(position["players"]) == 4
    for rules, needle in [({"upcard": "maybe"}, "upcard must be true or false"), ([1], "must be an object"),
                          ({"players": 3}, "the player count is 'players'"), ({"jokers": 1}, "unknown rule option")]:  # fmt: skip
        reply = ask(rules=rules)
        assert not reply["ok"] and reply["field"] == "rules" and needle in reply["error"], reply


def test_a_centre_kind_is_read_in_any_case_as_in_the_notation() -> None:
    data = _example("cooncan1913-upcard")
    state = load_position({**data, "centre": {**data["centre"], "kind": "Upcard"}})
    assert state.centre is not None and state.centre.kind == "upcard"
    with pytest.raises(PositionError, match='centre.kind must be "turned", "paid" or "upcard", got "thrown"'):
        load_position({**data, "centre": {**data["centre"], "kind": "thrown"}})
