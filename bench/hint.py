"""Hint time at default settings on 50 seeded mid-game positions.

    python3 bench/hint.py [--positions 50] [--seed 0] [--variant classic]

Each position comes from a seeded deal of greedy bots (``classic`` by default;
``megajogos`` answers with the ``v3`` engine, ``classic`` with ``v2``), at the first
decision with three or more legal moves once eight cards have left the stock,
seen by the player to act.
Prints the median, p90 and max time per hint (wall clock, and the CPU time of
this process, which does not grow when other work shares the cores) and the
deals sampled.  Target: median under 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis.advisor import advise  # noqa: E402
from analyzer.core.dealing import view  # noqa: E402
from analyzer.core.rules import get_rules  # noqa: E402
from analyzer.bots.simulate import game_seed, play_game  # noqa: E402
from analyzer.core.state import GameState, Phase  # noqa: E402
from benchargs import variant, whole  # noqa: E402


def mid_game(seed: int, variant: str = "classic") -> GameState | None:
    players = get_rules(variant).players
    result = play_game(variant, ["greedy"] * players, seed)
    state = result.start
    for _, move in result.moves:
        if state.stock_count <= 12 and state.phase in (Phase.OFFER, Phase.FORCED):
            if len(state.legal_moves()) >= 3:
                return view(state, state.to_act)
        state = state.apply(move)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=whole(1), default=50)
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--variant", type=variant, default="classic")
    args = parser.parse_args()
    times, cpu, samples, moves, engines = [], [], [], [], set()
    k = 0
    try:
        while len(times) < args.positions:
            state = mid_game(game_seed(args.seed, k), args.variant)
            k += 1
            if state is None:
                continue
            start, start_cpu = time.perf_counter(), time.process_time()
            advice = advise(state, seed=k)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            samples.append(advice.samples)
            engines.add(advice.engine)
            moves.append(len(advice.estimates))
    except KeyboardInterrupt:  # Ctrl-C: the positions timed so far are reported
        if not times:
            raise
        print(f"hint.py: interrupted; the {len(times)} positions timed so far follow", file=sys.stderr)
    print(f"{len(times)} mid-game {args.variant} positions, default settings")
    for name, values in (("wall", times), ("cpu", cpu)):
        print(
            f"{name:4s} median {statistics.median(values):.2f} s, "
            f"p90 {sorted(values)[int(0.9 * len(values))]:.2f} s, max {max(values):.2f} s"
        )
    print(
        f"median {statistics.median(samples):.0f} deals sampled, "
        f"median {statistics.median(moves):.0f} candidate moves; engine {', '.join(sorted(engines))}"
    )

if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C before a position was timed: one line, no traceback
        sys.exit("hint.py: interrupted before a position was timed")
