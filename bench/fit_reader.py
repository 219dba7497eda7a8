"""Fit the learned card-location model (analyzer/search/reader.py) on self-play records.

    pip install -e ".[fit]"
    python3 bench/fit_reader.py --records DIR [DIR ...] [--games 4000] [--jobs 2] [--write]

Reads the first --games finished records of the directories (``bench/selfplay.py play``).  At
every decision with a choice, for the player to act ``p``, each other player ``q`` whose hand ``p``
cannot see and each card ``c`` that ``p`` has not seen, it keeps the model's features
(:func:`analyzer.search.reader.card_features`: ``q``'s prior log-odds and the features of the
public history) and whether ``c`` is in ``q``'s hand.  Logistic regressions on the rows of 80% of
the deals (by deal), then on the other 20% the held-out log loss per (hidden player, unseen card)
of:

* ``count``: the prior alone (the uniform sampler's marginals);
* ``paid``: the prior and the two paid-card features (the ``read=1`` model's form);
* ``learned``: the prior and every feature (the model this script fits);

over every row, and over the rows of hidden players who gave up a card ``p`` saw (the positions
``bench/read_choice.py`` scores).  With --write the learned coefficients (the prior's aside: the
sampler keeps each hand's count) go to analyzer/data/reader.json for the variant of the records.
The same records and arguments give the same file.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


from analyzer.core.dealing import view  # noqa: E402
from analyzer.formats.records import replay_file  # noqa: E402
from analyzer.search.reader import FEATURES, card_features  # noqa: E402
from benchargs import whole  # noqa: E402
from fitting import log_loss, logistic_regression, records_by_variant, write_variant  # noqa: E402

Row = tuple[float, tuple[float, ...], int, bool]
"""(prior log-odds, features, card in the hand, the hidden player gave up a card seen)."""


def rows_of(path: Path) -> tuple[str, list[Row]]:
    """The variant of a record and its rows (module docstring)."""
    replay = replay_file(path)
    out: list[Row] = []
    for state in replay.states if replay.finished else []:
        if state.is_chance_node() or state.is_terminal() or len(state.legal_moves()) < 2:
            continue
        p = state.to_act
        for q, (prior, cards) in card_features(view(state, p), p).items():
            hand = state.hands[q] or 0
            for c, x in cards:
                out.append((prior, x, hand >> c & 1, x[0] + x[1] > 0))
    return replay.start.rules.name, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, nargs="+", required=True, help="self-play record directories")
    parser.add_argument("--games", type=whole(10), default=4000, help="records to read (the first ones)")
    parser.add_argument("--jobs", type=whole(1), default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    LogisticRegression = logistic_regression("fit_reader.py")
    start = time.perf_counter()
    variant, per_record = records_by_variant(parser, args.records, args.games, rows_of, args.jobs)
    found = [(variant, rows) for rows in per_record]
    cut = int(0.8 * len(found))
    train = [r for _, rows in found[:cut] for r in rows]
    test = [r for _, rows in found[cut:] for r in rows]
    print(f"{variant}: {len(found)} records, {len(train)} training and {len(test)} held-out rows, "
          f"{time.perf_counter() - start:.0f} s")

    def columns(rows: list[Row], k: int | None) -> list[list[float]]:
        return [[r[0], *(r[1] if k is None else r[1][:k])] for r in rows]

    y = [r[2] for r in train]
    ty = [r[2] for r in test]
    signal = [i for i, r in enumerate(test) if r[3]]
    losses = {}
    models = {}
    for name, k in (("count", 0), ("paid", 2), ("learned", None)):
        model = LogisticRegression(C=1e6, max_iter=2000).fit(columns(train, k), y)
        probs = list(model.predict_proba(columns(test, k))[:, 1])
        losses[name] = (log_loss(probs, ty), log_loss([probs[i] for i in signal], [ty[i] for i in signal]))
        models[name] = model
    print(f"  held-out log loss per (hidden player, unseen card): all {len(test)} rows; "
          f"{len(signal)} rows of players who gave up a card seen")
    for name, (every, given) in losses.items():
        print(f"    {name:8s} {every:.5f}  {given:.5f}")
    learned = models["learned"]
    prior, *coefficients = (float(b) for b in learned.coef_[0])
    print(f"  prior x{prior:.3f}; " + ", ".join(f"{n} {b:+.3f}" for n, b in zip(FEATURES, coefficients, strict=True)))
    if args.write:
        path = write_variant("reader.json", "bench/fit_reader.py", variant, {
            "coefficients": [round(b, 5) for b in coefficients],
            "prior": round(prior, 5),
            "records": [f"{d.name}" for d in args.records],
            "games": len(found),
            "log_loss_learned": round(losses["learned"][0], 5),
            "log_loss_paid": round(losses["paid"][0], 5),
            "log_loss_count": round(losses["count"][0], 5),
        }, features=FEATURES)  # fmt: skip
        print(f"  wrote {path}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("fit_reader.py: interrupted")
