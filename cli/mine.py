"""``conquian puzzle --mine``: puzzles mined from game records or from self-play between bots.

The mining itself is :mod:`analyzer.analysis.mining`; this module reads the records (or plays the
self-play deals with :func:`analyzer.bots.game.play_game`, as ``conquian simulate`` does), writes
one puzzle file per puzzle into ``--out`` and reports (docs/puzzle-format.md, Mined puzzles).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzer.analysis.mining import Deal, Mined, MiningOptions, MiningStats, hidden_cards, mine
from analyzer.bots.game import game_seed, play_game, seating
from analyzer.core.cards import clip, counted
from analyzer.core.rules import PRESETS, Rules
from analyzer.formats.matches import replay_any
from analyzer.formats.records import RecordError
from cli.boundary import domain, usage
from cli.console import emit, err, note, out
from cli.inputs import input_text
from cli.outputs import output_directory
from cli.progress import progress

__all__ = ["SelfPlay", "mine_puzzles", "parse_samples", "puzzle_label"]

HIDDEN_NOTE = "it hides cards (a record from one player's view); mined puzzles need every card known"


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """The self-play deals to mine: ``games`` deals of ``rules`` between ``seats``, game ``i``
    dealt with ``game_seed(seed, i)`` as ``conquian simulate`` deals it."""

    rules: Rules
    seats: tuple[str, ...]
    games: int
    seed: int

    def deals(self) -> Iterator[Deal]:
        """The deals, played one at a time as the mining asks for them."""
        for index in range(self.games):
            seats = seating(self.seats, index, False)
            result = play_game(self.rules, seats, game_seed(self.seed, index), index)
            source = {"bots": list(seats), "seed": self.seed, "game": index}
            yield Deal(result.start, tuple(move for _, move in result.moves), source)


def parse_samples(text: str) -> tuple[int, ...]:
    """``--hint-samples``: comma-separated numbers of deals (``none`` or ``0``: no hint); a
    usage error names a bad entry."""
    if text.strip().lower() in ("none", "0"):
        return ()
    counts: list[int] = []
    for piece in text.split(","):
        piece = piece.strip()
        if not piece.isdigit() or not 1 <= int(piece) <= 10_000:
            usage(f"--hint-samples: {clip(piece)!r} is not a number of deals from 1 to 10000 (or none)")
        if int(piece) in counts:
            usage(f"--hint-samples: {piece} is given twice")
        counts.append(int(piece))
    return tuple(sorted(counts))


def puzzle_label(rules: Rules) -> str:
    """The file name stem of a variant's puzzles: the preset, with the player count when it is
    not the preset's (``megajogos-4p``)."""
    preset = PRESETS.get(rules.name)
    if preset is not None and preset.players != rules.players:
        return f"{rules.name}-{rules.players}p"
    return rules.name


def _record_paths(records: Sequence[str]) -> list[str]:
    """The record files named: each file as given, a directory's ``*.jsonl`` files in name
    order; a directory without records is a usage error."""
    paths: list[str] = []
    for text in records:
        if text != "-" and text.strip() and os.path.isdir(text):
            found = sorted(str(p) for p in Path(text).glob("*.jsonl") if p.is_file())
            if not found:
                usage(f"--mine: the directory {clip(text)!r} holds no records (*.jsonl)")
            paths += found
        else:
            paths.append(text)
    if paths.count("-") > 1:
        usage("--mine: standard input (-) is named twice")
    return paths


def _record_deals(records: Sequence[str]) -> tuple[list[Deal], list[str]]:
    """Every deal of the records (each replayed and checked, as ``conquian replay``), and the
    names of the records skipped because they hide cards (each noted on stderr)."""
    deals: list[Deal] = []
    skipped: list[str] = []
    for path in _record_paths(records):
        text, name = input_text(path, "record file")
        lines = text.splitlines()
        shown = "-" if name == "standard input" else Path(name).name
        try:
            replays, match = replay_any(lines)
        except RecordError as exc:
            domain(f"{name}: {exc}")
        if any(replay.view is not None or hidden_cards(replay.start) for replay in replays):
            note(f"skipped {name}: {HIDDEN_NOTE}")
            skipped.append(name)
            continue
        for k, replay in enumerate(replays, 1):
            source: dict[str, Any] = {"record": shown}
            if match is not None:
                source["deal"] = k
            deals.append(Deal(replay.start, tuple(replay.full_moves()), source))
    return deals, skipped


def _write(directory: Path, name: str, data: dict[str, Any]) -> None:
    """One puzzle file, written whole (a temporary file moved into place)."""
    path = directory / name
    tmp = directory / f".{name}.tmp"
    try:
        tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        domain(f"cannot write the puzzle {clip(str(path))!r}: {exc.strerror or exc}")


def mine_puzzles(
    records: Sequence[str],
    self_play: SelfPlay | None,
    out_dir: str,
    options: MiningOptions,
    *,
    count: int | None,
    as_json: bool,
) -> int:
    """Mine the records (or the self-play deals), write the puzzles into ``out_dir`` and report;
    the exit code: 0, or 130 when Ctrl-C stopped the mining (the puzzles found are kept)."""
    if records:
        deals, skipped = _record_deals(records)
        planned = len(deals)
        source: Iterator[Deal] = iter(deals)
    else:
        assert self_play is not None
        skipped, planned, source = [], self_play.games, self_play.deals()
    directory = output_directory(out_dir, "--out")
    stats = MiningStats()
    written: list[dict[str, Any]] = []
    numbers: dict[str, int] = {}
    interrupted = False
    bar = progress("deals, puzzles found: {task.fields[puzzles]}", as_json, transient=True)
    try:
        with bar:
            task = bar.add_task("deals", total=planned, puzzles=0)

            def advance(deal: Deal, found: list[Mined]) -> None:
                bar.update(task, advance=1, puzzles=stats.puzzles)

            for mined in mine(source, options, stats=stats, on_deal=advance):
                label = puzzle_label(mined.deal.start.rules)
                numbers[label] = numbers.get(label, 0) + 1
                name = f"{label}-{numbers[label]:03d}.json"
                _write(directory, name, mined.data)
                written.append(_summary(name, mined))
                if count is not None and len(written) >= count:
                    break
    except KeyboardInterrupt:
        interrupted = True
    data = {
        "out": str(directory),
        "puzzles": written,
        "deals": stats.deals,
        "deals_planned": planned,
        "skipped": skipped,
        "stats": stats.as_dict(),
        "options": {
            "max_stock": options.max_stock,
            "budget": options.budget,
            "per_deal": options.per_deal,
            "min_plies": options.min_plies,
            "hint_samples": list(options.samples),
            "seed": options.seed,
        },
        "interrupted": interrupted,
    }
    if as_json:
        emit(data)
    else:
        _report(data)
    if interrupted:
        err.print(f"interrupted after {stats.deals} of {planned} deals", markup=False)
        return 130
    return 0


def _summary(name: str, mined: Mined) -> dict[str, Any]:
    """A written puzzle in the report: its file, variant, theme and difficulty."""
    data = mined.data
    rules = mined.deal.start.rules
    difficulty = data["difficulty"]
    return {
        "file": name,
        "variant": rules.name,
        "players": rules.players,
        "theme": data["theme"],
        "plies": difficulty["plies"],
        "found_at": difficulty.get("found_at"),
        "source": data["source"],
    }


def _report(data: dict[str, Any]) -> None:
    """The mining in words: each puzzle written, then what the positions tested gave."""
    puzzles = data["puzzles"]
    out.print(
        f"Mined {counted(len(puzzles), 'puzzle')} from {counted(data['deals'], 'deal')}"
        + (f" ({counted(len(data['skipped']), 'record')} skipped: cards hidden)" if data["skipped"] else "")
        + f" into {data['out']}{':' if puzzles else '.'}",
        markup=False,
        soft_wrap=True,
    )
    for p in puzzles:
        hint = p["found_at"]
        found = (
            ""
            if not data["options"]["hint_samples"]
            else f"; the hint finds it with {hint} sampled deals"
            if hint is not None
            else "; the hint does not find it"
        )
        out.print(f"  {p['file']}: {p['theme']}, {p['plies']} {'ply' if p['plies'] == 1 else 'plies'} to the win{found}", markup=False)
    s = data["stats"]
    out.print(
        f"Tested {counted(s['tested'], 'position')} (at most {data['options']['max_stock']} stock cards, "
        f"two choices or more): {s['no_win']} with no winning choice, {s['several']} with several, "
        f"{s['unsure']} not a sure win, {s['unproven']} not proven within the budget, "
        f"{s['short']} too short, {s['repeated']} met before.",
        markup=False,
    )
