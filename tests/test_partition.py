"""The CP-SAT models of :mod:`analyzer.solver.partition` (R4-R6, R13-R15).

Checked against the brute force of ``tests/reference.py`` and against an
exhaustive enumeration of takes.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from reference import (
    ref_all_melds,
    ref_can_meld_all,
    ref_fits_layoff,
    ref_is_meld,
    ref_max_melded,
    ref_random_layout,
)
from strategies import CARD_SETS, card_sets

from analyzer.core.cards import iter_mask, mask_of, parse_cards
from analyzer.core.errors import ConquianError
from analyzer.solver.partition import (
    Arrangement,
    best_take,
    can_meld_all_cpsat,
    check_arrangement,
    fits,
    solve_arrangement,
)
from analyzer.core.rules import CLASSIC, MEGAJOGOS, ForceFit, Rearrange, Rules

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

CLASSIC_REARRANGE = dataclasses.replace(CLASSIC, force_fit=ForceFit.REARRANGE)
MEGAJOGOS_REARRANGE = dataclasses.replace(MEGAJOGOS, force_fit=ForceFit.REARRANGE)
PRESETS = [pytest.param(CLASSIC, id="classic"), pytest.param(MEGAJOGOS, id="megajogos")]
ALL_MELDS = {n: sorted(ref_all_melds(n), key=sorted) for n in (8, 10)}
CPSAT = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def m(text: str) -> int:
    """Mask of French card text."""
    return mask_of(parse_cards(text))


def c(text: str) -> int:
    """Index of one French card."""
    return parse_cards(text)[0]


def cards(mask: int) -> list[int]:
    return list(iter_mask(mask))


def check_melds(melds: tuple[int, ...], available: int, must: int, rules: Rules) -> int:
    """Assert the melds are a legal arrangement (reference test) and return the cards melded."""
    assert list(melds) == sorted(melds)
    seen = 0
    for meld in melds:
        assert ref_is_meld(cards(meld), rules.max_run), f"illegal meld {meld:#x}"
        assert meld & seen == 0, "melds overlap"
        assert meld & ~available == 0, "meld uses a card not available"
        seen |= meld
    assert must & ~seen == 0, "a must card is left out"
    return seen


# --- solve_arrangement and can_meld_all_cpsat ---------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("with_must", [False, True], ids=["free", "must"])
@CPSAT
@given(data=st.data())
def test_solve_arrangement_matches_reference(
    rules: Rules, with_must: bool, data: st.DataObject
) -> None:
    chosen = data.draw(card_sets(rules.max_run))
    must = data.draw(st.sets(st.sampled_from(sorted(chosen)))) if with_must and chosen else set()
    mask, must_mask = mask_of(chosen), mask_of(must)
    expected = ref_max_melded(sorted(chosen), rules.max_run, must)
    got = solve_arrangement(mask, rules, must_mask)
    event("infeasible" if expected < 0 else "all melded" if expected == len(chosen) else "partial")
    assert isinstance(got, Arrangement)
    assert got.optimal
    if expected < 0:
        assert not got.feasible
        assert got.melds == ()
        assert got.melded == 0
        assert got.unmelded == mask
    else:
        assert got.feasible
        seen = check_melds(got.melds, mask, must_mask, rules)
        assert got.melded == seen.bit_count() == expected
        assert got.unmelded == mask & ~seen


@pytest.mark.parametrize("rules", PRESETS)
@CPSAT
@given(chosen=CARD_SETS, outside=st.integers(0, 39))
def test_solve_arrangement_must_outside_cards(rules: Rules, chosen: set[int], outside: int) -> None:
    assume(outside not in chosen)
    got = solve_arrangement(mask_of(chosen), rules, 1 << outside)
    assert not got.feasible
    assert got.melded == 0
    assert got.unmelded == mask_of(chosen)


@pytest.mark.parametrize("rules", PRESETS)
@CPSAT
@given(data=st.data())
def test_can_meld_all_cpsat_matches_reference(rules: Rules, data: st.DataObject) -> None:
    chosen = data.draw(card_sets(rules.max_run))
    assert can_meld_all_cpsat(mask_of(chosen), rules) is ref_can_meld_all(
        sorted(chosen), rules.max_run
    )


def test_solve_arrangement_examples() -> None:
    nine = m("AS 2S 3S 4S 5S 6S 7S JS QS")
    got = solve_arrangement(nine, MEGAJOGOS, nine)
    assert got.feasible and got.melded == 9 and got.unmelded == 0
    check_arrangement(nine, (nine,), MEGAJOGOS, nine)  # one run is one of the answers
    got = solve_arrangement(nine, CLASSIC, nine)
    assert got.feasible and got.melded == 9 and len(got.melds) == 2
    got = solve_arrangement(m("AS 2S JD"), CLASSIC, m("JD"))
    assert not got.feasible and got.optimal
    assert solve_arrangement(0, CLASSIC) == Arrangement(True, (), 0, 0, True)
    assert can_meld_all_cpsat(0, CLASSIC)
    assert not can_meld_all_cpsat(m("7S 7H"), CLASSIC)


# --- best_take against an exhaustive enumeration ------------------------------------------------


def exhaustive_take(
    layout: list[int], hand: list[int], centre: int, max_run: int
) -> tuple[int, list[tuple[int, ...]]] | None:
    """Best melded count over every subset S of the hand such that layout + centre + S
    can all be melded, and the subsets reaching it; None if no subset works."""
    best: int | None = None
    winners: list[tuple[int, ...]] = []
    for size in range(len(hand) + 1):
        for s in itertools.combinations(hand, size):
            group = [*layout, centre, *s]
            if not ref_can_meld_all(group, max_run):
                continue
            if best is None or len(group) > best:
                best, winners = len(group), [s]
            elif len(group) == best:
                winners.append(s)
    return None if best is None else (best, winners)


@st.composite
def take_positions(draw: st.DrawFn, max_run: int) -> tuple[list[int], list[int], int]:
    """A layout (disjoint melds, or a few loose cards), a hand of 0-6 cards and a centre card.

    The centre card and the hand are biased towards cards that meld, so that
    takes, payments and going out are all common.
    """
    rng = draw(st.randoms(use_true_random=False))
    if draw(st.integers(0, 4)) == 0:
        melds = [sorted(draw(st.sets(st.integers(0, 39), max_size=5)))]
    else:
        melds = ref_random_layout(rng, max_run, draw(st.integers(0, 3)))
    layout = sorted(x for meld in melds for x in meld)
    free = [x for x in range(40) if x not in layout]
    fitting = [x for x in free if ref_fits_layoff(melds, x, max_run)]
    how = draw(st.integers(0, 2))
    centre = draw(st.sampled_from(fitting if how == 0 and fitting else free))
    free.remove(centre)
    partners = [
        sorted(set(meld) - {centre})
        for meld in ALL_MELDS[max_run]
        if centre in meld and meld.isdisjoint(layout) and len(meld) <= 7
    ]
    how = draw(st.integers(0, 2))
    if how == 0 and partners:
        core = set(draw(st.sampled_from(partners)))
    elif how == 1:
        near = [
            x
            for x in free
            if x // 4 == centre // 4 or (x % 4 == centre % 4 and abs(x - centre) <= 8)
        ]
        core = draw(st.sets(st.sampled_from(near), max_size=min(4, len(near)))) if near else set()
    else:
        core = set()
    extra = draw(
        st.sets(st.sampled_from([x for x in free if x not in core]), max_size=6 - len(core))
    )
    hand = sorted(core | extra)
    return layout, hand, centre


@pytest.mark.parametrize("rules", PRESETS)
@CPSAT
@given(data=st.data())
def test_best_take_matches_enumeration(rules: Rules, data: st.DataObject) -> None:
    layout, hand, centre = data.draw(take_positions(rules.max_run))
    expected = exhaustive_take(layout, hand, centre, rules.max_run)
    got = best_take(mask_of(layout), mask_of(hand), centre, rules)
    if expected is None:
        event("take: none")
        assert got is None
        return
    assert got is not None
    best, winners = expected
    event(f"take: {'goes out' if len(winners[0]) == len(hand) else 'pays'}, {len(winners)} optimal")
    assert got.optimal
    hand_mask = mask_of(hand)
    seen = check_melds(
        got.melds, mask_of(layout) | hand_mask | 1 << centre, mask_of(layout) | 1 << centre, rules
    )
    assert seen.bit_count() == best
    assert got.used == seen & hand_mask
    assert seen == mask_of(layout) | 1 << centre | got.used
    assert got.goes_out is (got.used == hand_mask)
    if got.goes_out:
        assert got.pay is None
    else:
        assert got.pay is not None
        assert got.pay in hand and not got.used >> got.pay & 1
        # Ties go to paying the highest card index (documented tie-break).
        assert got.pay == max(max(set(hand) - set(s)) for s in winners)


def test_best_take_examples() -> None:
    # No take: the centre card fits nothing.
    assert best_take(m("AS 2S 3S"), m("KH"), c("7D"), CLASSIC) is None
    # The centre card needs a hand card; the other one is paid.
    got = best_take(0, m("6H 7H KC"), c("5H"), CLASSIC)
    assert got is not None
    assert got.melds == (m("5H 6H 7H"),) and got.used == m("6H 7H") and got.pay == c("KC")
    assert not got.goes_out
    # Two optimal takes (the fives as a set, or 5S 6S 7S): the highest card left, 7S, is paid.
    got = best_take(0, m("5H 5D 6S 7S"), c("5S"), CLASSIC)
    assert got is not None
    assert got.melds == (m("5S 5H 5D"),) and got.pay == c("7S") and not got.goes_out
    # The only card left is the ace of spades (index 0): he pays it, he does not go out.
    got = best_take(0, m("AS 6H 7H"), c("5H"), CLASSIC)
    assert got is not None
    assert not got.goes_out and got.pay == c("AS") and got.used == m("6H 7H")
    # Centre, layout and hand must be disjoint.
    with pytest.raises(ConquianError):
        best_take(m("AS 2S 3S"), m("AS"), c("4S"), CLASSIC)
    with pytest.raises(ConquianError):
        best_take(m("AS 2S 3S"), m("KH"), c("3S"), CLASSIC)


def test_worked_example_3_going_out_in_megajogos() -> None:
    # Eight spades melded, empty hand (megajogos: 8 + 0 = hand_size), QS makes a 9-card run.
    layout = m("AS 2S 3S 4S 5S 6S 7S JS")
    got = best_take(layout, 0, c("QS"), MEGAJOGOS)
    assert got is not None
    assert got.goes_out and got.pay is None and got.used == 0
    check_melds(got.melds, layout | m("QS"), layout | m("QS"), MEGAJOGOS)
    # In classic the nine spades still split into two runs.
    got = best_take(layout, 0, c("QS"), CLASSIC)
    assert got is not None and got.goes_out and len(got.melds) == 2


def test_worked_example_5_forcing() -> None:
    layout = (m("AC 2C 3C 4C"), m("4S 5S 6S 7S"))
    hand = m("KH KS")
    centre = c("5C")
    got = best_take(layout[0] | layout[1], hand, centre, CLASSIC)
    assert got is not None
    # 8 melded + 5C = 9 (RULES.md: "9 melded"); the kings cannot be melded.
    assert sum(x.bit_count() for x in got.melds) == 9
    assert got.used == 0
    assert not got.goes_out
    assert got.pay in (c("KH"), c("KS"))
    assert got.melds == tuple(sorted((m("AC 2C 3C 4C 5C"), m("4S 5S 6S 7S"))))
    # 5C fits his layout, so the opponent may force him (R14).
    assert fits(layout, centre, CLASSIC)
    assert fits(layout, centre, CLASSIC_REARRANGE)


def test_worked_example_6_going_out_in_classic() -> None:
    layout = (m("AD 2D 3D 4D"), m("5H 6H 7H"), m("QS QH QC"))
    got = best_take(layout[0] | layout[1] | layout[2], 0, c("5D"), CLASSIC)
    assert got is not None and got.goes_out and got.pay is None
    assert sum(x.bit_count() for x in got.melds) == CLASSIC.target
    assert fits(layout, c("5D"), CLASSIC)


# --- fits (R14) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        *PRESETS,
        pytest.param(CLASSIC_REARRANGE, id="classic-re"),
        pytest.param(MEGAJOGOS_REARRANGE, id="megajogos-re"),
    ],
)
@CPSAT
@given(rng=st.randoms(use_true_random=False), n=st.integers(0, 5), data=st.data())
def test_fits_matches_reference(
    rules: Rules, rng: random.Random, n: int, data: st.DataObject
) -> None:
    layout = ref_random_layout(rng, rules.max_run, n)
    masks = tuple(mask_of(x) for x in layout)
    group = [x for meld in layout for x in meld]
    # Half the cards are taken among those that fit (by the reference), if any.
    if rules.force_fit is ForceFit.LAYOFF:
        good = [
            y for y in range(40) if y not in group and ref_fits_layoff(layout, y, rules.max_run)
        ]
    else:
        good = [
            y for y in range(40) if y not in group and ref_can_meld_all([*group, y], rules.max_run)
        ]
    card = data.draw(
        st.sampled_from(good) if good and data.draw(st.booleans()) else st.integers(0, 39)
    )
    in_layout = any(card in x for x in layout)
    if rules.force_fit is ForceFit.LAYOFF:
        expected = not in_layout and ref_fits_layoff(layout, card, rules.max_run)
    else:
        expected = not in_layout and ref_can_meld_all([*group, card], rules.max_run)
    event(f"fits: {expected}")
    assert fits(masks, card, rules) is expected


@pytest.mark.parametrize(
    ("layout", "card", "layoff", "rearrange"),
    [
        # An 8-card run takes nothing in classic, but AS 2S 3S + 4S..QS is a rearrangement.
        (["2S 3S 4S 5S 6S 7S JS QS"], "AS", False, True),
        (["3S 4S 5S"], "2S", True, True),
        (["3S 4S 5S"], "6S", True, True),
        (["3S 4S 5S"], "7S", False, False),
        (["7S 7H 7D"], "7C", True, True),
        (["7S 7H 7D 7C"], "7C", False, False),  # already melded
        # 5H extends neither set, but 4H 5H 6H + 4S 4D 4C + 6S 6D 6C melds all.
        (["4S 4D 4C 4H", "6S 6D 6C 6H"], "5H", False, True),
        (["AS 2S 3S", "KD QD JD"], "5C", False, False),
    ],
)
def test_fits_examples(layout: list[str], card: str, layoff: bool, rearrange: bool) -> None:
    masks = tuple(m(x) for x in layout)
    assert fits(masks, c(card), CLASSIC) is layoff
    assert fits(masks, c(card), CLASSIC_REARRANGE) is rearrange


# --- check_arrangement -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("available", "melds", "must", "error"),
    [
        # A legal meld, then an illegal one.
        ("AS 2S 3S 4H", ["AS 2S 3S"], "", None),
        ("AS 2S 3S 4H", ["AS 2S 4H"], "", "not a legal meld"),
        ("QC KC AC", ["QC KC AC"], "", "not a legal meld"),
        # Disjoint melds, then two melds sharing a card.
        ("AS 2S 3S 4S 4H 4D", ["AS 2S 3S", "4S 4H 4D"], "", None),
        ("AS 2S 3S 4S 4H 4D", ["AS 2S 3S 4S", "4S 4H 4D"], "", "share a card"),
        # Every card available, then one that is not.
        ("AS 2S 3S", ["AS 2S 3S"], "", None),
        ("AS 2S", ["AS 2S 3S"], "", "not available"),
        # Every must card melded, then one left out.
        ("AS 2S 3S 4S", ["AS 2S 3S 4S"], "4S", None),
        ("AS 2S 3S 4S", ["AS 2S 3S"], "4S", "left out"),
        ("AS 2S 3S 4S", [], "", None),
        ("AS 2S 3S 4S", [], "AS", "left out"),
    ],
)
def test_check_arrangement(available: str, melds: list[str], must: str, error: str | None) -> None:
    args = (m(available), tuple(m(x) for x in melds), CLASSIC, m(must))
    if error is None:
        check_arrangement(*args)
    else:
        with pytest.raises(ConquianError, match=error):
            check_arrangement(*args)


def test_check_arrangement_max_run() -> None:
    nine = m("AS 2S 3S 4S 5S 6S 7S JS QS")
    check_arrangement(nine, (nine,), MEGAJOGOS, nine)
    with pytest.raises(ConquianError, match="not a legal meld"):
        check_arrangement(nine, (nine,), CLASSIC, nine)


def test_cards_that_are_one_meld_are_shown_as_that_meld() -> None:
    # The arrangement of cards that are one meld is that meld (R4, R5): an eight-card run is
    # not shown split into a five- and a three-card run.
    from analyzer.core.cards import mask_of, parse_cards
    from analyzer.core.rules import CLASSIC, MEGAJOGOS

    for rules, text in ((CLASSIC, "AS 2S 3S 4S 5S 6S 7S JS"), (MEGAJOGOS, "1e 2e 3e 4e 5e 6e 7e 10e 11e"),
                        (CLASSIC, "7S 7H 7D 7C")):  # fmt: skip
        cards = mask_of(parse_cards(text))
        found = solve_arrangement(cards, rules)
        assert found.melds == (cards,) and found.melded == cards.bit_count() and found.unmelded == 0
    nine = mask_of(parse_cards("AS 2S 3S 4S 5S 6S 7S JS QS"))  # no single meld in classic (R5)
    split = solve_arrangement(nine, CLASSIC)
    assert split.melded == 9 and len(split.melds) == 2


def test_best_take_and_fits_under_borrowing_agree_with_the_engine() -> None:
    # R13a: the CP-SAT take melds as many cards as the engine's largest take, which keeps each
    # old meld as borrowing allows; its melds are one of the engine's layouts; the fit for
    # forcing by rearrangement is the engine's.  Positions from seeded random hoyle1897 deals.
    from analyzer.core.dealing import deal
    from analyzer.core.legal import borrow_ok, fitting_cards, take_moves
    from analyzer.core.melds import cards_of
    from analyzer.core.rules import HOYLE1897

    rearrange = dataclasses.replace(HOYLE1897, name="hoyle-rearrange", force_fit=ForceFit.REARRANGE)
    own = dataclasses.replace(HOYLE1897, name="hoyle-own", rearrange=Rearrange.OWN)
    checked = differ = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = deal(HOYLE1897, seed)
        while not state.is_terminal():
            centre, me = state.centre, state.to_act
            if state.phase.value == "offer" and centre is not None and state.layouts[me]:
                layout, hand = state.layouts[me], state.hand(me)
                takes = take_moves(layout, hand, centre.card, HOYLE1897)
                best = best_take(cards_of(layout), hand, centre.card, HOYLE1897, layout=layout)
                if not takes:
                    assert best is None
                else:
                    assert best is not None and borrow_ok(layout, best.melds)
                    most = max(cards_of(t.layout).bit_count() for t in takes)
                    assert cards_of(best.melds).bit_count() == most
                    free = best_take(cards_of(layout), hand, centre.card, own)
                    differ += free is not None and cards_of(free.melds).bit_count() > most
                    checked += 1
                fitted = fitting_cards(layout, rearrange)
                assert fits(layout, centre.card, rearrange) is bool(fitted >> centre.card & 1)
            moves = state.legal_moves()
            takes_now = [m for m in moves if not m.text().startswith("pass")]
            state = state.apply(
                rng.choice(takes_now or moves) if rng.random() < 0.8 else rng.choice(moves)
            )
    assert checked > 50 and differ > 0  # the limits bind: free rearranging melds more
    with pytest.raises(ConquianError, match="borrowing"):
        best_take(0, 0b111, 4, HOYLE1897)  # no layout given


def test_the_meld_models_are_limited_in_deterministic_time() -> None:
    # A seeded game plays the same on a loaded machine: the limit is CP-SAT's deterministic time,
    # with the wall clock only as a looser safety net.
    from analyzer.solver.partition import WALL_FACTOR, _solver

    solver = _solver(2.0)
    assert solver.parameters.max_deterministic_time == 2.0
    assert solver.parameters.max_time_in_seconds == 2.0 * WALL_FACTOR > 2.0
    assert solver.parameters.num_workers == 1
