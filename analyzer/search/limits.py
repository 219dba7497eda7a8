"""The ranges of the whole-number options of the searches: budgets, samples, seeds.

Every front end checks its options against these before any search, with the same bounds
whichever core runs it: the command line (``--budget``, ``--samples``, ...: a usage error, exit
2), the engine's and the HTTP API's requests (:mod:`analyzer.service.fields`: an error answer
naming the field) and the bot options (``hint:node_budget=N``:
:func:`analyzer.bots.base.bot_option`).  The native core takes a budget as a 64-bit integer, so a
number past ``2**63 - 1`` cannot reach it; the bounds below keep every option far inside that,
and a search that obeys them ends (docs/engine.md, "Limits of the number fields").
"""

from __future__ import annotations

__all__ = ["MAX_CHOICES", "MAX_DEPTH", "MAX_POSITIONS", "MAX_SAMPLES", "MAX_SEED", "MAX_SPREAD"]

MAX_POSITIONS = 10**12
"""Most positions of one search's budget: ``budget``, ``prove``, the bots' ``node_budget``,
``max_nodes`` and ``budget`` (a million times the default ``solve`` budget)."""

MAX_SAMPLES = 100_000
"""Most sampled deals or IS-MCTS iterations of one request: ``samples``, ``card_samples``, the
bots' ``samples``, ``iterations``, ``playouts``, ``simulations`` and ``rollouts`` (the ``v3``
hint's own cap, :data:`analyzer.analysis.engines.DECIDE_CAP`)."""

MAX_SEED = 2**63 - 1
"""Largest seed (``--seed``, ``seed``): the seeds of a match's deals are below ``2**63``
(:func:`analyzer.bots.game.game_seed`), and a record or the board keeps a seed as it is."""

MAX_DEPTH = 1_000
"""Deepest lookahead iteration (the bots' ``max_depth``, in offers): past the length of any deal."""

MAX_SPREAD = 40
"""Most stock cards a lookahead turn averages over (the bots' ``spread``): the deck has 40."""

MAX_CHOICES = 10_000
"""Most legal moves of a position a sampled hint searches (each deal searches every choice): the
presets' positions have a few hundred at most; custom rules such as ``hand_size`` 19 can give tens
of thousands (the board ranks a static hint up to the same number)."""
