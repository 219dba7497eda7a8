"""``conquian puzzle``: answer a puzzle exactly and check its stored answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Annotated, Any

import typer

from analyzer.analysis.mining import HINT_SAMPLES, MiningOptions
from analyzer.analysis.puzzles import Puzzle, PuzzleTry, check_puzzle, load_puzzle, solve_puzzle
from analyzer.core.cards import Labels, clip, counted, format_card, parse_card
from analyzer.core.moves import Move, Pass, Turn, parse_move
from analyzer.core.plain import dump_position, relabel
from analyzer.core.state import GameState
from analyzer.search.limits import MAX_SEED
from cli.boundary import DOMAIN, domain, usage
from cli.console import emit, note, out
from cli.inputs import bots_arg, input_text, json_input, rules_of
from cli.mine import SelfPlay, mine_puzzles, parse_samples
from cli.options import (
    BudgetOpt,
    ForceOpt,
    JsonOpt,
    LabelsOpt,
    PlayersOpt,
    RulesOpt,
    TimeOpt,
    VariantOpt,
    given_options,
)
from cli.outputs import maybe, svg_file
from cli.play import Quit, list_moves, typed_move
from cli.show import symbols_fit, table_lines
from cli.svg import position_svg

__all__ = ["puzzle"]

_HINT_SAMPLES = ",".join(str(k) for k in HINT_SAMPLES)
_MINING = MiningOptions()
"""The mining's defaults (--max-stock, --per-deal, --min-plies, --budget with --mine)."""


def puzzle(
    ctx: typer.Context,
    files: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="FILE | RECORDS...",
            help="Puzzle JSON file, or -. With --mine: game or match records (JSON lines), or "
            "directories of them (their *.jsonl files), to mine; none: self-play (--games).",
            show_default=False,
        ),
    ] = None,
    budget: BudgetOpt = 2_000_000,
    time_limit: TimeOpt = 60.0,
    svg: Annotated[
        str | None,
        typer.Option(
            "--svg",
            metavar="FILE",
            help="Also write an SVG picture of the puzzle's position (as 'conquian show --svg'), "
            "for a puzzle page; checked before the work.",
        ),
    ] = None,
    force: ForceOpt = False,
    labels: LabelsOpt = None,
    as_json: JsonOpt = False,
    trying: Annotated[
        bool,
        typer.Option(
            "--try",
            help="Play the puzzle's moves yourself at a prompt, each checked against the proven "
            "solution, which plays the other seats; the answer is shown when you type 'answer' "
            "(or '?') or finish.",
        ),
    ] = False,
    mining: Annotated[
        bool,
        typer.Option(
            "--mine",
            help="Mine puzzles from the RECORDS, or from --games self-play deals: positions where "
            "exactly one choice wins, proven (docs/puzzle-format.md, Mined puzzles); with --mine, "
            "--budget is per exact search and defaults to 200000.",
        ),
    ] = False,
    out_dir: Annotated[
        str | None,
        typer.Option("--out", metavar="DIR", help="--mine: the new or empty directory of the puzzle files."),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option("--games", "-n", min=1, metavar="N", help="--mine: self-play deals to play and mine."),
    ] = None,
    variant: VariantOpt = "classic",
    players: PlayersOpt = None,
    rules_options: RulesOpt = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar="BOTS",
            help="--mine self-play: one bot for every seat, or one per seat, comma-separated "
            "(as simulate); default: greedy at every seat.",
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            min=0,
            max=MAX_SEED,
            metavar="S",
            help="--mine: the seed of the self-play deals (game i dealt as simulate's) and of the "
            "difficulty's hints: same seed, same puzzles.",
        ),
    ] = 0,
    max_stock: Annotated[
        int,
        typer.Option(
            "--max-stock", min=0, max=40, metavar="K",
            help="--mine: positions with at most K stock cards (near the end: quick proofs).",
        ),
    ] = _MINING.max_stock,
    per_deal: Annotated[
        int,
        typer.Option("--per-deal", min=1, metavar="K", help="--mine: most puzzles from one deal."),
    ] = _MINING.per_deal,
    min_plies: Annotated[
        int,
        typer.Option(
            "--min-plies", min=1, metavar="N",
            help="--mine: puzzles with at least N plies to the win (1 keeps a move that goes out at once).",
        ),
    ] = _MINING.min_plies,
    count: Annotated[
        int | None,
        typer.Option("--count", min=1, metavar="N", help="--mine: stop after N puzzles."),
    ] = None,
    hint_samples: Annotated[
        str,
        typer.Option(
            "--hint-samples",
            metavar="LIST",
            help="--mine: the sampled deals of the difficulty's hints, comma-separated, or none.",
        ),
    ] = _HINT_SAMPLES,
) -> None:
    """Solve a puzzle, and check its stored answer if it has one; or, with --mine, mine puzzles
    from game records or self-play.

    Exit 1 when the stored answer is wrong, or when the search could not prove the answer
    within the budget (the stored answer is then not judged). With --try, also when the input
    ends before the puzzle does.

    With --mine, every position near the end of a deal (--max-stock) where exactly one choice of
    the player to act wins, proven by the exact search, becomes a puzzle file in --out, with its
    theme and difficulty: 'conquian puzzle --mine game.jsonl --out DIR', or self-play:
    'conquian puzzle --mine --games 50 --variant megajogos --seed 3 --out DIR'.
    """
    mining_names = (
        "out_dir", "games", "variant", "players", "rules_options", "bots", "seed", "max_stock",
        "per_deal", "min_plies", "count", "hint_samples",
    )  # fmt: skip
    if mining:
        code = _mine(ctx, files or [], budget, out_dir, games, variant, players, rules_options, bots,
                     seed, max_stock, per_deal, min_plies, count, hint_samples, trying, svg, as_json)  # fmt: skip
        if code:
            raise typer.Exit(code)
        return
    if not files:
        usage("Missing argument 'FILE'.")
    if len(files) > 1:
        usage(
            f"Got unexpected extra argument(s) ({' '.join(clip(f) for f in files[1:])}): give one "
            "puzzle FILE (--mine reads several records)"
        )
    (file,) = files
    for option in given_options(ctx, *mining_names):
        note(f"{option} has no effect without --mine")
    if trying and as_json:
        usage("--try plays at a prompt and --json prints the answer as data: give one")
    target = svg_file(svg, force=force, inputs=[file])
    with maybe(target):
        text, name = input_text(file, "puzzle file")
        puz = load_puzzle(json_input(text, name, "a puzzle"))
        if target is not None:
            pictured = relabel(puz.state, labels)
            caption = f"{puz.title}: {pictured.describe()}" if puz.title else pictured.describe()
            target.write_text(position_svg(dump_position(pictured), caption=caption, over=pictured.is_terminal()) + "\n")
            target.commit()
    found = solve_puzzle(puz, max_nodes=budget, time_limit=time_limit)
    verified = bool(found["proven"])
    problems = check_puzzle(puz, found) if verified else []
    own = puz.state.rules.labels
    lab = labels or own
    shown = _relabelled(found, own, lab)
    if trying and not verified:
        domain(
            "--try needs the proven solution, and the search could not prove it within the "
            "budget: raise --budget or --time-limit"
        )
    data = {
        "title": puz.title,
        "question": puz.question,
        "answer": shown,
        "checked": puz.answer is not None and verified,
        "correct": None if puz.answer is None or not verified else not problems,
        "problems": problems,
        **_relabelled_info(puz.info, own, lab),
    }
    if as_json:
        emit(data)
    else:
        state = relabel(puz.state, lab)
        out.print(f"Puzzle: {puz.title or name}: {state.describe()}.", markup=False)
        out.print(f"Question: {_question_text(puz.question)}", markup=False)
        if trying and not _try(puz, state, budget, time_limit, lambda: _answer(shown, found, state)):
            return  # left at the prompt: the answer stays hidden
        _answer(shown, found, state)
        if puz.answer is not None and not verified:
            out.print("The stored answer was not checked: the search ran out of budget.")
        elif puz.answer is not None or problems:
            out.print(
                "The stored answer is correct." if not problems else "The stored answer is WRONG:"
            )
            for line in problems:
                out.print(f"  {line}", markup=False)
        if puz.info:
            _mined(puz.info, own, lab)
        if svg is not None:
            out.print(f"Wrote the picture of the position to {svg}.", markup=False, soft_wrap=True)
    if problems or not verified:
        raise typer.Exit(DOMAIN)


def _mine(
    ctx: typer.Context,
    records: list[str],
    budget: int,
    out_dir: str | None,
    games: int | None,
    variant: str,
    players: int | None,
    rules_options: str | None,
    bots: str | None,
    seed: int,
    max_stock: int,
    per_deal: int,
    min_plies: int,
    count: int | None,
    hint_samples: str,
    trying: bool,
    svg: str | None,
    as_json: bool,
) -> int:
    """``--mine``: check the options (usage errors, exit 2; options with no effect noted), then
    mine (:func:`cli.mine.mine_puzzles`); the exit code."""
    if trying or svg is not None:
        usage(
            f"--mine writes puzzle files into --out and {'--try' if trying else '--svg'} is about "
            "one puzzle: give one"
        )
    if out_dir is None:
        usage("--mine needs --out DIR, the new or empty directory to write the puzzles into")
    if not records and games is None:
        usage("--mine needs game RECORDS to mine, or --games N for self-play deals")
    samples = parse_samples(hint_samples)
    for option in given_options(ctx, "time_limit", "labels", "force"):
        note(f"{option} has no effect with --mine (the searches are bounded by --budget positions)"
             if option == "--time-limit" else f"{option} has no effect with --mine")  # fmt: skip
    self_play = None
    if records:
        for option in given_options(ctx, "games", "variant", "players", "rules_options", "bots"):
            note(f"{option} has no effect with RECORDS: the records give the deals")
    else:
        rules = rules_of(variant, players, rules_options)
        names = bots_arg(bots or "greedy", rules=rules)
        if len(names) not in (1, rules.players):
            usage(f"{rules.name} has {rules.players} seats: give 1 or {rules.players} bots")
        seats = tuple(names * rules.players if len(names) == 1 else names)
        assert games is not None
        self_play = SelfPlay(rules, seats, games, seed)
    given_budget = bool(given_options(ctx, "budget"))
    options = MiningOptions(
        max_stock=max_stock,
        budget=budget if given_budget else _MINING.budget,
        per_deal=per_deal,
        min_plies=min_plies,
        samples=samples,
        seed=seed,
    )
    return mine_puzzles(records, self_play, out_dir, options, count=count, as_json=as_json)


def _answer(shown: dict[str, Any], found: dict[str, Any], state: GameState) -> None:
    """The proven (or not) answer, one key a line."""
    out.print(f"Answer ({'proven' if found['proven'] else 'NOT proven'}, {found['nodes']} positions):")
    for key, value in shown.items():
        if key == "value":
            # The best expected result of the player to act (R20), whoever the question asks about.
            key = f"value for player {state.to_act} (to act)"
        if key not in ("proven", "nodes"):
            out.print(f"  {key}: {_human(value)}", markup=False)


def _try(puz: Puzzle, start: GameState, budget: int, time_limit: float, answer: Callable[[], None]) -> bool:
    """The player plays the puzzle at a prompt, each move judged by the exact search (R19,
    R20); a wrong move is not played, so he may try again.  False when he left ('quit')."""
    trial = PuzzleTry(replace(puz, state=start), max_nodes=budget, time_limit=time_limit)
    lab = start.rules.labels
    me = trial.player
    out.print(
        f"You play player {me}'s moves; the solution plays the others'. Type a move or its "
        "number, 'moves', 'answer' (or '?') to see the answer, 'quit' to leave.",
        markup=False,
    )
    tried = False  # a wrong move was tried here: the position is not drawn again
    try:
        while not trial.over():
            if not trial.yours():
                mover = trial.state.to_act  # on a turn, the player who turns (R10)
                move = trial.reply()
                if isinstance(move, Turn):
                    out.print(f"player {mover} turns {format_card(move.card, lab)} (R10)", markup=False)
                else:
                    out.print(f"player {mover} (solution): {move.text(lab)}", markup=False)
                continue
            if trial.state.legal_moves() == [Pass()]:
                # His only move (R12): played for him, as 'conquian play' does.
                out.print(f"you pass (your only move; {trial.state.describe()})", markup=False)
                trial.play(Pass())
                tried = False
                continue
            move = _ask(trial, answer, fresh=not tried)
            verdict = trial.judge(move)
            tried = not verdict.right and bool(verdict.best)
            sure = "" if verdict.proven else " (not proven within the budget)"
            if verdict.right:
                out.print(f"Right: {verdict.why}{sure}.", markup=False)
                trial.play(move)
            elif not verdict.best:  # no move would do: the try ends with it
                out.print(f"Wrong: {verdict.why}{sure}.", markup=False)
                trial.play(move)
            else:
                trial.wrong += 1
                out.print(f"Wrong: {verdict.why}{sure}. Try again, or type 'answer'.", markup=False)
    except Quit:
        out.print("Puzzle left.")
        return False
    except EOFError:
        out.print()  # ends the prompt's line
        domain("the input ended before the puzzle did")
    tries = "every move right" if not trial.wrong else f"{counted(trial.wrong, 'wrong try')} on the way"
    out.print(f"Done ({trial.state.describe()}): {tries}.", markup=False)
    return True


def _ask(trial: PuzzleTry, answer: Callable[[], None], *, fresh: bool) -> Move:
    """The player's next legal move, typed at the prompt; a ``fresh`` position is drawn first."""
    state = trial.state
    moves = state.legal_moves()
    if fresh:
        for line in table_lines(dump_position(state), state.describe(), glyphs=symbols_fit()):
            out.print(line)
        list_moves(moves, state.rules.labels)
    while True:
        text = out.input("[bold]your move>[/bold] ").strip()
        word = text.lower()
        if not text:
            continue
        if word in ("quit", "exit"):
            raise Quit
        if word in ("answer", "?"):
            answer()
            continue
        if word in ("moves", "help"):
            list_moves(moves, state.rules.labels)
            continue
        move = typed_move(text, moves, state)
        if isinstance(move, str):
            out.print(move, markup=False)
            continue
        return move


def _relabelled_info(info: dict[str, Any], own: Labels, labels: Labels) -> dict[str, Any]:
    """A mined puzzle's stored keys (theme, difficulty, line, source) with its moves in the
    output labels (R2)."""
    if labels == own or not info:
        return info
    info = json.loads(json.dumps(info))  # a copy to relabel

    def moved(text: str) -> str:
        return parse_move(text, own).text(labels)

    if isinstance(info.get("line"), list):
        info["line"] = [moved(m) for m in info["line"]]
    for entry in (info.get("difficulty") or {}).get("hint") or []:
        entry["move"] = moved(entry["move"])
    if isinstance((info.get("source") or {}).get("played"), str):
        info["source"]["played"] = moved(info["source"]["played"])
    return info


def _mined(info: dict[str, Any], own: Labels, labels: Labels) -> None:
    """A mined puzzle's theme, difficulty, line and source, after the answer."""
    info = _relabelled_info(info, own, labels)
    parts = [f"theme {info['theme'].replace('_', ' ')}"] if "theme" in info else []
    difficulty = info.get("difficulty") or {}
    if "plies" in difficulty:
        plies = difficulty["plies"]
        parts.append(f"{plies} {'ply' if plies == 1 else 'plies'} to the win")
    if difficulty.get("hint"):
        tries = ", ".join(f"{h['samples']}: {'yes' if h['found'] else 'no'}" for h in difficulty["hint"])
        parts.append(f"the hint finds the move with sampled deals {tries}")
    if parts:
        out.print(f"Mined puzzle: {'; '.join(parts)}.", markup=False)
    if info.get("line"):
        out.print(f"Line: {', '.join(info['line'])}.", markup=False)
    source = info.get("source") or {}
    if source:
        where = (
            f"record {source['record']}" + (f", deal {source['deal']}" if "deal" in source else "")
            if "record" in source
            else f"self-play game {source.get('game')} of seed {source.get('seed')}"
            + (f" ({', '.join(source['bots'])})" if source.get("bots") else "")
        )
        move = f", before move {source['move']}" if "move" in source else ""
        played = f" (played there: {source['played']})" if "played" in source else ""
        out.print(f"Source: {where}{move}{played}.", markup=False)


def _relabelled(found: dict[str, Any], own: Labels, labels: Labels) -> dict[str, Any]:
    """The answer's moves and cards in the output labels (R2)."""
    if labels == own:
        return found
    shown = dict(found)
    if "moves" in shown:
        shown["moves"] = [parse_move(m, own).text(labels) for m in shown["moves"]]
    if "pays" in shown:
        shown["pays"] = [format_card(parse_card(c, own), labels) for c in shown["pays"]]
    return shown


def _human(value: Any) -> str:
    """An answer value as a person reads it: yes/no, one move after another; never Python."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(str(v) for v in value) if value else "none"
    if isinstance(value, float):
        return f"{value:+.3f}"
    return str(value)


def _question_text(question: dict[str, Any]) -> str:
    kind = question["kind"]
    if kind == "win":
        return f"can player {question['player']} win under best play, and with which moves?"
    if kind == "best_pay":
        return "which pay cards keep the best result?"
    return f"can player {question['player']} go out within {question['turns']} of his moves?"
