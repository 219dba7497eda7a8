"""What the fit scripts share (``fit_reader.py``, ``fit_reading.py``): scikit-learn's logistic
regression, the log loss, and the files of fitted figures in analyzer/data (one entry per
variant, beside the other variants')."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "analyzer" / "data"
"""Where the library loads the fitted figures from."""


def write_variant(
    name: str,
    script: str,
    variant: str,
    entry: dict[str, Any],
    *,
    features: Sequence[str] | None = None,
    folder: Path = DATA,
) -> Path:
    """Store ``entry`` as the figures of ``variant`` in the file ``name`` of ``folder``, keeping
    the other variants' (the file is made where there is none), with the ``script`` that fitted
    them and, where given, the model's ``features`` by name.  The JSON is written with keys
    sorted, indented by one space, so that the same figures give the same file.

    Returns
    -------
    Path
        The file written.
    """
    path = folder / name
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"variants": {}}
    data["script"] = script
    if features is not None:
        data["features"] = list(features)
    data["variants"][variant] = entry
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def logistic_regression(script: str) -> Any:
    """scikit-learn's ``LogisticRegression`` class; without scikit-learn, one line naming the
    ``fit`` extra on standard error and exit 1 (``script`` names the script)."""
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        print(f'{script}: fitting needs scikit-learn: pip install -e ".[fit]"', file=sys.stderr)
        raise SystemExit(1) from None
    return LogisticRegression


def log_loss(probs: list[float], labels: list[int]) -> float:
    """The mean log loss (natural log) of the probabilities ``probs`` of the 0/1 ``labels``, each
    probability held at least 1e-12 from 0 and 1; 0 for no labels."""
    eps = 1e-12
    total = sum(math.log(max(p, eps)) if y else math.log(max(1 - p, eps)) for p, y in zip(probs, labels, strict=True))
    return -total / max(len(labels), 1)


def records_by_variant(parser: Any, directories: list[Any], games: int, read: Any, jobs: int) -> tuple[str, list[Any]]:
    """``read(path)`` of the first ``games`` records found in ``directories`` (each giving
    ``(variant, rows)``), in ``jobs`` processes: the one variant and each record's rows, in
    record order. Exits through ``parser`` when fewer than 10 records are found or they are of
    several variants."""
    import multiprocessing

    from selfplay import record_paths

    paths = [p for d in directories for p in record_paths(d)][:games]
    if len(paths) < 10:
        parser.error(f"found {len(paths)} records in {', '.join(map(str, directories))}: need at least 10")
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        found = pool.map(read, paths, chunksize=16)
    variants = {v for v, _ in found}
    if len(variants) != 1:
        parser.error(f"the records are of several variants: {', '.join(sorted(variants))}")
    (variant,) = variants
    return variant, [rows for _, rows in found]
