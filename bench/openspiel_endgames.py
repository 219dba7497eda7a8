"""Equilibrium endgames held to OpenSpiel's solvers, endgame by endgame (the ``openspiel`` extra).

    python3 bench/openspiel_endgames.py [--endgames 10] [--variants classic,mexican] [--max 400]
                                        [--iterations 100] [--seed 0] [--json FILE] [--force]

For each two-player preset (bench/equilibrium.py's), ``--endgames`` endgames from seeded deals of
greedy bots: per deal, the latest first offer of a turned card (R10) whose player has a choice
and whose endgame from his view has 30 to ``--max`` positions.  Each endgame is loaded as
OpenSpiel's game ``python_conquian_endgame`` (analyzer/interop/openspiel_endgame.py), and:

- our equilibrium (the sequence-form LP, both players) as an OpenSpiel policy: its value by
  OpenSpiel's ``policy_value`` against ours (must be equal, to 1e-6) and its exploitability by
  OpenSpiel's ``exploitability`` (must be at most 1e-6);
- OpenSpiel's own CFR+ for ``--iterations``: its value must be within twice its own
  exploitability (plus 1e-6) of ours.

Prints one row per endgame and, per preset and in all, how many agree on all three counts.
Exit status 1 when any disagrees.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchargs import check_json_path, whole  # noqa: E402
from equilibrium import PRESETS, turns, two_players, variants  # noqa: E402

from analyzer.bots.simulate import game_seed  # noqa: E402
from analyzer.core.state import GameState  # noqa: E402
from analyzer.search.equilibrium import EndgameTooLarge, build_endgame  # noqa: E402

TOLERANCE = 1e-6
"""How far OpenSpiel's evaluation of our equilibrium may be from ours."""


def endgames(name: str, count: int, most: int, seed: int) -> list[tuple[int, GameState]]:
    """Up to ``count`` endgames of ``name`` (module docstring), with their deal's seed."""
    rules = two_players(name)
    found: list[tuple[int, GameState]] = []
    for k in range(50 * count):
        deal = game_seed(seed, k)
        for mine in turns(rules, deal):
            if len(mine.legal_moves()) < 2:
                continue
            try:
                size = build_endgame(mine, max_nodes=most).nodes
            except EndgameTooLarge:
                break  # the earlier offers of this deal are larger still
            if size >= 30:
                found.append((deal, mine))
                break
        if len(found) >= count:
            break
    return found


def check(mine: GameState, most: int, iterations: int) -> dict[str, Any]:
    """One endgame checked by OpenSpiel (module docstring)."""
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    from analyzer.interop.openspiel_endgame import equilibrium_policy

    start = time.perf_counter()
    game, ours, value = equilibrium_policy(mine, most)
    theirs = expected_game_score.policy_value(game.new_initial_state(), [ours, ours])[0]
    exploit = exploitability.exploitability(game, ours)
    solver = cfr.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    gap = exploitability.exploitability(game, average)
    cfr_value = expected_game_score.policy_value(game.new_initial_state(), [average, average])[0]
    agree = abs(theirs - value) <= TOLERANCE and exploit <= TOLERANCE and abs(cfr_value - value) <= 2 * gap + TOLERANCE
    return {
        "value": float(value), "policy_value": float(theirs), "exploitability": float(exploit),
        "cfr_value": float(cfr_value), "cfr_exploitability": float(gap), "agree": bool(agree),
        "seconds": time.perf_counter() - start,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endgames", type=whole(1), default=10, help="endgames per preset (default 10)")
    parser.add_argument("--variants", type=variants, default=list(PRESETS), help="comma-separated presets")
    parser.add_argument("--max", type=whole(30), default=400, help="most positions of an endgame (default 400)")
    parser.add_argument("--iterations", type=whole(1), default=100, help="OpenSpiel's CFR+ iterations (default 100)")
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--json", type=Path, default=None, help="write every row to this file")
    parser.add_argument("--force", action="store_true", help="replace the --json file")
    args = parser.parse_args()
    check_json_path(parser, args.json, args.force)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        parser.error("OpenSpiel is not installed: pip install -e '.[openspiel]'")
    print(f"{'preset':<13}{'seed':>8}{'stock':>6}{'positions':>10}{'value':>10}{'|OS - ours|':>12}{'OS exploit':>11}{'OS CFR+':>10}{'its gap':>9}  agree")
    rows: list[dict[str, Any]] = []
    for name in args.variants:
        for deal, mine in endgames(name, args.endgames, args.max, args.seed):
            row = {"variant": name, "seed": deal, "stock": mine.stock_count,
                   "nodes": build_endgame(mine, max_nodes=args.max).nodes,
                   **check(mine, args.max, args.iterations)}  # fmt: skip
            rows.append(row)
            print(
                f"{name:<13}{deal % 100_000_000:>8}{row['stock']:>6}{row['nodes']:>10,}{row['value']:>+10.4f}"
                f"{abs(row['policy_value'] - row['value']):>12.1e}{row['exploitability']:>11.1e}"
                f"{row['cfr_value']:>+10.4f}{row['cfr_exploitability']:>9.1e}  {'yes' if row['agree'] else 'NO'}",
                flush=True,
            )
    print()
    for name in args.variants:
        mine_rows = [r for r in rows if r["variant"] == name]
        print(f"{name:<13} {sum(r['agree'] for r in mine_rows)} of {len(mine_rows)} endgames agree")
    agree = sum(r["agree"] for r in rows)
    print(f"{'all':<13} {agree} of {len(rows)} endgames agree (our value to {TOLERANCE:g}, our exploitability at most {TOLERANCE:g}, OpenSpiel's CFR+ within twice its gap)")
    if args.json is not None:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "rows": rows}, indent=1))
    sys.exit(0 if agree == len(rows) else 1)


if __name__ == "__main__":
    main()
