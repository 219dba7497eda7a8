"""Review time at default settings: a 60-move classic game record, on one core.

    python3 bench/review.py [--seed 0] [--moves 60]

The record is the first seeded classic deal between the ``--bots`` (default
``random,random``, whose games have the most decisions to review) with at least
``--moves`` moves (turns of the stock included), cut after that many moves.
The process is pinned to one CPU where the system allows it.  Prints the
seconds of ``analyzer.analysis.review.review_record`` at its default samples and time
per decision, the decisions reviewed and the label counts.  Target: under a
minute.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.formats.records import record_lines, replay_lines  # noqa: E402
from analyzer.analysis.review import (  # noqa: E402
    DEFAULT_REVIEW_SAMPLES,
    DEFAULT_REVIEW_TIME_LIMIT,
    review_record,
)
from analyzer.bots.simulate import game_seed, play_game  # noqa: E402
from benchargs import checked_bots, count, whole


ENGINE_DEALS = "the engine's"
"""What the text says when the review samples the engine's default number of deals."""

TRIES = 200
"""Seeded games played to find one with ``--moves`` moves before giving up."""


def record(seed: int, moves: int, bots: list[str]) -> list[str] | int:
    """The lines of the first seeded game with at least ``moves`` moves, cut there; the most
    moves of the first :data:`TRIES` games when none has that many."""
    longest = 0
    for k in range(TRIES):
        game = play_game("classic", bots, game_seed(seed, k))
        if len(game.moves) >= moves:
            return record_lines(game.start, game.moves[:moves], seed=game.seed)
        longest = max(longest, len(game.moves))
    return longest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--moves", type=whole(1), default=60)
    parser.add_argument("--bots", default="random,random")
    args = parser.parse_args()
    checked_bots(parser, args.bots, seats=2, variant="classic")  # classic deals
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    found = record(args.seed, args.moves, args.bots.split(","))
    if isinstance(found, int):
        parser.error(f"--moves {args.moves}: none of the first {TRIES} games of seed {args.seed} "
                     f"between {args.bots} has that many moves (the longest has {found})")
    replay = replay_lines(found)
    start = time.perf_counter()
    review = review_record(replay)
    seconds = time.perf_counter() - start
    print(
        f"review of a {len(replay.moves)}-move classic record at default settings "
        f"({ENGINE_DEALS if DEFAULT_REVIEW_SAMPLES is None else DEFAULT_REVIEW_SAMPLES} deals, "
        + ("no time limit" if DEFAULT_REVIEW_TIME_LIMIT == float("inf")
           else f"at most {DEFAULT_REVIEW_TIME_LIMIT:g} s per decision")
        + "), one core"
    )
    counts = ", ".join(
        f"{label}: {sum(s.counts[label] for s in review.summary)}" for label in review.summary[0].counts
    )
    print(
        f"{seconds:.1f} s for {count(len(review.moves), 'decision')} "
        f"({seconds / max(1, len(review.moves)):.2f} s each; "
        f"{review.time_limited} stopped by the time limit); {counts}"
    )


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (nothing was written)
        sys.exit("review.py: interrupted")
