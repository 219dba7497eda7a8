"""The hint's verdict rules head to head: the anytime rule (confidence sequences) against the
Student-t rule before, on the same mid-game positions in one run.

    python3 bench/verdict.py [--positions 100] [--variant classic] [--seed 0] [--reference 10]
                             [--command] [--json FILE] [--force]

Each position is bench/hint.py's (the first decision with three or more legal moves once eight
cards have left the stock, in a seeded deal of greedy bots, seen by the player to act), kept when
it offers two or more choices.  On it, each rule (``rule="anytime"``, the default, and
``"ttest"``) runs the default hint, sampled until its verdict is settled, with two seeds; then a
reference hint with ``--reference`` times the rule's cap, fixed, on another seed: the same
deals for both rules with ``v2`` (its cap being the larger rule's), and with ``v3`` the rule's own
search size (the anytime rule's 100 iterations, the t-test's 500), since searches of other sizes
estimate other things.  Printed per rule:

(a) the verdicts that name a best move (``clear``, and ``narrow``: best, by a small margin) which
    the reference contradicts: another move is its best, or leads the named one;
(b) the positions where both seeds name a best move, and name different ones (goal: none);
(c) the hints decided before the cap (a best move named, or the moves left within the margin);
(d) the median time of a hint in this process (CPU), and with ``--command`` the median wall time
    of the whole command, ``conquian hint FILE --seed S --json`` in a new process (the default
    rule: the command has no option for the other).

``--json FILE`` writes each position's answers.  Ctrl-C reports the positions done so far.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchargs import check_json_path, variant, whole
from hint import CONQUIAN, mid_game

from analyzer.analysis.advisor import advise
from analyzer.analysis.candidates import choices, same_choice
from analyzer.analysis.engines import (
    DECIDE_CAP,
    ENGINES,
    MCTS_SEARCH,
    MCTS_SEARCHES,
    TTEST_CAP,
    engine_for,
)
from analyzer.analysis.estimates import Advice
from analyzer.analysis.verdict import RULES
from analyzer.bots.simulate import game_seed
from analyzer.core.moves import Move
from analyzer.core.state import GameState, dump_position

CAPS = {"anytime": DECIDE_CAP, "ttest": TTEST_CAP}
NAMED = ("clear", "narrow")
"""The verdicts that name a best move."""


def reference(state: GameState, rule: str, factor: int, seed: int) -> Advice:
    """The hint with ``factor`` times the largest cap, fixed, in the rule's units of evidence."""
    engine = engine_for("auto", state.rules)
    if engine.search != "mcts":
        samples = factor * max(CAPS[r].get(engine.search, engine.samples) for r in RULES)
        return advise(state, samples=samples, seed=seed, time_limit=math.inf, rule=rule)
    samples = factor * CAPS[rule]["mcts"]
    size = MCTS_SEARCH if rule == "anytime" else ENGINES["v3"].samples // MCTS_SEARCHES
    return advise(
        state, samples=samples, seed=seed, time_limit=math.inf, rule=rule,
        searches=max(MCTS_SEARCHES, samples // size),
    )  # fmt: skip


def contradicted(state: GameState, named: Move, ref: Advice) -> bool:
    """True when the reference's best is another choice, or another move leads ``named`` (by
    the reference's paired differences: each move's lead from its best)."""
    lead = {e.move: e.diff for e in ref.estimates}  # the reference's best minus each
    mine = next(m for m in lead if same_choice(state, m, named))
    if not same_choice(state, ref.estimates[0].move, named):
        return True
    return any(lead[m] - lead[mine] < 0 for m in lead if m != mine)


def command_time(state: GameState, seed: int, folder: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``conquian hint FILE --seed S --json`` in a new process."""
    path = Path(folder) / "position.json"
    path.write_text(json.dumps(dump_position(state)), encoding="utf-8")
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [CONQUIAN, "hint", str(path), "--seed", str(seed), "--json"],
        capture_output=True, text=True, check=True, env=os.environ,
    )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return time.perf_counter() - start, cpu


def report(rows: list[dict[str, Any]], variant_name: str, commands: list[tuple[float, float]]) -> None:
    """Print (a) to (d) per rule."""
    print(f"{len(rows)} mid-game {variant_name} positions with a choice, 2 seeds each")
    for rule in RULES:
        hints = [h for row in rows for h in row[rule]["hints"]]
        named = [h for h in hints if h["verdict"] in NAMED]
        clear = [h for h in hints if h["verdict"] == "clear"]
        wrong = sum(h["contradicted"] for h in named)
        wrong_clear = sum(h["contradicted"] for h in clear)
        both = [row for row in rows if all(h["verdict"] in NAMED for h in row[rule]["hints"])]
        differ = sum(len({h["best"] for h in row[rule]["hints"]}) > 1 for row in both)
        decided = sum(h["stopped_by"] in ("verdict", "margin") for h in hints)
        cpu = statistics.median(h["cpu"] for h in hints)
        p90 = sorted(h["cpu"] for h in hints)[int(0.9 * len(hints))]
        units = statistics.median(h["samples"] for h in hints)
        print(f"rule {rule}:")
        print(
            f"  (a) a best move named in {len(named)} of {len(hints)} hints ({len(clear)} clear, "
            f"{len(named) - len(clear)} narrow); the reference contradicts {wrong} "
            f"({_share(wrong, len(named))}; of the clear ones {wrong_clear}, {_share(wrong_clear, len(clear))})"
        )
        print(
            f"  (b) both seeds name a best move at {len(both)} positions; they differ at {differ} "
            f"({_share(differ, len(rows))} of the positions)"
        )
        print(f"  (c) decided before the cap: {decided} of {len(hints)} ({_share(decided, len(hints))})")
        print(f"  (d) in process: median {cpu:.2f} s CPU, p90 {p90:.2f} s; median {units:.0f} deals (v3: iterations)")
    if commands:
        wall, cpu = (sorted(c[i] for c in commands) for i in (0, 1))
        print(
            f"the whole command (default rule), {len(commands)} runs: median {statistics.median(wall):.2f} s "
            f"wall (p90 {wall[int(0.9 * len(wall))]:.2f} s), {statistics.median(cpu):.2f} s CPU "
            f"(p90 {cpu[int(0.9 * len(cpu))]:.2f} s)"
        )


def _share(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=whole(1), default=100)
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--variant", type=variant, default="classic")
    parser.add_argument("--reference", type=whole(1), default=10, help="the reference's caps, times the rule's")
    parser.add_argument("--command", action="store_true", help="time the whole command too")
    parser.add_argument("--json", type=Path, help="write each position's answers to this new file")
    parser.add_argument("--force", action="store_true", help="--json may replace a file")
    args = parser.parse_args()
    check_json_path(parser, args.json, args.force)
    rows: list[dict[str, Any]] = []
    commands: list[tuple[float, float]] = []
    folder = tempfile.mkdtemp(prefix="verdict-bench-")
    k = 0
    try:
        while len(rows) < args.positions:
            state = mid_game(game_seed(args.seed, k), args.variant)
            k += 1
            if state is None or len(choices(state)) < 2:
                continue
            row: dict[str, Any] = {"game": k - 1}
            shared: Advice | None = None
            for rule in RULES:
                hints = []
                for s in range(2):
                    start, start_cpu = time.perf_counter(), time.process_time()
                    advice = advise(
                        state, seed=1000 * k + s, time_limit=math.inf, until_decided=True,
                        searches=MCTS_SEARCHES, rule=rule,
                    )  # fmt: skip
                    hints.append({
                        "seed": 1000 * k + s, "verdict": advice.verdict, "stopped_by": advice.stopped_by,
                        "samples": advice.samples, "move": advice.estimates[0].move,
                        "cpu": time.process_time() - start_cpu, "wall": time.perf_counter() - start,
                    })  # fmt: skip
                if shared is None or engine_for("auto", state.rules).search == "mcts":
                    shared = reference(state, rule, args.reference, 10**6 + k)
                for h in hints:
                    named = h.pop("move")
                    h["best"] = next(i for i, g in enumerate(choices(state)) if any(
                        same_choice(state, named, m) for m in g))  # fmt: skip
                    h["contradicted"] = h["verdict"] in NAMED and contradicted(state, named, shared)
                row[rule] = {"hints": hints, "reference": shared.samples}
            if args.command:
                commands.append(command_time(state, 1000 * k, folder))
                row["command"] = commands[-1]
            rows.append(row)
            print(f"  {len(rows)}/{args.positions} positions", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        if not rows:
            sys.exit("verdict.py: interrupted before a position was done")
        print(f"verdict.py: interrupted; the {len(rows)} positions done so far follow", file=sys.stderr)
    report(rows, args.variant, commands)
    if args.json is not None:
        args.json.write_text(json.dumps({"variant": args.variant, "seed": args.seed,
                                         "reference": args.reference, "positions": rows}, indent=1),
                             encoding="utf-8")  # fmt: skip


if __name__ == "__main__":
    main()
