"""Speed of records from one player's view, against records with every card known, in one run.

    python3 bench/views.py [--games 40] [--seed 0] [--review 4]

For each preset (every player count it allows), ``--games`` seeded games between greedy bots are
written as full records and converted to every player's view (``view_lines``).  Prints, per
preset: moves per second of replaying the full records (``replay_lines``: each move checked by
the engine) and of replaying the view records (each move also checked against what its player
knows: ``analyzer.core.seen.ViewPlay``), the ratio, and the conversions per second.  Then, on
``--review`` classic games, the seconds of reviewing one player's decisions from his view record
against reviewing the full record (every seat), at 8 deals per decision: the view review is one
player's share of the work.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis.review import review_record  # noqa: E402
from analyzer.bots.game import play_game  # noqa: E402
from analyzer.bots.simulate import game_seed  # noqa: E402
from analyzer.core.native import core_description  # noqa: E402
from analyzer.core.rules import PRESETS, get_rules  # noqa: E402
from analyzer.formats.records import record_lines, replay_lines, view_lines  # noqa: E402
from benchargs import whole  # noqa: E402


def _records(name: str, players: int, games: int, seed: int) -> list[list[str]]:
    rules = get_rules(name)
    if players != rules.players:
        rules = rules.with_options({"players": players})
    out = []
    for k in range(games):
        game = play_game(rules, ["greedy"] * players, game_seed(seed, k))
        out.append(record_lines(game.start, game.moves, game.final))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(1), default=40)
    parser.add_argument("--seed", type=whole(0), default=0)
    parser.add_argument("--review", type=whole(0), default=4)
    args = parser.parse_args()
    print(core_description())
    replay_lines(view_lines(replay_lines(_records("classic", 2, 1, args.seed)[0]), 0))  # warm up
    print("| preset | players | moves | full replay, moves/s | view replay, moves/s | view / full | conversions/s |")
    print("|---|---|---|---|---|---|---|")
    for name in PRESETS:
        for players in get_rules(name).player_counts:
            full = _records(name, players, args.games, args.seed)
            moves = sum(len(r) - 2 for r in full)
            begin = time.perf_counter()
            replays = [replay_lines(r) for r in full]
            full_s = time.perf_counter() - begin
            begin = time.perf_counter()
            views = [view_lines(r, p) for r in replays for p in range(players)]
            convert_s = time.perf_counter() - begin
            begin = time.perf_counter()
            for lines in views:
                replay_lines(lines)
            view_s = time.perf_counter() - begin
            full_rate = moves / full_s
            view_rate = moves * players / view_s
            print(
                f"| {name} | {players} | {moves:,} | {full_rate:,.0f} | {view_rate:,.0f} | "
                f"{view_rate / full_rate:.2f} | {len(views) / convert_s:,.0f} |"
            )
    if not args.review:
        return
    full = [replay_lines(r) for r in _records("classic", 2, args.review, args.seed)]
    begin = time.perf_counter()
    whole_reviews = [review_record(r, samples=8) for r in full]
    whole_s = time.perf_counter() - begin
    begin = time.perf_counter()
    view_reviews = [review_record(replay_lines(view_lines(r, p)), samples=8) for r in full for p in range(2)]
    view_s = time.perf_counter() - begin
    decisions = sum(len(r.moves) for r in whole_reviews)
    same = sum(len(r.moves) for r in view_reviews)
    print(
        f"\nreview, {args.review} classic games, 8 deals per decision: every seat {whole_s:.2f} s "
        f"({decisions} decisions); each seat from his view record {view_s:.2f} s ({same} decisions); "
        f"ratio {view_s / whole_s:.2f}"
    )


if __name__ == "__main__":
    main()
