"""Fitted coefficients shipped in ``analyzer/data`` (the card-location model, the move prior):
one JSON file per model, ``{"features": [...], "variants": {name: {"coefficients": [...]}}}``,
written by its ``bench/fit_*.py`` script."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources

__all__ = ["fitted_coefficients"]


def fitted_coefficients(file: str, variant: str, features: Sequence[str], script: str) -> tuple[float, ...] | None:
    """The coefficients of ``features`` fitted for ``variant`` in ``analyzer/data/<file>``, or
    ``None`` when the file or its entry for the variant is missing.

    Raises
    ------
    ValueError
        If the file was fitted on other features (refit it with ``script``).
    """
    try:
        text = resources.files("analyzer").joinpath(f"data/{file}").read_text("utf-8")
    except FileNotFoundError:
        return None
    data = json.loads(text)
    if data.get("features") != list(features):
        raise ValueError(f"analyzer/data/{file} was fitted on other features: refit it with {script}")
    entry = data.get("variants", {}).get(variant)
    return None if entry is None else tuple(float(b) for b in entry["coefficients"])
