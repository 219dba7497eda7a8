"""Fit the learned move prior (analyzer/analysis/prior.py) on self-play records.

    python3 bench/fit_prior.py --records DIR [DIR ...] [--games 4000] [--seed 0] [--jobs 2] [--write]

Reads the first --games finished records of the directories (``bench/selfplay.py play``).  At
every decision the hint bot searched (two or more legal moves, none going out:
:func:`analyzer.bots.base.obvious_move` is ``None``), on the view of the player to act, it keeps
each choice's features (:func:`analyzer.analysis.prior.choice_features`) and which choice the bot
played.  The deals are split by ``--seed`` (a seeded draw of 20% held out); a conditional logit
(softmax over the choices of a decision, L2 penalty ``--l2``) is fitted on the rest by Newton's
method (numpy alone, so the same records, seed and arguments give the same file), and on the
held-out decisions it prints the log loss per decision and the top-1 accuracy of:

* ``uniform``: every choice alike;
* ``static``: a softmax of the static evaluation one move ahead
  (:func:`analyzer.analysis.static.score_move`, the weights of ``hint --static``), its
  temperature fitted;
* ``prior``: the model this script fits;

and of each the same on the pay alone: where the bot took (or laid in) and could have paid
another card with the same melds, the choice among those pays (R13, R14).  With --write the coefficients go to
analyzer/data/prior.json under the variant of the records.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


from analyzer.analysis.prior import FEATURES, choice_features  # noqa: E402
from analyzer.analysis.static import score_move  # noqa: E402
from analyzer.bots.base import obvious_move  # noqa: E402
from analyzer.core.dealing import view  # noqa: E402
from analyzer.core.melds import cards_of  # noqa: E402
from analyzer.core.moves import LayIn, Take  # noqa: E402
from analyzer.formats.records import replay_file  # noqa: E402
from benchargs import whole  # noqa: E402
from fitting import records_by_variant, write_variant  # noqa: E402

Decision = tuple[list[tuple[float, ...]], list[float], int, tuple[int, ...]]
"""(features per choice, static score per choice, index of the choice played, the choices that
meld the same cards as the one played when it is a take or lay-in: its other pays)."""


def decisions_of(path: Path) -> tuple[str, list[Decision]]:
    """The variant of a record and its searched decisions (module docstring)."""
    replay = replay_file(path)
    out: list[Decision] = []
    if not replay.finished:
        return replay.start.rules.name, out
    for state, move in zip(replay.states, replay.full_moves(), strict=True):
        if state.is_chance_node() or state.is_terminal():
            continue
        mine = view(state, state.to_act)
        if obvious_move(mine) is not None:
            continue
        rows = choice_features(mine)
        played = next(k for k, (group, _) in enumerate(rows) if move in group)
        static = [score_move(mine, group[0]).score for group, _ in rows]
        firsts = [group[0] for group, _ in rows]
        chosen = firsts[played]
        pays: tuple[int, ...] = ()
        if isinstance(chosen, (Take, LayIn)):
            melded = cards_of(chosen.layout)
            pays = tuple(
                k for k, m in enumerate(firsts)
                if isinstance(m, type(chosen)) and cards_of(m.layout) == melded
            )  # fmt: skip
        out.append(([f for _, f in rows], static, played, pays))
    return replay.start.rules.name, out


class Table:
    """Decisions stacked for numpy: one row per choice, the decision each row belongs to."""

    def __init__(self, decisions: list[Decision], static: bool = False) -> None:
        rows = [[s] if static else list(f) for fs, ss, _, _ in decisions for f, s in zip(fs, ss, strict=True)]
        self.x = np.array(rows, dtype=float).reshape(len(rows), -1)
        sizes = [len(d[0]) for d in decisions]
        self.starts = np.cumsum([0, *sizes[:-1]]).astype(int)
        self.owner = np.repeat(np.arange(len(decisions)), sizes)
        self.chosen = self.starts + np.array([d[2] for d in decisions], dtype=int)
        self.sizes = np.array(sizes, dtype=float)

    def probs(self, b: np.ndarray) -> np.ndarray:
        s = self.x @ b
        top = np.maximum.reduceat(s, self.starts)
        e = np.exp(s - top[self.owner])
        return np.asarray(e / np.add.reduceat(e, self.starts)[self.owner])

    def fit(self, l2: float) -> np.ndarray:
        """The coefficients maximising the log likelihood minus ``l2 / 2 * |b|^2`` (Newton's method)."""
        b = np.zeros(self.x.shape[1])
        for _ in range(100):
            p = self.probs(b)
            mean = np.add.reduceat(p[:, None] * self.x, self.starts)  # per decision
            grad = self.x[self.chosen].sum(axis=0) - mean.sum(axis=0) - l2 * b
            weighted = (p[:, None] * self.x).T @ self.x
            hess = weighted - mean.T @ mean + l2 * np.eye(len(b))
            step = np.linalg.solve(hess, grad)
            b = b + step
            if float(np.max(np.abs(step))) < 1e-10:
                break
        return b

    def scores(self, b: np.ndarray) -> tuple[float, float]:
        """Log loss per decision and top-1 accuracy (ties shared) of the coefficients ``b``."""
        p = self.probs(b)
        loss = -float(np.mean(np.log(np.maximum(p[self.chosen], 1e-300))))
        top = np.maximum.reduceat(p, self.starts)
        best = np.isclose(p, top[self.owner], rtol=0, atol=1e-12)
        ties = np.add.reduceat(best.astype(float), self.starts)
        hit = best[self.chosen] / ties
        return loss, float(np.mean(hit))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, nargs="+", required=True, help="self-play record directories")
    parser.add_argument("--games", type=whole(10), default=4000, help="records to read (the first ones)")
    parser.add_argument("--seed", type=whole(0), default=0, help="seed of the held-out draw of deals")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty of the fit")
    parser.add_argument("--jobs", type=whole(1), default=2)
    parser.add_argument("--write", action="store_true", help="write analyzer/data/prior.json")
    args = parser.parse_args()
    if not 0 <= args.l2 < math.inf:
        parser.error(f"argument --l2: {args.l2} must be a number of at least 0")
    start = time.perf_counter()
    variant, per_record = records_by_variant(parser, args.records, args.games, decisions_of, args.jobs)
    found = [(variant, rows) for rows in per_record]
    held = set(random.Random(args.seed).sample(range(len(found)), len(found) // 5))
    train = [d for k, (_, ds) in enumerate(found) if k not in held for d in ds]
    test = [d for k, (_, ds) in enumerate(found) if k in held for d in ds]
    print(f"{variant}: {len(found)} records, {len(train)} training and {len(test)} held-out decisions "
          f"({sum(len(d[0]) for d in test) / max(len(test), 1):.1f} choices each), "
          f"{time.perf_counter() - start:.0f} s")
    model = Table(train).fit(args.l2)
    temperature = Table(train, static=True).fit(args.l2)
    pays = [([d[0][k] for k in d[3]], [d[1][k] for k in d[3]], d[3].index(d[2]), d[3]) for d in test if len(d[3]) > 1]
    print(f"  held-out log loss per decision / top-1 accuracy: all {len(test)} decisions; "
          f"the pay of {len(pays)} takes with a choice of pay")
    figures: dict[str, list[float]] = {}
    for name, static, b in (("uniform", False, np.zeros(len(FEATURES))), ("static", True, temperature),
                            ("prior", False, model)):  # fmt: skip
        row: list[float] = []
        for subset in (test, pays):
            row += Table(subset, static).scores(b) if subset else [math.nan, math.nan]
        figures[name] = row
        print(f"    {name:8s} {row[0]:.4f} {row[1]:.3f}   {row[2]:.4f} {row[3]:.3f}")
    print("  " + ", ".join(f"{n} {b:+.3f}" for n, b in zip(FEATURES, model, strict=True)))
    if args.write:
        entry = {
            "coefficients": [round(float(b), 5) for b in model],
            "records": [d.name for d in args.records],
            "games": len(found),
            "seed": args.seed,
            "l2": args.l2,
            "held_out": {
                name: {"log_loss": round(row[0], 5), "top1": round(row[1], 5),
                       "pay_log_loss": round(row[2], 5), "pay_top1": round(row[3], 5)}
                for name, row in figures.items()
            },  # fmt: skip
        }
        path = write_variant("prior.json", "bench/fit_prior.py", variant, entry, features=FEATURES)
        print(f"  wrote {path}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("fit_prior.py: interrupted")
