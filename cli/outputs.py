"""Output files and directories: checked before any work, written whole at the end."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from analyzer.core.cards import clip
from cli.boundary import domain, usage

__all__ = ["OutputFile", "maybe", "output_directory", "output_file", "output_name", "svg_file"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _shown(path: str, limit: int = 100) -> str:
    """A path for a message: whole when short, else its start and its end (the file name)."""
    if len(path) <= limit:
        return path
    head = limit // 3
    return path[:head] + "…" + path[-(limit - head - 1) :]


def _file_kind(mode: int) -> str:
    """What a file is, for a message: ``a file`` (a regular one), ``a named pipe (FIFO)``, ..."""
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _no_directory(parent: Path) -> str:
    """``no directory 'x'``, or ``'x' is a file, not a directory`` when something else is there."""
    try:
        found = parent.stat()
    except (OSError, ValueError):
        return f"no directory {_shown(str(parent))!r}"
    return f"{_shown(str(parent))!r} is {_file_kind(found.st_mode)}, not a directory"


_CANNOT_CREATE = {
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "it is on a read-only file system",
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "the disk quota is exceeded",
}


def output_name(text: str, option: str, what: str = "file") -> Path:
    """The path of an output file or directory named by ``option``, as typed.

    An empty (or blank) name is a usage error naming it as empty, not read as
    the current directory; ``-`` is a usage error too, since it means
    standard output and this option writes a file (a command whose output
    may go to standard output handles ``-`` itself, see :func:`output_file`;
    ``./-`` names a file called ``-``).
    """
    if not text.strip():
        usage(
            f"{option}: the {what} name is empty"
            if not text
            else f"{option}: the {what} name {text!r} is blank"
        )
    if text == "-":
        usage(
            f"{option} '-': this option writes a {what}, not standard output "
            f"(for a {what} named '-', give ./-)"
        )
    return Path(text)


_NOT_SVG = frozenset({".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff", ".pdf", ".eps", ".ps"})
"""File name endings of other picture formats, refused for ``--svg`` (which writes SVG text)."""


def svg_file(text: str | None, *, force: bool, inputs: Sequence[str | None] = ()) -> OutputFile | None:
    """:func:`output_file` for ``--svg``, refusing a name that ends in another picture format
    (so that ``--svg s.png`` does not write SVG text into a file named .png)."""
    ending = Path(text).suffix.lower() if text else ""
    if ending == ".svgz":  # plain SVG text must not go into a file named .svgz
        usage(
            f"--svg writes plain SVG, but {_shown(str(text))!r} ends in .svgz (compressed SVG): "
            "name it .svg (gzip compresses it afterwards)"
        )
    if ending in _NOT_SVG:
        usage(
            f"--svg writes an SVG picture, but {_shown(str(text))!r} ends in {ending}: name it .svg "
            "(another format needs a converter)"
        )
    return output_file(text, "--svg", force=force, inputs=inputs)


def output_file(
    text: str | None,
    option: str,
    *,
    force: bool,
    inputs: Sequence[str | None] = (),
    stdout: bool = False,
) -> OutputFile | None:
    """The :class:`OutputFile` named by ``option``, or ``None`` when the option is not given or,
    with ``stdout`` (the command writes to standard output without the option), is ``-``."""
    if text is None or (stdout and text == "-"):
        return None
    return OutputFile(text, option, force=force, inputs=inputs)


class OutputFile:
    """An output file, checked before any work and written whole at the end.

    The checks are usage errors (exit 2): the name is not empty, not a
    directory, its directory exists and accepts a new file (tried by creating
    the temporary file the output is written to), it is not one of the
    command's input files, and an existing file is replaced only with
    ``--force``.  :meth:`commit` moves the finished file into place, so a
    failed or interrupted command leaves what the user had unchanged.

    A symbolic link is followed: the file it points to is written (and
    replaced, with ``--force``) and the link stays.  Only regular files are
    written: an existing named pipe, device, socket or directory is refused,
    since replacing it would destroy it and writing into it is not writing a
    file.

    Use as a context manager: the temporary file is removed unless committed.
    """

    def __init__(
        self, name: str, option: str, *, force: bool, inputs: Sequence[str | None] = ()
    ) -> None:
        text = name
        path = output_name(name, option)
        try:
            found: os.stat_result | None = os.stat(path)  # follows symbolic links
        except (FileNotFoundError, NotADirectoryError):
            found = None
        except OSError as exc:  # a loop of links, a directory we may not search, ...
            usage(f"{option}: cannot write {_shown(text)!r}: {exc.strerror or exc}")
        if found is not None and stat.S_ISDIR(found.st_mode):
            usage(f"{option} {_shown(text)!r} is a directory: give a file name")
        if found is not None and not stat.S_ISREG(found.st_mode):
            usage(
                f"{option} {_shown(text)!r} is {_file_kind(found.st_mode)}: only a regular file "
                "can be written"
            )
        # The file a link points to (and the real directory of the temporary file).
        real = Path(os.path.realpath(path)) if path.is_symlink() else path
        parent = real.parent
        if not parent.is_dir():
            usage(f"{option}: {_no_directory(parent)} to write into")
        if found is not None:
            for source in inputs:
                if not source:
                    continue
                try:
                    # '-' is standard input, which may be this very file ('< same.jsonl'),
                    # so that the record read is not replaced by the picture.
                    same = os.path.samestat(found, os.fstat(0) if source == "-" else os.stat(source))
                except OSError:
                    same = False
                if same and source == "-":
                    usage(
                        f"{option} {_shown(text)!r} is the file read on standard input: it would "
                        "overwrite the input"
                    )
                if same:
                    usage(f"{option} would overwrite the input {_shown(source)!r}")
            if not force:
                usage(f"{option} {_shown(text)!r} exists: use --force to replace it")
        # A replaced file keeps its mode; a new one gets the usual mode (0666 less the umask).
        mode = stat.S_IMODE(found.st_mode) if found is not None else 0o666 & ~_umask()
        try:
            handle, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=parent)
        except OSError as exc:
            reason = _CANNOT_CREATE.get(exc.errno or 0, "the directory does not accept new files")
            usage(f"{option}: cannot write into {_shown(str(parent))!r}: {reason}")
        try:
            os.fchmod(handle, mode)
        except OSError:
            pass  # mkstemp's private mode: safe, only less readable
        finally:
            os.close(handle)
        self.path = path
        self.real = real
        self.option = option
        self.tmp = Path(tmp)
        self.committed = False
        self._mode = mode

    def write_text(self, text: str) -> None:
        """Write ``text`` to the temporary file (not yet in place; see :meth:`commit`).

        Text that UTF-8 cannot encode (a lone surrogate from a ``\\ud800`` escape in the
        input) is written as its backslash escape.
        """
        try:
            self.tmp.write_text(text, encoding="utf-8", errors="backslashreplace")
        except OSError as exc:
            domain(f"cannot write {_shown(str(self.path))!r}: {exc.strerror or exc}")

    def commit(self) -> None:
        """Move the written file into place (for a link, onto the file it points to)."""
        try:
            os.replace(self.tmp, self.real)
        except OSError as exc:
            domain(f"cannot write {_shown(str(self.path))!r}: {exc.strerror or exc}")
        self.committed = True

    def publish(self, text: str) -> None:
        """Write ``text`` and move it into place at once: a file kept up to date while the
        command runs (``play --record``), whole after every call, never half-written."""
        if self.committed:  # a new temporary file beside the one now in place
            try:
                handle, tmp = tempfile.mkstemp(
                    prefix=f".{self.real.name}.", suffix=".tmp", dir=self.real.parent
                )
                with contextlib.suppress(OSError):
                    os.fchmod(handle, self._mode)
                os.close(handle)
            except OSError as exc:
                domain(f"cannot write {_shown(str(self.path))!r}: {exc.strerror or exc}")
            self.tmp, self.committed = Path(tmp), False
        self.write_text(text)
        self.commit()

    def discard(self) -> None:
        """Remove the temporary file (nothing is written)."""
        if not self.committed:
            self.tmp.unlink(missing_ok=True)

    def __enter__(self) -> OutputFile:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.discard()


def output_directory(text: str, option: str, *, records_allowed: bool = False) -> Path:
    """A directory for output files, checked (and created when new) before any work.

    The checks are usage errors (exit 2) naming ``option`` and the text: the
    name is not empty, it is not a file, an existing directory is empty, its
    parent directory exists (only the named directory itself is created, as
    an output file's directory must exist), and a file can be created in it.
    With ``records_allowed`` (a run continued) an existing directory may hold
    game records (``game-*.jsonl``), which the caller checks, and match records
    (``match-*.jsonl``).
    """
    directory = output_name(text, option, "directory")
    shown = _shown(text)
    try:
        found: os.stat_result | None = os.stat(directory)
    except (FileNotFoundError, NotADirectoryError):
        found = None
    except (OSError, ValueError) as exc:  # a name too long, a loop of links, a NUL byte
        usage(f"{option}: cannot write into {shown!r}: {getattr(exc, 'strerror', None) or exc}")
    try:
        if found is None:
            parent = Path(os.path.realpath(directory)).parent
            if not parent.is_dir():
                usage(f"{option}: {_no_directory(parent)} to create {shown!r} in")
            directory.mkdir()
        elif not stat.S_ISDIR(found.st_mode):
            usage(f"{option} must be a directory: {shown!r} is {_file_kind(found.st_mode)}")
        else:
            held = sorted(p.name for p in directory.iterdir())
            # The records of a run: its games and, played as matches, its match records.
            games = [
                name
                for name in held
                if name.startswith(("game-", "match-")) and name.endswith(".jsonl")
            ]
            if games and not records_allowed:
                usage(f"{option} directory {shown!r} already holds game records: use a new one")
            held = [name for name in held if name not in games]
            if held:
                usage(
                    f"{option} directory {shown!r} is not empty (it holds "
                    f"{clip(', '.join(held[:3]))}{', ...' if len(held) > 3 else ''}): give a new "
                    "or empty directory"
                )
        handle, probe = tempfile.mkstemp(prefix=".probe-", suffix=".tmp", dir=directory)
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        reason = _CANNOT_CREATE.get(exc.errno or 0, exc.strerror or str(exc))
        usage(f"{option}: cannot write into {shown!r}: {reason}")
    return directory


@contextmanager
def maybe(target: OutputFile | None) -> Iterator[OutputFile | None]:
    """``with maybe(target)``: an optional :class:`OutputFile` as a context."""
    if target is None:
        yield None
        return
    with target:
        yield target
