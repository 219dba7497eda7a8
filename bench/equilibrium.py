"""Equilibrium endgames: the sequence-form LP against the native CFR+ on the same endgames, in one run.

    python3 bench/equilibrium.py [--games 8] [--seed 0] [--variants classic,mexican]
                                 [--lp-max 300000] [--cap 5000000] [--stock 12] [--limit 10]

For each two-player preset (classic, hoyle1897, cooncan1913, and megajogos, mexican and
mexican_9_10 with two players), ``--games`` seeded deals between greedy bots are played, and
the first offer of each stock card turned is taken from the view of the player to act (one
endgame per stock count), the latest first, from ``--stock`` stock cards left.  For each
endgame, going back through the deal: the tree's size (positions, information sets, deals of
the hidden hands, by the native core), the seconds of ``solve_endgame(method="lp")`` (the
Python tree and the sequence-form LP, on the core in use; only up to ``--lp-max`` positions)
and of ``solve_endgame(method="cfr")`` (the native CFR+ to its default tolerance, 1e-4), both
end to end, and their ratio.  A deal is followed back until the CFR+ takes more than
``--limit`` seconds (the LP likewise) or two trees in a row pass ``--cap`` positions.

Prints one row per endgame, then per preset: the median ratio (LP seconds over CFR+ seconds)
on all the endgames both solved and on those of 10,000 positions or more, and, for each
method, how late in the deal it solves within 1 s and within ``--limit`` s: the most stock
cards left (with the two hand sizes there) at which it solved an endgame in that time, over
the deals, and the median over the deals of the earliest such point.  The native core must be
built.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchargs import check_json_path, positive_float, whole  # noqa: E402

from analyzer.bots.game import play_game  # noqa: E402
from analyzer.bots.simulate import game_seed  # noqa: E402
from analyzer.core import native  # noqa: E402
from analyzer.core.dealing import view  # noqa: E402
from analyzer.core.rules import Rules, get_rules  # noqa: E402
from analyzer.core.state import GameState, Phase  # noqa: E402
from analyzer.search.equilibrium import EndgameTooLarge, native_prior, solve_endgame  # noqa: E402

PRESETS = ("classic", "hoyle1897", "cooncan1913", "megajogos", "mexican", "mexican_9_10")


def two_players(name: str) -> Rules:
    rules = get_rules(name)
    return rules if rules.players == 2 else rules.with_options({"players": 2})


def variants(text: str) -> list[str]:
    """An argparse type: comma-separated presets of :data:`PRESETS`."""
    names = [n.strip() for n in text.split(",")]
    for n in names:
        if n not in PRESETS:
            raise argparse.ArgumentTypeError(f"unknown preset {n!r} (known: {', '.join(PRESETS)})")
    return names


def turns(rules: Rules, seed: int) -> list[GameState]:
    """The views of the player to act at the first offer of each stock card turned in a seeded
    greedy deal (one per stock count), the latest first."""
    game = play_game(rules, ["greedy", "greedy"], seed)
    state, found = game.start, []
    for _, move in game.moves:
        c = state.centre
        if state.phase is Phase.OFFER and c is not None and c.kind == "turned" and not c.declined:
            found.append(view(state, state.to_act))
        state = state.apply(move)
    return found[::-1]


def size(mine: GameState, cap: int) -> tuple[int, int, int] | None:
    """Positions, information sets and deals of the endgame of ``mine`` (None above ``cap``)."""
    options = {"max_nodes": cap, "prior": native_prior(None), "stop": None, "keys": False}
    found = native.native_module().equilibrium_tree(native.pack_rules(mine.rules), native.pack_state(mine), options)
    size = found["size"]
    return None if found["why"] is not None else (size["nodes"], size["infosets"], size["deals"])


def timed(mine: GameState, method: str, cap: int, limit: float) -> tuple[float, Any]:
    """Seconds of ``solve_endgame`` by ``method`` (CFR+ stopped at 3 x ``limit``) and its answer."""
    start = time.perf_counter()
    found = solve_endgame(mine, method=method, max_nodes=cap, time_limit=3 * limit)
    return time.perf_counter() - start, found


def run_deal(rules: Rules, seed: int, args: argparse.Namespace) -> list[dict[str, Any]]:
    """The endgames of one deal with at most ``--stock`` stock cards left, latest first, until
    both methods are past the limit or two endgames in a row pass ``--cap`` positions (a deal
    that ends early has a large tree at its last choice: it is skipped)."""
    rows: list[dict[str, Any]] = []
    lp_on, cfr_on, too_large = True, True, 0
    for mine in turns(rules, seed):
        if not (lp_on or cfr_on) or mine.stock_count > args.stock or too_large >= 2:
            break
        try:
            shape = size(mine, args.cap)
        except EndgameTooLarge:
            shape = None
        too_large = 0 if shape is not None else too_large + 1
        if shape is None:
            continue
        row: dict[str, Any] = {
            "variant": rules.name, "seed": seed, "stock": mine.stock_count, "hands": list(mine.counts),
            "nodes": shape[0], "infosets": shape[1], "deals": shape[2], "lp": None, "cfr": None,
        }  # fmt: skip
        if cfr_on:
            seconds, eq = timed(mine, "cfr", args.cap, args.limit)
            solved = eq.stopped_by is None
            row.update(cfr=seconds if solved else None, iterations=eq.iterations, exploitability=eq.exploitability)
            cfr_on = solved and seconds <= args.limit
        if lp_on and shape[0] <= args.lp_max:
            seconds, eq = timed(mine, "lp", args.cap, args.limit)
            row["lp"] = seconds
            lp_on = seconds <= args.limit
        else:
            lp_on = False
        rows.append(row)
    return rows


def late(rows: list[dict[str, Any]], method: str, limit: float, deals: int) -> str:
    """How late ``method`` solves within ``limit`` seconds: the most stock cards left (hands
    there) over the deals, and the median over the deals of each deal's earliest point."""
    per_deal = []
    best: dict[str, Any] | None = None
    for seed in sorted({r["seed"] for r in rows}):
        done = [r for r in rows if r["seed"] == seed and r[method] is not None and r[method] <= limit]
        if not done:
            continue
        earliest = max(done, key=lambda r: (r["stock"], sum(r["hands"])))
        per_deal.append(earliest["stock"])
        if best is None or (earliest["stock"], sum(earliest["hands"])) > (best["stock"], sum(best["hands"])):
            best = earliest
    if best is None:
        return "none"
    hands = "+".join(map(str, best["hands"]))
    return f"{best['stock']:>2} stock, hands {hands:<5} (median {statistics.median(per_deal):g} over {len(per_deal)}/{deals})"


def median_ratio(rows: list[dict[str, Any]], low: int) -> str:
    """The median of LP seconds over CFR+ seconds on the endgames of ``low`` positions or more
    that both solved."""
    both = [r["lp"] / r["cfr"] for r in rows if r["nodes"] >= low and r["lp"] is not None and r["cfr"]]
    return f"{statistics.median(both):.1f}x" if both else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(1), default=8, help="seeded deals per preset (default 8)")
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--variants", type=variants, default=list(PRESETS), help="comma-separated presets")
    parser.add_argument("--lp-max", type=whole(1), default=300_000, help="largest tree given to the LP")
    parser.add_argument("--cap", type=whole(2), default=5_000_000, help="largest tree built")
    parser.add_argument("--stock", type=whole(0), default=12, help="most stock cards left at an endgame")
    parser.add_argument("--limit", type=positive_float, default=10.0, help="seconds a deal is followed back to")
    parser.add_argument("--json", type=Path, default=None, help="write every row to this file")
    parser.add_argument("--force", action="store_true", help="replace the --json file")
    args = parser.parse_args()
    check_json_path(parser, args.json, args.force)
    if not native.ACTIVE:
        parser.error("the native core is not in use (build it: pip install -e .; CONQUIAN_CORE unset)")
    print(native.core_description())
    head = f"{'preset':<13}{'seed':>6}{'stock':>6}{'hands':>6}{'positions':>11}{'infosets':>10}{'deals':>7}{'LP s':>9}{'CFR+ s':>9}{'ratio':>8}{'iters':>7}{'exploit':>9}"
    print(head)
    rows: list[dict[str, Any]] = []
    for name in args.variants:
        rules = two_players(name)
        for k in range(args.games):
            for row in run_deal(rules, game_seed(args.seed, k), args):
                rows.append(row)
                lp = f"{row['lp']:.3f}" if row["lp"] is not None else "-"
                cfr = f"{row['cfr']:.3f}" if row["cfr"] is not None else "-"
                ratio = f"{row['lp'] / row['cfr']:.1f}" if row["lp"] is not None and row["cfr"] else "-"
                print(
                    f"{name:<13}{row['seed'] % 1_000_000:>6}{row['stock']:>6}{'+'.join(map(str, row['hands'])):>6}"
                    f"{row['nodes']:>11,}{row['infosets']:>10,}{row['deals']:>7,}{lp:>9}{cfr:>9}{ratio:>8}"
                    f"{row.get('iterations', 0):>7}{row.get('exploitability', 0.0):>9.1e}",
                    flush=True,
                )
    print()
    print(f"{'preset':<13}{'endgames':>9}{'median ratio':>13}{'(10,000+)':>11}  solved within 1 s / {args.limit:g} s: most stock left (hands), median")
    for name in args.variants:
        mine = [r for r in rows if r["variant"] == two_players(name).name]
        ratios = [median_ratio(mine, low) for low in (0, 10_000)]
        print(f"{name:<13}{len(mine):>9}{ratios[0]:>13}{ratios[1]:>11}")
        for method, label in (("lp", "LP"), ("cfr", "CFR+")):
            for limit in (1.0, args.limit):
                print(f"{'':<13}{label:>9} {limit:>4g} s  {late(mine, method, limit, args.games)}")
    if args.json is not None:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
