"""The pieces every ``conquian`` command shares; command modules import only this module.

* the error boundary (:class:`Group`): usage errors exit 2, domain errors
  (:class:`~analyzer.errors.ConquianError`) exit 1, both as one line on
  standard error naming the offending text; never a traceback;
* the ``Annotated`` option types, so that an option reads and is documented
  the same way on every command;
* position input (:func:`read_position`) and the label choice (R2): a
  position's labels apply to the moves typed for it and to every answer,
  and ``--labels`` chooses the output labels;
* output files checked before any work (:class:`OutputFile`) and written
  whole at the end;
* JSON output (:func:`emit`) and progress bars that --json and pipes silence.
"""

from __future__ import annotations

import contextlib
import errno
import inspect
import json
import os
import signal
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import TracebackType
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.exceptions import TyperException

from analyzer.advisor import ENGINE_NAMES, ENGINES
from analyzer.bots import BOTS, check_bot, parse_bot
from analyzer.cards import Labels, clip, mask_of, parse_cards
from analyzer.errors import (
    CardError,
    ConquianError,
    MissingExtraError,
    PositionError,
    UnknownVariantError,
)
from analyzer.notation import NotationError, looks_like_notation, parse_notation
from analyzer.position import load_position, parse_json, relabel, unwrap_position
from analyzer.rules import PRESETS, Rules, get_rules
from analyzer.state import GameState

__all__ = [
    "BUNDLED",
    "DOMAIN",
    "POSITION_HELP",
    "USAGE",
    "BudgetOpt",
    "Command",
    "EngineOpt",
    "ForceOpt",
    "Group",
    "JsonOpt",
    "LabelsOpt",
    "OutputFile",
    "PositionInput",
    "TimeOpt",
    "VariantLabelsOpt",
    "VariantOpt",
    "bots_arg",
    "cards_arg",
    "domain",
    "emit",
    "err",
    "given_options",
    "input_text",
    "json_errors",
    "json_input",
    "json_out",
    "maybe",
    "out",
    "output_directory",
    "output_file",
    "output_name",
    "progress",
    "read_position",
    "rules_of",
    "svg_file",
    "usage",
]

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

USAGE = 2
DOMAIN = 1

# ------------------------------------------------------------------ options
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
VariantOpt = Annotated[
    str,
    typer.Option(
        "--variant", "-v", metavar="NAME", help=f"Variant preset: {', '.join(PRESETS)}."
    ),
]


def _labels_option(default: str) -> Any:
    """The ``--labels`` option (R2), saying where its default comes from."""
    return typer.Option(
        "--labels",
        "-l",
        case_sensitive=False,
        help=f"Card labels of the output, french (7H JS) or spanish (7c 10e) (R2); default: {default}.",
    )


LabelsOpt = Annotated[Labels | None, _labels_option("those of the input")]
VariantLabelsOpt = Annotated[Labels | None, _labels_option("the variant's")]
"""``--labels`` of a command without an input to take labels from (deal, play, simulate)."""
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace an existing output file.")]
BudgetOpt = Annotated[
    int,
    typer.Option(
        "--budget",
        min=1,
        metavar="N",
        help="Most positions to search before giving up the proof, per search (puzzle, tree and "
        "solve --all-moves search each move or node on its own, each with this budget).",
    ),
]
TimeOpt = Annotated[
    float,
    typer.Option("--time-limit", min=0.01, metavar="SECONDS", help="Most seconds to search."),
]


# ----------------------------------------------------------------- messages
class UsageProblem(typer.BadParameter):
    """A usage error found by a command: printed as its message, exit 2."""

    def format_message(self) -> str:
        return self.message


def usage(message: str) -> NoReturn:
    """Stop with a usage error (exit 2): one line naming the offending text and the command's help."""
    raise UsageProblem(message)


def _engine_name(value: str) -> str:
    """``--engine``: a known hint engine, as its canonical name; an unknown one is a usage error."""
    name = value.strip().lower()
    if name not in ENGINE_NAMES:
        usage(f"unknown hint engine: {clip(value)!r} (known: {', '.join(ENGINE_NAMES)})")
    return name


SAMPLES_DEFAULTS = (
    f" (default: the engine's: v3 {ENGINES['v3'].samples:,} IS-MCTS iterations, each on its own "
    f"sampled deal; v2 and v1 {ENGINES['v2'].samples} deals)."
)
"""The end of the ``--samples`` help of hint, why and review."""


EngineOpt = Annotated[
    str,
    typer.Option(
        "--engine",
        metavar="NAME",
        callback=_engine_name,
        help="Hint engine: auto (the default: v3 for three players, v2 for two), v3 (IS-MCTS), "
        "v2 (sampled deals searched by a lookahead) or v1 (the first one, kept for comparison).",
    ),
]
"""``--engine`` of hint and review: checked when the command line is read (exit 2)."""


def domain(message: str) -> NoReturn:
    """Stop with a domain error (exit 1): one line."""
    raise ConquianError(message)


_STATE: dict[str, Any] = {"json_errors": False}


def json_errors(on: bool) -> None:
    """With ``on``, a domain error also prints ``{"valid": false, "error": ...}`` on stdout
    (commands that validate input: analyze, replay, puzzle)."""
    _STATE["json_errors"] = on


def json_out(data: Any, *, indent: int | None = None) -> str:
    """``data`` as JSON text for standard output: always valid JSON.

    Never ``NaN`` or ``Infinity`` (not JSON: a :class:`ConquianError`
    instead), and text that standard output cannot encode (a lone surrogate
    read from a ``\\ud800`` escape in the input) as ``\\u`` escapes.

    Raises
    ------
    ConquianError
        If the data holds a number JSON cannot carry (NaN, an infinity).
    """
    try:
        text = json.dumps(data, ensure_ascii=False, indent=indent, allow_nan=False)
    except ValueError:
        raise ConquianError(
            "internal error: the answer holds a number JSON cannot carry (NaN or an infinity)"
        ) from None
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(data, ensure_ascii=True, indent=indent, allow_nan=False)
    return text


def emit(data: Any) -> None:
    """Print JSON on standard output (see :func:`json_out`)."""
    sys.stdout.write(json_out(data, indent=2) + "\n")


def _error_line(message: str) -> None:
    err.print(f"conquian: error: {message}", markup=False, soft_wrap=True)


def _flags_without_type(params: list[Any]) -> list[Any]:
    """Show flags as flags: no ``<bool>`` type column in the help (they take no value); and no
    Python type (``<str>``) beside an argument, whose name (``POSITION``) says what it is."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
        elif isinstance(param, TyperArgument):
            param.display_type_rich = lambda ctx: None  # type: ignore[method-assign]
    return params


def _paragraphs(text: str | None) -> str | None:
    """Help text with each paragraph on one line, so that the terminal width wraps it."""
    if text is None:
        return None
    return "\n\n".join(p.replace("\n", " ") for p in inspect.cleandoc(text).split("\n\n"))


class Command(TyperCommand):
    """A command whose help shows flags without a type and wraps paragraphs to the terminal."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = _paragraphs(self.help)

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_type(super().get_params(ctx))


class Group(TyperGroup):
    """The ``conquian`` group and the single error boundary of the command.

    Every command runs inside :meth:`main`: usage errors (bad arguments or
    options, bad cards on the command line, unusable output paths) are one
    line naming the command's own help, exit 2; domain errors
    (:class:`ConquianError`: impossible positions, illegal moves, bad file
    content) are one line, exit 1; Ctrl-C is one line, exit 130; a closed
    pipe stops quietly.
    """

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_type(super().get_params(ctx))

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            err.print("conquian: interrupted", markup=False)
            raise typer.Exit(130) from None

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        code = self._run(args, prog_name or "conquian", complete_var, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(
        self, args: Sequence[str] | None, prog_name: str, complete_var: str | None, **extra: Any
    ) -> int:
        json_errors(False)
        _STATE["argv"] = list(sys.argv[1:] if args is None else args)
        _STATE["commands"] = tuple(getattr(self, "commands", ()))
        shell = _completion_shell()
        if shell is not None:
            _error_line(
                f"unknown shell for completion: {clip(shell)!r} (one of {', '.join(SHELLS)}, "
                "or none to detect it) (see 'conquian --help')"
            )
            return USAGE
        try:
            result = super().main(
                args, prog_name, complete_var, standalone_mode=False, **extra
            )
            sys.stdout.flush()  # a reader gone away is found here, not at the interpreter's exit
        except ConquianError as exc:
            if _STATE["json_errors"]:
                emit({"valid": False, "error": str(exc)})
            _error_line(str(exc))
            return DOMAIN
        except RecursionError:
            _error_line("the input is nested too deeply to read")
            return DOMAIN
        except BrokenPipeError:
            # The reader went away (e.g. '| head'): stop quietly.
            _silence_stdout()
            return 0
        except SystemExit as exc:
            # click and rich turn a reader gone away into exit code 1 (click even without
            # standalone mode); it is the same quiet stop as above.
            cause = exc.__context__
            if exc.code == 1 and isinstance(cause, OSError) and cause.errno == errno.EPIPE:
                _silence_stdout()
                return 0
            raise
        except OSError as exc:
            _error_line(f"cannot write the output: {exc.strerror or exc}")
            return DOMAIN
        except KeyboardInterrupt:
            err.print("conquian: interrupted", markup=False)
            return 130
        except typer.Abort:
            err.print("conquian: aborted", markup=False)
            return 130
        except TyperException as exc:
            return _usage_error(exc)
        finally:
            json_errors(False)
        return result if isinstance(result, int) else 0


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
"""The shells whose completion ``--install-completion`` and ``--show-completion`` know."""


def _completion_shell() -> str | None:
    """The shell named after a completion option when it is not one of :data:`SHELLS` (typer would
    ignore it and install for the detected shell), else ``None``."""
    value = _typed_value(["--install-completion", "--show-completion"])
    return None if value is None or value.startswith("-") or value in SHELLS else value


def _no_directory(parent: Path) -> str:
    """``no directory 'x'``, or ``'x' is a file, not a directory`` when something else is there."""
    try:
        found = parent.stat()
    except (OSError, ValueError):
        return f"no directory {_shown(str(parent))!r}"
    return f"{_shown(str(parent))!r} is {_file_kind(found.st_mode)}, not a directory"


def _typed_value(opts: list[str]) -> str | None:
    """The text typed after one of the option names ``opts`` on the command line, if any; the
    last one when the option is given more than once (the one the parser keeps)."""
    args: list[str] = _STATE.get("argv") or []
    found: str | None = None
    short = [o for o in opts if len(o) == 2 and o[0] == "-" and o[1] != "-"]
    for k, arg in enumerate(args):
        name, eq, value = arg.partition("=")
        if name in opts:
            if eq:
                found = value
            elif k + 1 < len(args):
                found = args[k + 1]
        elif any(arg.startswith(o) and len(arg) > 2 for o in short):
            found = arg[2:]  # a value glued to a short option: -nnan
    return found


def _subcommand_path(ctx: Any) -> str:
    """The command's path for the help hint: an option error found while the parser has no
    command context (``conquian hint --samples``) still points at the command's help."""
    if ctx is not None:
        return str(ctx.command_path)
    path = "conquian"
    commands = _STATE.get("commands") or ()
    if commands:
        for arg in _STATE.get("argv") or []:
            if arg in commands:
                return f"{path} {arg}"
    return path


def _usage_error(exc: TyperException) -> int:
    """Argument and option errors: one line pointing at the command's own help, exit 2.

    A value out of range names the text typed (``got '-5'``), and the validation
    library's ``Value error,`` prefix is dropped.
    """
    ctx = getattr(exc, "ctx", None)
    command = _subcommand_path(ctx) if ctx is not None else _subcommand_path(None)
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    message = message.replace(": Value error, ", ": ")
    param = getattr(exc, "param", None)
    if message.startswith("Invalid value for '-") and param is not None:
        typed = _typed_value(list(getattr(param, "opts", [])) + list(getattr(param, "secondary_opts", [])))
        bound = any(word in message for word in ("greater than", "less than", "range"))
        if bound and typed is not None and typed.strip().lower().lstrip("+-") == "nan":
            # A number option bounded below or above: NaN compares false with every bound, so
            # the range message would mislead (a choice or a whole number keeps its message).
            head = message.split("': ", 1)[0]
            message = f"{head}': not a number"
        if typed is not None and repr(typed) not in message:
            message = f"{message.rstrip('.')} (got {clip(typed)!r})"
    if not message.strip() and ctx is not None:
        # No command given: show the help, as 'conquian --help' does.
        out.print(ctx.get_help(), markup=False)
        return USAGE
    _error_line(f"{message} (see '{command} --help')")
    return int(getattr(exc, "exit_code", USAGE))


def given_options(ctx: typer.Context, *names: str) -> list[str]:
    """The options among the parameters ``names`` given on the command line, as typed
    (``--samples``), to refuse options that have no effect in a mode."""
    shown: list[str] = []
    for param in ctx.command.params:
        if param.name not in names:
            continue
        source = ctx.get_parameter_source(param.name)
        if source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT", "PROMPT"):
            # A flag pair (--read/--no-read) given as its second form is named so.
            second = getattr(param, "secondary_opts", None)
            opts = second if second and ctx.params.get(param.name) is False else param.opts
            shown.append(max(opts, key=len))
    return shown


# -------------------------------------------------------------------- input
def rules_of(variant: str) -> Rules:
    """The preset named ``variant``; an unknown name is a usage error."""
    try:
        return get_rules(variant)
    except UnknownVariantError as exc:
        usage(str(exc))


def bots_arg(text: str, option: str = "--bots", rules: Rules | None = None) -> list[str]:
    """The comma-separated bot names of ``option`` (lower case, options kept; an empty entry, as
    in ``greedy,`` or ``greedy,,random``, is refused), each one made once
    to check it: an unknown bot, or an option it does not take or whose value it refuses (an
    unknown hint engine), is a usage error naming the text.  A bot whose optional library is
    missing stays a domain error (:class:`MissingExtraError`: nothing to fix on the command line).
    With ``rules``, a bot is also asked whether its options act in that variant
    (``check_variant``: ``hint:c=0.4`` in ``classic``, whose engine has no such option).
    """
    names = [part.strip().lower() for part in text.split(",")]
    if not all(names):
        what = "is empty" if not text.strip() else "has an empty entry"
        usage(f"{option} {clip(text)!r} {what}: give bot names separated by single commas")
    for name in names:
        try:
            base, _ = parse_bot(name)
        except ConquianError as exc:
            usage(f"{option} {clip(name)!r}: {exc}")
        if base not in BOTS:
            usage(f"unknown bot: {clip(base)!r} (known: {', '.join(BOTS)})")
    for name in dict.fromkeys(names):
        try:
            check_bot(name, rules)
        except MissingExtraError:
            raise
        except ConquianError as exc:
            usage(f"{option} {clip(name)!r}: {exc}")
    return names


def cards_arg(text: str, labels: Labels | None, what: str) -> int:
    """Cards typed on the command line as a mask; a bad card is a usage error naming it."""
    try:
        return mask_of(parse_cards(text, labels))
    except CardError as exc:
        usage(f"{what}: {exc}")


STDIN_CLOSED = [False]
"""Set by the entry point when it started with standard input closed (it then reads as empty)."""

MAX_INPUT = 32 * 1024 * 1024
"""Most bytes read from one input (a position, record, puzzle or meld query file, or standard
input): far more than any of them needs, and a device such as ``/dev/zero`` or an endless pipe
ends with a usage error instead of filling the memory."""


def _read_capped(handle: Any, name: str, what: str | None) -> str:
    label = name if what is None else f"{what} {clip(name)!r}"
    data = handle.read(MAX_INPUT + 1)
    if len(data) > MAX_INPUT:
        usage(
            f"{label} is larger than {MAX_INPUT // (1024 * 1024)} MB: "
            "not a file this command reads"
        )
    try:
        return bytes(data).decode("utf-8-sig")  # a byte-order mark from an editor is accepted
    except UnicodeDecodeError:
        domain(f"{label} is not UTF-8 text")


def input_text(path_text: str, what: str) -> tuple[str, str]:
    """Read a file named on the command line (``-`` is standard input): (text, printable name).

    A missing path, a directory or more than :data:`MAX_INPUT` bytes is a
    usage error (exit 2); content that is not UTF-8 text is a domain error
    (exit 1).
    """
    if path_text == "-":
        if getattr(sys.stdin, "name", None) == os.devnull and STDIN_CLOSED[0]:
            domain("standard input is closed: give a position in a file, as text, or pipe it in")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream without bytes (tests): read it as it is
            return sys.stdin.read(MAX_INPUT + 1).removeprefix("\ufeff"), "standard input"
        return _read_capped(stream, "standard input", None), "standard input"
    if not path_text.strip():
        usage(f"no {what} named: the name is empty")
    path = Path(path_text)
    try:
        found = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        usage(f"no such {what}: {clip(path_text)!r}")
    except (OSError, ValueError) as exc:  # a name too long, a loop of links, a NUL byte
        usage(f"cannot read {clip(path_text)!r}: {getattr(exc, 'strerror', None) or exc}")
    if stat.S_ISDIR(found.st_mode):
        usage(f"{what} {clip(path_text)!r} is a directory, not a file")
    try:
        with open(path, "rb") as handle:
            return _read_capped(handle, path_text, what), path_text
    except OSError as exc:
        usage(f"cannot read {clip(path_text)!r}: {exc.strerror or exc}")


def json_input(text: str, name: str, expected: str = "a position") -> Any:
    """Parse JSON read by :func:`input_text`; invalid JSON is a domain error naming the file
    (``expected``: what the file should hold, for the message when it is a game record)."""
    return parse_json(text, name if name == "standard input" else repr(name), expected)


@dataclass(frozen=True, slots=True)
class PositionInput:
    """A position read from the command line.

    Attributes
    ----------
    state : GameState
        The position, printing its cards in the output labels
        (``state.rules.labels``).
    name : str
        The file name, ``standard input`` or the bundled position.
    labels : Labels
        The position's own labels (R2): they decide the moves typed for it.
    """

    state: GameState
    name: str
    labels: Labels


BUNDLED = "the bundled position (RULES.md worked example 5)"

POSITION_HELP = (
    "Position: a JSON file, the one-line notation in quotes (docs/notation.md), or - for stdin."
)
"""The help of every POSITION argument."""


def _names_a_file(text: str) -> bool:
    """True if a file exists by the name ``text`` (False for text that cannot be a file name)."""
    try:
        return Path(text).exists()
    except (OSError, ValueError):
        return False


def read_position(position: str | None, labels: Labels | None) -> PositionInput:
    """Read POSITION (a file, ``-``, notation text, or the bundled position when ``None``);
    answers in ``labels``.

    POSITION names a file when one exists by that name; otherwise text whose
    first word is a variant (``classic ...``) is read as the one-line
    notation (:mod:`analyzer.notation`): a notation that does not parse is a
    usage error (exit 2) naming the field and column, like a bad card on the
    command line.  A file or standard input may also hold the notation
    instead of JSON; there, as for JSON, every error is a domain error
    (exit 1).  Shape, labels and rules are checked in that order (domain
    errors, exit 1).
    """
    if position is None:
        text = resources.files("cli").joinpath("data/default-position.json").read_text("utf-8")
        name = BUNDLED
    elif position != "-" and not _names_a_file(position) and looks_like_notation(position):
        try:
            state = parse_notation(position)  # rule errors are PositionError, domain errors
        except NotationError as exc:
            usage(f"POSITION: {exc}")
        return PositionInput(relabel(state, labels), clip(position, 60), state.rules.labels)
    elif (
        position != "-" and not _names_a_file(position) and position.strip().lower() in PRESETS
    ):
        # A variant alone: the start of a notation line, not a file name.
        usage(
            f"no such position file {clip(position, 60)!r}, and as the one-line notation it has "
            "only its first field: write at least variant, labels, dealer, to_act and the players "
            "(docs/notation.md; 'conquian notation FILE' prints a position's line)"
        )
    elif position != "-" and not _names_a_file(position) and len(position.split()) >= 3:
        # Several words and no such file: meant as the notation, with an unknown variant.
        usage(
            f"no such position file {clip(position, 60)!r}, and as the one-line notation its "
            f"first field must be a variant ({', '.join(PRESETS)}), got {clip(position.split()[0])!r}"
        )
    else:
        text, name = input_text(position, "position file")
        if looks_like_notation(text.strip()) and not text.lstrip().startswith("{"):
            state = parse_notation(text.strip())
            return PositionInput(relabel(state, labels), name, state.rules.labels)
    try:
        data = json_input(text, name)
    except PositionError:
        words = text.lstrip("\ufeff").split(None, 1)
        if not words:
            raise PositionError(
                f"{name} is empty: give a position, as JSON or the one-line notation"
            ) from None
        if not words[0].startswith(("{", "[")):
            # Neither kind: say both, as a file or standard input may hold either.
            raise PositionError(
                f"{name} is neither JSON nor the one-line notation, which starts with a variant "
                f"({', '.join(PRESETS)}); it starts with {clip(words[0], 40)!r}"
            ) from None
        raise
    state = load_position(unwrap_position(data))
    return PositionInput(relabel(state, labels), name, state.rules.labels)


# ------------------------------------------------------------------- output
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
    (a fresh-user report: ``--svg s.png`` wrote SVG text into a file named .png)."""
    ending = Path(text).suffix.lower() if text else ""
    if ending == ".svgz":  # fresh-user report: plain SVG text went into a file named .svgz
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
                    # '-' is standard input, which may be this very file ('< same.jsonl'; a
                    # fresh-user report: the record read was replaced by the picture).
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
    game records (``game-*.jsonl``), which the caller checks.
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
            games = [name for name in held if name.startswith("game-") and name.endswith(".jsonl")]
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


@contextmanager
def interruptible() -> Iterator[Callable[[], bool]]:
    """``with interruptible() as stop``: Ctrl-C inside the block sets a flag instead of raising.

    Long searches poll ``stop()`` and answer with the best they found so
    far, marked as interrupted; a second Ctrl-C aborts as usual.
    """
    hit = False

    def handler(signum: int, frame: object) -> None:
        nonlocal hit
        if hit:
            raise KeyboardInterrupt
        hit = True

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: Ctrl-C cannot reach this block anyway
        yield lambda: False
        return
    try:
        yield lambda: hit
    finally:
        signal.signal(signal.SIGINT, previous)


def progress(label: str, as_json: bool, *, transient: bool) -> Progress:
    """A progress bar on stderr, shown only on a terminal and never with --json."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=as_json or not err.is_terminal,
        transient=transient,
    )
