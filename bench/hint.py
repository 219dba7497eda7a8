"""The default hint on 50 seeded mid-game positions: its time, its verdicts, and whether two
seeds that both call the verdict clear agree on the best move.

    python3 bench/hint.py [--positions 50] [--seed 0] [--variant classic] [--seeds 2]
                          [--rule anytime|ttest] [--command]

Each position comes from a seeded deal of greedy bots (``classic`` by default;
``megajogos`` answers with the ``v3`` engine, ``classic`` with ``v2``), at the first
decision with three or more legal moves once eight cards have left the stock,
seen by the player to act.
The hint runs as ``conquian hint`` does by default: it samples in seeded batches until its
verdict is settled (``until_decided``; IS-MCTS in independent searches), with no time limit,
so each answer is the same on any machine.  Prints the median, p90 and max time per hint
(wall clock, and the CPU time of this process, which does not grow when other work shares the
cores), the deals sampled, the share of ``clear`` verdicts, the share *decided* (the verdict names
a best move, ``clear`` or ``narrow``, or is ``only``, or ``close`` with the moves left within the
margin: not stopped by the cap of deals), and over the positions where every seed's verdict names
a best move, how often the seeds name the same one (goal: always).  ``--rule`` picks the verdict's
rule (``analyzer.analysis.verdict.RULES``; bench/verdict.py sets the two side by side).

With ``--command`` each hint is the whole command, ``conquian hint FILE --seed S --json`` in a
new process (start-up included), timed by the wall clock and by the CPU time of that process.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis.advisor import advise  # noqa: E402
from analyzer.analysis.engines import MCTS_SEARCHES  # noqa: E402
from analyzer.analysis.verdict import DEFAULT_RULE, RULES  # noqa: E402
from analyzer.core.dealing import view  # noqa: E402
from analyzer.core.state import dump_position  # noqa: E402
from analyzer.core.rules import get_rules  # noqa: E402
from analyzer.bots.simulate import game_seed, play_game  # noqa: E402
from analyzer.core.state import GameState, Phase  # noqa: E402
from benchargs import variant, whole  # noqa: E402


CONQUIAN = str(Path(sys.executable).with_name("conquian"))
"""The command of this environment (its virtual environment's script), activated or not."""


def mid_game(seed: int, variant: str = "classic", full: bool = False) -> GameState | None:
    """The first decision with three or more legal moves once eight cards have left the stock,
    in a seeded deal of greedy bots, seen by the player to act (``full``: every card known)."""
    players = get_rules(variant).players
    result = play_game(variant, ["greedy"] * players, seed)
    state = result.start
    for _, move in result.moves:
        if state.stock_count <= 12 and state.phase in (Phase.OFFER, Phase.FORCED):
            if len(state.legal_moves()) >= 3:
                return state if full else view(state, state.to_act)
        state = state.apply(move)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=whole(1), default=50)
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--seeds", type=whole(1), default=2, help="hint seeds per position")
    parser.add_argument("--variant", type=variant, default="classic")
    parser.add_argument("--rule", choices=RULES, default=DEFAULT_RULE, help="the verdict's rule")
    parser.add_argument("--command", action="store_true", help="time the whole command in a new process")
    args = parser.parse_args()
    if args.command and args.rule != DEFAULT_RULE:
        parser.error(f"--command runs the command, whose rule is {DEFAULT_RULE}")
    stops: list[str] = []
    folder = tempfile.mkdtemp(prefix="hint-bench-")
    times: list[float] = []
    cpu: list[float] = []
    samples: list[int] = []
    moves: list[int] = []
    engines: set[str] = set()
    verdicts: list[str] = []
    both_clear = agree = 0
    positions = k = 0
    try:
        while positions < args.positions:
            state = mid_game(game_seed(args.seed, k), args.variant)
            k += 1
            if state is None:
                continue
            answers = []
            for s in range(args.seeds):
                if args.command:
                    path = Path(folder) / f"{k}.json"
                    path.write_text(json.dumps(dump_position(state)), encoding="utf-8")
                    start = time.perf_counter()
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    out = subprocess.run(
                        [CONQUIAN, "hint", str(path), "--seed", str(1000 * k + s), "--json"],
                        capture_output=True, text=True, check=True, env=os.environ,
                    )  # fmt: skip
                    times.append(time.perf_counter() - start)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
                    data = json.loads(out.stdout)
                    samples.append(data["samples"])
                    engines.add(data["engine"])
                    moves.append(len(data["moves"]))
                    verdicts.append(data["verdict"])
                    stops.append(data["stopped_by"])
                    answers.append((data["verdict"], data["moves"][0]["move"]))
                    continue
                start, start_cpu = time.perf_counter(), time.process_time()
                advice = advise(
                    state, seed=1000 * k + s, time_limit=math.inf, until_decided=True,
                    searches=MCTS_SEARCHES, rule=args.rule,
                )  # fmt: skip
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                samples.append(advice.samples)
                engines.add(advice.engine)
                moves.append(len(advice.estimates))
                verdicts.append(advice.verdict)
                stops.append(advice.stopped_by)
                answers.append((advice.verdict, advice.estimates[0].move))
            positions += 1
            if all(v in ("clear", "narrow") for v, _ in answers):
                both_clear += 1
                agree += len({m for _, m in answers}) == 1
    except KeyboardInterrupt:  # Ctrl-C: the positions timed so far are reported
        if not times:
            raise
        print(f"hint.py: interrupted; the {positions} positions done so far follow", file=sys.stderr)
    print(f"{positions} mid-game {args.variant} positions, {args.seeds} seeds each, default settings")
    for name, values in (("wall", times), ("cpu", cpu)):
        print(
            f"{name:4s} median {statistics.median(values):.2f} s, "
            f"p90 {sorted(values)[int(0.9 * len(values))]:.2f} s, max {max(values):.2f} s"
        )
    print(
        f"median {statistics.median(samples):.0f} deals (v3: iterations) sampled, "
        f"median {statistics.median(moves):.0f} candidate moves; engine {', '.join(sorted(engines))}"
    )
    counts = {v: verdicts.count(v) for v in ("clear", "narrow", "close", "only")}
    print(
        f"verdicts ({args.rule} rule): {counts['clear']} clear, {counts['narrow']} narrow, "
        f"{counts['close']} close, {counts['only']} only ({100 * counts['clear'] / len(verdicts):.0f}% clear)"
    )
    decided = sum(
        1 for v, st in zip(verdicts, stops, strict=True) if v in ("clear", "narrow", "only") or st == "margin"
    )
    capped = stops.count("cap")
    print(
        f"decided (clear, narrow, only, or close within the margin): {decided} of {len(verdicts)} "
        f"({100 * decided / len(verdicts):.0f}%); stopped by the cap: {capped}"
    )
    print(f"positions where every seed names a best move: {both_clear}; the seeds agree on {agree} of them")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C before a position was timed: one line, no traceback
        sys.exit("hint.py: interrupted before a position was timed")
