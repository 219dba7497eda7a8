"""Small statistics helpers shared by the advisor, simulations and benchmarks."""

from __future__ import annotations

import math

__all__ = ["wilson"]


def wilson(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default).

    Parameters
    ----------
    successes : float
        Count of successes, ``0 <= successes <= trials``; it may be fractional: a sum of
        per-trial win chances (a sampled deal whose stock order is left to chance counts its
        win probability), so that the interval is that of the proportion reported beside it.
    trials : int
        Count of trials.
    z : float
        Normal quantile of the interval (1.96 for 95%).

    Returns
    -------
    (float, float)
        Lower and upper bound, probabilities; ``(0.0, 1.0)`` with no trials.

    Examples
    --------
    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
