"""The native core against the Python engine over a million tree nodes per preset.

Plays seeded random deals and compares, position by position, the legal moves (in order), the
position after every move, the forced runs, the views and the meld counts of both cores
(:func:`analyzer.core.crosscheck.crosscheck`; the test suite runs the same over 100,000 nodes per
preset).  Prints the nodes compared and the mismatches found; exit status 1 on any mismatch.

Usage::

    python bench/differential.py [--nodes 1000000] [--seed 0] [--variant classic --variant megajogos]
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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
