"""Time and answer of ``conquian solve`` with the stock order unknown, this tree against a revision.

    python3 bench/solve_anytime.py [--position examples/positions/forcing.json] [--against REV]
                                   [--rounds 1] [--all-moves]
    python3 bench/solve_anytime.py --midgame 20 [--variant classic] [--prove 10000 200000]

Runs ``conquian solve POSITION --json`` (and with ``--all-moves`` also ``solve --all-moves``) in a
fresh process, for this tree and, with ``--against REV``, for git revision ``REV`` (its
``analyzer/`` and ``cli/`` extracted to a temporary directory), in the order A B B A ... for
``--rounds`` rounds.  Prints per run the wall and CPU seconds of the process and the answer: the
best move, proven or not, what stopped the search, and each move's value for the player to act
(with its 95% interval where estimated).  CPU seconds count this process alone; on a shared
machine the wall clock also counts the time other work holds the core.

With ``--midgame N``: ``solve``'s default answer (``solve_anytime``) on N seeded mid-game
positions of greedy bots (every hand known, the stock order hidden; bench/hint.py's positions), once
per ``--prove`` budget, in this process: the share of the moves proven (their exact expectimax
finished within the budget) and the median and max seconds per position.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNER = (
    "import sys; root = sys.argv.pop(1)\n"
    "if root:\n"
    "    sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' not in repr(f)]\n"
    "    sys.path.insert(0, root)\n"
    "from cli.main import main; sys.exit(main())"
)


def extract(rev: str, into: Path) -> Path:
    """``analyzer/`` and ``cli/`` of git revision ``rev`` under ``into``."""
    blob = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "analyzer", "cli"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    return into


def run(root: str, args: list[str]) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds, JSON answer) of ``conquian ARGS`` with the code under ``root``
    ("" for this tree)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, root, *args], capture_output=True, text=True, cwd=ROOT
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return wall, cpu, json.loads(proc.stdout)


def answer_text(data: dict, all_moves: bool) -> str:
    """The answer in one line: best move, proof, what stopped it, each move's value."""
    if all_moves or "moves" in data:
        me = data.get("to_act", data.get("bounds", {}).get("player"))
        parts = []
        for m in data["moves"]:
            value = m.get("value", m["values"][me])
            ci = m.get("ci95")
            how = "proven" if m["proven"] else (f"[{ci[0]:+.2f},{ci[1]:+.2f}]" if ci else "unproven")
            parts.append(f"{m['move']} {value:+.3f} {how}")
        best = data["moves"][0]["move"]
        return f"best {best}; proven {data['proven']}; stopped_by {data.get('stopped_by')}; " + "; ".join(parts)
    best = data["pv"][0] if data["pv"] else "-"
    return (
        f"best {best}; proven {data['proven']}; stopped_by {data['stopped_by']}; "
        f"values {data['values']}; bounds {data['bounds']['lower']:+.2f}..{data['bounds']['upper']:+.2f}"
    )


def midgame(count: int, variant: str, budgets: list[int], time_limit: float) -> None:
    """Proven share and time of solve_anytime on ``count`` mid-game positions per budget."""
    import statistics

    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from hint import mid_game

    from analyzer.bots.simulate import game_seed
    from analyzer.core.plain import dump_position
    from analyzer.formats.position import load_position
    from analyzer.search.anytime import solve_anytime

    positions = []
    k = 0
    while len(positions) < count:
        state = mid_game(game_seed(0, k), variant, full=True)
        k += 1
        if state is not None:
            data = dump_position(state)
            data["stock"] = len(data["stock"])  # the order hidden: what solve samples
            positions.append(load_position(data))
    for budget in budgets:
        proven = moves = cut = 0
        seconds = []
        for state in positions:
            start = time.perf_counter()
            result = solve_anytime(state, prove=budget, time_limit=time_limit)
            seconds.append(time.perf_counter() - start)
            cut += result.stopped_by is not None
            proven += sum(m.proven for m in result.moves)
            moves += len(result.moves)
        print(f"{variant} prove {budget:>9,}: {proven}/{moves} moves proven ({proven / moves:.0%}), "
              f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s "
              f"per position, {cut} cut by the {time_limit:g} s limit ({count} positions)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--position", default="examples/positions/forcing.json")
    parser.add_argument("--against", metavar="REV", help="also run the code of this git revision")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--all-moves", action="store_true", help="also time solve --all-moves")
    parser.add_argument("--midgame", type=int, metavar="N", help="N mid-game positions, in process")
    parser.add_argument("--variant", default="classic", choices=["classic", "megajogos"])
    parser.add_argument("--prove", type=int, nargs="+", default=[10_000, 200_000])
    parser.add_argument("--time-limit", type=float, default=15.0, help="with --midgame: solve's cap (s)")
    parser.add_argument("extra", nargs="*", help="more options for solve (after --)")
    opts = parser.parse_args()
    if opts.midgame:
        midgame(opts.midgame, opts.variant, opts.prove, opts.time_limit)
        return
    commands = [["solve", opts.position, "--json", *opts.extra]]
    if opts.all_moves:
        commands.append(["solve", opts.position, "--all-moves", "--json", *opts.extra])
    with tempfile.TemporaryDirectory() as tmp:
        trees = [("this tree", "")]
        if opts.against:
            trees.append((opts.against, str(extract(opts.against, Path(tmp)))))
        order = []
        for r in range(opts.rounds):
            order.extend(trees if r % 2 == 0 else trees[::-1])
        for name, root in order:
            for args in commands:
                wall, cpu, data = run(root, args)
                label = "solve --all-moves" if "--all-moves" in args else "solve"
                print(f"{name:>12} | {label:<17} | wall {wall:6.2f} s | cpu {cpu:6.2f} s | "
                      f"{answer_text(data, '--all-moves' in args)}")  # fmt: skip


if __name__ == "__main__":
    main()
