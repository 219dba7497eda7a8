"""Strength: the hint bot against the greedy bot, seats swapped, win rates with 95% intervals.

    python3 bench/strength.py [--classic 2000] [--megajogos 1000] [--jobs 2] [--seed 0]

classic: hint against greedy with the seats alternating each game;
megajogos: one hint bot against two greedy bots, rotating seats.  The hint
bot uses its bot settings (analyzer.bots.HintBot: 16 deals, 0.5 s, 2,000
positions per solve), lighter than the interactive defaults.  Target: the hint
bot wins clearly more than half of the decided classic games.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.simulate import Summary, simulate, wilson  # noqa: E402


def run(variant: str, bots: list[str], games: int, seed: int, jobs: int) -> None:
    if games <= 0:
        return
    summary = Summary(len(bots))
    start = time.perf_counter()
    for k, result in enumerate(simulate(variant, bots, games, seed, jobs=jobs, rotate=True), 1):
        summary.add(result)
        if k % 100 == 0:
            print(f"  {variant}: {k}/{games} games, {time.perf_counter() - start:.0f} s", flush=True)
    hint_games = summary.seats_by_bot["hint"]
    wins = summary.wins_by_bot["hint"]
    decided = summary.games - summary.draws
    low, high = wilson(wins, hint_games)
    print(f"{variant}: {summary.games} games, bots {bots} rotating, {time.perf_counter() - start:.0f} s")
    print(f"  hint wins {wins}/{hint_games} = {wins / hint_games:.3f} (95% {low:.3f}-{high:.3f})")
    for name, count in summary.wins_by_bot.items():
        seats = summary.seats_by_bot[name]
        lo, hi = wilson(count, seats)
        print(f"  {name}: {count} wins in {seats} seat-games ({count / seats:.3f}, 95% {lo:.3f}-{hi:.3f})")
    print(f"  draws {summary.draws} ({summary.draws / summary.games:.3f})")
    if decided:
        lo, hi = wilson(wins, decided)
        print(f"  hint share of decided games: {wins}/{decided} = {wins / decided:.3f} (95% {lo:.3f}-{hi:.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classic", type=int, default=2000)
    parser.add_argument("--megajogos", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    run("classic", ["hint", "greedy"], args.classic, args.seed, args.jobs)
    run("megajogos", ["hint", "greedy", "greedy"], args.megajogos, args.seed, args.jobs)


if __name__ == "__main__":
    main()
