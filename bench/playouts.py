"""Random-playout speed: Conquian (both presets) against OpenSpiel's gin_rummy, in one run.

    python3 bench/playouts.py [--seconds 10] [--seed 0]

Each game is played to the end with uniformly random legal moves (chance
moves drawn from chance_outcomes), single process.  gin_rummy is driven
through pyspiel from Python the same way; it needs the optional extra:
pip install -e ".[bench]".  Prints games/s and moves/s and the ratio.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.core.dealing import deal  # noqa: E402
from benchargs import positive_float, whole


def conquian_rate(variant: str, seconds: float, seed: int) -> tuple[int, int, float]:
    rng = random.Random(seed)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = deal(variant, rng.randrange(2**32))
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                move = outcomes[0][0] if len(outcomes) == 1 else rng.choice(outcomes)[0]
            else:
                move = rng.choice(state.legal_moves())
            state = state.apply(move)
            moves += 1
        games += 1
    return games, moves, time.perf_counter() - start


def gin_rummy_rate(seconds: float, seed: int) -> tuple[int, int, float] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            moves += 1
        games += 1
    return games, moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_float, default=10.0, help="time per game kind")
    parser.add_argument("--seed", type=whole(0), default=0)
    args = parser.parse_args()
    rows: list[tuple[str, int, int, float]] = []
    for variant in ("classic", "megajogos"):
        g, m, t = conquian_rate(variant, args.seconds, args.seed)
        rows.append((f"conquian {variant}", g, m, t))
    gin = gin_rummy_rate(args.seconds, args.seed)
    if gin is not None:
        rows.append(("open_spiel gin_rummy", *gin))
    print(f"{'game':<22} {'games':>7} {'games/s':>9} {'moves/s':>10} {'moves/game':>11}")
    for name, g, m, t in rows:
        print(f"{name:<22} {g:>7} {g / t:>9.1f} {m / t:>10.0f} {m / max(g, 1):>11.1f}")
    if gin is None:
        print("gin_rummy: not measured (pip install -e '.[bench]' to add open_spiel)")
        return
    gin_rate = gin[0] / gin[2]
    for name, g, _, t in rows[:2]:
        print(f"ratio {name} / gin_rummy games/s: {(g / t) / gin_rate:.2f}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (nothing was written)
        sys.exit("playouts.py: interrupted")
