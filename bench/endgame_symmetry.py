"""What card symmetries could save on equilibrium endgames: the suit permutations that leave an
endgame's public state unchanged.

    python3 bench/endgame_symmetry.py [--games 8] [--seed 0] [--stock 12]

Two deals of the hidden cards that differ by a permutation of the suits give the same subtree
(the rules treat suits alike, R3-R5) only when the permutation maps the public state to itself:
each layout's melds, the dead cards, the centre card, the cards known from the exchange (R9) and
the cards each player paid.  For the endgames of bench/equilibrium.py (the first offer of each
stock card turned in ``--games`` seeded greedy deals of each two-player preset, at most
``--stock`` stock cards left), this counts the permutations of the 24 that do: 1 (the identity
alone) means no deal can be folded onto another, so the tree cannot shrink by symmetry.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchargs import whole  # noqa: E402
from equilibrium import PRESETS, turns, two_players  # noqa: E402

from analyzer.bots.simulate import game_seed  # noqa: E402
from analyzer.core.cards import iter_mask  # noqa: E402
from analyzer.core.state import GameState  # noqa: E402

Perm = tuple[int, ...]


def moved(card: int, perm: Perm) -> int:
    """``card`` with its suit permuted (a card's index is 4 x (rank - 1) + suit)."""
    return card - card % 4 + perm[card % 4]


def moved_mask(mask: int, perm: Perm) -> int:
    return sum(1 << moved(c, perm) for c in iter_mask(mask))


def fixes(state: GameState, perm: Perm) -> bool:
    """True when ``perm`` maps the public state of ``state`` to itself (module docstring)."""
    for melds in state.layouts:
        if sorted(moved_mask(m, perm) for m in melds) != sorted(melds):
            return False
    groups = [state.dead, *state.paid, [c for c in (*state.gifts, *state.gave) if c is not None]]
    if state.centre is not None:
        groups.append([state.centre.card])
    return all(sorted(moved(c, perm) for c in cards) == sorted(cards) for cards in groups)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(1), default=8, help="seeded deals per preset (default 8)")
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--stock", type=whole(0), default=12, help="most stock cards left at an endgame")
    args = parser.parse_args()
    perms = list(itertools.permutations(range(4)))
    total: collections.Counter[int] = collections.Counter()
    print(f"{'preset':<13}{'endgames':>9}  suit permutations that fix the public state: endgames")
    for name in PRESETS:
        rules = two_players(name)
        sizes: collections.Counter[int] = collections.Counter()
        for k in range(args.games):
            for mine in turns(rules, game_seed(args.seed, k)):
                if mine.stock_count <= args.stock:
                    sizes[sum(fixes(mine, p) for p in perms)] += 1
        total.update(sizes)
        print(f"{name:<13}{sum(sizes.values()):>9}  " + ", ".join(f"{g}: {n}" for g, n in sorted(sizes.items())))
    print(f"{'all':<13}{sum(total.values()):>9}  " + ", ".join(f"{g}: {n}" for g, n in sorted(total.items())))


if __name__ == "__main__":
    main()
