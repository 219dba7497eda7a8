"""Time the three meld solvers on random card sets and check that they agree.

For each of ``--cases`` seeded random sets of 8-20 cards this times

- ``cpsat``: :func:`analyzer.solver.partition.solve_arrangement` (CP-SAT),
- ``exact``: :func:`analyzer.core.melds.max_melded` (the engine's fast exact path;
  its memo is cleared before every case so that no case reuses another's work),
- ``reference``: ``ref_max_melded`` of ``tests/reference.py`` (brute force),

checks that all three find the same number of melded cards (exit status 1
on any disagreement, or if CP-SAT does not prove optimality) and prints the
median, 95th percentile and maximum time of each solver in milliseconds.

Usage::

    python bench/melds.py [--cases 1000] [--seed 2026] [--variant classic]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from analyzer.core import melds as melds_module  # noqa: E402
from analyzer.core.cards import format_mask, mask_of  # noqa: E402
from analyzer.solver.partition import solve_arrangement  # noqa: E402
from analyzer.core.rules import get_rules  # noqa: E402
from benchargs import variant, whole  # noqa: E402
from tests.reference import ref_max_melded  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0-100) of ``values``."""
    ordered = sorted(values)
    k = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return ordered[k]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=whole(1), default=1000, help="number of card sets (1000)")
    parser.add_argument("--seed", type=whole(0), default=2026, help="random seed (2026)")
    parser.add_argument(
        "--variant", type=variant, default="classic", help="rules preset: classic or megajogos (classic)"
    )
    args = parser.parse_args(argv)
    rules = get_rules(args.variant)
    rng = random.Random(args.seed)
    cases = [rng.sample(range(40), rng.randint(8, 20)) for _ in range(args.cases)]

    # Warm-up (not timed): loads OR-Tools and builds the catalogs.
    solve_arrangement(mask_of(cases[0]) if cases else 0, rules)
    melds_module.max_melded(0, rules)

    times: dict[str, list[float]] = {"cpsat": [], "exact": [], "reference": []}
    disagreements = 0
    for number, cards in enumerate(cases):
        mask = mask_of(cards)

        t0 = time.perf_counter()
        arrangement = solve_arrangement(mask, rules)
        t1 = time.perf_counter()
        times["cpsat"].append((t1 - t0) * 1000)

        melds_module._max_melded.cache_clear()
        t0 = time.perf_counter()
        exact = melds_module.max_melded(mask, rules)
        t1 = time.perf_counter()
        times["exact"].append((t1 - t0) * 1000)

        t0 = time.perf_counter()
        reference = ref_max_melded(cards, rules.max_run, set())
        t1 = time.perf_counter()
        times["reference"].append((t1 - t0) * 1000)

        cpsat = arrangement.melded if arrangement.feasible else -1
        if not (cpsat == exact == reference) or not arrangement.optimal:
            disagreements += 1
            print(
                f"DISAGREEMENT case {number} [{format_mask(mask)}]: cpsat={cpsat} "
                f"(optimal={arrangement.optimal}) exact={exact} reference={reference}",
                file=sys.stderr,
            )

    sizes = [len(c) for c in cases]
    print(
        f"variant {rules.name}, seed {args.seed}, {len(cases)} cases of "
        f"{min(sizes, default=0)}-{max(sizes, default=0)} cards"
    )
    print(f"{'solver':<10} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}")
    for name, values in times.items():
        if not values:
            continue
        print(
            f"{name:<10} {statistics.median(values):>10.3f} "
            f"{percentile(values, 95):>10.3f} {max(values):>10.3f}"
        )
    if disagreements:
        print(f"{disagreements} disagreement(s)", file=sys.stderr)
        return 1
    print(f"all {len(cases)} cases agree")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (nothing was written)
        sys.exit("melds.py: interrupted")
