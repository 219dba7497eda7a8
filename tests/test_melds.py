"""Meld legality, the catalog, lay-off extensions and the exact meld search (R3-R6, R14).

The fast path of :mod:`analyzer.core.melds` is checked against the worked examples
of RULES.md section 5 and, with hypothesis, against the brute force of
``tests/reference.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference import (
    ref_all_melds,
    ref_can_meld_all,
    ref_count_partitions,
    ref_fits_layoff,
    ref_is_meld,
    ref_max_melded,
    ref_random_layout,
)
from strategies import CARD_SETS, card_sets

from analyzer.core.cards import iter_mask, mask_of, parse_cards
from analyzer.core.melds import (
    arrangements,
    best_partition,
    can_meld_all,
    canonical_layout,
    cards_of,
    catalog,
    extensions,
    fits_layoff,
    is_meld,
    is_run,
    is_set,
    layoff_mask,
    max_melded,
    melds_by_lowest,
)
from analyzer.core.rules import CLASSIC, MEGAJOGOS, Rules

# Every test here runs on both cores: the Python engine (the reference) and the native core.
pytestmark = pytest.mark.usefixtures("both_cores")

PRESETS = [pytest.param(CLASSIC, id="classic"), pytest.param(MEGAJOGOS, id="megajogos")]


def m(text: str) -> int:
    """Mask of French card text."""
    return mask_of(parse_cards(text))


def cards(mask: int) -> list[int]:
    return list(iter_mask(mask))


# --- worked examples 1-3 (RULES.md section 5) ----------------------------------------------


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize(
    ("text", "meld", "run", "set_"),
    [
        # Example 1: runs, the ace low only (R3).
        ("AS 2S 3S", True, True, False),
        ("6H 7H JH", True, True, False),
        ("QC KC AC", False, False, False),
        ("KD AD 2D", False, False, False),
        ("JC QC KC", True, True, False),
        ("6H 7H QH", False, False, False),
        ("AS 2S 3H", False, False, False),
        ("AS 2S", False, False, False),
        # Example 2: sets (R4).
        ("7S 7H 7D", True, False, True),
        ("7S 7H 7D 7C", True, False, True),
        ("7S 7H", False, False, False),
        ("7S 7H 6D", False, False, False),
        ("KS KH KC", True, False, True),
        ("", False, False, False),
        ("AS", False, False, False),
    ],
)
def test_worked_examples_1_2(rules: Rules, text: str, meld: bool, run: bool, set_: bool) -> None:
    mask = m(text)
    assert is_meld(mask, rules) is meld
    assert is_run(mask, rules) is run
    assert is_set(mask) is set_
    assert ref_is_meld(cards(mask), rules.max_run) is meld


def test_worked_example_3_max_run() -> None:
    eight = m("AS 2S 3S 4S 5S 6S 7S JS")
    nine = eight | m("QS")
    ten = nine | m("KS")
    assert is_meld(eight, CLASSIC) and is_run(eight, CLASSIC)
    assert not is_meld(nine, CLASSIC)
    assert not is_meld(ten, CLASSIC)
    assert is_meld(nine, MEGAJOGOS)
    assert is_meld(ten, MEGAJOGOS)
    # Melding the 9-card run is going out in megajogos (target 9).
    assert MEGAJOGOS.target == nine.bit_count()
    assert can_meld_all(nine, MEGAJOGOS)
    # In classic the nine spades are not one meld, but they split into two runs.
    assert can_meld_all(nine, CLASSIC)
    assert best_partition(nine, CLASSIC, nine) is not None
    assert all(x.bit_count() <= 8 for x in best_partition(nine, CLASSIC, nine) or ())
    assert max_melded(nine, CLASSIC) == 9
    assert max_melded(m("AS 2S 3S 4S 5S 6S 7S JS QS AH"), CLASSIC) == 9
    assert max_melded(ten, CLASSIC) == 10  # e.g. A-3 + 4-K (3 + 7 cards)
    assert ref_max_melded(cards(ten), 8, set()) == 10


# --- the catalog --------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "size"), [(CLASSIC, 182), (MEGAJOGOS, 194)])
def test_catalog_matches_reference(rules: Rules, size: int) -> None:
    cat = catalog(rules)
    assert len(cat) == size
    assert len(set(cat)) == size
    assert list(cat) == sorted(cat)
    for meld in cat:
        assert ref_is_meld(cards(meld), rules.max_run), f"{meld:#x}"
    ref = {mask_of(x) for x in ref_all_melds(rules.max_run)}
    assert len(ref) == size
    assert set(cat) == ref
    sizes = {n: sum(1 for x in cat if x.bit_count() == n) for n in range(3, 11)}
    assert sizes[3] == 40 + 4 * 8  # 4 sets of three per rank, 8 runs of three per suit
    assert sizes[4] == 10 + 4 * 7
    assert sizes[8] == 4 * 3
    assert sizes[9] == (0 if rules.max_run == 8 else 8)
    assert sizes[10] == (0 if rules.max_run == 8 else 4)


@pytest.mark.parametrize("rules", PRESETS)
def test_melds_by_lowest(rules: Rules) -> None:
    table = melds_by_lowest(rules)
    assert len(table) == 40
    flat = [x for row in table for x in row]
    assert sorted(flat) == sorted(catalog(rules))
    for low, row in enumerate(table):
        for meld in row:
            assert (meld & -meld).bit_length() - 1 == low


@pytest.mark.parametrize("rules", PRESETS)
@given(data=st.data())
def test_is_meld_matches_reference(rules: Rules, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["suit", "rank", "any"]))
    if kind == "suit":
        suit = data.draw(st.integers(0, 3))
        pool = [4 * r + suit for r in range(10)]
    elif kind == "rank":
        rank = data.draw(st.integers(0, 9))
        pool = [4 * rank + s for s in range(4)]
    else:
        pool = list(range(40))
    chosen = data.draw(st.sets(st.sampled_from(pool), max_size=10))
    mask = mask_of(chosen)
    expected = ref_is_meld(sorted(chosen), rules.max_run)
    assert is_meld(mask, rules) is expected
    assert (mask in set(catalog(rules))) is expected


# --- extensions (R14 layoff) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "meld", "ext"),
    [
        (CLASSIC, "7S 7H 7D", "7C"),
        (CLASSIC, "7S 7H 7C", "7D"),
        (CLASSIC, "KS KH KD", "KC"),
        (CLASSIC, "7S 7H 7D 7C", ""),
        (CLASSIC, "3H 4H 5H", "2H 6H"),
        (CLASSIC, "6H 7H JH", "5H QH"),
        (CLASSIC, "AS 2S 3S", "4S"),
        (CLASSIC, "JC QC KC", "7C"),
        (CLASSIC, "2D 3D 4D 5D 6D 7D JD QD", ""),
        (CLASSIC, "AD 2D 3D 4D 5D 6D 7D", "JD"),
        (CLASSIC, "2D 3D 4D 5D 6D 7D JD", "AD QD"),
        (MEGAJOGOS, "2D 3D 4D 5D 6D 7D JD QD", "AD KD"),
        (MEGAJOGOS, "AD 2D 3D 4D 5D 6D 7D JD QD", "KD"),
        (MEGAJOGOS, "AD 2D 3D 4D 5D 6D 7D JD QD KD", ""),
        (MEGAJOGOS, "AS 2S 3S", "4S"),
    ],
)
def test_extensions_examples(rules: Rules, meld: str, ext: str) -> None:
    assert extensions(m(meld), rules) == m(ext)


@pytest.mark.parametrize("rules", PRESETS)
def test_extensions_match_reference(rules: Rules) -> None:
    for meld in catalog(rules):
        ext = extensions(meld, rules)
        assert ext & meld == 0
        for c in range(40):
            if meld >> c & 1:
                continue
            expected = ref_is_meld([*cards(meld), c], rules.max_run)
            assert bool(ext >> c & 1) is expected, (f"{meld:#x}", c)


@pytest.mark.parametrize("rules", PRESETS)
@given(seed=st.randoms(use_true_random=False), n=st.integers(0, 6), card=st.integers(0, 39))
def test_layoff_mask_and_fits_layoff(rules: Rules, seed: random.Random, n: int, card: int) -> None:
    layout = ref_random_layout(seed, rules.max_run, n)
    # A centre card is never already in the layout (fits_layoff assumes it).
    assume(all(card not in x for x in layout))
    masks = [mask_of(x) for x in layout]
    expected = ref_fits_layoff(layout, card, rules.max_run)
    assert fits_layoff(masks, card, rules) is expected
    assert bool(layoff_mask(masks, rules) >> card & 1) is expected


def test_layout_helpers() -> None:
    a, b = m("AS 2S 3S"), m("7H 7D 7C")
    assert canonical_layout([b, a]) == canonical_layout((a, b)) == tuple(sorted((a, b)))
    assert cards_of([a, b]) == a | b
    assert cards_of([]) == 0


# --- worked example 4: rearrangement (R13) -----------------------------------------------------


def test_worked_example_4_rearrangement() -> None:
    layout = [m("6H 7H JH")]
    hand = m("JS JD")
    centre = m("5H")
    must = cards_of(layout) | centre
    assert must == m("5H 6H 7H JH")
    got = best_partition(must | hand, CLASSIC, must)
    assert got == tuple(sorted((m("5H 6H 7H"), m("JS JH JD"))))
    assert max_melded(must | hand, CLASSIC, must) == 6
    # Without rearranging, 5H extends the run and the jacks stay in hand.
    assert fits_layoff(layout, parse_cards("5H")[0], CLASSIC)


def test_best_partition_infeasible_and_empty() -> None:
    assert best_partition(m("AS 2S JD"), CLASSIC, m("JD")) is None
    assert best_partition(0, CLASSIC) == ()
    assert best_partition(m("AS JD"), CLASSIC) == ()
    assert max_melded(m("AS 2S 3S"), CLASSIC, must=m("4S")) == -1
    assert list(arrangements(0, CLASSIC)) == [()]
    assert list(arrangements(m("AS 2S"), CLASSIC)) == []


def test_arrangements_example() -> None:
    # 7S 7H 7D 7C 6S JS: only 6S-7S-JS + 7H 7D 7C.
    got = list(arrangements(m("6S 7S JS 7H 7D 7C"), CLASSIC))
    assert got == [tuple(sorted((m("6S 7S JS"), m("7H 7D 7C"))))]
    # A-3 in three suits: three runs, or three sets.
    assert len(list(arrangements(m("AS 2S 3S AH 2H 3H AD 2D 3D"), CLASSIC))) == 2


# --- property tests against the reference --------------------------------------------------


def _check_partition(melds: tuple[int, ...], cards_mask: int, must: int, rules: Rules) -> int:
    seen = 0
    for meld in melds:
        assert ref_is_meld(cards(meld), rules.max_run), f"illegal meld {meld:#x}"
        assert meld & seen == 0, "melds overlap"
        assert meld & ~cards_mask == 0, "meld uses a card not available"
        seen |= meld
    assert must & ~seen == 0, "a must card is left out"
    return seen.bit_count()


@pytest.mark.parametrize("rules", PRESETS)
@settings(max_examples=300)
@given(data=st.data())
def test_max_melded_and_best_partition(rules: Rules, data: st.DataObject) -> None:
    chosen = data.draw(card_sets(rules.max_run))
    must = data.draw(st.sets(st.sampled_from(sorted(chosen)))) if chosen else set()
    mask, must_mask = mask_of(chosen), mask_of(must)
    expected = ref_max_melded(sorted(chosen), rules.max_run, must)
    assert max_melded(mask, rules, must_mask) == expected
    part = best_partition(mask, rules, must_mask)
    if expected < 0:
        assert part is None
    else:
        assert part is not None
        assert list(part) == sorted(part)
        assert _check_partition(part, mask, must_mask, rules) == expected


@pytest.mark.parametrize("rules", PRESETS)
@settings(max_examples=300)
@given(data=st.data())
def test_can_meld_all_and_arrangements(rules: Rules, data: st.DataObject) -> None:
    chosen = data.draw(card_sets(rules.max_run))
    mask = mask_of(chosen)
    expected = ref_can_meld_all(sorted(chosen), rules.max_run)
    assert can_meld_all(mask, rules) is expected
    assert (max_melded(mask, rules, mask) == len(chosen)) is expected
    found = list(arrangements(mask, rules))
    assert bool(found) is expected
    for part in found:
        assert list(part) == sorted(part)
        assert cards_of(part) == mask
        assert _check_partition(part, mask, mask, rules) == len(chosen)
    assert len(set(found)) == len(found), "an arrangement is repeated"
    assert len(found) == ref_count_partitions(sorted(chosen), rules.max_run)


@pytest.mark.parametrize("rules", PRESETS)
@given(chosen=CARD_SETS, outside=st.integers(0, 39))
def test_must_outside_cards_is_infeasible(rules: Rules, chosen: set[int], outside: int) -> None:
    mask = mask_of(chosen)
    must = 1 << outside
    expected = (
        -1 if outside not in chosen else ref_max_melded(sorted(chosen), rules.max_run, {outside})
    )
    assert max_melded(mask, rules, must) == expected


def test_meld_query_file_problems_name_the_query(tmp_path: Path) -> None:
    from cli_run import one_error_line, run

    def ask(queries: list[dict[str, str]]) -> str:
        path = tmp_path / "q.json"
        path.write_text(json.dumps({"type": "melds", "queries": queries}))
        code, out, err = run("melds", "--file", str(path))
        assert code == 1 and one_error_line(err) and out == "", (out, err)
        return err

    # An empty query is refused as on the command line, not "0 of 0 cards melded".
    assert "queries[1]: 'cards': no cards given" in ask([{"cards": "AS 2S 3S"}, {"cards": ""}])
    # A mixed-labels query is refused with its name.
    err = ask([{"cards": "AS 2S 3S"}, {"cards": "KS 5C 10o"}])
    assert "queries[1]: ambiguous card: '5C'" in err
    # The 'must' cards outside 'cards' are named, as the command line names them.
    assert "queries[0]: 'must' cards not among 'cards': 4S 5S" in ask([{"cards": "AS 2S 3S", "must": "AS 4S 5S"}])


def test_a_position_given_as_a_meld_query_file_is_named() -> None:
    from cli_run import one_error_line, run
    from conftest import EXAMPLES

    code, _, err = run("melds", "--file", str(EXAMPLES / "forcing.json"))
    assert code == 1 and one_error_line(err)
    assert "this is a position, not a meld query file" in err and "unknown key" not in err


def test_a_repeated_must_adds_its_cards() -> None:
    # A second --must adds its cards; it does not replace the first.
    from cli_run import run

    code, out, _ = run("melds", "5H", "6H", "7H", "JH", "JS", "JD", "KC", "--must", "5H 6H 7H JH", "--must", "KC", "--json")
    assert code == 0 and json.loads(out)["feasible"] is False  # KC melds with nothing (R13)
    code, out, _ = run("melds", "5H", "6H", "7H", "JH", "JS", "JD", "KC", "--must", "5H 6H 7H JH", "-m", "JS", "--json")
    data = json.loads(out)
    assert code == 0 and data["feasible"] is True and data["melded"] == 6


def test_an_empty_expected_answer_is_not_counted_as_checked(tmp_path: Path) -> None:
    # '"expected": {}' is not "1 of 1 expected answers are correct".
    from cli_run import run

    path = tmp_path / "q.json"
    path.write_text(json.dumps({"type": "melds", "queries": [{"cards": "AS 2S 3S", "expected": {}}]}))
    code, out, _ = run("melds", "--file", str(path))
    assert code == 0 and "No query gives an expected answer to check." in out
