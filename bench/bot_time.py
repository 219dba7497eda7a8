"""CPU time per decision of hint bots with different budgets, interleaved in one run.

    python3 bench/bot_time.py [--variant classic] [--deals 30] [--decisions 150]
                              [--bots hint:samples=8 hint]

The decisions are those of the seat to act in --deals seeded games of greedy bots (two or
more legal moves, none going out: the bots play those at once), each bot choosing on every one
from that player's view, the bots' order alternating between decisions so that the machine's
load falls on all alike.  Prints each bot's CPU seconds per decision (this process's
``time.process_time``) and its ratio to the first bot's: a ratio measured in one run, which a
shared machine changes less than the seconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchargs import variant, whole

from analyzer.bots.base import obvious_move
from analyzer.bots.game import play_game
from analyzer.bots.registry import make_bot
from analyzer.core.dealing import view
from analyzer.core.rules import get_rules
from analyzer.core.state import GameState, Phase


def decisions(name: str, deals: int, most: int) -> list[GameState]:
    """The views of the player to act at the decisions of ``deals`` seeded greedy games of
    ``name`` (the first ``most``)."""
    found: list[GameState] = []
    for seed in range(deals):
        game = play_game(name, ["greedy"] * get_rules(name).players, seed=seed)
        state = game.start
        for _, move in game.moves:
            if state.to_act is not None and state.phase not in (Phase.OVER, Phase.TURN):
                mine = view(state, state.to_act)
                if len(mine.legal_moves()) > 1 and obvious_move(mine) is None:
                    found.append(mine)
            state = state.apply(move)
    return found[:most]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", type=variant, default="classic")
    parser.add_argument("--deals", type=whole(1), default=30)
    parser.add_argument("--decisions", type=whole(1), default=150)
    parser.add_argument("--bots", nargs="+", default=["hint:samples=8", "hint"])
    args = parser.parse_args()
    views = decisions(args.variant, args.deals, args.decisions)
    bots = {name: make_bot(name) for name in args.bots}
    spent = dict.fromkeys(bots, 0.0)
    for i, mine in enumerate(views):
        for name in args.bots if i % 2 == 0 else args.bots[::-1]:
            start = time.process_time()
            bots[name].choose(mine, random.Random(i))
            spent[name] += time.process_time() - start
    first = args.bots[0]
    print(f"{args.variant}: {len(views)} decisions of {args.deals} greedy deals")
    for name in args.bots:
        print(f"  {name}: {spent[name] / len(views):.4f} CPU s a decision, {spent[name] / spent[first]:.2f} x {first}")


if __name__ == "__main__":
    main()
