"""Shape errors in a reader's words: :func:`check_shape` turns a pydantic validation error
into one line that names the key, its path and the nearest known key (``unknown key 'toAct';
did you mean 'to_act'?``)."""

from __future__ import annotations

import difflib
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from analyzer.core.cards import clip
from analyzer.core.errors import ConquianError, PositionError
from analyzer.formats.jsonio import json_text
from analyzer.formats.shapes import NOTE_PREFIX

__all__ = ["check_shape", "nearest_key", "nested_key"]

_M = TypeVar("_M", bound=BaseModel)

_SYNONYMS = {
    "passed": "declined",
    "declines": "declined",
    "toact": "to_act",
    "player_to_act": "to_act",
    "turn": "to_act",
    "melds": "layout",
    "cards": "hand",
    "center": "centre",
    "centre_card": "centre",
    "deck": "stock",
    "discard": "dead",
    "discards": "dead",
    "forced_player": "forced",
    "from": "source",
    "player": "source",
    "label": "labels",
    "game": "variant",
    "preset": "variant",
}


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models inside a field's annotation (through Optional, list, Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        found += _models_in(arg)
    return found


def _model_at(model: Any, loc: list[str | int]) -> list[type[BaseModel]]:
    """The models whose object sits at ``loc`` below ``model`` (several for a union)."""
    current = _models_in(model)
    for part in loc:
        if isinstance(part, int):
            continue
        nxt: list[type[BaseModel]] = []
        for m in current:
            field = m.model_fields.get(part)
            if field is not None:
                nxt += _models_in(field.annotation)
        current = nxt
    return current


def _path(loc: list[str | int]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _is_list(annotation: Any) -> bool:
    """True if the annotation is a list (through Optional and Annotated)."""
    if typing.get_origin(annotation) is list:
        return True
    return any(_is_list(arg) for arg in typing.get_args(annotation) if arg is not type(None))


def _key_one_level_down(model: Any, parent: list[str | int], key: str) -> str | None:
    """The path of ``key`` in an object one level below ``parent`` that has it
    (``players[i].paid`` for a ``paid`` key given beside ``players``), or None."""
    norm = key.replace("-", "_").lower()
    for m in _model_at(model, parent):
        for name, field in m.model_fields.items():
            for child in _models_in(field.annotation):
                if norm in child.model_fields:
                    base = _path([*parent, name])
                    return f"{base}[i].{norm}" if _is_list(field.annotation) else f"{base}.{norm}"
    return None


def _nearest(key: str, known: list[str]) -> str | None:
    norm = key.replace("-", "_").lower()
    if norm in known:
        return norm
    synonym = _SYNONYMS.get(norm) or _SYNONYMS.get(norm.replace("_", ""))
    if synonym in known:
        return synonym
    squashed = {k.replace("_", ""): k for k in known}
    if norm.replace("_", "") in squashed:
        return squashed[norm.replace("_", "")]
    close = difflib.get_close_matches(norm, known, n=1, cutoff=0.6)
    return close[0] if close else None


def nearest_key(key: str, known: list[str]) -> str | None:
    """The known key ``key`` was most likely meant to be (a synonym, a spelling), or ``None``."""
    return _nearest(key, known)


def nested_key(model: Any, key: str) -> str | None:
    """The path of ``key`` one level below the top of ``model`` (``players[i].paid`` for a
    position's ``paid``), or ``None`` when no object there has that key."""
    return _key_one_level_down(model, [], key)


_got = json_text


_CARD_FIELDS = {"hand", "layout", "dead", "stock", "card", "gave", "chosen", "pays"}

_MESSAGES = {
    "list_type": "must be a list",
    "string_type": "must be a text",
    "int_type": "must be a whole number",
    "float_type": "must be a number",
    "bool_type": "must be true or false",
    "model_type": "must be a JSON object",
    "dict_type": "must be a JSON object",
    "model_attributes_type": "must be a JSON object",
}


def _is_key(data: Any, loc: list[str | int], text: Any) -> bool:
    """True if ``text`` is a key of the object at ``loc`` in ``data`` (not a value)."""
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return False
    return isinstance(data, dict) and isinstance(text, str) and text in data


def _describe(error: Any, model: Any, what: str, data: Any = None) -> str:
    loc = [p for p in error["loc"] if not (isinstance(p, str) and p.startswith("<"))]
    kind = error["type"]
    if kind == "string_unicode" and _is_key(data, loc, error.get("input")):
        # A key holding a lone surrogate (a "\\ud800" escape): no known key does.
        kind, loc = "extra_forbidden", [*loc, error["input"]]
    where = _path(loc) or what
    if kind == "extra_forbidden":
        key = str(loc[-1])
        parent = loc[:-1]
        known = sorted(
            {name for m in _model_at(model, parent) for name in m.model_fields}
        )
        place = f" in {_path(parent)}" if parent else ""
        near = _nearest(key, known)
        if near is not None:
            return f"unknown key {clip(key)!r}{place}; did you mean {near!r}?"
        deeper = _key_one_level_down(model, parent, key)
        if deeper is not None:
            return f"unknown key {clip(key)!r}{place}; did you mean {deeper!r} (it belongs one level down)?"
        return (
            f"unknown key {clip(key)!r}{place} (known: {', '.join(known)}; "
            f"notes go in keys starting with {NOTE_PREFIX!r})"
        )
    if kind == "null_value":
        return f"{where} must not be null: leave the key out for its default, or give a value"
    if kind == "missing":

        return f"missing key {str(loc[-1])!r}" + (f" in {_path(loc[:-1])}" if loc[:-1] else "")
    got = _got(error.get("input"))
    ctx = error.get("ctx") or {}
    named = [p for p in loc if isinstance(p, str)]
    if kind == "string_type" and named and named[-1] in _CARD_FIELDS:
        return f'{where} must be a card, a text such as "7H" or "10o", got {got}'
    if kind in _MESSAGES:
        return f"{where} {_MESSAGES[kind]}, got {got}"
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace("'", '"')
        return f"{where} must be {expected}, got {got}"
    if kind == "greater_than_equal":
        return f"{where} must be at least {ctx.get('ge')}, got {got}"
    if kind == "less_than_equal":
        return f"{where} must be at most {ctx.get('le')}, got {got}"
    if kind == "cards_or_count":
        return f"{where} {error['msg']}, got {got}"
    if kind == "string_unicode":
        return f"{where} must be text without a lone surrogate escape (such as \\ud800), got {got}"
    return f"{where}: {error['msg'][:1].lower()}{error['msg'][1:]}, got {got}"


def check_shape(
    model: type[_M],
    data: Any,
    what: str,
    error: type[ConquianError] = PositionError,
) -> _M:
    """Check the JSON shape of ``data`` against ``model``: keys, nesting and JSON types.

    Parameters
    ----------
    model : type
        One of the models of this module.
    data : Any
        Parsed JSON.
    what : str
        What the data is, for a message about the whole of it ("a position").
    error : type
        The exception class to raise.

    Returns
    -------
    model
        The validated data.

    Raises
    ------
    ConquianError
        Of class ``error``, one line naming the first offending key or value
        with its path (``players[0].layout``) and, for an unknown key, the
        nearest known key.
    """
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as exc:
        # An unknown key explains a missing one ('toAct' for 'to_act'): name it first.
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        raise error(_describe(errors[0], model, what, data)) from None
