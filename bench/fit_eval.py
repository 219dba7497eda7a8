"""Fit the leaf evaluation (analyzer/evaluation.py) and report its Brier score on held-out deals.

    pip install -e ".[fit]"
    python3 bench/fit_eval.py [--variant classic] [--games 20000] [--seed 0] [--jobs 2] [--write]
                              [--records DIR ...] [--name NAME]

Plays seeded deals between greedy bots that make a uniformly random legal move
with probability --epsilon (so that the positions cover what a search visits),
keeps every position at a turn or at a fresh offer (a centre card nobody has
declined yet) with its features, labels it with the deal's result seen from the
player to act (which player wins, counted from him, or a draw), and fits a
small neural network (scikit-learn's MLPClassifier, 16 hidden units; --hidden 0 for a
multinomial logistic regression) on the positions of 80% of the
deals.  On the positions of the other 20% it prints the Brier score (the mean
over positions of the summed squared error of the class probabilities; 0 is
perfect, lower is better) of the fitted model, of the melded-card-lead
heuristic it replaces, and of the base rates.  With --write it stores the
coefficients as analyzer/data/eval-<variant>.json, the file the search loads.
The same arguments give the same file.

With ``--records DIR`` (self-play records of ``bench/selfplay.py``) the positions of those deals are
added, labelled by their results, split 80/20 by deal as the greedy deals are (``--games 0``: the
records alone); ``--name NAME`` writes ``analyzer/data/eval-<variant>-NAME.json`` instead, the
evaluation the bot option ``hint:leaf=NAME`` selects.  The held-out Brier score of the shipped
evaluation is printed beside the new one.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.bots.registry import GreedyBot  # noqa: E402
from analyzer.search.evaluation import FittedEvaluator, features, fitted_evaluator, melded_lead  # noqa: E402
from analyzer.core.dealing import deal, view  # noqa: E402
from analyzer.core.rules import get_rules  # noqa: E402
from analyzer.bots.simulate import game_seed  # noqa: E402
from analyzer.core.state import GameState  # noqa: E402
from benchargs import count, positive_float, probability, variant, whole  # noqa: E402
from selfplay import boundary, record_paths  # noqa: E402


_boundary = boundary


def record_rows(path: Path) -> list[tuple[list[float], int, list[float]]]:
    """The rows of :func:`play` from one self-play record (every boundary position of the deal)."""
    from analyzer.formats.records import replay_file

    replay = replay_file(path)
    if not replay.finished:
        return []
    n = replay.final.rules.players
    rows = []
    for s in replay.states:
        if s.is_terminal() or not _boundary(s):
            continue
        lead = melded_lead(s)
        rel = [lead[(s.to_act + k) % n] for k in range(n)] + [lead[n]]
        rows.append((features(s), FittedEvaluator.label(s.to_act, replay.final.winner, n), rel))
    return rows


def play(args: tuple[str, int, float]) -> list[tuple[list[float], int, list[float]]]:
    """One deal: (features, class, heuristic class probabilities) per boundary position."""
    variant, seed, epsilon = args
    rules = get_rules(variant)
    rng = random.Random(seed)
    state = deal(rules, rng)
    bot = GreedyBot()
    kept: list[tuple[GameState, list[float]]] = []
    while not state.is_terminal():
        if _boundary(state):
            x = features(state)
            lead = melded_lead(state)
            n = rules.players
            rel = [lead[(state.to_act + k) % n] for k in range(n)] + [lead[n]]
            kept.append((state, x + rel))
        if state.is_chance_node():
            move = state.chance_outcomes()[0][0]
        else:
            v = view(state, state.to_act)
            moves = v.legal_moves()
            move = rng.choice(moves) if rng.random() < epsilon else bot.choose(v, rng)
        state = state.apply(move, check=False)
    n = rules.players
    rows = []
    for s, xr in kept:
        label = FittedEvaluator.label(s.to_act, state.winner, n)
        rows.append((xr[: -(n + 1)], label, xr[-(n + 1) :]))
    return rows


def brier(probs: list[list[float]], labels: list[int]) -> float:
    total = 0.0
    for p, y in zip(probs, labels, strict=True):
        total += sum((q - (1.0 if k == y else 0.0)) ** 2 for k, q in enumerate(p))
    return total / len(labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", type=variant, default="classic")
    parser.add_argument("--games", type=whole(0), default=20000, help="greedy deals (0: --records alone)")
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--epsilon", type=probability, default=0.1)
    parser.add_argument("--jobs", type=whole(1), default=2)
    parser.add_argument("--C", type=positive_float, default=1.0)
    parser.add_argument("--hidden", type=whole(0), default=16, help="hidden units (0: logistic regression)")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--records", type=Path, nargs="+", default=[], help="self-play record directories")
    parser.add_argument("--record-games", type=whole(1), default=None, help="read only the first N records")
    parser.add_argument("--name", default=None, choices=["selfplay"], help="write eval-<variant>-NAME.json (the leaf hint:leaf=NAME)")
    args = parser.parse_args()
    try:
        from sklearn.linear_model import LogisticRegression
        from sklearn.neural_network import MLPClassifier
        from sklearn.preprocessing import StandardScaler
    except ImportError:
        print('fit_eval.py: fitting needs scikit-learn: pip install -e ".[fit]"', file=sys.stderr)
        raise SystemExit(1) from None

    rules = get_rules(args.variant)
    n = rules.players
    start = time.perf_counter()
    tasks = [(rules.name, game_seed(args.seed, i), args.epsilon) for i in range(args.games)]
    paths = [p for d in args.records for p in record_paths(d)][: args.record_games]
    if not tasks and not paths:
        parser.error("no deals: give --games above 0 or --records with records in them")
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        deals = pool.map(play, tasks, chunksize=64)
        records = pool.map(record_rows, paths, chunksize=32)
    split = int(0.8 * len(deals))
    cut = int(0.8 * len(records))
    train = [row for d in deals[:split] + records[:cut] for row in d]
    test = [row for d in deals[split:] + records[cut:] for row in d]
    print(
        f"{args.variant}: {count(args.games, 'deal')} (epsilon {args.epsilon}) and "
        f"{count(len(records), 'self-play record')}, {len(train)} training and "
        f"{len(test)} held-out positions, {time.perf_counter() - start:.0f} s"
    )
    x = [r[0] for r in train]
    y = [r[1] for r in train]
    scaler = StandardScaler().fit(x)
    if args.hidden:
        model = MLPClassifier(
            hidden_layer_sizes=(args.hidden,), max_iter=400, early_stopping=True,
            random_state=args.seed,
        )
    else:
        model = LogisticRegression(C=args.C, max_iter=2000)
    model.fit(scaler.transform(x), y)
    classes = [int(c) for c in model.classes_]
    if classes != list(range(n + 1)):
        raise SystemExit(f"some outcome never happened in the training deals: classes {classes}")
    if args.hidden:
        raw = [(w.T.tolist(), b.tolist()) for w, b in zip(model.coefs_, model.intercepts_, strict=True)]
    else:
        raw = [(model.coef_.tolist(), model.intercept_.tolist())]
    # Fold the input scaling into the first layer: w' = w / scale, b' = b - sum(w * mean / scale).
    w0, b0 = raw[0]
    w0 = [[w / s for w, s in zip(row, scaler.scale_, strict=True)] for row in w0]
    b0 = [b - sum(w * m for w, m in zip(row, scaler.mean_, strict=True)) for b, row in zip(b0, w0, strict=True)]
    layers = [(w0, b0), *raw[1:]]
    evaluator = FittedEvaluator(rules.name, n, layers)
    ty = [r[1] for r in test]
    fitted = brier([evaluator.probabilities(r[0]) for r in test], ty)
    heuristic = brier([r[2] for r in test], ty)
    base = [sum(1 for v in y if v == k) / len(y) for k in range(n + 1)]
    constant = brier([base] * len(test), ty)
    shipped = fitted_evaluator(rules.name)
    print(f"  Brier score on held-out positions (lower is better, {len(test)} positions):")
    print(f"    fitted model        {fitted:.4f}")
    if shipped is not None and (args.name or args.records):
        print(f"    shipped evaluation  {brier([shipped.probabilities(r[0]) for r in test], ty):.4f}")
    print(f"    melded-card lead    {heuristic:.4f}")
    print(f"    base rates          {constant:.4f}  ({', '.join(f'{b:.3f}' for b in base)})")
    if args.write:
        stem = f"eval-{rules.name}" + (f"-{args.name}" if args.name else "")
        path = Path(__file__).resolve().parent.parent / "analyzer" / "data" / f"{stem}.json"
        evaluator.meta.update({
            "games": args.games,
            "seed": args.seed,
            "epsilon": args.epsilon,
            "C": args.C,
            "brier_fitted": round(fitted, 5),
            "brier_melded_lead": round(heuristic, 5),
            "brier_base_rates": round(constant, 5),
            "hidden": args.hidden,
            "script": "bench/fit_eval.py",
            "records": [d.name for d in args.records],
            "record_games": len(records),
        })
        data = evaluator.to_json()
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"  wrote {path}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (nothing was written)
        sys.exit("fit_eval.py: interrupted")
