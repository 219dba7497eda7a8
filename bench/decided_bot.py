"""bench/strength.py with one more bot, ``hint-decided``: it plays the best move of the hint the
command gives (sampled until its verdict is settled, no clock), so that a change of the verdict's
rule is measured in play, where the ``hint`` bot (a fixed budget) never reads the verdict.

    python3 bench/decided_bot.py --only classic-hint-greedy --games 500 --jobs 1 \
        --hint hint-decided --json new.json
    python3 bench/decided_bot.py --only classic-hint-greedy --games 500 --jobs 1 \
        --hint hint-decided:rule=ttest --json old.json
    python3 bench/paired.py new.json old.json

Every option is strength.py's.  ``--jobs`` must be 1: the bot is registered in this process
only (strength.py's workers are new processes).  Split a long run over several processes with
``--first K --games N`` and pair the files with paired.py, which pools the pairs.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import strength

from analyzer.analysis.advisor import advise
from analyzer.analysis.engines import MCTS_SEARCHES
from analyzer.analysis.verdict import DEFAULT_RULE, RULES
from analyzer.bots.base import bot_option, obvious_move
from analyzer.bots.registry import register_bot
from analyzer.core.moves import Move
from analyzer.core.state import GameState


class DecidedHintBot:
    """Plays the first move of the default hint, ``advise(..., until_decided=True)``, with the
    verdict rule ``rule`` (:data:`analyzer.analysis.verdict.RULES`)."""

    name = "hint-decided"
    sees_all = False

    def __init__(self, rule: str = DEFAULT_RULE) -> None:
        bot_option("rule", rule, choices=RULES)
        self.rule = rule

    def choose(self, view: GameState, rng: random.Random) -> Move:
        """The hint's best move on ``view``, its seed drawn from ``rng``."""
        obvious = obvious_move(view)
        if obvious is not None:
            return obvious
        advice = advise(
            view, seed=rng.randrange(2**31), time_limit=math.inf, until_decided=True,
            searches=MCTS_SEARCHES, rule=self.rule,
        )  # fmt: skip
        return advice.estimates[0].move


register_bot("hint-decided", DecidedHintBot)

def _jobs(argv: list[str]) -> str | None:
    """The value given to ``--jobs``, if any."""
    for k, arg in enumerate(argv):
        if arg == "--jobs":
            return argv[k + 1] if k + 1 < len(argv) else ""
        if arg.startswith("--jobs="):
            return arg.partition("=")[2]
    return None


if __name__ == "__main__":
    jobs = _jobs(sys.argv[1:])
    if jobs is None:
        sys.argv += ["--jobs", "1"]
    elif jobs != "1":
        sys.exit(f"decided_bot.py: --jobs must be 1, not {jobs!r} (the bot lives in this process only)")
    strength.main()
