"""The module paths of conquian 0.1, kept for one release as deprecated aliases.

Up to 0.1 the library was 33 flat modules (``analyzer.position``,
``analyzer.advisor``, ...); they now live in the layer sub-packages
(docs/architecture.md).  Importing an old path still works: it gives a module
holding the names of its new homes, and warns once with
:class:`DeprecationWarning` naming them.  ``analyzer.search`` and
``analyzer.bots`` are packages now and export what the old modules did.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any

__all__ = ["MOVED", "install"]

MOVED: dict[str, tuple[str, ...]] = {
    "cards": ("core.cards",),
    "rules": ("core.rules",),
    "melds": ("core.melds",),
    "moves": ("core.moves",),
    "errors": ("core.errors",),
    "state": ("core.state", "core.offers", "core.legal"),
    "partition": ("solver.partition",),
    "choice": ("solver.choice",),
    "why": ("solver.why",),
    "schema": ("formats.shapes", "formats.shape_errors", "formats.jsonio"),
    "position": ("formats.position", "formats.sniff", "core.dealing", "core.plain"),
    "notation": ("formats.notation",),
    "records": ("formats.records",),
    "meldfile": ("formats.meldfile",),
    "lookahead": ("search.lookahead",),
    "playout": ("search.playout",),
    "mcts": ("search.mcts", "bots.searchbots"),
    "sampling": ("search.sampling",),
    "reading": ("search.inference",),
    "evaluation": ("search.evaluation",),
    "multipv": ("search.allmoves",),
    "tree": ("search.tree",),
    "stats": ("search.stats",),
    "hints": ("analysis.static", "core.melds"),
    "advisor": ("analysis.advisor",),
    "review": ("analysis.review",),
    "puzzles": ("analysis.puzzles",),
    "hintbot": ("bots.searchbots",),
    "response": ("bots.reply",),
    "simulate": ("bots.simulate", "bots.game"),
    "deals": ("bots.deals",),
}
"""Old module name (under ``analyzer.``) -> its new homes, first the main one."""


def _public(module: ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    return list(names) if names is not None else [n for n in vars(module) if not n.startswith("_")]


class _Loader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return ModuleType(spec.name)

    def exec_module(self, module: ModuleType) -> None:
        old = module.__name__.removeprefix("analyzer.")
        homes = [importlib.import_module(f"analyzer.{new}") for new in MOVED[old]]
        for home in reversed(homes):  # the main home's names win
            for name in _public(home):
                setattr(module, name, getattr(home, name))

        def __getattr__(name: str) -> Any:  # private names, for code that reached into them
            for home in homes:
                if hasattr(home, name):
                    return getattr(home, name)
            raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")

        module.__getattr__ = __getattr__  # type: ignore[method-assign]
        module.__all__ = sorted({n for home in homes for n in _public(home)})  # type: ignore[attr-defined]
        module.__doc__ = f"Deprecated alias of {', '.join(h.__name__ for h in homes)}."
        where = " and ".join(h.__name__ for h in homes)
        warnings.warn(
            f"{module.__name__} is deprecated: import from {where} (removed after 0.2)",
            DeprecationWarning,
            stacklevel=2,
        )


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        prefix, _, old = fullname.partition(".")
        if prefix != "analyzer" or old not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader())


def install() -> None:
    """Make the old module paths importable (idempotent)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
