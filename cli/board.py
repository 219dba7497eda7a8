"""The board's commands: moved to :mod:`analyzer.service.board` (the request layer both front
ends share); this name is kept for code that imports it from here."""

from analyzer.service.board import *  # noqa: F403
from analyzer.service.board import __all__ as __all__
