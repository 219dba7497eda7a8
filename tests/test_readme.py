"""The README's library example runs as written, and its answer does not depend on the
machine's speed (the default time limit must not cut the sampling short); its native core
paragraph says which commands need that core."""

from __future__ import annotations

import contextlib
import io
import os
import re

from conftest import ROOT


def test_the_library_example_runs_and_repeats() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Library\n", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    outputs = []
    here = os.getcwd()
    os.chdir(ROOT)  # the example names files relative to the repository
    try:
        for _ in range(2):
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                exec(compile(block.group(1), "README.md", "exec"), {})  # noqa: S102
            outputs.append(printed.getvalue())
    finally:
        os.chdir(here)
    lines = outputs[0].splitlines()
    assert lines[-1] == "0"  # solve(...).winner, as the comment says
    assert "of 16 sampled deals" in outputs[0]  # every deal of the 16, whatever the machine
    assert outputs[0] == outputs[1]


def test_the_native_core_paragraph_says_which_commands_need_it() -> None:
    """A user's guide: the paragraph names the command that needs the native core on a mid-game
    position (solve with the stock order unknown) and the ones that only run slower or alike
    without it; the README stays under 15,000 characters."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 15_000, len(text.encode("utf-8"))  # bytes: the stricter count
    paragraph = " ".join(text.split("### The native core\n", 1)[1].split("\n## ", 1)[0].split())
    needs = re.search(r"`(\w+)` needs it", paragraph)
    assert needs and needs.group(1) == "solve", paragraph
    assert "stock order unknown" in paragraph
    assert all(f"`{command}`" in paragraph for command in ("hint", "review", "puzzle")), paragraph
    assert "CONQUIAN_CORE=python|native" in paragraph and "conquian --version" in paragraph
