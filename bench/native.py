"""The native core against the Python engine on the same work, in one run: ratios, not seconds.

Each row times the same work on both cores (the answers are checked equal as it goes):

- ``playouts``: seeded playouts to the end of the deal from dealt positions, with the random
  policy and the ``eager`` policy (the same games in both cores: the same moves are counted);
- ``exact``: double-dummy solves of 20 ``classic`` deals (and ``megajogos`` ones) a few turns in,
  within a budget of positions: positions per second (equal node counts);
- ``melds``: the meld-count fast path (``max_melded``) on random card sets, every cache
  cleared before each set;
- ``hint``: the default hint as ``conquian hint`` computes it (no time limit, sampling until the
  verdict is settled), in process, on mid-game positions;
- ``gin_rummy``: OpenSpiel's gin_rummy driven from Python with random moves, against the native
  core's random playouts (needs the ``bench`` extra; skipped without it).

Usage::

    python bench/native.py [--positions 20] [--playouts 200] [--seed 0] [--skip hint]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from analyzer.analysis.advisor import advise  # noqa: E402
from analyzer.analysis.engines import MCTS_SEARCHES  # noqa: E402
from analyzer.core import melds as melds_module  # noqa: E402
from analyzer.core import native  # noqa: E402
from analyzer.core.dealing import deal  # noqa: E402
from analyzer.core.rules import get_rules  # noqa: E402
from analyzer.core.state import GameState, Phase  # noqa: E402
from analyzer.search.exact import Solver  # noqa: E402
from analyzer.search.playout import playout_outcome, playout_outcomes  # noqa: E402
from benchargs import whole  # noqa: E402

AREAS = ("playouts", "exact", "melds", "hint", "gin_rummy")


def timed(core: str, work: Callable[[], Any]) -> tuple[Any, float]:
    """``work()`` on ``core``, and its seconds."""
    with native.use_core(core):  # type: ignore[arg-type]
        start = time.perf_counter()
        found = work()
        return found, time.perf_counter() - start


def both(work: Callable[[], Any]) -> tuple[float, float]:
    """Seconds of ``work`` on the Python core and on the native core; the answers must agree."""
    reference, slow = timed("python", work)
    fast_answer, fast = timed("native", work)
    if reference != fast_answer:
        raise SystemExit("native.py: the cores answered differently: a bug to report")
    return slow, fast


def mid_game(variant: str, count: int, seed: int, turns: int) -> list[GameState]:
    """Positions with a choice, after ``turns`` turned cards of seeded deals played at random."""
    out: list[GameState] = []
    k = 0
    while len(out) < count:
        rng = random.Random(seed * 1_000_003 + k)
        k += 1
        state = deal(variant, rng)
        turned = 0
        while not state.is_terminal():
            if state.is_chance_node():
                turned += 1
            moves = state.legal_moves()
            if turned >= turns and state.phase is Phase.OFFER and len(moves) > 1:
                out.append(state)
                break
            state = state.apply(moves[0] if state.is_chance_node() else rng.choice(moves))
    return out


def rate(x: float) -> str:
    """A rate to three significant figures at least: 0.198, 12.4, 49,189."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def row(area: str, what: str, unit: str, amount: float, slow: float, fast: float) -> None:
    print(f"| {area} | {what} | {rate(amount / slow)} {unit} | {rate(amount / fast)} {unit} | **{slow / fast:,.0f}x** |")


def playouts(args: argparse.Namespace) -> None:
    for variant in ("classic", "megajogos"):
        starts = [deal(variant, random.Random(args.seed + k)) for k in range(max(1, args.playouts // 50))]
        for policy in ("random", "eager"):
            # 50 playouts from each dealt position, drawn from one generator (as RolloutLeaf does).
            def work(p: str = policy) -> list[list[tuple[float, ...]]]:
                return [playout_outcomes(s, p, random.Random(k), 50) for k, s in enumerate(starts)]

            slow, fast = both(work)
            row("playouts", f"{variant}, {policy} policy, 50 per call", "deals/s", 50 * len(starts), slow, fast)


def exact(args: argparse.Namespace) -> None:
    for variant, turns, budget in (("classic", 6, 2_000_000), ("megajogos", 8, 2_000_000)):
        # Positions the search proves within the budget: the positions counted are the search's
        # own (a search cut by its budget spends its last moments in a lookahead it does not count).
        positions = []
        with native.use_core("native"):
            for p in mid_game(variant, 4 * args.positions, args.seed, turns):
                if len(positions) < args.positions and Solver(max_nodes=budget, time_limit=1e9).solve(p).proven:
                    positions.append(p)

        def work(ps: list[GameState] = positions, b: int = budget) -> list[tuple[Any, ...]]:
            out = []
            for p in ps:
                r = Solver(max_nodes=b, time_limit=1e9).solve(p)
                out.append((r.outcome, r.nodes, r.pv))
            return out

        with native.use_core("python"):
            nodes = sum(r[1] for r in work())
        slow, fast = both(work)
        row("exact", f"{len(positions)} {variant} deals {turns} turns in, each solved to the end ({nodes:,} positions)",
            "positions/s", nodes, slow, fast)  # fmt: skip


def melds(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    rules = get_rules("megajogos")
    sets = []
    for _ in range(300):
        cards = rng.sample(range(40), rng.randrange(8, 21))
        mask = 0
        for c in cards:
            mask |= 1 << c
        sets.append(mask)
    module = native.native_module()

    def work() -> list[int]:
        out = []
        for mask in sets:
            melds_module._max_melded.cache_clear()
            module.clear_caches()
            out.append(melds_module.max_melded(mask, rules))
        return out

    slow, fast = both(work)
    row("melds", f"max_melded of {len(sets)} random sets of 8-20 cards, cold", "sets/s", len(sets), slow, fast)


def hint(args: argparse.Namespace) -> None:
    for variant in ("classic", "megajogos"):
        positions = mid_game(variant, max(3, args.positions // 4), args.seed + 7, 8)

        def work(ps: list[GameState] = positions) -> list[Any]:
            out = []
            for p in ps:
                a = advise(p, seed=0, time_limit=float("inf"), until_decided=True, searches=MCTS_SEARCHES)
                out.append([(e.move, e.win, e.draw, e.diff) for e in a.estimates])
            return out

        slow, fast = both(work)
        row("hint", f"default hint, {len(positions)} mid-game {variant} positions (all of them)",
            "hints/s", len(positions), slow, fast)  # fmt: skip
        print(f"|  | seconds per hint | {slow / len(positions):.2f} s | {fast / len(positions):.3f} s |  |")


def gin_rummy(args: argparse.Namespace) -> None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        print("| gin_rummy | skipped: OpenSpiel is not installed (pip install -e \".[bench]\") | | | |")
        return
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(args.seed)
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 5.0:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            moves += 1
    spiel = moves / (time.perf_counter() - start)
    # The native core's random playouts of the same kind: 20 from each dealt position, the moves
    # counted by the native core itself.
    starts = [deal("classic", random.Random(args.seed + k)) for k in range(max(1, args.playouts // 20))]
    module = native.native_module()
    rules = native.pack_rules(starts[0].rules)
    plies = 0
    begin = time.perf_counter()
    for k, s in enumerate(starts):
        options = {"eager": False, "rng": native.rng_state(random.Random(k)), "quiet": -1, "count": 20}
        plies += module.playout(rules, native.pack_state(s), options)["plies"]
    fast = time.perf_counter() - begin
    ours = plies / fast
    print(f"| gin_rummy | OpenSpiel gin_rummy from Python against native random playouts (classic) | "
          f"{spiel:,.0f} moves/s | {ours:,.0f} moves/s | **{ours / spiel:,.0f}x** |")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=whole(4), default=20, help="positions per variant for exact (20)")
    parser.add_argument("--playouts", type=whole(50), default=1000, help="playouts per variant and policy (1,000)")
    parser.add_argument("--seed", type=whole(0), default=0, help="seed of the deals (0)")
    parser.add_argument("--skip", choices=AREAS, action="append", default=[], help="an area to leave out")
    args = parser.parse_args(argv)
    try:
        native.native_module()
    except native.CoreUnavailableError as exc:
        print(f"native.py: error: {exc}", file=sys.stderr)
        return 2
    print("| area | work | Python core | native core | ratio |")
    print("|---|---|---|---|---|")
    for area, run in (("playouts", playouts), ("exact", exact), ("melds", melds), ("hint", hint),
                      ("gin_rummy", gin_rummy)):  # fmt: skip
        if area not in args.skip:
            run(args)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
