"""Mined puzzles: check every one shipped in examples/puzzles/mined/, or mine the set again.

    python3 bench/mined_puzzles.py                  # check them all, print the time
    python3 bench/mined_puzzles.py --mine DIR       # mine the set again into DIR, timed

Checking solves each puzzle as ``conquian puzzle FILE`` does (every legal move solved exactly,
the stored answer and line compared) and prints the puzzles checked, the seconds in all and the
slowest puzzle; exit 1 when one is wrong or not proven.  ``--mine DIR`` runs the commands of
:data:`SETS` (one ``conquian puzzle --mine`` per folder, docs/puzzle-format.md, Mined puzzles)
into ``DIR`` (new or empty), prints each set's puzzles per minute, and whether the files are
byte for byte the shipped ones (they are, on any machine: mining is bounded by positions, never
by the clock).  ``--mine examples/puzzles/mined`` (after removing it) regenerates the set.
The process is pinned to one CPU where the system allows it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchargs import count  # noqa: E402

from analyzer.analysis.puzzles import check_puzzle, read_puzzle, solve_puzzle  # noqa: E402

SHIPPED = ROOT / "examples" / "puzzles" / "mined"

COMMON = ["--mine", "--bots", "hint", "--games", "400", "--count", "30", "--max-stock", "12"]
"""The options every set is mined with: self-play between ``hint`` bots, at most 30 puzzles
from at most 400 deals, positions with at most 12 stock cards."""

SETS: dict[str, list[str]] = {
    "classic": ["--variant", "classic", "--seed", "11"],
    "megajogos-2p": ["--variant", "megajogos", "--players", "2", "--seed", "12"],
    "megajogos": ["--variant", "megajogos", "--seed", "13", "--min-plies", "2"],
    "megajogos-4p": ["--variant", "megajogos", "--players", "4", "--seed", "14", "--min-plies", "2"],
    "mexican": ["--variant", "mexican", "--seed", "15", "--min-plies", "2"],
    "mexican_9_10": ["--variant", "mexican_9_10", "--seed", "16", "--min-plies", "2"],
    "hoyle1897": ["--variant", "hoyle1897", "--seed", "17"],
    "cooncan1913": ["--variant", "cooncan1913", "--seed", "18"],
}
"""Each folder of examples/puzzles/mined/ and its own options: with three or four players and in
the Mexican presets at least two plies (most of their first puzzles go out at once)."""

CONQUIAN = [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())"]


def check(folder: Path) -> int:
    """Check every puzzle under ``folder``; the exit code (1 when one is wrong or not proven)."""
    paths = sorted(folder.rglob("*.json"))
    if not paths:
        print(f"no puzzles under {folder}", file=sys.stderr)
        return 2
    wrong: list[str] = []
    slowest = (0.0, "")
    start = time.perf_counter()
    for path in paths:
        began = time.perf_counter()
        puzzle = read_puzzle(path)
        found = solve_puzzle(puzzle)
        if not found["proven"] or check_puzzle(puzzle, found):
            wrong.append(str(path.relative_to(folder)))
        slowest = max(slowest, (time.perf_counter() - began, str(path.relative_to(folder))))
    seconds = time.perf_counter() - start
    print(
        f"Checked {count(len(paths), 'mined puzzle')} in {seconds:.1f} s "
        f"({seconds / len(paths) * 1000:.0f} ms each on average; slowest {slowest[1]}, {slowest[0]:.2f} s)."
    )
    if wrong:
        print(f"WRONG or not proven: {', '.join(wrong)}")
        return 1
    return 0


def mine(target: Path) -> int:
    """Mine every set of :data:`SETS` into ``target``; the exit code."""
    if target.exists() and any(target.iterdir()):
        print(f"{target} is not empty: give a new or empty directory", file=sys.stderr)
        return 2
    target.mkdir(parents=True, exist_ok=True)
    total, seconds = 0, 0.0
    for name, options in SETS.items():
        command = [*CONQUIAN, "puzzle", *COMMON, *options, "--out", str(target / name)]
        began = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        spent = time.perf_counter() - began
        if done.returncode:
            print(f"{name}: {done.stderr.strip()}", file=sys.stderr)
            return 1
        made = len(list((target / name).glob("*.json")))
        total, seconds = total + made, seconds + spent
        print(f"{name}: {count(made, 'puzzle')} in {spent:.1f} s ({made / spent * 60:.0f} per minute)")
    print(f"In all: {count(total, 'puzzle')} in {seconds:.1f} s ({total / seconds * 60:.0f} per minute).")
    if target.resolve() != SHIPPED.resolve():
        same = all(
            (SHIPPED / p.relative_to(target)).is_file()
            and (SHIPPED / p.relative_to(target)).read_bytes() == p.read_bytes()
            for p in target.rglob("*.json")
        )
        shipped = len(list(SHIPPED.rglob("*.json")))
        print(
            "The files are the shipped ones, byte for byte."
            if same and shipped == total
            else "The files differ from the shipped ones."
        )
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mine", metavar="DIR", help="mine the set again into DIR (new or empty)")
    parser.add_argument("--folder", default=str(SHIPPED), help="the puzzles to check (default: the shipped set)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    sys.exit(mine(Path(args.mine)) if args.mine else check(Path(args.folder)))


if __name__ == "__main__":
    main()
