"""``conquian simulate``: bot-against-bot deals, win and draw rates with 95% intervals."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from analyzer.bots.match import MatchSummary
from analyzer.bots.registry import BOTS
from analyzer.bots.simulate import BACKENDS, GameResult, Summary, game_seed, seating
from analyzer.bots.simulate import simulate as simulate_games
from analyzer.core.cards import Labels, clip, counted
from analyzer.core.errors import ConquianError
from analyzer.core.plain import relabel
from analyzer.core.rules import Rules
from analyzer.core.stakes import StakeRule, Standing, default_stakes
from analyzer.formats.jsonio import json_text
from analyzer.formats.matches import match_lines
from analyzer.formats.records import record_lines
from analyzer.formats.shape_errors import check_shape
from analyzer.formats.shapes import RecordHeader
from cli.boundary import domain, usage
from cli.console import emit, err, out
from cli.inputs import bots_arg, rules_of, stakes_of
from cli.options import (
    JsonOpt,
    MatchOpt,
    PlayersOpt,
    RulesOpt,
    StakesOpt,
    VariantLabelsOpt,
    VariantOpt,
    seed_option,
)
from cli.outputs import output_directory
from cli.progress import progress

__all__ = ["simulate"]


MAX_GAMES = 10_000_000
"""Most deals of one run (``--games``): about a day of greedy bots on one core."""
_GamesOpt = Annotated[
    int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, metavar="N", help="Number of deals.")
]
_BotsOpt = Annotated[
    str | None,
    typer.Option(
        "--bots",
        metavar="BOTS",
        help=f"One bot for every seat, or one per seat, comma-separated ({', '.join(BOTS)}: "
        "mcts is this package's IS-MCTS, ismcts OpenSpiel's, extra openspiel; docs/hint.md, the "
        "measuring bots); a bot's options follow its name as name:key=value, e.g. hint:samples=16 "
        "(docs/hint.md, the options of an engine); default: greedy, then random at the other seats.",
    ),
]
_SeedOpt = Annotated[int, seed_option("Run seed: same seed, same games.")]
_FirstOpt = Annotated[
    int,
    typer.Option(
        "--first",
        min=0,
        metavar="K",
        help="Index of the first game: games K to K+N-1 of the seed's series, the same deals "
        "and seats as a run from 0 (continue a run stopped after K games).",
    ),
]
_JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs", "-j", min=1, max=64, metavar="J", help="Worker processes (at most one per game)."
    ),
]
_RotateOpt = Annotated[bool, typer.Option("--rotate", help="Rotate the bots one seat per game.")]
_RecordsOpt = Annotated[
    str | None,
    typer.Option(
        "--records",
        metavar="DIR",
        help="Write one record per game into this new or empty directory (a new one is created; "
        "its parent directory must exist); with --first, a directory holding the records of "
        "the games before it.",
    ),
]
_BackendOpt = Annotated[
    str,
    typer.Option(
        "--backend",
        metavar="local|ray",
        help="Where the deals are played: local (this machine, --jobs processes) or ray "
        "(Ray tasks on a local Ray runtime, or on the cluster at --address; with --jobs 1 "
        "every CPU of it). Same seed, same games on both.",
    ),
]
_AddressOpt = Annotated[
    str | None,
    typer.Option(
        "--address",
        metavar="ADDR",
        help="The Ray cluster to join (HOST:PORT of a 'ray start --head' node, or auto); "
        "needs --backend ray.",
    ),
]


@dataclass(frozen=True)
class _Run:
    """A simulation as asked for, its options checked: the rules, one bot name per seat, the
    games (``first`` to ``first + games - 1`` of the seed's series), where they are played, and
    in a match (R21) the deals per match and the stake rule."""

    rules: Rules
    seats: list[str]
    games: int
    seed: int
    first: int
    jobs: int
    rotate: bool
    backend: str
    address: str | None
    match: int
    stakes: StakeRule
    labels: Labels | None


def simulate(
    games: _GamesOpt = 100,
    bots: _BotsOpt = None,
    variant: VariantOpt = "classic",
    players: PlayersOpt = None,
    rules_options: RulesOpt = None,
    seed: _SeedOpt = 0,
    first: _FirstOpt = 0,
    jobs: _JobsOpt = 1,
    rotate: _RotateOpt = False,
    records: _RecordsOpt = None,
    backend: _BackendOpt = "local",
    address: _AddressOpt = None,
    labels: VariantLabelsOpt = None,
    match: MatchOpt = 0,
    stakes: StakesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play many deals between bots; print win and draw rates with 95% intervals.

    With --match N the deals are played as matches of N (R21: the deal passes round the table,
    each deal played for its stake, --rotate moving the bots once per match), and each bot's mean
    stake won per deal is reported with a 95% interval over the matches.
    """
    rules = rules_of(variant, players, rules_options)
    rule = stakes_of(stakes, match) or default_stakes(rules)
    if match and games % match:
        usage(f"--games {games} is not a whole number of matches of {match} deals (--match)")
    if match and first % match:
        usage(f"--first {first} does not start a match of {match} deals: give a multiple of {match}")
    seats = _seats(bots, rules)
    run = _Run(
        rules, seats, games, seed, first, jobs, rotate, _backend(backend, address), address, match, rule, labels
    )
    directory = _records_dir(records, rules, seed, first, games, seats, rotate)
    summary, matches, interrupted = _play(run, directory, as_json)
    data = {
        "variant": rules.name,
        "players": rules.players,
        "bots": seats,
        "seed": seed,
        "first": first,
        "rotate": rotate,
        "interrupted": interrupted,
        **summary.as_dict(),
        **(matches.as_dict() if matches is not None else {}),
    }
    if as_json:
        emit(data)
    elif summary.games:
        _print_summary(data, rules)
    # (Stopped before the first game ended: no table of zeros, only the line below.)
    if interrupted:
        err.print(f"interrupted after {summary.games} of {games} games", markup=False)
        raise typer.Exit(130)


def _seats(bots: str | None, rules: Rules) -> list[str]:
    """The bot of each seat: ``--bots`` (one for all, or one per seat), else greedy then random."""
    if bots is None:
        bots = ",".join(["greedy"] + ["random"] * (rules.players - 1))
    names = bots_arg(bots, rules=rules)
    if len(names) not in (1, rules.players):
        usage(f"{rules.name} has {rules.players} seats: give 1 or {rules.players} bots")
    return names * rules.players if len(names) == 1 else names


def _backend(backend: str, address: str | None) -> str:
    """``--backend`` as its name, checked with ``--address`` (usage errors); ray's extra
    required."""
    backend = backend.strip().lower()
    if backend not in BACKENDS:
        usage(f"unknown backend: {clip(backend)!r} (known: {', '.join(BACKENDS)})")
    if address is not None and backend != "ray":
        usage("--address needs --backend ray")
    if address is not None and not address.strip():
        usage("--address needs a HOST:PORT (or auto)")
    if backend == "ray":
        from analyzer.interop import require

        require("analyzer.interop.ray", "ray", "--backend ray")
    return backend


def _play(run: _Run, directory: Path | None, as_json: bool) -> tuple[Summary, MatchSummary | None, bool]:
    """Play the games under a progress bar, tallying each (and each match) and writing its
    record; Ctrl-C or SIGTERM stops it with the games finished kept (True as the third value)."""
    summary = Summary(run.rules.players)
    matches = MatchSummary(run.rules, run.match, run.stakes) if run.match else None
    interrupted = False
    bar = progress("games", as_json, transient=False)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        with bar:
            task = bar.add_task("games", total=run.games)
            results = simulate_games(
                run.rules,
                run.seats,
                run.games,
                run.seed,
                jobs=min(run.jobs, run.games),
                rotate=run.rotate,
                backend=run.backend,
                address=run.address,
                first=run.first,
                match=run.match,
            )
            pending: list[GameResult] = []  # the deals of the match being played
            for result in results:
                with _interrupts_held():  # a record written is a game counted, and back
                    if directory is not None:
                        _write_record(directory, result, run.labels)
                    summary.add(result)
                    if matches is not None:
                        matches.add(result)
                        pending.append(result)
                        if len(pending) == run.match:
                            if directory is not None:
                                _write_match(directory, pending, run.stakes, run.labels, run.seed)
                            pending = []
                    bar.advance(task)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, previous)
    return summary, matches, interrupted


def _cut_short(data: dict[str, Any]) -> str:
    """", the last cut short after 1 of 3 deals" where the run stopped inside a match, else
    "" (that match counts in the figures; no match record is written for it)."""
    if data["matches"] == data["complete_matches"]:
        return ""
    played = data["games"] - data["complete_matches"] * data["match"]
    return f", the last cut short after {played} of {counted(data['match'], 'deal')}"


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM stops a simulation like Ctrl-C: finished games are kept and summarised."""
    raise KeyboardInterrupt


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while one finished game is written and counted, then raise
    KeyboardInterrupt if either came: the summary's count and the record files agree."""
    arrived: list[int] = []

    def hold(signum: int, frame: object) -> None:
        arrived.append(signum)

    before = {sig: signal.signal(sig, hold) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    if arrived:
        raise KeyboardInterrupt


def _records_dir(
    records: str | None,
    rules: Rules,
    seed: int,
    first: int,
    games: int,
    seats: list[str],
    rotate: bool,
) -> Path | None:
    """Check ``--records`` before any game is played: a new or empty directory we can write
    into, or with ``--first K`` one holding only games of this run outside the games it will
    write (the same variant, each game's seed ``game_seed(seed, index)`` and bots seated as
    this run seats them): a stopped run's own directory, or another part of the run."""
    if records is None:
        return None
    directory = output_directory(records, "--records", records_allowed=first > 0)
    for path in sorted(directory.glob("game-*.jsonl")) if first else ():
        index = path.name[len("game-") : -len(".jsonl")]
        if index.isdigit() and first <= int(index) < first + games:
            usage(
                f"--records directory {clip(str(directory))!r} already holds {path.name}, which "
                f"this run would write (games {first} to {first + games - 1}): use a new "
                "directory, or --first after the games it holds"
            )
        try:
            with path.open(encoding="utf-8") as handle:
                header = json.loads(handle.readline())
            same = (
                index.isdigit()
                and header.get("variant") == rules.name
                and header.get("seed") == game_seed(seed, int(index))
            )
            players = header.get("players") if same else None
        except (OSError, ValueError, AttributeError):
            header, same, players = None, False, None
        if not same:
            usage(
                f"--records directory {clip(str(directory))!r} holds {path.name}, which is not "
                f"game {int(index) if index.isdigit() else '?'} of this run ({rules.name}, "
                f"seed {seed}){_header_problem(header, path)}: continue a run with its own variant and "
                "seed, or use a new directory"
            )
        expected = list(seating(seats, int(index), rotate))
        if players != expected:
            usage(
                f"--records directory {clip(str(directory))!r} holds {path.name}, played by "
                f"{clip(json_text(players))}, but this run seats {', '.join(expected)} in game "
                f"{int(index)}: continue a run with its own --bots and --rotate, or use a new directory"
            )
    return directory


def _header_problem(header: Any, path: Path) -> str:
    """Why a record's first line is no header of this run, when its shape says (a misspelt key)."""
    if path.is_dir():
        return " (it is a directory)"
    if not isinstance(header, dict):
        return " (its first line is not a record header)"
    try:
        check_shape(RecordHeader, header, "its header")
    except ConquianError as exc:
        # The header's own error (e.g. a misspelt 'seed'), not only "not game K of this run".
        return f" ({exc})"
    return ""


def _record_name(index: int) -> str:
    """The file name of game ``index``'s record (from 0 in the seed's series)."""
    return f"game-{index:06d}.jsonl"


def _write_record(directory: Path, result: GameResult, labels: Labels | None) -> None:
    lines = record_lines(
        relabel(result.start, labels),
        result.moves,
        result.final,
        seed=result.seed,
        players=list(result.seats),
    )
    path = directory / _record_name(result.index)
    tmp = path.with_suffix(".tmp")
    try:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        tmp.replace(path)  # a finished record appears whole, or not at all
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        domain(f"cannot write the record {clip(str(path))!r}: {exc.strerror or exc}")


def _write_match(
    directory: Path, deals: list[GameResult], rule: StakeRule, labels: Labels | None, seed: int
) -> None:
    """A finished match of the run as a match record, ``match-NNNNNN.jsonl`` (numbered by its
    first game), which replay and review read (R21)."""
    first = deals[0]
    start = Standing.start(rule, first.start.rules.players, first.start.dealer)
    lines = match_lines(
        [(relabel(d.start, labels), d.moves, d.final) for d in deals],
        start,
        seeds=[d.seed for d in deals],
        players=list(first.seats),
        seed=seed,
        planned=len(deals),
    )
    path = directory / f"match-{first.index:06d}.jsonl"
    tmp = path.with_suffix(".tmp")
    try:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        domain(f"cannot write the match record {clip(str(path))!r}: {exc.strerror or exc}")


def _print_summary(data: dict[str, Any], rules: Rules) -> None:
    games = data["games"]
    first = data["first"]
    span = ""
    if first:
        span = f" (game {first}" if games == 1 else f" (games {first}-{first + games - 1}"
        span += " of its series)"
    out.print(
        f"{counted(games, f'{rules.name} game')}, bots by seat: "
        f"{', '.join(data['bots'])}, seed {data['seed']}{span}"
    )
    table = Table()
    for col in ("", "wins", "rate", "95% interval"):
        table.add_column(col)
    for p, (wins, rate) in enumerate(zip(data["wins"], data["win_rates"], strict=True)):
        low, high = rate["ci95"]
        table.add_row(f"seat {p}", str(wins), f"{rate['rate']:.3f}", f"{low:.3f} - {high:.3f}")
    low, high = data["draw_rate"]["ci95"]
    table.add_row(
        "draws", str(data["draws"]), f"{data['draw_rate']['rate']:.3f}", f"{low:.3f} - {high:.3f}"
    )
    if data["rotate"]:
        for name, rate in data["bot_win_rates"].items():
            low, high = rate["ci95"]
            table.add_row(
                f"bot {name}",
                str(data["wins_by_bot"][name]),
                f"{rate['rate']:.3f}",
                f"{low:.3f} - {high:.3f}",
            )
    out.print(table)
    if data.get("match"):
        stakes = Table(
            title=f"Matches of {counted(data['match'], 'deal')}, stakes {data['stakes']} (R21): "
            f"{data['matches']} {'match' if data['matches'] == 1 else 'matches'}{_cut_short(data)}"
        )
        for col in ("", "stake won per deal", "95% interval (over matches)"):
            stakes.add_column(col)
        for p, value in enumerate(data["stake_per_deal"]):
            stakes.add_row(f"seat {p}", f"{value:+.3f}", "")
        for name, entry in data["bot_stake_per_deal"].items():
            ci = entry["ci95"]
            stakes.add_row(
                f"bot {name}",
                f"{entry['mean']:+.3f}",
                "- (fewer than 2 matches)" if ci is None else f"{ci[0]:+.3f} to {ci[1]:+.3f}",
            )
        out.print(stakes)
