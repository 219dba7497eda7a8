"""Start-up cost of the ``conquian`` command: the heavy libraries load only where used.

OR-Tools (CP-SAT, which also loads pandas) is needed by ``melds``, ``why`` and
the ``v1`` engine, networkx by ``tree``; neither by ``hint``, the quick
start's command.  Importing them at start-up cost about a second and a
half on every command.  Times are for ``bench/``; these tests check only
which modules a command loads.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("ortools", "pandas", "networkx")


def _loaded(code: str) -> list[str]:
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_cli_loads_no_heavy_library() -> None:
    assert _loaded("import cli.app") == []


def test_a_hint_loads_no_heavy_library() -> None:
    code = (
        "from cli.main import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['hint', '--json', '--samples', '2'])"
    )
    assert _loaded(code) == []


def test_the_meld_solver_loads_cp_sat_when_it_solves() -> None:
    code = (
        "from analyzer.core.cards import mask_of, parse_cards\n"
        "from analyzer.solver.partition import solve_arrangement\n"
        "from analyzer.core.rules import get_rules\n"
        "cards = mask_of(parse_cards('2S 3S 4S 7C 7D 7H'))\n"
        "assert solve_arrangement(cards, get_rules('classic')).melded == 6\n"
    )
    assert _loaded(code) == ["ortools", "pandas"]
