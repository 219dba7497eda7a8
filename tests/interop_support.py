"""Helpers for the interop tests: random matches and what a player must not see."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from analyzer.core.cards import format_card, iter_mask
from analyzer.interop.match import Match
from analyzer.core.dealing import deal
from analyzer.core.state import GameState


def random_states(variant: str, games: int, seed: int = 0) -> Iterator[GameState]:
    """Every position of ``games`` random deals (stock order known), decisions and turns alike."""
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        state = deal(variant, rng)
        while not state.is_terminal():
            yield state
            state = state.apply(rng.choice(state.legal_moves()))
        yield state


def random_matches(variant: str, games: int, seed: int = 0, every: int = 1) -> Iterator[Match]:
    """Every ``every``-th decision of ``games`` random matches (chance included), and the ends."""
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        match = Match.new(variant)
        k = 0
        while not match.is_terminal():
            if not match.is_chance_node():
                k += 1
                if k % every == 0:
                    yield match
            match = match.apply(rng.choice(match.legal_actions()))
        yield match


def secret_cards(match: Match, player: int) -> set[str]:
    """Texts of the cards ``player`` cannot know: the others' hands, minus the card he gave
    (R9), and the stock."""
    state = match.state
    assert state is not None
    known = 0
    if state.gave and state.gave[player] is not None:
        known |= 1 << state.gave[player]  # type: ignore[operator]
    if state.gifts and state.gifts[player] is not None:
        known |= 1 << state.gifts[player]  # type: ignore[operator]
    secret = 0
    for q, hand in enumerate(state.hands):
        if q != player and hand is not None:
            secret |= hand
    stock = state.stock_mask() or 0
    secret |= stock
    secret &= ~known
    return {format_card(c, state.rules.labels) for c in iter_mask(secret)}


def card_tokens(text: str) -> set[str]:
    """Every word of ``text``, brackets and punctuation aside."""
    return set(re.split(r"[\s\[\]|,;:]+", text)) - {""}


def readme_block(containing: str, path: str = "docs/openspiel.md") -> str:
    """The Python example of the user's documentation (docs/openspiel.md, which the README's
    extras section points to) that contains ``containing``."""
    from conftest import ROOT

    text = (ROOT / path).read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if containing in b]
    assert len(blocks) == 1, f"{len(blocks)} examples in {path} contain {containing!r}"
    return blocks[0]
