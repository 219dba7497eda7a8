"""What ``hint --line`` and ``hint --cards`` cost beside the hint itself, on seeded mid-game
positions.

    python3 bench/hint_extras.py [--positions 30] [--seed 0] [--variant classic]

The positions are those of ``bench/hint.py`` (a seeded deal of greedy bots, the first decision
with three or more legal moves once eight cards have left the stock, seen by the player to
act; ``classic`` is answered by ``v2``, ``megajogos`` with its three players by ``v3``).  Per
position: the hint as the command runs it (until its verdict is settled, no time limit), then
the lines of the three moves whose reasons the text shows, the lines of every move (what
``--json --line`` adds), and the card table.  Prints the median and p90 of each time and of
its ratio to the hint's own time on the same position (CPU time of this process, which does not
grow when other work shares the cores), so that the ratio is the cost of the option in one run.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis.advisor import advise  # noqa: E402
from analyzer.analysis.engines import MCTS_SEARCHES  # noqa: E402
from analyzer.analysis.lines import expected_lines  # noqa: E402
from analyzer.analysis.whereabouts import whereabouts  # noqa: E402
from benchargs import variant, whole  # noqa: E402
from hint import mid_game  # noqa: E402


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=whole(1), default=30)
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--variant", type=variant, default="classic")
    args = parser.parse_args()
    rows: dict[str, list[float]] = {"hint": [], "line 3": [], "line all": [], "cards": []}
    ratios: dict[str, list[float]] = {"line 3": [], "line all": [], "cards": []}
    moves: list[int] = []
    engine = ""
    seed = args.seed
    while len(rows["hint"]) < args.positions:
        state = mid_game(seed, args.variant)
        seed += 1
        if state is None:
            continue
        start = time.process_time()
        advice = advise(state, seed=0, time_limit=math.inf, until_decided=True, searches=MCTS_SEARCHES)
        hint = time.process_time() - start
        engine = advice.engine
        all_moves = [e.move for e in advice.estimates]
        moves.append(len(all_moves))
        times = {"hint": hint}
        start = time.process_time()
        expected_lines(state, advice, all_moves[:3])
        times["line 3"] = time.process_time() - start
        start = time.process_time()
        expected_lines(state, advice, all_moves)
        times["line all"] = time.process_time() - start
        start = time.process_time()
        whereabouts(state)
        times["cards"] = time.process_time() - start
        for key, value in times.items():
            rows[key].append(value)
            if key != "hint":
                ratios[key].append(value / max(hint, 1e-6))
    print(
        f"{args.variant}, engine {engine}: {args.positions} positions (seeds from {args.seed}), "
        f"a median of {statistics.median(moves):.0f} moves to rank"
    )
    print(f"{'':10} {'median s':>9} {'p90 s':>9} {'x hint (median)':>16} {'x hint (p90)':>13}")
    for key, values in rows.items():
        if key == "hint":
            print(f"{key:10} {statistics.median(values):9.3f} {_p90(values):9.3f}")
            continue
        print(
            f"{key:10} {statistics.median(values):9.3f} {_p90(values):9.3f} "
            f"{statistics.median(ratios[key]):16.2f} {_p90(ratios[key]):13.2f}"
        )


if __name__ == "__main__":
    main()
