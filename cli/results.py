"""The commands' JSON answers: moved to :mod:`analyzer.service.results` (the request layer both
front ends share); this name is kept for code that imports it from here."""

from analyzer.service.results import *  # noqa: F403
from analyzer.service.results import __all__ as __all__
