"""Games per second of `simulate`'s backends on this machine, by number of workers.

    python3 bench/backends.py [--games 200] [--variant classic] [--bots greedy,greedy] [--jobs 2]

Plays the same seeded games with the local backend (1 .. --jobs processes) and the Ray backend
(a local Ray runtime with 1 .. --jobs CPUs, already running, so that its start-up is not counted;
then once more with --jobs CPUs, the runtime started and stopped by the run as `conquian simulate
--backend ray` does), checks that every run gives the same games as the first, and prints games
per second.  Needs the ray extra: pip install -e '.[ray]'.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.bots.simulate import simulate  # noqa: E402
from analyzer.core.rules import get_rules
from benchargs import checked_bots, variant, whole


def timed(label: str, reference: list[object] | None, **kwargs: object) -> list[object]:
    start = time.perf_counter()
    results = list(simulate(**kwargs))  # type: ignore[arg-type]
    seconds = time.perf_counter() - start
    games = len(results)
    same = "" if reference is None else ("  same games" if results == reference else "  DIFFERENT GAMES")
    print(f"  {label:<44} {games} games in {seconds:6.1f} s = {games / seconds:6.1f} games/s{same}", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(1), default=200)
    parser.add_argument("--variant", type=variant, default="classic")
    parser.add_argument("--bots", default="greedy,greedy")
    parser.add_argument("--jobs", type=whole(1), default=2)
    parser.add_argument("--seed", type=whole(0), default=0)
    args = parser.parse_args()
    checked_bots(parser, args.bots, seats=get_rules(args.variant).players, variant=args.variant)
    common = dict(rules=args.variant, bots=args.bots.split(","), games=args.games, seed=args.seed)
    print(
        f"{args.games} {args.variant} games, bots {args.bots}, seed {args.seed}, "
        f"{os.cpu_count()} CPUs on this machine"
    )
    reference = timed("local, 1 process", None, jobs=1, **common)
    for workers in range(2, args.jobs + 1):
        timed(f"local, {workers} processes", reference, jobs=workers, **common)
    try:
        import ray
    except ImportError:
        print("ray: skipped, the ray extra is not installed (pip install -e '.[ray]')")
        return

    for workers in range(1, args.jobs + 1):
        ray.init(address="local", num_cpus=workers, include_dashboard=False, logging_level=logging.ERROR)
        try:
            timed(f"ray, {workers} CPU(s), runtime running", reference, backend="ray", jobs=workers, **common)
        finally:
            ray.shutdown()
    timed(f"ray, {args.jobs} CPUs, runtime started by the run", reference, backend="ray", jobs=args.jobs, **common)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (nothing was written)
        sys.exit("backends.py: interrupted")
