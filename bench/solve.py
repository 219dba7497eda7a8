"""Double-dummy solving speed: seeded deals from the first turn, one core.

    python3 bench/solve.py [--deals 20] [--seed 0] [--variant classic] [--budget 5000000]
    python3 bench/solve.py --against REV [--rounds 3]     # this tree against a git revision
    python3 bench/solve.py --variant megajogos --guarantees --time-limit 10   # who can win

Prints, per deal, the winner ("?" when not proven), whether it is proven, the positions searched and
the seconds (wall and CPU); then the median and max time and the positions per
second.  Target: median < 1 s.

With ``--guarantees`` each deal is answered as ``solve --guarantees`` does (three or more
players): each player's guarantee against any play of the others (paranoid search per player,
``w``/``d``/``l``, ``?`` unproven) and the outcomes of best play they leave; a deal is proven when
every guarantee is, within ``--time-limit`` seconds for the deal.  ``--players`` deals the
variant for another player count (R8).

With ``--against REV`` the same deals are solved by this tree and by the code of
git revision ``REV`` (its ``analyzer/`` extracted to a temporary directory), each
in its own process, in the order A B B A ... for ``--rounds`` rounds so that a
machine that slows down or speeds up during the run treats both alike; it prints
each run's CPU seconds and positions, the mean positions per second of each, and
the speed-up (ratio of mean CPU seconds), and checks that both give the same
winners.  CPU seconds, not wall time: on a shared machine the wall clock also
counts the time other machines' work holds the core.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The seeds of the deals (``analyzer.bots.simulate.game_seed`` of this tree)."""
    from analyzer.bots.simulate import game_seed

    return [game_seed(seed, k) for k in range(deals)]


def solve_deals(
    root: Path, variant: str, seeds: list[int], budget: int, verbose: bool, time_limit: float = 600.0
) -> dict:
    """Solve the deals with the ``analyzer`` package found under ``root`` (only that one:
    a module it lacks is an ImportError, not this tree's module through the editable install)."""
    sys.path.insert(0, str(root))
    if root != ROOT:
        sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in repr(f)]
    from analyzer.core.dealing import deal
    from analyzer.search.exact import solve

    rows = []
    if verbose:
        print(f"{'deal':>4} {'seed':>20} {'winner':>7} {'proven':>7} {'positions':>10} {'seconds':>8} {'cpu s':>8}")
    for k, seed_k in enumerate(seeds):
        state = deal(variant, seed_k)
        cpu = time.process_time()
        result = solve(state, max_nodes=budget, time_limit=time_limit)
        cpu = time.process_time() - cpu
        # An unproven answer names no winner (result.winner is None then, as for a draw).
        winner = "?" if not result.proven else "draw" if result.winner is None else str(result.winner)
        rows.append({"winner": winner, "proven": result.proven, "positions": result.nodes,
                     "seconds": result.seconds, "cpu": cpu})  # fmt: skip
        if verbose:
            print(f"{k:>4} {seed_k:>20} {winner:>7} {result.proven!s:>7} {result.nodes:>10} "
                  f"{result.seconds:>8.3f} {cpu:>8.3f}")  # fmt: skip
    return {"rows": rows}


def summary(rows: list[dict]) -> str:
    times = [r["seconds"] for r in rows]
    cpu = sum(r["cpu"] for r in rows)
    nodes = sum(r["positions"] for r in rows)
    return (
        f"median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
        f"mean {statistics.mean(times):.3f} s; {nodes / sum(times):,.0f} positions/s "
        f"({cpu:.2f} CPU s, {nodes / cpu:,.0f} positions per CPU second)"
    )


def guarantee_deals(args: argparse.Namespace, seeds: list[int]) -> None:
    """Each deal's guarantees (``solve --guarantees``), one row per deal, then the count proven
    within ``--time-limit`` and the median and max seconds; with ``--maxn`` also solve's max-n
    search of the same position in the same time (proven, and its winner among the outcomes
    left).  ``--after N``: the position after N greedy moves (as ``conquian deal --after``)."""
    from analyzer.bots.deals import deal_position
    from analyzer.core.errors import ConquianError
    from analyzer.core.rules import get_rules
    from analyzer.search.exact import Solver
    from analyzer.search.guarantees import guarantees

    rules = get_rules(args.variant)
    rules = rules if args.players is None else rules.with_players(args.players)
    mark = {"win": "w", "draw": "d", "loss": "l", None: "?"}
    print(f"{rules.title}: {len(seeds)} deals after {args.after} greedy moves, budget {args.budget:,} "
          f"positions per player, {args.time_limit:g} s per deal")  # fmt: skip
    print(f"{'deal':>4} {'seed':>20} {'each':>6} {'left':>12} {'proven':>7} {'positions':>11} {'seconds':>8} {'cpu s':>8}"
          + (f" {'max-n':>8} {'positions':>12} {'seconds':>8} {'cpu s':>8}" if args.maxn else ""))  # fmt: skip
    rows, maxn_proven, maxn_inside = [], 0, 0
    for k, seed_k in enumerate(seeds):
        try:
            state, _ = deal_position(rules, seed=seed_k, after=args.after)
        except ConquianError:
            print(f"{k:>4} {seed_k:>20} the deal ends before {args.after} moves")
            continue
        cpu = time.process_time()
        g = guarantees(state, max_nodes=args.budget, time_limit=args.time_limit)
        cpu = time.process_time() - cpu
        each = "".join(mark[x.result] for x in g.players)
        left = ",".join("draw" if o is None else str(o) for o in g.outcomes)
        rows.append({"proven": g.proven, "positions": g.nodes, "seconds": g.seconds, "cpu": cpu, "settled": g.settled})
        line = f"{k:>4} {seed_k:>20} {each:>6} {left:>12} {g.proven!s:>7} {g.nodes:>11,} {g.seconds:>8.3f} {cpu:>8.3f}"
        if args.maxn:
            cpu = time.process_time()
            m = Solver(mode="maxn", max_nodes=args.budget, time_limit=args.time_limit).solve(state)
            cpu = time.process_time() - cpu
            won = "?" if not m.proven else "draw" if m.winner is None else str(m.winner)
            maxn_proven += m.proven
            maxn_inside += m.proven and m.winner in g.outcomes
            line += f" {won:>8} {m.nodes:>12,} {m.seconds:>8.3f} {cpu:>8.3f}"
        print(line, flush=True)
    if not rows:
        sys.exit("solve.py: every deal ended before --after moves")
    proven = sum(r["proven"] for r in rows)
    settled = sum(r["settled"] for r in rows)
    print(f"guarantees proven: {proven} of {len(rows)} deals within {args.time_limit:g} s; one outcome left in "
          f"{settled}; " + summary(rows))  # fmt: skip
    if args.maxn:
        print(f"max-n proven: {maxn_proven} of {len(rows)} within {args.time_limit:g} s; its winner among "
              f"the outcomes left: {maxn_inside} of {maxn_proven}")  # fmt: skip


def extract(rev: str, into: Path) -> Path:
    """``analyzer/`` of git revision ``rev`` into ``into``; exits with a message if unknown."""
    try:
        data = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "analyzer"],
            check=True, capture_output=True,
        ).stdout  # fmt: skip
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        sys.exit(f"solve.py: cannot read revision {rev!r}: {detail.decode().strip() or exc}")
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def run_worker(name: str, root: Path, args: argparse.Namespace) -> dict:
    """Solve the deals in a new process with the code under ``root``; exits naming ``name``
    and the worker's last error line if that code cannot run the benchmark."""
    seeds = ",".join(map(str, deal_seeds(args.seed, args.deals)))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(root),
           "--variant", args.variant, "--seeds", seeds, "--budget", str(args.budget)]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        sys.exit(f"solve.py: the code of {name} cannot run this benchmark: {lines[-1]}")
    return json.loads(done.stdout.splitlines()[-1])


def compare(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        base = extract(args.against, Path(tmp))
        trees = {"this tree": ROOT, args.against: base}
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        order = []
        for r in range(args.rounds):
            pair = ["this tree", args.against]
            order.extend(pair if r % 2 == 0 else pair[::-1])
        print(f"{args.variant}, {args.deals} deals of seed {args.seed}, budget {args.budget:,} positions; "
              f"runs in the order {', '.join(order)}")  # fmt: skip
        for name in order:
            result = run_worker(name, trees[name], args)
            rows = result["rows"]
            cpu = sum(r["cpu"] for r in rows)
            nodes = sum(r["positions"] for r in rows)
            runs[name].append({"cpu": cpu, "positions": nodes, "winners": [r["winner"] for r in rows]})
            print(f"  {name:>12}: {cpu:7.2f} CPU s, {nodes:,} positions, {nodes / cpu:,.0f} per CPU s", flush=True)
        means = {}
        for name, done in runs.items():
            cpu = statistics.mean(r["cpu"] for r in done)
            nodes = statistics.mean(r["positions"] for r in done)
            means[name] = cpu
            spread = f"{min(r['cpu'] for r in done):.2f}-{max(r['cpu'] for r in done):.2f}"
            print(f"{name:>14}: mean {cpu:.2f} CPU s ({spread}), {nodes / cpu:,.0f} positions per CPU s")
        same = runs["this tree"][0]["winners"] == runs[args.against][0]["winners"]
        print(f"speed-up: {means[args.against] / means['this tree']:.2f}x (ratio of mean CPU seconds); "
              f"same winners: {'yes' if same else 'NO'}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, help="deal the variant for this many players (R8)")
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds per deal")
    parser.add_argument("--guarantees", action="store_true",
                        help="each player's guarantee (paranoid search per player) instead of one solve")
    parser.add_argument("--after", type=int, default=0, help="with --guarantees: N greedy moves first")
    parser.add_argument("--maxn", action="store_true", help="with --guarantees: also solve's max-n search")
    parser.add_argument("--budget", type=int, default=5_000_000, help="positions per solve")
    parser.add_argument("--against", metavar="REV", help="also time git revision REV, alternating")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: runs of each")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--seeds", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.deals < 1 or args.budget < 1 or args.rounds < 1:
        parser.error("--deals, --budget and --rounds must be at least 1")
    if args.against is not None and not args.against.strip():
        parser.error("--against needs a git revision, got an empty one")
    if args.against is not None and args.against.startswith("-"):
        # Never handed to git as an option (git archive --output=FILE would write over a file).
        parser.error(f"--against {args.against!r}: a git revision cannot start with '-'")
    if args.seed < 0:
        parser.error(f"--seed must not be negative, got {args.seed}")
    if args.against is None and "--rounds" in sys.argv[1:]:
        parser.error("--rounds applies to --against REV only")
    if args.worker is not None:
        seeds = [int(s) for s in args.seeds.split(",")]
        print(json.dumps(solve_deals(args.worker, args.variant, seeds, args.budget, False)))
    elif args.against is not None:
        compare(args)
    elif args.guarantees:
        sys.path.insert(0, str(ROOT))
        guarantee_deals(args, deal_seeds(args.seed, args.deals))
    else:
        sys.path.insert(0, str(ROOT))
        if args.players is not None or args.after or args.maxn:
            parser.error("--players, --after and --maxn apply to --guarantees only")
        seeds = deal_seeds(args.seed, args.deals)
        rows = solve_deals(ROOT, args.variant, seeds, args.budget, True, args.time_limit)["rows"]
        print(summary(rows))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (nothing was written)
        sys.exit("solve.py: interrupted")
