"""Rewrite the golden playthroughs (run by hand after an intended rules change, then review the diff).

    python3 tests/golden/regenerate.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from analyzer.bots.simulate import play_game  # noqa: E402
from analyzer.core.rules import get_rules  # noqa: E402
from analyzer.formats.records import record_lines  # noqa: E402

GOLDEN = [
    ("classic", ("greedy", "random"), 1),
    ("classic", ("random", "greedy"), 2),
    ("classic", ("greedy", "greedy"), 3),
    ("megajogos", ("greedy", "random", "random"), 4),
    ("megajogos", ("greedy", "greedy", "greedy"), 5),
    ("megajogos", ("random", "random", "random"), 6),
    # The MegaJogos rules for the other player counts they allow (R8): files named -2p-, -4p-.
    ("megajogos", ("greedy", "random"), 7),
    ("megajogos", ("greedy", "random", "greedy", "random"), 8),
    ("mexican", ("greedy", "random"), 9),
    ("mexican", ("random", "greedy", "greedy"), 10),
    ("mexican_9_10", ("greedy", "random"), 11),
    ("mexican_9_10", ("greedy", "greedy", "random"), 12),
    ("mexican_9_10", ("random", "greedy", "random", "greedy"), 13),
    # Foster's games: borrowing and forcing with one's discard (R13a, R14a); the upcard (R10a).
    ("hoyle1897", ("greedy", "random"), 14),
    ("hoyle1897", ("greedy", "greedy"), 15),
    ("cooncan1913", ("greedy", "random"), 16),
    ("cooncan1913", ("random", "greedy"), 17),
]


def main() -> None:
    for variant, seats, seed in GOLDEN:
        rules = get_rules(variant)
        count = "" if len(seats) == rules.players else f"{len(seats)}p-"
        result = play_game(rules.with_players(len(seats)), seats, seed)
        lines = record_lines(result.start, result.moves, result.final, seed=seed, players=list(seats))
        path = HERE / f"{variant}-{count}{seed}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(path.name, len(result.moves), "moves, winner", result.final.winner)


if __name__ == "__main__":
    main()
