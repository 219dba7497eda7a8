"""Double-dummy solving speed: 20 seeded classic deals from the first turn, one core.

    python3 bench/solve.py [--deals 20] [--seed 0] [--budget 5000000]

Prints, per deal, the value, positions searched and seconds; then the
median and max time and the positions per second.  Target: median < 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.position import deal  # noqa: E402
from analyzer.search import solve  # noqa: E402
from analyzer.simulate import game_seed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=5_000_000)
    args = parser.parse_args()
    times, nodes = [], []
    print(f"{'deal':>4} {'seed':>20} {'winner':>7} {'proven':>7} {'positions':>10} {'seconds':>8}")
    for k in range(args.deals):
        seed = game_seed(args.seed, k)
        state = deal("classic", seed)
        result = solve(state, max_nodes=args.budget, time_limit=600)
        times.append(result.seconds)
        nodes.append(result.nodes)
        winner = "draw" if result.winner is None else str(result.winner)
        print(f"{k:>4} {seed:>20} {winner:>7} {str(result.proven):>7} {result.nodes:>10} {result.seconds:>8.3f}")
    print(
        f"median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
        f"mean {statistics.mean(times):.3f} s; {sum(nodes) / sum(times):,.0f} positions/s"
    )


if __name__ == "__main__":
    main()
