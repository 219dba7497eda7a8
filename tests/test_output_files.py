"""Output files are checked before any work (exit 2), written whole, and never replace what the
user had without --force: tree --export, play --record, simulate --records."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from conftest import EXAMPLES

POSITION = str(EXAMPLES / "example4-rearrangement.json")

# Each command that writes a file, with the option naming it; {out} is the output path.
WRITERS: list[tuple[str, list[str]]] = [
    ("tree", ["tree", POSITION, "--depth", "1", "--no-values", "--export", "{out}"]),
    ("play", ["play", "--seed", "3", "--record", "{out}"]),
]


def _args(args: list[str], out: str) -> list[str]:
    return [a.replace("{out}", out) for a in args]


@pytest.mark.parametrize(("name", "args"), WRITERS, ids=[w[0] for w in WRITERS])
def test_an_unwritable_place_is_refused_before_the_work(name: str, args: list[str]) -> None:
    # tree --export /proc/t.json and play --record fail before the work, not after it.
    code, out, err = run(*_args(args, "/proc/t.json"), input="1\n" * 50)
    assert code == 2 and one_error_line(err) and "cannot write into '/proc'" in err
    assert "does not accept new files" in err and "No such file" not in err
    assert "your move" not in out and "Explored" not in out


@pytest.mark.parametrize(("name", "args"), WRITERS, ids=[w[0] for w in WRITERS])
def test_bad_output_paths_are_usage_errors(name: str, args: list[str], tmp_path: Path) -> None:
    for target, needle in (
        (str(tmp_path), "is a directory"),
        (str(tmp_path / "no" / "x.json"), "no directory"),
    ):
        code, out, err = run(*_args(args, target), input="1\n")
        assert code == 2 and needle in err and one_error_line(err), err
        assert "your move" not in out
    kept = tmp_path / "kept.json"
    kept.write_text("keep me")
    code, _, err = run(*_args(args, str(kept)), input="quit\n")
    assert code == 2 and "--force" in err and kept.read_text() == "keep me"
    code, _, err = run(*_args(args, str(kept)), "--force", input="quit\n")
    assert code == 0, err
    assert kept.read_text() != "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json"]  # no temporary file left


# Every output-path option, with what it names; {out} is the output path.
EVERY_OUTPUT: list[tuple[str, list[str]]] = [
    *WRITERS,
    ("deal", ["deal", "--output", "{out}"]),
    ("show", ["show", POSITION, "--svg", "{out}"]),
    ("review", ["review", "missing.jsonl", "--svg", "{out}"]),
    ("puzzle", ["puzzle", str(EXAMPLES.parent / "puzzles" / "classic-win-1.json"), "--svg", "{out}"]),
    ("simulate", ["simulate", "--games", "1", "--records", "{out}"]),
]


@pytest.mark.parametrize(("name", "args"), EVERY_OUTPUT, ids=[w[0] for w in EVERY_OUTPUT])
def test_an_empty_output_name_is_refused_as_empty(
    name: str, args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not read as the current directory ("--output '.' is a directory").
    monkeypatch.chdir(tmp_path)
    option = next(a for a in args if a.startswith("-") and "{out}" in args[args.index(a) + 1])
    code, out, err = run(*_args(args, ""), input="quit\n")
    assert code == 2 and one_error_line(err) and f"{option}: the " in err and "name is empty" in err
    assert "'.'" not in err and "your move" not in out
    code, out, err = run(*_args(args, "-"), input="quit\n")
    if name == "deal":  # - is standard output, as without -o
        assert code == 0 and json.loads(out)["variant"] == "classic"
    else:  # - would be standard output, which this option does not write
        assert code == 2 and one_error_line(err) and f"{option} '-'" in err and "./-" in err
    assert list(tmp_path.iterdir()) == []  # no file (or directory) named '-'


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_directory_is_refused(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        for _, args in WRITERS:
            code, _, err = run(*_args(args, str(locked / "x.json")), input="quit\n")
            assert code == 2 and "cannot write into" in err
    finally:
        locked.chmod(0o700)


def test_tree_never_overwrites_its_input(tmp_path: Path) -> None:
    position = tmp_path / "p.json"
    position.write_text((EXAMPLES / "example4-rearrangement.json").read_text())
    before = position.read_text()
    for target in (position, tmp_path / "link.json"):
        if target != position:
            os.link(position, target)  # a hard link is the same file
        code, _, err = run("tree", str(position), "--depth", "1", "--export", str(target), "--force")
        assert code == 2 and "overwrite the input" in err
    assert position.read_text() == before


def test_play_keeps_the_record_of_an_abandoned_game(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    code, out, _ = run("play", "--seed", "2", "--record", str(path), input="1\n1\nquit\n")
    assert code == 0 and "Record saved" in out
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "conquian-record" and len(lines) > 2


def test_records_directory_rules(tmp_path: Path) -> None:
    code, _, err = run("simulate", "--games", "1", "--records", "")
    assert code == 2 and "--records" in err
    target = tmp_path / "recs"
    assert run("simulate", "--games", "2", "--records", str(target))[0] == 0
    before = (target / "game-000000.jsonl").read_text()
    code, _, err = run("simulate", "--games", "2", "--records", str(target), "--seed", "5")
    assert code == 2 and "already holds" in err
    assert (target / "game-000000.jsonl").read_text() == before


def test_records_directory_must_be_new_or_empty(tmp_path: Path) -> None:
    # A folder of unrelated files is refused, as the help says "new or empty".
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "holiday.jpg").write_text("not a record")
    code, out, err = run("simulate", "--games", "1", "--records", str(folder))
    assert code == 2 and one_error_line(err) and "not empty" in err and "holiday.jpg" in err
    assert sorted(p.name for p in folder.iterdir()) == ["holiday.jpg"] and out == ""
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("simulate", "--games", "1", "--records", str(empty))[0] == 0
    assert [p.name for p in empty.iterdir()] == ["game-000000.jsonl"]
    code, _, err = run("simulate", "--games", "1", "--records", "/proc/records")
    assert code == 2 and "--records" in err


def test_records_directory_name_too_long_is_a_usage_error() -> None:
    # A name too long for the file system: exit 2 naming --records, like every output option.
    code, out, err = run("simulate", "--games", "1", "--records", "d" * 300)
    assert code == 2 and one_error_line(err) and out == ""
    assert "--records: cannot write into 'ddd" in err and "File name too long" in err


def test_records_directory_needs_an_existing_parent(tmp_path: Path) -> None:
    # Only the named directory is created (as an output file's directory must exist), and the
    # check comes before any game is played.
    target = tmp_path / "missing" / "deeper" / "recs"
    code, out, err = run("simulate", "--games", "1", "--records", str(target))
    assert code == 2 and one_error_line(err) and out == ""
    assert "--records: no directory" in err and not (tmp_path / "missing").exists()


def test_outputs_get_the_usual_file_mode(tmp_path: Path) -> None:
    target = tmp_path / "t.json"
    assert run("tree", POSITION, "--depth", "1", "--no-values", "--export", str(target))[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


# Every command that writes a file through OutputFile, with --force; {out} is the output path.
FORCED_WRITERS: list[tuple[str, list[str]]] = [
    ("tree", ["tree", POSITION, "--depth", "1", "--no-values", "--export", "{out}", "--force"]),
    ("play", ["play", "--seed", "3", "--record", "{out}", "--force"]),
    ("show", ["show", POSITION, "--svg", "{out}", "--force"]),
    ("deal", ["deal", "--seed", "1", "-o", "{out}", "--force"]),
]


@pytest.mark.parametrize(("name", "args"), FORCED_WRITERS, ids=[w[0] for w in FORCED_WRITERS])
def test_force_follows_a_link_to_a_regular_file(name: str, args: list[str], tmp_path: Path) -> None:
    # --force does not turn a symbolic link into a regular file: the link stays and the file
    # it points to is replaced.
    real = tmp_path / "real.json"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    code, _, err = run(*_args(args, str(link)), input="quit\n")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() != "old" and real.stat().st_mode & 0o777 == 0o640  # mode kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


@pytest.mark.parametrize(("name", "args"), FORCED_WRITERS, ids=[w[0] for w in FORCED_WRITERS])
def test_a_target_that_is_not_a_regular_file_is_refused(
    name: str, args: list[str], tmp_path: Path
) -> None:
    # --force does not replace a FIFO (or /dev/stdout) with a regular file.
    fifo = tmp_path / "p.json"
    os.mkfifo(fifo)
    link = tmp_path / "to-fifo.json"
    link.symlink_to(fifo)
    for target in (fifo, link):
        code, out, err = run(*_args(args, str(target)), input="quit\n")
        assert code == 2 and one_error_line(err), err
        assert "named pipe" in err and "regular file" in err and str(target) in err
        assert "your move" not in out
    assert fifo.is_fifo() and link.is_symlink() and os.readlink(link) == str(fifo)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json", "to-fifo.json"]


def test_a_link_to_a_directory_or_a_link_loop_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (tmp_path / "dir-link.svg").symlink_to(folder)
    (tmp_path / "loop.svg").symlink_to(tmp_path / "loop.svg")
    for target, needle in (("dir-link.svg", "is a directory"), ("loop.svg", "cannot write")):
        code, _, err = run("show", POSITION, "--svg", str(tmp_path / target), "--force")
        assert code == 2 and one_error_line(err) and needle in err, err
    assert (tmp_path / "dir-link.svg").is_symlink() and (tmp_path / "loop.svg").is_symlink()


def test_a_dangling_link_is_followed(tmp_path: Path) -> None:
    link = tmp_path / "link.svg"
    link.symlink_to(tmp_path / "new.svg")
    code, _, err = run("show", POSITION, "--svg", str(link))
    assert code == 0, err
    assert link.is_symlink() and (tmp_path / "new.svg").read_text().startswith("<")


def test_a_file_where_a_directory_should_be_is_named_a_file(tmp_path: Path) -> None:
    # 'deal -o existing.json/x' says that 'existing.json' is a file, not "no directory"; a
    # named pipe given as --records is not called "a file".
    plain = tmp_path / "existing.json"
    plain.write_text("keep", encoding="utf-8")
    code, _, err = run("deal", "-o", str(plain / "x.json"))
    assert code == 2 and one_error_line(err) and "existing.json' is a file, not a directory" in err
    code, _, err = run("simulate", "--games", "1", "--records", str(plain / "rx"))
    assert code == 2 and "existing.json' is a file, not a directory to create" in err
    assert plain.read_text(encoding="utf-8") == "keep"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    code, _, err = run("simulate", "--games", "1", "--records", str(pipe))
    assert code == 2 and "must be a directory" in err and "is a named pipe (FIFO)" in err


@pytest.mark.parametrize(
    "args",
    [
        ["show", POSITION],
        ["puzzle", str(EXAMPLES.parent / "puzzles" / "classic-win-1.json")],
    ],
    ids=["show", "puzzle"],
)
def test_svg_refuses_the_name_of_another_picture_format(args: list[str], tmp_path: Path) -> None:
    # '--svg s.png' does not write SVG text into a file named .png.
    target = tmp_path / "s.PNG"
    target.write_text("keep")
    code, out, err = run(*args, "--svg", str(target), "--force")
    assert code == 2 and one_error_line(err) and "ends in .png: name it .svg" in err and out == ""
    assert target.read_text() == "keep"
    # and '.svgz' (compressed SVG) would hold plain SVG text
    code, out, err = run(*args, "--svg", str(tmp_path / "s.svgz"))
    assert code == 2 and one_error_line(err) and "ends in .svgz (compressed SVG)" in err and out == ""
    assert not (tmp_path / "s.svgz").exists()
    plain = tmp_path / "picture"  # no ending: written, as before
    code, _, err = run(*args, "--svg", str(plain))
    assert code == 0, err
    assert plain.read_text().lstrip().startswith("<")


def test_an_output_file_that_is_standard_input_is_refused(tmp_path: Path) -> None:
    # 'review - --svg same.jsonl --force < same.jsonl' does not replace the record it reads
    # by the picture, as by path, link or './'.
    import subprocess

    from cli_run import CONQUIAN

    same = tmp_path / "same.json"
    text = (EXAMPLES / "forcing.json").read_text()
    same.write_text(text)
    with same.open() as stdin:
        proc = subprocess.run([*CONQUIAN, "show", "-", "--svg", str(same), "--force"], stdin=stdin,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 2 and "is the file read on standard input" in proc.stderr
    assert same.read_text() == text  # nothing the user had is changed
    other = tmp_path / "other.svg"
    with same.open() as stdin:
        proc = subprocess.run([*CONQUIAN, "show", "-", "--svg", str(other)], stdin=stdin,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0 and other.read_text().startswith("<svg")
