"""The equilibrium player against the default hint bot in endgames, paired with seats swapped.

    python3 bench/endgame_strength.py [--endgames 2000] [--variant classic ...] [--stock 3]
                                      [--budget 20000] [--seed 0] [--jobs 2] [--json FILE]

For each two-player preset, endgame starts come from seeded games of greedy bots: the first
position of each deal (one endgame per deal, ``game_seed(seed, k)``) with at most ``--stock``
stock cards whose endgame from the public state has at most ``--budget`` positions. From each
start, the deal (its real hands and stock order) is played out twice: the ``exact`` bot
(analyzer/bots/exact.py: the endgame's equilibrium from its own view at each decision, its move
drawn from the mix) at seat 0 and the ``hint`` bot at seat 1, then the seats swapped. Per endgame
the exact bot's score is the mean of its two results (win +1, draw 0, loss -1, R20), so a bot no
better than the hint bot scores 0 on average; the script prints the mean with its 95% interval,
the wins/draws/losses of the 2N games, and, at the starts where the player to act has a choice,
the share where the equilibrium's most likely move differs from the default hint's best move.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis.advisor import advise  # noqa: E402
from analyzer.bots.game import play_game  # noqa: E402
from analyzer.bots.registry import make_bot  # noqa: E402
from analyzer.bots.simulate import game_seed  # noqa: E402
from analyzer.core.dealing import view  # noqa: E402
from analyzer.core.rules import Rules, get_rules  # noqa: E402
from analyzer.core.state import GameState, Phase  # noqa: E402
from analyzer.search.equilibrium import EndgameTooLarge, build_endgame, solve_endgame  # noqa: E402
from benchargs import whole  # noqa: E402

PRESETS = ("classic", "hoyle1897", "cooncan1913", "megajogos", "mexican", "mexican_9_10")


def two_players(name: str) -> Rules:
    rules = get_rules(name)
    return rules if rules.players == 2 else rules.with_options({"players": 2})


def endgame_start(rules: Rules, seed: int, stock: int, budget: int) -> GameState | None:
    """The first choice of the seeded greedy deal with at most ``stock`` stock cards whose
    endgame (from the public state) fits the budget, or None."""
    game = play_game(rules, ["greedy", "greedy"], seed)
    state = game.start
    for _, move in game.moves:
        if state.stock_count <= stock and state.phase in (Phase.OFFER, Phase.FORCED):
            try:
                build_endgame(view(state, state.to_act), max_nodes=budget)
                return state
            except EndgameTooLarge:
                pass
        state = state.apply(move)
    return None


def play_out(start: GameState, seats: list[str], seed: int, budget: int) -> float:
    """Player 0's result of the deal played from ``start`` by ``seats`` (each from its view)."""
    bots = [make_bot(f"exact:budget={budget}") if name == "exact" else make_bot(name) for name in seats]
    rng = random.Random(seed)
    state = start
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
            continue
        me = state.current_player()
        state = state.apply(bots[me].choose(view(state, me), rng))
    return state.returns()[0]


def one(task: tuple[str, int, int, int, int]) -> dict[str, object] | None:
    name, seed, stock, budget, k = task
    rules = two_players(name)
    start = endgame_start(rules, game_seed(seed, k), stock, budget)
    if start is None:
        return None
    a = play_out(start, ["exact", "hint"], seed * 1_000_003 + k, budget)
    b = play_out(start, ["hint", "exact"], seed * 1_000_003 + k, budget)
    differs = worse = None
    if len(start.legal_moves()) >= 2:
        mine = view(start, start.to_act)
        eq = solve_endgame(mine, max_nodes=budget)
        best_eq = max(eq.strategy, key=lambda m: (eq.strategy[m], eq.move_values[m]))
        hint = advise(mine, seed=k, time_limit=math.inf, until_decided=True).estimates[0].move
        differs = hint != best_eq
        worse = eq.move_values.get(hint, -2.0) < eq.value - 1e-3
    return {"k": k, "stock": start.stock_count, "hands": list(start.counts), "exact": [a, -b],
            "score": (a - b) / 2.0, "differs": differs, "worse": worse}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endgames", type=whole(1), default=2000)
    parser.add_argument("--variant", nargs="+", choices=PRESETS, default=list(PRESETS))
    parser.add_argument("--stock", type=whole(0), default=3)
    parser.add_argument("--budget", type=whole(1), default=20_000)
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--jobs", type=whole(1), default=2)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    out: list[dict[str, object]] = []
    for name in args.variant:
        begin = time.perf_counter()
        rows: list[dict[str, object]] = []
        tasks = [(name, args.seed, args.stock, args.budget, k) for k in range(args.endgames * 3)]
        with ProcessPoolExecutor(args.jobs) as pool:
            for row in pool.map(one, tasks, chunksize=4):
                if row is not None:
                    rows.append(row)
                if len(rows) >= args.endgames:
                    break
        rows = rows[: args.endgames]
        scores = [float(r["score"]) for r in rows]  # type: ignore[arg-type]
        games = [x for r in rows for x in r["exact"]]  # type: ignore[attr-defined]
        mean = statistics.fmean(scores) if scores else 0.0
        half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
        choices = [r for r in rows if r["differs"] is not None]
        differs = sum(1 for r in choices if r["differs"])
        worse = sum(1 for r in choices if r["worse"])
        summary = {
            "variant": name, "endgames": len(rows), "score": mean, "ci95": half,
            "won": sum(1 for g in games if g > 0), "drawn": sum(1 for g in games if g == 0),
            "lost": sum(1 for g in games if g < 0), "choices": len(choices), "differs": differs,
            "worse": worse,
            "seconds": time.perf_counter() - begin, "stock": args.stock, "budget": args.budget,
        }  # fmt: skip
        out.append(summary)
        print(
            f"{name}: {len(rows)} endgames (stock <= {args.stock}, <= {args.budget:,} positions): "
            f"exact against hint {mean:+.3f} ± {half:.3f} per endgame (seats swapped); exact's "
            f"games won {summary['won']}, drawn {summary['drawn']}, lost {summary['lost']}; at "
            f"the {len(choices)} starts with a choice the hint's move is not the equilibrium's at "
            f"{differs}, and worth less than the hand's value (by 0.001 or more) at {worse}; "
            f"{summary['seconds']:.0f} s",
            flush=True,
        )
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
