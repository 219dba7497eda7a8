"""bench/read_choice.py: the choice-model reading of the hidden hands (docs/hint.md's figures)."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

from analyzer.core.cards import iter_mask
from analyzer.core.melds import usefulness
from analyzer.core.melds import catalog
from analyzer.core.dealing import view
from analyzer.search.inference import read_cards
from analyzer.search.sampling import sample_deal
from analyzer.bots.simulate import game_seed, play_game
from analyzer.core.state import Phase

BENCH = Path(__file__).resolve().parent.parent / "bench" / "read_choice.py"


def _module():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCH.parent))
    try:
        import read_choice
    finally:
        sys.path.remove(str(BENCH.parent))
    return read_choice


def _a_view_with_pays():  # type: ignore[no-untyped-def]
    for k in range(20):
        game = play_game("classic", ["greedy", "greedy"], game_seed(3, k), k)
        state = game.start
        for player, move in game.moves:
            if player == 0 and state.phase is Phase.OFFER:
                mine = view(state, 0)
                given = read_cards(mine, 0)
                if given and sum(map(len, given.values())) >= 2:
                    return state, mine, given
            state = state.apply(move)
    raise AssertionError("no greedy deal with two pays seen")


def test_the_likelihood_is_the_choice_model_by_hand() -> None:
    rc = _module()
    state, mine, given = _a_view_with_pays()
    melds = catalog(state.rules)
    # With B = 0 every card of the hand is as likely to be given up: -sum log |H| per card.
    (q, cards), = given.items()
    held, expected = state.hands[q] or 0, 0.0
    for card in reversed(cards):
        held |= 1 << card
        expected -= math.log(held.bit_count())
    assert math.isclose(rc.log_likelihood(state, mine, given, 0.0, melds), expected)
    # With B > 0: the softmax of minus usefulness, computed here card by card.
    beta, held, expected = 2.0, state.hands[q] or 0, 0.0
    table = mine.table_mask()
    for card in reversed(cards):
        held |= 1 << card
        unseen = ((1 << 40) - 1) & ~table & ~held
        u = {c: usefulness(c, held & ~(1 << c), unseen, melds) for c in iter_mask(held)}
        expected += math.log(math.exp(-beta * u[card]) / sum(math.exp(-beta * x) for x in u.values()))
    assert math.isclose(rc.log_likelihood(state, mine, given, beta, melds), expected)
    # Greedy pays his least useful card, so the true deal is at least as likely as a random one.
    deals = [sample_deal(mine, 0, random.Random(s)) for s in range(30)]
    true = rc.log_likelihood(state, mine, given, 10.0, melds)
    assert true >= sorted(rc.log_likelihood(d, mine, given, 10.0, melds) for d in deals)[15]


def test_the_script_prints_every_sampler() -> None:
    out = subprocess.run([sys.executable, str(BENCH), "--games", "3", "--deals", "4"],
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("classic: 3 greedy deals of seed 5")
    assert [line.split()[0] for line in lines[1:]] == [
        "uniform", "infer", "read", "learned", "choice", "choice", "choice", "linked", "linked",
    ]
    assert all(float(line.split("log loss ")[1].split(",")[0]) > 0 for line in lines[1:])


def test_linked_cards_counts_cards_with_a_partner_in_the_hand() -> None:
    from analyzer.core.cards import parse_cards

    rc = _module()

    def mask(text: str) -> int:
        return sum(1 << c for c in parse_cards(text.split()))

    # 5S-7S: same suit two ranks apart (links); 5S-5C: same rank; KH alone.
    assert rc.linked_cards(mask("5S 7S 5C KH")) == 3
    # J follows 7 in the 40-card deck (R5): 7S-JS link; same suit three ranks apart does not.
    assert rc.linked_cards(mask("7S JS")) == 2
    assert rc.linked_cards(mask("2S 5S QH")) == 0
    assert rc.linked_cards(0) == 0
