"""Games per second of `simulate`'s backends on this machine: local processes and Ray tasks.

    python3 bench/backends.py [--games 200] [--variant classic] [--bots greedy,greedy] [--jobs 2]

Plays the same seeded games with the local backend (1 process, then --jobs processes) and the Ray
backend (a local Ray runtime with --jobs CPUs, started by the run, then already running), checks
that every backend gives the same games, and prints games per second.  Ray's start-up (a few
seconds) is counted in the first Ray figure only.  Needs the ray extra: pip install -e '.[ray]'.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.simulate import simulate  # noqa: E402


def timed(label: str, **kwargs: object) -> list[object]:
    start = time.perf_counter()
    results = list(simulate(**kwargs))  # type: ignore[arg-type]
    seconds = time.perf_counter() - start
    games = len(results)
    print(f"  {label:<42} {games} games in {seconds:6.1f} s = {games / seconds:7.1f} games/s", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--bots", default="greedy,greedy")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    common = dict(rules=args.variant, bots=args.bots.split(","), games=args.games, seed=args.seed)
    print(
        f"{args.games} {args.variant} games, bots {args.bots}, seed {args.seed}, "
        f"{os.cpu_count()} CPUs on this machine, --jobs {args.jobs}"
    )
    reference = timed("local, 1 process", **common)
    runs = {"local, %d processes" % args.jobs: timed(f"local, {args.jobs} processes", jobs=args.jobs, **common)}
    runs["ray, local runtime started by the run"] = timed(
        f"ray, {args.jobs} CPUs, runtime started by the run", backend="ray", jobs=args.jobs, **common
    )
    import ray

    ray.init(address="local", num_cpus=args.jobs, include_dashboard=False, logging_level=logging.ERROR)
    try:
        runs["ray, runtime already running"] = timed(
            f"ray, {args.jobs} CPUs, runtime already running", backend="ray", jobs=args.jobs, **common
        )
    finally:
        ray.shutdown()
    for label, results in runs.items():
        same = results == reference
        print(f"  {label}: {'same games as local, 1 process' if same else 'DIFFERENT GAMES'}")


if __name__ == "__main__":
    main()
