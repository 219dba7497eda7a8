"""The error boundary: usage errors exit 2, domain errors exit 1, one line, never a traceback."""

from __future__ import annotations

import errno
import inspect
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.exceptions import TyperException

from analyzer.core.cards import clip
from analyzer.core.errors import ConquianError
from cli.console import emit, err, out

__all__ = ["DOMAIN", "USAGE", "Command", "Group", "domain", "json_errors", "usage"]

USAGE = 2
DOMAIN = 1


class UsageProblem(typer.BadParameter):
    """A usage error found by a command: printed as its message, exit 2."""

    def format_message(self) -> str:
        return self.message


def usage(message: str) -> NoReturn:
    """Stop with a usage error (exit 2): one line naming the offending text and the command's help."""
    raise UsageProblem(message)


def domain(message: str) -> NoReturn:
    """Stop with a domain error (exit 1): one line."""
    raise ConquianError(message)


_STATE: dict[str, Any] = {"json_errors": False}


def json_errors(on: bool) -> None:
    """With ``on``, a domain error also prints ``{"valid": false, "error": ...}`` on stdout
    (commands that validate input: analyze, replay, puzzle)."""
    _STATE["json_errors"] = on


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
        if not {"--help", "--version"} & set(_STATE["argv"]):
            from analyzer.core.native import CoreUnavailableError, core_in_use

            try:
                core_in_use()  # CONQUIAN_CORE=native with no native core built: a usage error
            except CoreUnavailableError as exc:
                _error_line(str(exc))
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
    _error_line(f"{message.rstrip('.')} (see '{command} --help')")  # no period before the pointer
    return int(getattr(exc, "exit_code", USAGE))
