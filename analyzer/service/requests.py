"""The request protocol of ``conquian engine`` and of the board's HTTP API: :func:`answer` reads
one JSON request and gives its answer.

The protocol (``docs/engine.md``) follows KataGo's JSON analysis engine: one
JSON object per line each way, a required ``id`` echoed in every answer,
answers in the order of the requests, errors as answers naming the ``field``
(the engine goes on), control requests by an ``action`` field.  Every
``result`` is what the command's ``--json`` prints (:mod:`analyzer.service.results`).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable
from typing import Any

from analyzer.analysis.advisor import (
    DEFAULT_ENGINE,
    check_open,
)
from analyzer.analysis.static import static_hints
from analyzer.core.cards import Labels, format_mask, mask_of, parse_cards, text_labels
from analyzer.core.errors import ConquianError, IllegalMoveError, PositionError
from analyzer.core.rules import PRESETS, get_rules
from analyzer.core.stakes import StakeRule, Standing, default_stakes
from analyzer.core.state import GameState
from analyzer.formats.jsonio import (
    TOO_DEEP,
    DuplicateKeyError,
    NumberTooLongError,
    json_error_text,
    load_json,
)
from analyzer.formats.shape_errors import nearest_key
from analyzer.search.allmoves import solve_moves
from analyzer.search.anytime import DEFAULT_PROVE, DEFAULT_SAMPLES, solve_anytime
from analyzer.search.equilibrium import DEFAULT_MAX_NODES
from analyzer.search.exact import solve as search_solve
from analyzer.search.guarantees import guarantees
from analyzer.search.limits import MAX_POSITIONS, MAX_SAMPLES, MAX_SEED
from analyzer.service import board, endgames
from analyzer.service.fields import (
    PROGRESS,
    RequestError,
    get_bool,
    get_engine,
    get_float,
    get_int,
    get_labels,
    get_position,
    get_text,
    get_value,
)
from analyzer.service.hint_extras import cards_data, cards_only_data, with_lines
from analyzer.service.hints import CARD_OPTIONS, HINT_ONLY, SAMPLING, HintOptionError, HintOptions
from analyzer.service.record_requests import record_request, review_request
from analyzer.service.results import (
    ANYTIME_TIME_LIMIT,
    EXACT_TIME_LIMIT,
    GUARANTEE_UNUSED,
    all_moves_data,
    analyze_data,
    anytime_data,
    arrangement_data,
    guarantees_data,
    hint_data,
    needs_anytime,
    notation_data,
    solve_data,
    solve_notes,
    static_data,
    why_data,
)
from analyzer.solver.partition import solve_arrangement
from analyzer.solver.why import explain

__all__ = ["COMMANDS", "MAX_INPUT", "PROTOCOL", "RequestError", "answer", "error_answer"]

MAX_INPUT = 32 * 1024 * 1024
"""Most bytes of one request (a line of ``conquian engine``, a file the command line reads)."""

PROTOCOL = 1
"""Version of the request and answer format (``docs/engine.md``)."""


# ------------------------------------------------------------------ commands
def _analyze(request: dict[str, Any]) -> dict[str, Any]:
    state, _ = get_position(request)
    return analyze_data(state)


def _notation(request: dict[str, Any]) -> dict[str, Any]:
    state, _ = get_position(request)
    return notation_data(state)


def _hint(request: dict[str, Any]) -> dict[str, Any]:
    state, _ = get_position(request)
    top = get_int(request, "top", 0, 1) if "top" in request else None
    given = frozenset(k for k in (*SAMPLING, *CARD_OPTIONS, *HINT_ONLY) if k in request)
    static, cards = get_bool(request, "static"), get_bool(request, "cards")
    # A static hint does not read the sampling fields (they only get a note), except those the
    # card table reads: the seed, the engine and 'read'.
    sampled, drawn = not static, not static or cards
    options = HintOptions(
        static=static,
        open_hands=get_bool(request, "open"),
        samples=get_int(request, "samples", None, 1, MAX_SAMPLES) if sampled else None,
        seed=get_int(request, "seed", 0, 0, MAX_SEED) if drawn else 0,
        time_limit=get_float(request, "time_limit", math.inf, 0.05) if sampled else math.inf,
        budget=(get_int(request, "budget", 0, 100, MAX_POSITIONS) or None) if sampled else None,
        engine=get_engine(request) if drawn else DEFAULT_ENGINE,
        read=get_bool(request, "read") if drawn and "read" in request else None,
        cards=cards,
        line=get_bool(request, "line"),
        view=get_int(request, "view", None, 0),
        card_samples=get_int(request, "card_samples", None, 1, MAX_SAMPLES),
        given=given,
    )
    try:
        found = options.check(state)
    except HintOptionError as exc:
        if exc.option == "view":
            raise RequestError(f"'view' {exc}", "view") from None
        raise RequestError(f"'{exc.option}' {exc}: use 'samples'", exc.option) from None
    if options.cards_only:  # the card table alone, from the seat 'view'
        notes = [
            f"'{key}' has no effect with \"view\": the card table alone is given, no hint"
            for key in found.cards_only
        ]
        data = cards_only_data(state, options.whereabouts(state))
        return {**data, "notes": notes} if notes else data
    notes = [
        f"'{key}' has no effect with \"static\": true (a one-move evaluation, without sampling)"
        for key in found.static
    ]
    notes += [
        f"'{key}' has no effect with \"open\": true and the stock order given: there is one "
        "deal, the position itself, and nothing is sampled"
        for key in found.one_deal
    ]
    if found.read_open:
        notes.append("'read' has no effect with \"open\": true (every hand is used as given)")
    if found.line_static:
        notes.append("'line' has no effect with \"static\": true (no search, so no line)")
    notes += [f"'{key}' has no effect without \"cards\": true" for key in found.no_cards]
    solved = None
    exact = get_bool(request, "exact")
    if exact and (options.static or options.open_hands):
        notes.append(f"'exact' has no effect with \"{'static' if options.static else 'open'}\": true")
    elif exact:
        solved, note = endgames.exact_hint_data(state, get_bool(request, "read"))
        notes += [note] if note else []
    elif options.by_default(state) and (found_eq := endgames.auto_hint(state, bool(options.read))) is not None:
        solved = endgames.solved_hint_data(state, found_eq, read=bool(options.read))
    if solved is not None:
        # Not "seed": the board sends one with every hint, and it is harmless here.
        unread = sorted((options.given & {"samples", "time_limit", "budget", "engine"}) | ({"line"} if options.line else set()))
        notes += [f"'{key}' has no effect: the endgame was solved, nothing sampled" for key in unread]
        if top:
            solved = {**solved, "moves": solved["moves"][:top]}
    if solved is not None:
        data = solved
    elif options.static:
        if options.open_hands:
            check_open(state)
        data = static_data(state, static_hints(state, own_view=not options.open_hands), top=top)
    else:
        advice = options.advise(state, progress=PROGRESS.get())
        data = hint_data(state, advice, seed=options.seed, open_hands=options.open_hands, top=top)
        if options.line:
            shown = [e.move for e in (advice.estimates[:top] if top else advice.estimates)]
            data = with_lines(state, advice, data, options.lines(state, advice, shown))
    if options.cards:
        data["cards"] = cards_data(state, options.whereabouts(state))
    return {**data, "notes": notes} if notes else data


def _solve(request: dict[str, Any]) -> dict[str, Any]:
    state, _ = get_position(request)
    if get_bool(request, "guarantees"):
        return _guarantees(request, state)
    if None in state.hands:  # a view: the endgame's equilibrium (docs/solve.md)
        solved = endgames.solve_view_data(state, get_int(request, "budget", DEFAULT_MAX_NODES, 1, MAX_POSITIONS), get_bool(request, "read"))
        unread = sorted(request.keys() & {"time_limit", "mode", "all_moves", "samples", "seed", "prove", "exact"})
        notes = [f"'{key}' has no effect on a view (the endgame's equilibrium)" for key in unread]
        return {**solved, "notes": notes} if notes else solved
    if get_bool(request, "read"):
        return {**_solve({k: v for k, v in request.items() if k != "read"}),
                "notes": ["'read' has no effect with every hand known"]}  # fmt: skip
    budget = get_int(request, "budget", 2_000_000, 1, MAX_POSITIONS)
    mode = get_text(request, "mode", "auto").lower()
    if mode not in ("auto", "maxn", "paranoid"):
        raise RequestError(f"'mode' must be auto, maxn or paranoid, got {mode!r}", "mode")
    # As `conquian solve`: a key with no effect here is noted ("notes"), not refused.
    exact = get_bool(request, "exact")
    given = {key: key in request for key in ("samples", "seed", "prove")}
    notes = solve_notes(state, {**given, "mode": mode != "auto", "exact": exact}, "'{}'".format)
    if state.rules.players == 2:
        mode = "auto"  # the same search either way (noted when given)
    all_moves = get_bool(request, "all_moves")
    data: dict[str, Any]
    if needs_anytime(state) and not exact:
        result = solve_anytime(
            state,
            samples=get_int(request, "samples", DEFAULT_SAMPLES, 1, MAX_SAMPLES),
            seed=get_int(request, "seed", 0, 0, MAX_SEED),
            prove=get_int(request, "prove", DEFAULT_PROVE, 0, MAX_POSITIONS),
            mode=mode,
            max_nodes=budget,
            time_limit=get_float(request, "time_limit", ANYTIME_TIME_LIMIT, 0.01),
        )
        data = anytime_data(state, result, all_moves=all_moves)
    else:
        time_limit = get_float(request, "time_limit", EXACT_TIME_LIMIT, 0.01)
        if all_moves:
            values = solve_moves(state, mode=mode, max_nodes=budget, time_limit=time_limit)
            data = all_moves_data(state, values)
        else:
            result_exact = search_solve(state, mode=mode, max_nodes=budget, time_limit=time_limit)
            data = solve_data(state, result_exact)
    if notes:
        data["notes"] = notes
    return data


def _guarantees(request: dict[str, Any], state: GameState) -> dict[str, Any]:
    """``solve`` with ``"guarantees": true``: each player's guarantee (``solve --guarantees``)."""
    found = guarantees(
        state,
        max_nodes=get_int(request, "budget", 2_000_000, 1, MAX_POSITIONS),
        time_limit=get_float(request, "time_limit", EXACT_TIME_LIMIT, 0.01),
    )
    data = guarantees_data(state, found)
    unread = sorted(request.keys() & {*GUARANTEE_UNUSED, "read"})
    if unread:
        data["notes"] = [f"'{key}' has no effect with 'guarantees'" for key in unread]
    return data


def _why(request: dict[str, Any]) -> dict[str, Any]:
    state, own = get_position(request)
    move = get_text(request, "move")
    try:
        explanation = explain(state, move, labels=own)
    except IllegalMoveError as exc:
        raise RequestError.about(exc, "move") from None
    return why_data(
        state,
        explanation,
        samples=get_int(request, "samples", None, 1, MAX_SAMPLES),
        seed=get_int(request, "seed", 0, 0, MAX_SEED),
        time_limit=get_float(request, "time_limit", math.inf, 0.05),
        view=get_bool(request, "view"),
    )


def _card_text(request: dict[str, Any], key: str) -> str:
    if key not in request:
        if key == "must":
            return ""
        raise RequestError(f"'{key}' is missing: cards as text, e.g. \"5H 6H 7H\"", key)
    value = request[key]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    text: str = get_value(request, key, (str,), "cards as text or a list of card texts")
    return text


def _melds(request: dict[str, Any]) -> dict[str, Any]:
    try:
        rules = get_rules(get_text(request, "variant", "classic"))
    except ConquianError as exc:
        raise RequestError(str(exc), "variant") from None
    labels = get_labels(request)
    cards, must = _card_text(request, "cards"), _card_text(request, "must")
    if not cards.replace(",", " ").split():
        raise RequestError("'cards': no cards given", "cards")
    try:
        read_in = text_labels(
            f"{cards} {must}".replace(",", " ").split(), labels or rules.reading_default
        )
    except ConquianError as exc:
        raise RequestError.about(exc, "cards") from None
    masks = []
    for key, text in (("cards", cards), ("must", must)):
        try:
            masks.append(mask_of(parse_cards(text, read_in)))
        except ConquianError as exc:
            raise RequestError.about(exc, key) from None
    mask, need = masks
    lab = labels or read_in
    if need & ~mask:
        raise RequestError(f"'must' cards not among 'cards': {format_mask(need & ~mask, lab)}", "must")
    result = solve_arrangement(mask, rules, must=need)
    return {**arrangement_data(result, lab), "variant": rules.name, "labels": str(lab)}


# ------------------------------------------------------- the web board's commands
def _moves(request: dict[str, Any]) -> dict[str, Any]:
    state, _ = get_position(request)
    return board.moves_data(state)


def _deal(request: dict[str, Any]) -> dict[str, Any]:
    try:
        rules = get_rules(get_text(request, "variant", "classic"))
    except ConquianError as exc:
        raise RequestError(str(exc), "variant") from None
    players = get_int(request, "players", None, 2, 4)
    if players is not None:
        try:
            rules = rules.with_players(players)
        except ValueError as exc:
            raise RequestError(f"players: {exc}", "players") from None
    options = request.get("rules")
    if options is not None:
        # Rule options on top of the variant, as a position's 'rules' (RULES.md section 4).
        if not isinstance(options, dict) or "players" in options:
            raise RequestError(
                "'rules' must be an object of rule options (the player count is 'players')", "rules"
            )
        try:
            rules = rules.with_options(options)
        except ValueError as exc:
            raise RequestError(f"rules: {exc}", "rules") from None
    labels = get_labels(request)
    if labels is not None:
        rules = rules.with_labels(labels)
    seed = get_int(request, "seed", 0, 0, MAX_SEED)
    after = get_int(request, "after", 0, 0, board.MAX_PLIES)
    dealer = get_int(request, "dealer", None, 0, rules.players - 1)
    seat = get_int(request, "seat", None, 0, rules.players - 1)
    try:
        return board.deal_data(rules, seed, after, dealer, seat)
    except ConquianError as exc:
        raise RequestError(f"after: {exc}", "after") from None


def _move(request: dict[str, Any], state: GameState) -> Any:
    try:
        return board.read_move(state, get_text(request, "move"))
    except IllegalMoveError as exc:
        raise RequestError.about(exc, "move") from None


def _bot_names(request: dict[str, Any], state: GameState) -> list[str]:
    others = state.rules.players - 1
    value = request.get("bots", "greedy")
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")] if "," in value else [value.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RequestError("'bots' must be a bot name or a list of bot names", "bots")
    if len(value) == 1:
        value = value * others
    if len(value) != others:
        raise RequestError(f"'bots' must name 1 or {others} bots (one per other seat)", "bots")
    try:
        board.check_bots(value, state.rules)
    except ConquianError as exc:
        raise RequestError(f"bots: {exc}", "bots") from None
    names: list[str] = value
    return names


def _play(request: dict[str, Any]) -> dict[str, Any]:
    state, _ = get_position(request)
    seat = get_int(request, "seat", None, 0, state.rules.players - 1)
    if seat is None and "bots" in request:
        raise RequestError("'bots' play the seats other than 'seat': give 'seat' too", "bots")
    bots = _bot_names(request, state) if seat is not None else []
    move = _move(request, state) if "move" in request else None
    if move is not None and seat is not None and not state.is_chance_node() and state.to_act != seat:
        raise RequestError(
            f"move: it is player {state.to_act}'s move (a bot's), not seat {seat}'s", "move"
        )
    if move is None and seat is None:
        raise RequestError("'move' is missing: the move to play (or 'seat' to let bots play)", "move")
    try:
        return board.play_data(state, move, seat, bots, get_int(request, "seed", 0, 0, MAX_SEED))
    except PositionError as exc:
        raise RequestError.about(exc, "position") from None


def _examples(request: dict[str, Any]) -> dict[str, Any]:
    return board.examples_data(get_labels(request))


def _variants(request: dict[str, Any]) -> dict[str, Any]:
    # The presets with every option, their player counts and the stake rule of a match (R21).
    return {
        "variants": [
            {**rules.as_dict(), "stakes": str(default_stakes(rules))} for rules in PRESETS.values()
        ],
        "stakes": [str(rule) for rule in StakeRule],
    }


def _standing(request: dict[str, Any]) -> dict[str, Any]:
    # A match's standing after the deals won by 'winners' (null: a draw), R21: the board keeps
    # the winners and asks here, so the stakes are counted in one place.
    players = get_int(request, "players", 2, 2, 4)
    dealer = get_int(request, "dealer", 0, 0, players - 1)
    rule = get_text(request, "stakes", "single")
    winners = request.get("winners", [])
    if not isinstance(winners, list) or not all(
        w is None or (isinstance(w, int) and not isinstance(w, bool)) for w in winners
    ):
        raise RequestError("'winners' must be a list of seats or null (a draw)", "winners")
    if len(winners) > 10_000:
        raise RequestError("'winners' lists at most 10000 deals", "winners")
    try:
        standing = Standing.start(rule, players, dealer)
        history = [standing]
        for winner in winners:
            history.append(history[-1].after(winner))
    except ValueError as exc:
        field = "stakes" if "stake rule" in str(exc) else "winners"
        raise RequestError(str(exc), field) from None
    return {
        **history[-1].as_dict(),
        "won": [list(after.won(before)) for before, after in itertools.pairwise(history)],
        # The scores if the match ends here: a pool left goes back in equal shares (R21).
        "closed": list(history[-1].closed().scores),
    }


def _puzzle(request: dict[str, Any]) -> dict[str, Any]:
    name = get_text(request, "name")
    move = get_text(request, "move") if "move" in request else None
    try:
        return board.puzzle_data(name, move, get_bool(request, "reveal"), get_labels(request))
    except IllegalMoveError as exc:
        raise RequestError.about(exc, "move") from None
    except PositionError as exc:
        raise RequestError(str(exc), "name") from None


COMMANDS: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any]], frozenset[str]]] = {
    "analyze": (_analyze, frozenset({"position"})),
    "melds": (_melds, frozenset({"cards", "must", "variant"})),
    "hint": (
        _hint,
        frozenset(
            {
                "position", "static", "samples", "seed", "time_limit", "budget", "engine", "open",
                "top", "read", "cards", "line", "view", "card_samples", "exact",
            }
        ),
    ),
    "solve": (
        _solve,
        frozenset(
            {"position", "budget", "time_limit", "mode", "all_moves", "samples", "seed", "prove"}
            | {"exact", "read", "guarantees"}
        ),
    ),
    "why": (_why, frozenset({"position", "move", "samples", "seed", "time_limit", "view"})),
    "notation": (_notation, frozenset({"position"})),
    "deal": (_deal, frozenset({"variant", "players", "rules", "seed", "after", "dealer", "seat"})),
    "moves": (_moves, frozenset({"position"})),
    "play": (_play, frozenset({"position", "move", "seat", "bots", "seed"})),
    "record": (record_request, frozenset({"position", "moves", "players", "seed", "view", "text", "deal"})),
    "review": (
        review_request,
        frozenset({"record", "samples", "seed", "time_limit", "budget", "engine", "deal", "view"}),
    ),
    "examples": (_examples, frozenset()),
    "variants": (_variants, frozenset()),
    "standing": (_standing, frozenset({"players", "dealer", "stakes", "winners"})),
    "puzzle": (_puzzle, frozenset({"name", "move", "reveal"})),
}
"""Every command of the engine: its handler and the request fields it reads (besides ``id``,
``cmd`` and ``labels``)."""

ACTIONS = ("query_version", "quit")
"""Control requests, by their ``action`` field."""

_COMMON = frozenset({"id", "cmd", "labels"})


_LONG_NUMBER = object()
"""Stands for a whole number with more digits than Python converts, in :func:`_readable_id`."""


def _whole(text: str) -> Any:
    try:
        return int(text)
    except ValueError:  # the digit limit
        return _LONG_NUMBER


def _readable_id(line: str) -> Any:
    """The request's 'id' when the line is JSON whose only faults are a key given twice or a
    number too long to read, and the id itself is given once and can be echoed (a string or a
    finite number), else None."""
    pairs: list[list[tuple[str, Any]]] = []

    def keep(items: list[tuple[str, Any]]) -> dict[str, Any]:
        pairs.append(items)
        return dict(items)

    try:
        top = json.loads(line, object_pairs_hook=keep, parse_int=_whole)
    except (ValueError, RecursionError):
        return None
    if not isinstance(top, dict) or not pairs:
        return None
    ids = [value for key, value in pairs[-1] if key == "id"]  # the outer object is built last
    if len(ids) != 1 or isinstance(ids[0], bool) or not isinstance(ids[0], (str, int, float)):
        return None
    if isinstance(ids[0], float) and not math.isfinite(ids[0]):
        return None
    return ids[0]


def answer(
    line: str,
    *,
    labels: Labels | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, Any], bool]:
    """The answer to one request line, and whether the engine stops after it (``quit``).

    Never raises for a bad request: every problem is an answer with
    ``"ok": false``, the ``error`` message and the ``field`` it is about.

    Parameters
    ----------
    line : str
        One request, a JSON object (``docs/engine.md``).
    labels : Labels, optional
        The answer's card labels when the request has none (R2).
    progress : callable, optional
        Called with (done, planned) as a ``hint`` samples deals or a ``review`` its decisions.

    Returns
    -------
    answer : dict
        ``{"id", "ok": true, "result"}`` or ``{"id", "ok": false, "error", "field"}``.
    stop : bool
        True after a ``quit`` action.
    """
    request_id: Any = None
    try:
        try:
            request = load_json(line, constants=True)  # a NaN field is named by its check
        except DuplicateKeyError as exc:
            request_id = _readable_id(line)
            raise RequestError(f"the request is not usable: {exc}: write it once") from None
        except NumberTooLongError as exc:
            # The id is echoed even here, so that the client can match the answer.
            request_id = _readable_id(line)
            raise RequestError(f"the request is not usable: {exc}") from None
        except RecursionError:
            # Valid JSON, too deep for the reader: said as positions and records say it.
            raise RequestError(f"the request is {TOO_DEEP}") from None
        except ValueError as exc:
            reason = json_error_text(exc) if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise RequestError(f"the request is not valid JSON: {reason}") from None
        if not isinstance(request, dict):
            raise RequestError("a request is a JSON object with 'id' and 'cmd'")
        request_id = request.get("id")
        if "id" not in request or isinstance(request_id, (bool, dict, list)) or request_id is None:
            if "id" in request:
                kind = {bool: "true or false", dict: "an object", list: "a list"}.get(
                    type(request_id), "null"
                )
                request_id = None
                raise RequestError(f"'id' must be a string or a number, not {kind}", "id")
            raise RequestError("every request needs an 'id': a string or a number", "id")
        if isinstance(request_id, float) and not math.isfinite(request_id):
            # NaN, or a number too large for a double (1e400): echoed it would not be JSON.
            request_id = None
            raise RequestError(
                "'id' must be a string or a finite number: NaN, Infinity and numbers too "
                "large for a double (such as 1e400) cannot be echoed in JSON",
                "id",
            )
        if "action" in request:
            return _action(request, request_id)
        if "cmd" not in request:
            raise RequestError(f"'cmd' is missing: one of {', '.join(COMMANDS)}", "cmd")
        cmd = request["cmd"]
        if not isinstance(cmd, str) or cmd not in COMMANDS:
            raise RequestError(
                f"unknown command {json.dumps(cmd)[:40]}: one of {', '.join(COMMANDS)}", "cmd"
            )
        handler, fields = COMMANDS[cmd]
        for key in request:
            if key not in fields and key not in _COMMON:
                known = sorted(fields | _COMMON)
                near = nearest_key(str(key), known)
                hint = f"; did you mean {near!r}?" if near else ""
                raise RequestError(
                    f"unknown field {key!r} for {cmd!r}{hint} (known: {', '.join(known)})", key
                )
        # 'labels' is common to every command: checked here, also where nothing shows cards
        # (variants, standing), so that a bad value is refused on every command alike.
        get_labels(request)
        if labels is not None and request.get("labels") is None:
            request = {**request, "labels": str(labels)}
        token = PROGRESS.set(progress)
        try:
            result = handler(request)
        finally:
            PROGRESS.reset(token)
    except RequestError as exc:
        return _error(request_id, str(exc), exc.field), False
    except RecursionError:
        return _error(request_id, "the request is nested too deeply to read", None), False
    except ConquianError as exc:
        field = exc.option
        if field is None and isinstance(exc, PositionError) and "position" in request:
            field = "position"  # a position that parses but this command cannot answer
        return _error(request_id, exc.request_message or str(exc), field), False
    except Exception as exc:  # the engine goes on whatever one request does
        return _error(request_id, f"internal error: {type(exc).__name__}: {exc}", None), False
    return {"id": request_id, "ok": True, "result": result}, False


def _action(request: dict[str, Any], request_id: Any) -> tuple[dict[str, Any], bool]:
    action = request["action"]
    for key in request:
        if key not in ("id", "action"):
            near = nearest_key(str(key), ["action", "id"])
            hint = f"; did you mean {near!r}?" if near else ""
            raise RequestError(f"unknown field {key!r} for an action{hint} (known: action, id)", key)
    if action == "query_version":
        from importlib.metadata import version

        result = {
            "version": version("conquian"),
            "protocol": PROTOCOL,
            "commands": list(COMMANDS),
            "actions": list(ACTIONS),
        }
        return {"id": request_id, "ok": True, "result": result}, False
    if action == "quit":
        return {"id": request_id, "ok": True, "result": {}}, True
    raise RequestError(
        f"unknown action {json.dumps(action)[:40]}: one of {', '.join(ACTIONS)}", "action"
    )


def _error(request_id: Any, message: str, field: str | None) -> dict[str, Any]:
    return {"id": request_id, "ok": False, "error": message, "field": field}


def error_answer(request_id: Any, message: str, field: str | None) -> dict[str, Any]:
    """The answer of a request that failed: ``ok`` false, the message and the field it names."""
    return _error(request_id, message, field)
