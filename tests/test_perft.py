"""Perft: the Python engine's legal-move tree counted against native/tests/perft.txt (R8-R19).

The file holds, for a few seeded deals per preset, the number of move sequences of each length
from ``deal(preset, seed)`` with the stock order known (each turn is one move, the top card).
The native core's ``cargo test`` checks the same numbers (native/tests/perft.rs), so the two
cores are held to one tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.core import native
from analyzer.core.dealing import deal
from analyzer.core.state import GameState

PERFT = Path(__file__).resolve().parent.parent / "native" / "tests" / "perft.txt"


def _rows() -> list[tuple[str, int, list[int]]]:
    rows = []
    for line in PERFT.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            preset, seed, *counts = line.split()
            rows.append((preset, int(seed), [int(c) for c in counts]))
    return rows


def _perft(state: GameState, depth: int) -> list[int]:
    """Per depth 1..``depth``: the move sequences of that length from ``state``."""
    counts = [0] * depth

    def walk(s: GameState, d: int) -> None:
        moves = s.legal_moves()
        counts[d] += len(moves)
        if d + 1 < depth:
            for move in moves:
                walk(s.apply(move, check=False), d + 1)

    walk(state, 0)
    return counts


def test_the_file_has_a_few_deals_of_each_preset() -> None:
    presets = [preset for preset, _, _ in _rows()]
    assert presets.count("classic") >= 3 and presets.count("megajogos") >= 3


@pytest.mark.parametrize(("preset", "seed", "expected"), _rows())
def test_the_python_engine_counts_the_same_tree(
    preset: str, seed: int, expected: list[int]
) -> None:
    with native.use_core("python"):
        assert _perft(deal(preset, seed), len(expected)) == expected


if __name__ == "__main__":  # the rows recomputed by the Python engine, to update the file
    with native.use_core("python"):
        for preset, seed, expected in _rows():
            print(preset, seed, *_perft(deal(preset, seed), len(expected)))
