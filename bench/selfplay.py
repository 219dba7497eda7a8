"""Self-play data for the learned pieces of the hint bot: seeded, resumable game records.

    python3 bench/selfplay.py play DIR [--variant classic] [--bots hint,hint] [--games 12000]
                                       [--seed 100] [--jobs 2] [--backend local|ray] [--address A]
    python3 bench/selfplay.py stats DIR

``play`` runs ``conquian simulate --records DIR`` for the games DIR does not hold yet (a stopped
run continues where it stopped: ``--first`` is the number of records already there), then prints
the throughput in deals and in decisions with a choice per second.  Each record is a full game in
the public record format (docs/formats.md): the deal, every move with its player, the result; from
it every decision's view (what the player saw), the hidden hands and the stock order are read back
by replaying it (:func:`replays`).  ``--backend ray`` plays the deals on a Ray runtime or cluster, as
``conquian simulate`` does.

The training scripts read these directories: ``bench/fit_eval.py --records DIR`` (the leaf
evaluation, labelled by each deal's result) and ``bench/fit_reader.py --records DIR`` (where the
hidden cards are).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.core.state import GameState, Phase  # noqa: E402
from analyzer.formats.records import Replay, replay_file  # noqa: E402
from benchargs import checked_bots, variant, whole  # noqa: E402


def record_paths(directory: Path) -> list[Path]:
    """The finished records of a self-play directory, in game order."""
    return sorted(directory.glob("game-*.jsonl"))


def replays(directory: Path, first: int = 0, stop: int | None = None) -> Iterator[tuple[int, Replay]]:
    """``(game index, replay)`` of the records ``first`` to ``stop - 1`` of a directory, finished deals only."""
    for path in record_paths(directory):
        index = int(path.name[len("game-") : -len(".jsonl")])
        if index < first or (stop is not None and index >= stop):
            continue
        replay = replay_file(path)
        if replay.finished:
            yield index, replay


def boundary(state: GameState) -> bool:
    """A position the leaf evaluation is fitted on: a turn, or a fresh offer (a centre card nobody
    has declined or been forced with yet)."""
    if state.phase is Phase.TURN:
        return True
    c = state.centre
    return state.phase is Phase.OFFER and c is not None and not c.declined and c.forced is None


def decisions(replay: Replay) -> int:
    """Decisions with a choice in a deal: positions where the player to act had two or more legal moves."""
    return sum(
        1
        for state in replay.states
        if not state.is_chance_node() and not state.is_terminal() and len(state.legal_moves()) > 1
    )


def _play(args: argparse.Namespace) -> None:
    directory: Path = args.dir
    done = len(record_paths(directory)) if directory.exists() else 0
    if done >= args.games:
        print(f"{directory}: all {args.games} games are there")
        return
    conquian = shutil.which("conquian") or str(Path(sys.executable).with_name("conquian"))
    command = [
        conquian, "simulate", "--variant", args.variant, "--bots", args.bots,
        "--games", str(args.games - done), "--first", str(done), "--seed", str(args.seed),
        "--jobs", str(args.jobs), "--records", str(directory), "--backend", args.backend, "--json",
    ]  # fmt: skip
    if args.address:
        command += ["--address", args.address]
    print(f"{directory}: {done} games there, playing games {done} to {args.games - 1}", flush=True)
    start = time.perf_counter()
    finished = subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    seconds = time.perf_counter() - start
    made = list(replays(directory, done, args.games))
    chosen = sum(decisions(r) for _, r in made)
    print(
        f"  {len(made)} deals, {chosen} decisions with a choice in {seconds:.0f} s: "
        f"{len(made) / seconds:.1f} deals/s, {chosen / seconds:.0f} decisions/s "
        f"({args.jobs} jobs, {args.backend})"
    )
    if finished.returncode:
        raise SystemExit(f"selfplay.py: conquian simulate stopped (exit {finished.returncode}); run again to continue")


def _stats(args: argparse.Namespace) -> None:
    games = chosen = 0
    winners: dict[str, int] = {}
    for _, replay in replays(args.dir):
        games += 1
        chosen += decisions(replay)
        winner = replay.final.winner
        key = "draw" if winner is None else f"seat {winner}"
        winners[key] = winners.get(key, 0) + 1
    print(f"{args.dir}: {games} finished deals, {chosen} decisions with a choice")
    for key, n in sorted(winners.items()):
        print(f"  {key}: {n}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play (or continue) a self-play run into DIR")
    play.add_argument("dir", type=Path)
    play.add_argument("--variant", type=variant, default="classic")
    play.add_argument("--bots", default="hint")
    play.add_argument("--games", type=whole(1), default=12000)
    play.add_argument("--seed", type=whole(0), default=100)
    play.add_argument("--jobs", type=whole(1), default=2)
    play.add_argument("--backend", choices=("local", "ray"), default="local")
    play.add_argument("--address", default=None)
    stats = sub.add_parser("stats", help="count the deals and decisions of DIR")
    stats.add_argument("dir", type=Path)
    args = parser.parse_args()
    if args.command == "play":
        from analyzer.core.rules import get_rules

        seats = get_rules(args.variant).players
        bots = args.bots if "," in args.bots else ",".join([args.bots] * seats)
        checked_bots(parser, bots, seats=seats, variant=args.variant)
        args.bots = bots
        _play(args)
    else:
        _stats(args)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the records written so far are kept; run again to continue
        sys.exit("selfplay.py: interrupted")
