"""Thinking time per decision of the ismcts bot and the hint bot, for equal-time strength runs.

    python3 bench/ismcts.py [--games 3] [--simulations 1000] [--variant classic] [--clock wall|cpu]
                            [--times 1]

Each bot plays --games deals against greedy bots (the same seeded deals); decisions with one
legal move or going out are not counted (both bots play them at once).  Prints seconds per
decision of each, and the ismcts budget that would think --times as long as the hint bot on this
machine: times * simulations * hint_time / ismcts_time.  ``--clock cpu`` counts this process's
CPU time instead of wall time: on a shared machine the wall time of the hint bot's short
decisions grows with the load more than that of the ismcts bot's long ones.  Needs the openspiel
extra: pip install -e '.[openspiel]'.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.bots.registry import make_bot  # noqa: E402
from analyzer.bots.registry import obvious_move  # noqa: E402
from analyzer.core.errors import ConquianError  # noqa: E402

from analyzer.core.dealing import deal, view  # noqa: E402
from analyzer.bots.simulate import game_seed  # noqa: E402
from benchargs import variant, whole  # noqa: E402


def seconds_per_decision(
    variant: str, make: object, games: int, seed: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, int, int]:
    """(seconds per counted decision, decisions, wins) of the bot at seat g % players, timed by
    ``clock`` (wall: time.perf_counter; CPU: time.process_time)."""
    total, decisions, wins = 0.0, 0, 0
    for g in range(games):
        rng = random.Random(game_seed(seed, g))
        state = deal(variant, rng)
        seat = g % state.rules.players
        bots = [make_bot("greedy") for _ in range(state.rules.players)]
        bots[seat] = make()  # type: ignore[operator]
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(state.chance_outcomes()[0][0])
                continue
            player = state.current_player()
            mine = view(state, player)
            start = clock()
            move = bots[player].choose(mine, rng)
            if player == seat and obvious_move(mine) is None:
                total += clock() - start
                decisions += 1
            state = state.apply(move)
        wins += state.winner == seat
    return total / max(decisions, 1), decisions, wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(1), default=3)
    parser.add_argument("--simulations", type=whole(1), default=1000)
    parser.add_argument("--variant", type=variant, default="classic")
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time decisions by the wall clock (default) or by this process's CPU time")
    parser.add_argument("--times", type=whole(1), default=1,
                        help="the ismcts budget printed thinks this many times as long as the hint bot")
    args = parser.parse_args()  # before the extra is needed: --help and bad arguments work without it
    try:
        from analyzer.interop.ismcts import IsmctsBot
    except ConquianError as exc:  # the openspiel extra is missing: one line, not a traceback
        sys.exit(f"ismcts.py: {exc}")
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    unit = "CPU s" if args.clock == "cpu" else "s"
    ismcts, n1, w1 = seconds_per_decision(
        args.variant, lambda: IsmctsBot(simulations=args.simulations), args.games, args.seed, clock
    )
    print(f"{args.variant}: ismcts ({args.simulations} simulations) {ismcts:.4f} {unit} per decision "
          f"({n1} decisions, {w1} wins in {args.games} games against greedy)", flush=True)
    hint, n2, w2 = seconds_per_decision(args.variant, lambda: make_bot("hint"), args.games, args.seed, clock)
    print(f"{args.variant}: hint {hint:.4f} {unit} per decision ({n2} decisions, {w2} wins in {args.games} games); "
          f"ismcts / hint {ismcts / hint:.1f}")
    what = "equal thinking time" if args.times == 1 else f"{args.times} times the hint bot's thinking time"
    print(f"{args.variant}: {what}: about {round(args.times * args.simulations * hint / ismcts, -1):.0f} "
          "simulations for ismcts on this machine")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (nothing was written)
        sys.exit("ismcts.py: interrupted")
