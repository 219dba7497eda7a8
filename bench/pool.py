"""Several ``bench/strength.py --json`` runs of one match pooled: the figures over all their deals.

    python3 bench/pool.py RUN.json [RUN2.json ...] [--match NAME]

Long matches are played in parts: on several seeds (``--seed``), or a run
stopped for time and continued (``--first K``).  This script adds the parts
up and prints, over all their deals, each bot's wins in its seats with a 95%
Wilson interval, the draws, and for the first two bots of the seats (the new
and the old bot of a head-to-head match, or the two players of ``classic``)
the share of the deals that one of the two won which the first one took,
with its interval.  Parts must be the same match with the same bots; two
parts covering the same deals of the same seed are refused (a deal would
count twice); deals of a seed left out between or before the parts are
pointed out on standard error (a part forgotten?).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.search.stats import wilson
from bench.paired import load  # one reader of strength.py JSON for both scripts


def _ranges(numbers: list[int]) -> str:
    """``[0, 1, 2, 5]`` as ``"0-2, 5"`` (sorted numbers)."""
    out: list[str] = []
    for k in numbers:
        if out and k == last + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{k}"
        else:
            out.append(str(k))
        last = k
    return ", ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="strength.py --json files, one part each")
    parser.add_argument("--match", help="the match to pool when a file holds several")
    args = parser.parse_args()
    runs = [load(path, args.match) for path in args.files]
    first = runs[0]
    bots = list(dict.fromkeys(first["seats"]))  # type: ignore[call-overload]
    seen: dict[int, set[int]] = {}
    winners: list[str | None] = []
    for path, run in zip(args.files, runs, strict=True):
        if not run["winners"]:
            # A run stopped before its first deal (strength.py writes it): nothing to pool.
            print(f"pool.py: note: {path} holds no deals", file=sys.stderr)
            continue
        if run["match"] != first["match"] or sorted(run["seats"]) != sorted(first["seats"]):  # type: ignore[call-overload]
            sys.exit(f"pool.py: {path} is another match or other bots than {args.files[0]}")
        seed = int(run.get("seed", 0))  # type: ignore[call-overload]
        start = int(run.get("first", 0))  # type: ignore[call-overload]
        deals = set(range(start, start + len(run["winners"])))  # type: ignore[arg-type]
        if seen.get(seed, set()) & deals:
            sys.exit(f"pool.py: {path} repeats deals of seed {seed} already pooled")
        seen.setdefault(seed, set()).update(deals)
        winners += run["winners"]  # type: ignore[arg-type]
    for seed, deals in sorted(seen.items()):
        gaps = _ranges(sorted(set(range(max(deals) + 1)) - deals))
        if gaps:
            # Not an error (any deals may be pooled), but usually a part left out by mistake.
            print(f"pool.py: note: seed {seed} has no deals {gaps} (a part missing?)", file=sys.stderr)
    n = len(winners)
    if not n:
        sys.exit("pool.py: no deals to pool")
    parts = ", ".join(f"{len(d)} of seed {s}" for s, d in sorted(seen.items()))
    print(f"{first['match']}: {n} deals ({parts}), seats {first['seats']} rotating")
    for bot in bots:
        per_seat = n * list(first["seats"]).count(bot)  # type: ignore[call-overload]
        won = winners.count(bot)
        low, high = wilson(won, per_seat)
        print(f"    {bot:<28} wins {won}/{per_seat} = {won / max(1, per_seat):.1%} ({low:.1%}-{high:.1%})")
    print(f"    draws {winners.count(None)} ({winners.count(None) / max(1, n):.1%})")
    if len(bots) >= 2:
        a, b = bots[0], bots[1]
        won_a, won_b = winners.count(a), winners.count(b)
        low, high = wilson(won_a, won_a + won_b)
        print(
            f"    {a} took {won_a} of the {won_a + won_b} deals that {a} or {b} won: "
            f"{won_a / max(1, won_a + won_b):.1%} ({low:.1%}-{high:.1%})"
        )


if __name__ == "__main__":
    main()
