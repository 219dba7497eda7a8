"""The native core against the Python engine over a million tree nodes per preset.

Plays seeded random deals and compares, position by position, the legal moves (in order), the
position after every move, the forced runs, the views and the meld counts of both cores
(:func:`analyzer.core.crosscheck.crosscheck`; the test suite runs the same over 100,000 nodes per
preset).  Prints the nodes compared and the mismatches found; exit status 1 on any mismatch.

With ``--hints N`` it also runs the default hint (sampling until the verdict is settled, as
``conquian hint``) on N mid-game positions per preset with each core and counts the positions
whose answers agree: the same ranking, and the same figures (win, draw, difference from the best)
to the last bit.  The cores are built to agree on every one: they sample the same deals from the
same Mersenne Twister stream and sum in the same order.

Usage::

    python bench/differential.py [--nodes 1000000] [--seed 0] [--variant classic --variant megajogos]
                                 [--hints 200]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from analyzer.core.crosscheck import crosscheck  # noqa: E402
from analyzer.core.native import CoreUnavailableError, native_module  # noqa: E402
from analyzer.core.rules import get_rules  # noqa: E402
from benchargs import variant, whole  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=whole(1), default=1_000_000, help="tree nodes per variant (1,000,000)")
    parser.add_argument("--seed", type=whole(0), default=0, help="seed of the deals and moves (0)")
    parser.add_argument("--variant", type=variant, action="append", help="a preset (both by default)")
    parser.add_argument("--hints", type=whole(0), default=0, help="mid-game positions whose hints to compare (0)")
    args = parser.parse_args(argv)
    try:
        native_module()
    except CoreUnavailableError as exc:
        print(f"differential.py: error: {exc}", file=sys.stderr)
        return 2
    failed = False
    print(f"{'variant':<10} {'nodes':>10} {'positions':>10} {'children':>10} {'deals':>7} {'mismatches':>10} {'seconds':>8}")
    for name in args.variant or ["classic", "megajogos"]:
        start = time.perf_counter()
        report = crosscheck(get_rules(name), args.nodes, seed=args.seed)
        seconds = time.perf_counter() - start
        print(f"{name:<10} {report.nodes:>10,} {report.positions:>10,} {report.children:>10,} "
              f"{report.deals:>7,} {len(report.mismatches):>10} {seconds:>8.1f}")  # fmt: skip
        for line in report.mismatches[:5]:
            print("  " + line[:400])
        failed |= bool(report.mismatches)
    if args.hints:
        print()
        print(f"{'variant':<10} {'positions':>9} {'same ranking':>12} {'same figures':>12} {'python s':>9} {'native s':>9}")
        for name in args.variant or ["classic", "megajogos"]:
            failed |= compare_hints(name, args.hints, args.seed)
    return 1 if failed else 0


def compare_hints(name: str, count: int, seed: int) -> bool:
    """Print how many of ``count`` positions get the same default hint from both cores; True
    when one differs."""
    from analyzer.analysis.advisor import advise
    from analyzer.analysis.engines import MCTS_SEARCHES
    from analyzer.core import native
    from native import mid_game

    ranking = figures = 0
    seconds = {"python": 0.0, "native": 0.0}
    positions = mid_game(name, count, seed + 101, 8)
    for k, state in enumerate(positions):
        answers = {}
        for core in ("python", "native"):
            with native.use_core(core):  # type: ignore[arg-type]
                start = time.perf_counter()
                advice = advise(state, seed=k, time_limit=float("inf"), until_decided=True,
                                searches=MCTS_SEARCHES)  # fmt: skip
                seconds[core] += time.perf_counter() - start
            answers[core] = [(e.move, e.win, e.draw, e.diff, e.diff_ci95) for e in advice.estimates]
        ranking += [a[0] for a in answers["python"]] == [a[0] for a in answers["native"]]
        figures += answers["python"] == answers["native"]
    print(f"{name:<10} {len(positions):>9} {ranking:>12} {figures:>12} {seconds['python']:>9.1f} {seconds['native']:>9.1f}")
    return figures != len(positions)


if __name__ == "__main__":
    sys.exit(main())
