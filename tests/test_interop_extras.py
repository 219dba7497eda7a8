"""The extras stay optional: the base install never imports them, and a missing one is one line
naming the pip install that brings it (runs with or without the extras installed)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from cli_run import one_error_line, run

from analyzer.core.errors import ConquianError, MissingExtraError

EXTRA_LIBRARIES = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "ray")


def without(libraries: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    """``conquian ARGS`` in a fresh process where importing any of ``libraries`` fails."""
    code = (
        "import sys\n"
        f"for name in {libraries!r}: sys.modules[name] = None\n"
        "from cli.main import main\n"
        "sys.exit(main())\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300
    )


def test_the_base_install_imports_no_extra() -> None:
    code = (
        "import sys\n"
        "import analyzer, analyzer.bots.registry, analyzer.bots.simulate, analyzer.interop.match, cli.main, cli.app\n"
        f"print(sorted(m for m in {EXTRA_LIBRARIES!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_ismcts_without_openspiel_is_one_line() -> None:
    done = without(("pyspiel", "open_spiel"), "simulate", "--games", "1", "--bots", "ismcts,greedy")
    assert done.returncode == 1
    assert one_error_line(done.stderr)
    assert "the ismcts bot needs the 'openspiel' extra" in done.stderr
    assert "pip install -e '.[openspiel]'" in done.stderr


def test_play_with_ismcts_without_openspiel_is_one_line() -> None:
    done = without(("pyspiel", "open_spiel"), "play", "--bots", "ismcts", "--seed", "1")
    assert done.returncode == 1 and one_error_line(done.stderr)
    assert "conquian[openspiel]" in done.stderr


def test_the_ray_backend_without_ray_is_one_line() -> None:
    done = without(("ray",), "simulate", "--games", "1", "--backend", "ray")
    assert done.returncode == 1 and one_error_line(done.stderr)
    assert "the Ray backend needs the 'ray' extra" in done.stderr
    assert "pip install -e '.[ray]'" in done.stderr


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("analyzer.interop.openspiel", "pyspiel", "openspiel"),
        ("analyzer.interop.ismcts", "open_spiel", "openspiel"),
        ("analyzer.interop.pettingzoo", "pettingzoo", "pettingzoo"),
        ("analyzer.interop.ray", "ray", "ray"),
    ],
)
def test_each_bridge_names_its_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, blocked: str, extra: str
) -> None:
    import analyzer.interop

    for name in [m for m in sys.modules if m == blocked or m.startswith(blocked + ".")] or [blocked]:
        monkeypatch.setitem(sys.modules, name, None)  # importing it now fails, as if not installed
    for name in ("openspiel", "ismcts", module.rsplit(".", 1)[1]):
        monkeypatch.delitem(sys.modules, f"analyzer.interop.{name}", raising=False)
        monkeypatch.delattr(analyzer.interop, name, raising=False)
    with pytest.raises(MissingExtraError, match=rf"pip install 'conquian\[{extra}\]'") as info:
        importlib.import_module(module)
    assert isinstance(info.value, ConquianError) and isinstance(info.value, ImportError)


def test_backend_and_address_options_are_checked() -> None:
    code, _, err = run("simulate", "--games", "1", "--backend", "spark")
    assert code == 2 and one_error_line(err) and "unknown backend: 'spark'" in err
    code, _, err = run("simulate", "--games", "1", "--address", "10.0.0.1:6379")
    assert code == 2 and one_error_line(err) and "--address needs --backend ray" in err


def test_simulate_refuses_an_unknown_backend_or_a_stray_address() -> None:
    from analyzer.bots.simulate import simulate

    with pytest.raises(ConquianError, match="unknown backend"):
        list(simulate("classic", ["greedy"], 1, backend="dask"))
    with pytest.raises(ConquianError, match="address is for the ray backend"):
        list(simulate("classic", ["greedy"], 1, address="10.0.0.1:6379"))
