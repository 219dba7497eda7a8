"""Puzzles: a position with everything known plus a question, solved exactly.

A puzzle file is JSON (``docs/puzzle-format.md``)::

    {"type": "puzzle", "title": "...", "position": {...}, "question": {...}, "answer": {...}}

Questions (``question.kind``):

``win``
    "Win as player X": can X win under best play from here (double-dummy,
    R20)?  Answer: ``{"wins": bool, "moves": [...]}``, the moves of the
    player to act that keep the best result for him.
``best_pay``
    Which cards can the player to act pay (R13, R14) and keep the best
    result?  Answer: ``{"pays": [cards]}``.
``go_out_within``
    Can player X make sure he goes out (R15) within N of his own moves,
    whatever the others do?  Answer: ``{"possible": bool, "moves": [...]}``,
    the first moves that do it (when X is to act).
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analyzer.core.cards import clip, counted, format_card, parse_card
from analyzer.core.errors import ConquianError, PositionError
from analyzer.core.moves import LayIn, Move, Take, Turn, parse_move
from analyzer.core.state import GameState
from analyzer.formats.jsonio import json_text
from analyzer.formats.notation import looks_like_notation
from analyzer.formats.position import load_position, parse_json
from analyzer.formats.shape_errors import check_shape
from analyzer.formats.shapes import PuzzleFile
from analyzer.search.exact import Solver

__all__ = [
    "KINDS",
    "Puzzle",
    "PuzzleTry",
    "TryVerdict",
    "check_puzzle",
    "load_puzzle",
    "read_puzzle",
    "solve_puzzle",
]

KINDS = ("win", "best_pay", "go_out_within")


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A puzzle: a position and a question, with its stored answer if any.

    Attributes
    ----------
    title : str
    state : GameState
        Every hand and the stock order known.
    question : dict
        ``{"kind": ..., "player": int, "turns": int}`` as needed.
    answer : dict or None
        The stored answer, to be checked.
    info : dict
        The keys of a mined puzzle that are stored (``theme``, ``difficulty``, ``line``,
        ``source``; docs/puzzle-format.md, Mined puzzles).
    """

    title: str
    state: GameState
    question: dict[str, Any]
    answer: dict[str, Any] | None
    info: dict[str, Any] = field(default_factory=dict)


def load_puzzle(data: Any) -> Puzzle:
    """Build a :class:`Puzzle` from parsed JSON.

    Raises
    ------
    PositionError
        If the file is not a puzzle, has an unknown key or a value of the
        wrong type (naming the nearest known key), the question is malformed,
        or the position hides a hand or the stock order (a puzzle must be
        exact).
    """
    if not isinstance(data, dict) or data.get("type") != "puzzle":
        raise PositionError('not a puzzle: expected a JSON object with "type": "puzzle"')
    position = data.get("position")
    if isinstance(position, str) and looks_like_notation(position):
        # The one-line notation here is named as such, with the command that converts it.
        raise PositionError(
            "puzzle 'position' is the one-line notation; a puzzle holds the position as a JSON "
            "object: 'conquian notation \"LINE\" --json' prints it (its 'position' key)"
        )
    check_shape(PuzzleFile, data, "a puzzle")
    state = load_position(position)
    if any(h is None for h in state.hands) or (state.stock is None and state.stock_count > 0):
        raise PositionError("a puzzle position must show every hand and the stock order")
    question = data.get("question")
    if not isinstance(question, dict) or question.get("kind") not in KINDS:
        raise PositionError(f"puzzle question kind must be one of {', '.join(KINDS)}")
    kind = question["kind"]
    extra = [
        k for k in question
        if k != "kind" and k not in QUESTION_KEYS[kind] and not (isinstance(k, str) and k.startswith("x-"))
    ]  # fmt: skip
    if extra:
        others = ", ".join(QUESTION_KEYS[kind]) or "none"
        raise PositionError(
            f"puzzle 'question' has {clip(repr(extra[0]))}, not a key of a {kind!r} question "
            f"(its other keys: {others})"
        )
    n = state.rules.players
    if question["kind"] in ("win", "go_out_within"):
        player = question.get("player")
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < n:
            raise PositionError(f"puzzle question needs 'player' from 0 to {n - 1}")
    if question["kind"] == "go_out_within":
        turns = question.get("turns")
        if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 10:
            raise PositionError("'go_out_within' needs 'turns' from 1 to 10")
    answer = data.get("answer")
    if answer is not None:
        answer = _normalised_answer(answer, question["kind"], state)
    info = {key: data[key] for key in MINED_KEYS if key in data}
    return Puzzle(_title(data.get("title", "")), state, question, answer, info)


def _title(value: object) -> str:
    """The puzzle's title, refused if it holds a control character: it is printed to the
    terminal and into SVG pictures (XML cannot carry control characters).  A lone surrogate
    (a ``\\ud800`` escape) is kept: it is printed as its escape."""
    text = str(value)
    bad = next((ch for ch in text if unicodedata.category(ch) in ("Cc", "Zl", "Zp")), None)
    if bad is not None:
        what = "a control character" if unicodedata.category(bad) == "Cc" else "a line or paragraph separator"
        raise PositionError(
            f"puzzle 'title' {clip(ascii(text))} holds U+{ord(bad):04X}, {what}: "
            "a title is one line of printable text"
        )
    # Bidirectional embeddings, overrides and isolates reorder what follows them on the line
    # where the title is printed (a title that reads other than it is).
    bidi = next((ch for ch in text if 0x202A <= ord(ch) <= 0x202E or 0x2066 <= ord(ch) <= 0x2069), None)
    if bidi is not None:
        raise PositionError(
            f"puzzle 'title' {clip(ascii(text))} holds U+{ord(bidi):04X}, a bidirectional "
            "control character: a title is one line of printable text"
        )
    return text


MINED_KEYS = ("theme", "difficulty", "line", "source")
"""The optional keys of a mined puzzle (docs/puzzle-format.md, Mined puzzles)."""


QUESTION_KEYS = {
    "win": ("player",),
    "best_pay": (),
    "go_out_within": ("player", "turns"),
}
"""The keys a question may hold besides ``kind``, per kind (docs/puzzle-format.md)."""


ANSWER_KEYS = {
    "win": ("wins", "moves"),
    "best_pay": ("pays",),
    "go_out_within": ("possible", "moves"),
}
"""The keys a stored answer may hold, per question kind."""


def _normalised_answer(answer: Any, kind: str, state: GameState) -> dict[str, Any]:
    """The stored answer with moves and cards in canonical text, so that equal answers compare equal.

    Raises
    ------
    PositionError
        If the answer is not an object, has no key or an unknown key for the
        question, or holds a move or card that cannot be read.
    """
    allowed = ANSWER_KEYS[kind]
    if isinstance(answer, dict):
        answer = {k: v for k, v in answer.items() if not k.startswith("x-")}
    if not isinstance(answer, dict) or not answer:
        raise PositionError(f"puzzle 'answer' must be an object with some of: {', '.join(allowed)}")
    unknown = [k for k in answer if k not in allowed]
    if unknown:
        raise PositionError(
            f"puzzle 'answer' has {clip(repr(unknown[0]))}, not a key of a {kind!r} answer "
            f"({', '.join(allowed)})"
        )
    labels = state.rules.labels
    out: dict[str, Any] = {}
    for key, value in answer.items():
        if key in ("wins", "possible"):
            if not isinstance(value, bool):
                raise PositionError(f"puzzle answer {key!r} must be true or false")
            out[key] = value
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise PositionError(f"puzzle answer {key!r} must be a list of texts")
        try:
            if key == "moves":
                texts = [parse_move(v, labels).text(labels) for v in value]
            else:
                texts = [format_card(parse_card(v, labels), labels) for v in value]
        except ConquianError as exc:
            raise PositionError(f"puzzle answer {key!r}: {exc}") from None
        for i, text in enumerate(texts):
            if text in texts[:i]:
                what = "move" if key == "moves" else "card"
                raise PositionError(
                    f"puzzle answer {key!r} lists the {what} {clip(value[i], 60)!r} twice: "
                    "list answers are sets, give each once"
                )
        out[key] = sorted(texts)
    return out


def read_puzzle(path: str | Path) -> Puzzle:
    """Load a puzzle file.

    Raises
    ------
    PositionError
        If it cannot be read, is not JSON, or as :func:`load_puzzle`.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionError(f"cannot read {str(path)!r}: {exc}") from None
    return load_puzzle(parse_json(text, repr(str(path)), "a puzzle"))


def _best_moves(state: GameState, solver: Solver) -> tuple[list[Move], float, bool, int]:
    """The moves of the player to act that reach his best expected result (R20),
    that result, whether every solve was proven, and the positions searched."""
    player = state.current_player()
    scored: list[tuple[Move, float]] = []
    proven = True
    nodes = 0
    for move in state.legal_moves():
        result = solver.solve(state.apply(move, check=False))
        proven &= result.proven
        nodes += result.nodes
        scored.append((move, result.values[player]))
    best = max(v for _, v in scored)
    return [m for m, v in scored if v >= best - 1e-9], best, proven, nodes


def _go_out_within(
    state: GameState, player: int, turns: int, solver: Solver, memo: dict[Any, bool]
) -> bool:
    """AND-OR search: can ``player`` be sure to go out within ``turns`` more own moves (R15)?"""
    if state.is_terminal():
        return state.winner == player and state.melded(player) == state.rules.target
    if solver.tick():
        return False
    key = (state, turns)
    if key in memo:
        return memo[key]
    if state.is_chance_node():
        result = all(
            _go_out_within(state.apply(m, check=False), player, turns, solver, memo)
            for m, _ in state.chance_outcomes()
        )
    elif state.current_player() == player:
        result = turns > 0 and any(
            _go_out_within(state.apply(m, check=False), player, turns - 1, solver, memo)
            for m in state.legal_moves()
        )
    else:
        result = all(
            _go_out_within(state.apply(m, check=False), player, turns, solver, memo)
            for m in state.legal_moves()
        )
    memo[key] = result
    return result


def solve_puzzle(
    puzzle: Puzzle, *, max_nodes: int = 2_000_000, time_limit: float = 60.0
) -> dict[str, Any]:
    """Answer the puzzle's question exactly.

    Returns
    -------
    dict
        The answer in the puzzle format, plus ``proven`` (bool) and ``nodes``.

    Raises
    ------
    ConquianError
        If the question does not fit the position (no move to choose, no
        pay choice).
    """
    state = puzzle.state
    labels = state.rules.labels
    solver = Solver(max_nodes=max_nodes, time_limit=time_limit)
    kind = puzzle.question["kind"]
    if kind == "go_out_within":
        player, turns = puzzle.question["player"], puzzle.question["turns"]
        solver.start_budget()
        memo: dict[Any, bool] = {}
        possible = _go_out_within(state, player, turns, solver, memo)
        moves: list[str] = []
        if possible and state.current_player() == player:
            moves = sorted(
                m.text(labels)
                for m in state.legal_moves()
                if _go_out_within(state.apply(m, check=False), player, turns - 1, solver, memo)
            )
        return {
            "possible": possible,
            "moves": moves,
            "proven": not solver.exhausted,
            "nodes": solver.nodes,
        }
    if state.is_terminal() or state.is_chance_node():
        raise ConquianError("the puzzle position has no move to choose")
    best, value, proven, nodes = _best_moves(state, solver)
    if kind == "win":
        player = puzzle.question["player"]
        root = solver.solve(state)
        wins = root.outcome[player] > 1 - 1e-9
        return {
            "wins": wins,
            "moves": sorted(m.text(labels) for m in best)
            if state.current_player() == player or wins
            else [],
            "value": value,
            "proven": proven and root.proven,
            "nodes": nodes + root.nodes,
        }
    pays = sorted({m.pay for m in best if isinstance(m, (Take, LayIn)) and m.pay is not None})
    if not any(isinstance(m, (Take, LayIn)) and m.pay is not None for m in state.legal_moves()):
        raise ConquianError("the player to act has no card to pay here")
    return {
        "pays": [format_card(c, labels) for c in pays],
        "value": value,
        "proven": proven,
        "nodes": nodes,
    }


def _not_legal(state: GameState, key: str, texts: list[str]) -> list[str]:
    """The stored moves (or pay cards) of ``texts`` that no legal move at the root makes (R11-R16)."""
    labels = state.rules.labels
    if key == "moves":
        return [t for t in texts if not state.is_legal(parse_move(t, labels))]
    if key == "pays":
        payable = {
            format_card(m.pay, labels)
            for m in state.legal_moves()
            if isinstance(m, (Take, LayIn)) and m.pay is not None
        }
        return [t for t in texts if t not in payable]
    return []


def _line_problems(puzzle: Puzzle) -> list[str]:
    """What is wrong with a mined puzzle's stored ``line``: a move that cannot be read or is
    illegal where it comes (R8-R19), a first move that is not one of the answer's moves, an end
    that is not the question player's win (R15, R18), or a ply count (turns left out, R10) that
    is not the difficulty's ``plies``."""
    state, labels = puzzle.state, puzzle.state.rules.labels
    line = puzzle.info["line"]
    plies = 0
    for k, text in enumerate(line, 1):
        try:
            move = parse_move(text, labels)
        except ConquianError as exc:
            return [f"line: move {k}: {exc}"]
        if not state.is_legal(move):
            return [f"line: move {k} {clip(text, 60)!r} is illegal where it comes ({state.describe()})"]
        if k == 1 and puzzle.answer and "moves" in puzzle.answer and move.text(labels) not in puzzle.answer["moves"]:
            return [f"line: its first move {clip(text, 60)!r} is not one of the answer's moves"]
        plies += not isinstance(move, Turn)
        state = state.apply(move)
    player = puzzle.question.get("player")
    if player is not None and (not state.is_terminal() or state.winner != player):
        return [f"line: it does not end with player {player}'s win; it ends: {state.describe()}"]
    stored = (puzzle.info.get("difficulty") or {}).get("plies")
    if stored is not None and stored != plies:
        return [f"difficulty: 'plies' is {stored}, but the line has {plies} (turns not counted)"]
    return []


def check_puzzle(puzzle: Puzzle, found: dict[str, Any]) -> list[str]:
    """Differences between the stored answer and ``found`` (empty when they agree or no answer is stored).

    Lists are compared as sets of moves or cards, whatever their order,
    case or spacing in the file.  Call it only with a proven answer.  A mined puzzle's stored
    ``line`` is checked too (:func:`_line_problems`).
    """
    problems = _line_problems(puzzle) if "line" in puzzle.info else []
    if puzzle.answer is None:
        return problems
    for key, expected in puzzle.answer.items():
        got = found.get(key)
        if isinstance(expected, list) and isinstance(got, list):
            # Name the difference in full: two long lists clipped alike would hide it.
            lacks, extra = sorted(set(got) - set(expected)), sorted(set(expected) - set(got))
            parts = [f"the stored answer lacks {json.dumps(lacks, ensure_ascii=False)}"] if lacks else []
            illegal = _not_legal(puzzle.state, key, extra)
            extra = [e for e in extra if e not in illegal]
            if extra:
                parts.append(f"it lists {json.dumps(extra, ensure_ascii=False)}, which the solver does not find")
            if illegal:
                # An illegal stored move is named as illegal, not only as not found by the solver.
                what = "no legal move pays" if key == "pays" else "illegal here"
                parts.append(f"it lists {json.dumps(illegal, ensure_ascii=False)}, {what}")
            if parts:
                problems.append(f"{key}: " + "; ".join(parts))
        elif expected != got:
            problems.append(f"{key}: expected {json_text(expected)}, found {json_text(got)}")
    return problems


@dataclass(frozen=True, slots=True)
class TryVerdict:
    """A move tried in a puzzle, judged by the exact search (R19, R20).

    Attributes
    ----------
    right : bool
        The move keeps the best result the question asks about.
    why : str
        One line in words: what the move leads to under best play, and what the best does.
    best : tuple of Move
        The moves that keep the best result here.
    proven : bool
        False when a search ran out of budget (the verdict is then an estimate).
    """

    right: bool
    why: str
    best: tuple[Move, ...]
    proven: bool


def _result(values: tuple[float, ...], outcome: tuple[float, ...]) -> str:
    """What an exact outcome vector means in words (R18, R20)."""
    winner = next((p for p, chance in enumerate(outcome[:-1]) if chance > 1 - 1e-9), None)
    if winner is not None:
        return f"player {winner} wins"
    if outcome[-1] > 1 - 1e-9:
        return "the deal is a draw"
    return "the result is uncertain"  # an unproven estimate


@dataclass
class PuzzleTry:
    """Playing a puzzle oneself: the seat of the question (for ``best_pay`` the player to act)
    plays, each of his moves judged against the exact solution; the solution plays the other
    seats, and the stock is turned in its known order (R10).

    The try is over when the deal ends, after the one move of a ``best_pay`` question, and for
    ``go_out_within`` when the player went out, used his moves, or can no longer be sure to.
    """

    puzzle: Puzzle
    max_nodes: int = 2_000_000
    time_limit: float = 60.0
    state: GameState = field(init=False)
    player: int = field(init=False)
    moves_made: int = 0
    wrong: int = 0
    _solver: Solver = field(init=False)

    def __post_init__(self) -> None:
        self.state = self.puzzle.state
        question = self.puzzle.question
        self.player = question.get("player", self.state.current_player())
        if question["kind"] == "best_pay":
            self.player = self.state.current_player()
        self._solver = Solver(max_nodes=self.max_nodes, time_limit=self.time_limit)

    def _turns_left(self) -> int:
        return int(self.puzzle.question.get("turns", 0)) - self.moves_made

    def over(self) -> bool:
        """True when the try has ended (see the class)."""
        state, kind = self.state, self.puzzle.question["kind"]
        if state.is_terminal():
            return True
        if kind == "best_pay":
            return self.moves_made > 0
        if kind == "go_out_within" and self.moves_made:
            return self._turns_left() <= 0 or not self._can_go_out(state, self._turns_left())
        return False

    def yours(self) -> bool:
        """True when the player of the try is to choose."""
        return not self.over() and not self.state.is_chance_node() and self.state.current_player() == self.player

    def _can_go_out(self, state: GameState, turns: int) -> bool:
        self._solver.start_budget()
        return _go_out_within(state, self.player, turns, self._solver, {})

    def reply(self) -> Move:
        """Play and return the next move that is not the player's: the stock card turned (R10),
        or the solution's move for another seat (its best line, R20)."""
        state = self.state
        if state.is_chance_node():
            move = state.chance_outcomes()[0][0]
        else:
            line = self._solver.solve(state, player=self.player).pv
            move = line[0] if line else state.legal_moves()[0]
        self.state = state.apply(move)
        return move

    def judge(self, move: Move) -> TryVerdict:
        """Judge a legal move of the player against every other (R19, R20), without playing it."""
        state, me = self.state, self.player
        if self.puzzle.question["kind"] == "go_out_within":
            return self._judge_going_out(move)
        scored: dict[Move, tuple[float, str]] = {}
        proven = True
        for m in state.legal_moves():
            result = self._solver.solve(state.apply(m, check=False), player=me)
            proven &= result.proven
            scored[m] = (result.values[me], _result(result.values, result.outcome))
        top = max(v for v, _ in scored.values())
        best = tuple(m for m, (v, _) in scored.items() if v >= top - 1e-9)
        words = scored[move][1]
        if move in best:
            others = len(best) - 1
            also = f" ({counted(others, 'other move')} as good)" if others else ""
            return TryVerdict(True, f"after it {words} under best play, the best result here{also}", best, proven)
        return TryVerdict(
            False,
            # The better move is not named: the answer stays hidden until asked for.
            f"after it {words} under best play; another move does better here: "
            f"{scored[best[0]][1]}",
            best,
            proven,
        )

    def _judge_going_out(self, move: Move) -> TryVerdict:
        state, turns = self.state, self._turns_left()
        fine = tuple(
            m for m in state.legal_moves()
            if self._can_go_out(state.apply(m, check=False), turns - 1)
        )  # fmt: skip
        proven = not self._solver.exhausted
        if turns == 1:  # his last move: only going out itself will do (R15)
            good, bad, other = "it goes out (R15)", "it does not go out, and it was his last move", "goes out"
        else:
            later = f"within {turns - 1} more of his moves"
            good = f"after it player {self.player} can still make sure he goes out {later}"
            bad = f"after it player {self.player} cannot make sure he goes out {later}"
            other = "can"
        if move in fine:
            return TryVerdict(True, good, fine, proven)
        if not fine:
            return TryVerdict(False, f"{bad}, and no move here can: the answer is no", fine, proven)
        can = "another move goes out" if other == "goes out" else "another move can"
        return TryVerdict(False, f"{bad}; {can}", fine, proven)

    def play(self, move: Move) -> None:
        """Play the player's move (R11-R16)."""
        self.state = self.state.apply(move)
        self.moves_made += 1
