"""Help and shell completion: -h as well as --help, flags shown without a type, completion on,
usage errors pointing at the command's own help."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import forcing, one_error_line, run
from conftest import EXAMPLES

from cli.main import COMMANDS

NAMES = [name for name, _ in COMMANDS]


@pytest.mark.parametrize("name", ["", *NAMES])
def test_h_is_help_and_flags_have_no_type(name: str) -> None:
    args = [name] if name else []
    code, short, _ = run(*args, "-h")
    assert code == 0 and "Usage: conquian" in short
    assert run(*args, "--help")[1] == short
    # Flags take no value: the help must not show one ("--json <bool>").
    assert "<bool>" not in short
    # Nor does an argument show a Python type ("POSITION <str>").
    assert "<str>" not in short and "<int>" not in short


@pytest.mark.parametrize("name", NAMES)
def test_every_command_takes_the_shared_options(name: str) -> None:
    code, text, _ = run(name, "-h")
    assert code == 0
    # play is interactive, variants prints a table of options, show draws pictures, engine
    # speaks JSON lines whatever the flags and serve serves a page: none has a --json mode.
    if name not in ("play", "variants", "show", "engine", "serve"):
        assert "--json" in text
    if name not in ("variants", "serve"):  # the board switches its labels on the page
        assert "--labels" in text  # --labels chooses the output labels on every command with cards


def test_shell_completion_is_on() -> None:
    _code, text, _ = run("-h")
    assert "--install-completion" in text and "--show-completion" in text
    env = {**os.environ, "_CONQUIAN_COMPLETE": "complete_bash", "COMP_WORDS": "conquian hint --st",
           "COMP_CWORD": "2"}  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())"],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0 and "--static" in proc.stdout


def test_a_usage_error_points_at_the_command_help() -> None:
    code, _, err = run("tree", "--depth", "99", "x.json")
    assert code == 2 and re.search(r"\(see 'conquian tree --help'\)$", err.strip())
    code, _, err = run("hint", "--bogus")
    assert code == 2 and "(see 'conquian hint --help')" in err
    code, _, err = run("bogus")
    assert code == 2 and "(see 'conquian --help')" in err


def test_readme_quick_start_is_two_commands_that_ci_runs() -> None:
    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = block.strip().splitlines()
    assert len(commands) == 2
    install, tests = commands
    assert install.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install")
    assert install.endswith("&& conquian hint") and "pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert install in ci and tests in ci and ci[-1] == tests
    assert "`pip install .` (without `[test]`) is enough" in readme


def _params(name: str) -> dict[str, object]:
    import typer.main

    from cli.main import app

    command = typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]
    return {p.name: p for p in command.params}


def test_help_texts_say_what_the_options_do() -> None:
    # POSITION's help names the notation too (not only "Position JSON, or -"); --labels says
    # "default: those of the input" only on commands that have an input.
    from cli.inputs import POSITION_HELP

    for name in NAMES:
        params = _params(name)
        if "position" in params:
            assert POSITION_HELP in params["position"].help, name  # type: ignore[attr-defined]
        if "labels" in params:
            text = params["labels"].help  # type: ignore[attr-defined]
            inputs = name not in ("deal", "play", "simulate")  # these make their own deals
            assert ("those of the input" in text) == inputs, (name, text)
            assert inputs or "the variant's" in text, (name, text)
    assert "notation" in run("tree", "-h")[1]


def test_hint_static_notes_sampling_options_that_have_no_effect() -> None:
    # hint --static takes --samples and the other sampling options with a one-line note that
    # they have no effect, and answers as without them (--open still says whose cards it scores).
    position = str(EXAMPLES / "forcing.json")
    for extra in (["--samples", "3"], ["--seed", "2"], ["--time-limit", "1"],
                  ["--engine", "v1"], ["--budget", "500"], ["-n", "3", "--open"]):  # fmt: skip
        code, out, err = run("hint", position, "--static", "--json", *extra)
        named = "--samples" if extra[0] == "-n" else extra[0]
        assert code == 0 and one_error_line(err) and err.startswith("Note: "), err
        assert named in err and "--static" in err and "no effect" in err
        plain = run("hint", position, "--static", "--json", *(["--open"] if "--open" in extra else []))
        assert json.loads(out) == json.loads(plain[1])
    assert run("hint", position, "--static", "--top", "2")[0] == 0


def test_the_static_score_is_the_same_in_hint_and_hint_static() -> None:
    # 'force 0' on the bundled position scores 3 both ways: --static does not count the outs of
    # player 0's hand, which player 1 cannot see (that is --static --open's 7).
    def scores(*args: str, key: str = "score") -> dict[str, float]:
        code, out, _ = run("hint", *args, "--json")
        assert code == 0
        return {m["move"]: m[key] for m in json.loads(out)["moves"]}

    sampled = scores("--samples", "2", key="static_score")
    assert scores("--static") == sampled and sampled["force 0"] == 3.0
    assert scores("--static", "--open")["force 0"] == 7.0  # +2 per out player 0 loses
    assert scores("--open", "--samples", "2", key="static_score")["force 0"] == 7.0


def test_static_open_refuses_a_hidden_hand_as_the_sampled_hint_does(tmp_path: Path) -> None:
    # 'hint --open' on a position hiding a hand says --open needs every hand, and so does
    # 'hint --static --open' (it does not rank the moves from the hands given).
    from cli.engine import answer

    data = json.loads((EXAMPLES / "forcing.json").read_text())
    data["players"][0]["hand"] = len(data["players"][0]["hand"])  # hidden: a count (player 1 acts)
    view = tmp_path / "view.json"
    view.write_text(json.dumps(data))
    before = view.read_bytes()
    sampled = run("hint", str(view), "--open", "--samples", "2")
    static = run("hint", str(view), "--static", "--open")
    assert sampled[0] == static[0] == 1 and static[1] == ""
    assert one_error_line(static[2]) and static[2] == sampled[2]
    assert "--open needs every hand known" in static[2] and "hides player 0's hand" in static[2]
    assert run("hint", str(view), "--static")[0] == 0  # his own view needs no other hand
    for extra in ({"static": True}, {"samples": 2}):
        reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": data, "open": True, **extra}))
        assert reply["ok"] is False and reply["field"] == "open" and "every hand known" in reply["error"]
    assert view.read_bytes() == before
    # A hidden hand to act is said as such with and without --static.
    data["players"][0]["hand"], data["players"][1]["hand"] = ["KH", "KS"], 10
    view.write_text(json.dumps(data))
    before = view.read_bytes()
    acting = [run("hint", str(view), "--open", *extra) for extra in ((), ("--static",))]
    assert acting[0][0] == acting[1][0] == 1 and acting[0][2] == acting[1][2]
    assert "player 1's hand is hidden, and this needs the hand of the player to act" in acting[1][2]
    assert view.read_bytes() == before


def test_the_engine_and_the_cli_share_the_hint_rules() -> None:
    from cli.engine import answer

    position = forcing()
    code, _, _err = run("hint", str(EXAMPLES / "forcing.json"), "--static", "--top", "0")
    assert code == 2
    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": position, "static": True, "top": 0}))
    assert reply["ok"] is False and reply["field"] == "top" and "at least 1" in reply["error"]
    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": position, "static": True, "samples": 3}))
    assert reply["ok"] is True and "'samples'" in reply["result"]["notes"][0]
    assert "static" in reply["result"]["notes"][0]
    reply, _ = answer(json.dumps({"id": 1, "cmd": "hint", "position": position, "static": True, "top": 1}))
    assert reply["ok"] and len(reply["result"]["moves"]) == 1


# Every example that a help text gives, with how to run it: (command whose help shows it, the
# example as the help writes it, the commands it runs; "-" reads the previous one's output).
HELP_EXAMPLES: list[tuple[str, str, list[list[str]]]] = [
    ("deal", "conquian deal --after 1 | conquian hint -",
     [["deal", "--after", "1"], ["hint", "-", "--time-limit", "0.5", "--samples", "4"]]),
    ("deal", "conquian deal --after 8 --to-choice | conquian hint -",
     [["deal", "--after", "8", "--to-choice"], ["hint", "-", "--time-limit", "0.5", "--samples", "4"]]),
    ("melds", "'AS 2S 3S 7H 7D 7C'", [["melds", "AS 2S 3S 7H 7D 7C"]]),
    ("melds", "'10o 11o 12o'", [["melds", "10o 11o 12o"]]),
    ("melds", "examples/positions/example1-runs.json",
     [["melds", "--file", "examples/positions/example1-runs.json"]]),
    ("why", "'take [5C 6C 7C] pay KS', or just 'take'",
     [["why", "examples/positions/forcing.json", "take [5C 6C 7C] pay KS"],
      ["why", "examples/positions/forcing.json", "take"]]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "text", "commands"), HELP_EXAMPLES, ids=[e[1] for e in HELP_EXAMPLES])
def test_every_help_example_works(
    name: str, text: str, commands: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each example runs: e.g. `conquian deal | conquian hint -` would fail, since a new deal
    # starts with a stock card to turn, where nobody chooses.
    from conftest import ROOT

    monkeypatch.chdir(ROOT)
    code, help_text, _ = run(name, "-h")
    assert code == 0 and text in " ".join(help_text.replace("│", " ").split()), help_text
    previous = None
    for args in commands:
        code, out, err = run(*args, input=previous)
        assert code == 0, (args, err)
        previous = out


def test_no_help_text_pipes_a_command_not_listed_above() -> None:
    """A help text that gains an example of a pipe or a file must add it to HELP_EXAMPLES."""
    listed = {text for _, text, _ in HELP_EXAMPLES}
    for name in NAMES:
        words = " ".join(run(name, "-h")[1].replace("│", " ").split())
        for found in re.findall(r"conquian [a-z]+[^()|]*\| conquian [a-z]+ -", words):
            assert found in listed, (name, found)


def test_hint_at_a_turn_says_how_to_reach_a_choice() -> None:
    code, out, _ = run("deal")
    code, _, err = run("hint", "-", input=out)
    assert code == 1 and one_error_line(err)
    assert "turns the next stock card (R10)" in err and "conquian deal --after 1" in err


def test_options_in_a_mode_are_refused_when_they_contradict_and_noted_when_idle() -> None:
    # melds --file has its own 'must' and 'variant': another one would change the answer, so it
    # is refused; tree --no-values searches nothing, so --budget does nothing: a note, not an error.
    runs = EXAMPLES / "example1-runs.json"
    for extra, named in ((["-m", "AS"], "--must"), (["-v", "megajogos"], "--variant")):
        code, out, err = run("melds", "--file", str(runs), *extra)
        assert code == 2 and one_error_line(err) and named in err and out == "", err
    assert run("melds", "--file", str(runs))[0] == 0
    code, out, err = run("tree", str(EXAMPLES / "forcing.json"), "--no-values", "--budget", "5")
    assert code == 0 and out and one_error_line(err) and err.startswith("Note: ")
    assert "--budget" in err and "--no-values" in err
