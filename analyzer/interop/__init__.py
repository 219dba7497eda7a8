"""Bridges to other libraries: OpenSpiel, PettingZoo and Ray.

Each bridge module imports its library lazily and says which extra installs
it; nothing else in :mod:`analyzer` imports those libraries.

==============================  ==========================  =============================
module                          what it gives               install
==============================  ==========================  =============================
:mod:`analyzer.interop.codec`   engine moves <-> integers   (no extra)
:mod:`analyzer.interop.match`   a deal with explicit        (no extra)
                                chance, histories, views
:mod:`analyzer.interop.openspiel`  ``python_conquian``      ``pip install conquian[openspiel]``
:mod:`analyzer.interop.ismcts`  the ``ismcts`` bot          ``pip install conquian[openspiel]``
:mod:`analyzer.interop.pettingzoo`  an AEC environment      ``pip install conquian[pettingzoo]``
:mod:`analyzer.interop.ray`     the Ray simulate backend    ``pip install conquian[ray]``
==============================  ==========================  =============================
"""

from __future__ import annotations

import importlib
from types import ModuleType

from analyzer.core.errors import MissingExtraError

__all__ = ["MissingExtraError", "missing_extra", "require"]


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module``, or say in one line which extra installs it.

    Parameters
    ----------
    module : str
        The module to import, e.g. ``"pyspiel"``.
    extra : str
        The conquian extra that installs it, e.g. ``"openspiel"``.
    what : str
        What needs it, for the message (e.g. ``"the ismcts bot"``).

    Returns
    -------
    module

    Raises
    ------
    MissingExtraError
        If the module cannot be imported; the message gives the
        ``pip install`` line.
    """
    try:
        return importlib.import_module(module)
    except MissingExtraError:
        raise
    except ImportError as exc:
        raise missing_extra(extra, what, exc) from None


def missing_extra(extra: str, what: str, exc: ImportError) -> MissingExtraError:
    """The one-line error for ``exc``, a failed import of a library that ``extra`` installs.

    Parameters
    ----------
    extra : str
        The conquian extra, e.g. ``"openspiel"``.
    what : str
        What needs it, e.g. ``"the ismcts bot"``.
    exc : ImportError
        The failed import.
    """
    return MissingExtraError(
        f"{what} needs the {extra!r} extra ({exc.name or 'a library'} is not installed): "
        f"pip install -e '.[{extra}]' in the project's folder (pip install 'conquian[{extra}]' "
        "where the package is published)"
    )
