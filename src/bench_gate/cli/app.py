"""The ``bench-gate`` command line.

::

    bench-gate REPORT [REPORT ...] --profile NAME|PATH [options] [profile options]
    bench-gate profiles                 list the built-in profiles
    bench-gate explain PROFILE          every rule a profile runs, with its parameters
    bench-gate kinds                    the registered check kinds and their parameters
    bench-gate schema                   the JSON Schema of profile and policy files
    bench-gate ledger MANIFEST          gate a claim ledger
    bench-gate claims PATH... --ledger MANIFEST | --evidence FILE    gate the numbers cited in documents
    bench-gate --install-completion     shell completion for the current shell

Exit codes: 0 the gate passed; 1 it was evaluated and failed; 2 it could not be evaluated
(usage error, unreadable or invalid report, unknown or invalid profile, a document named on
the command line that cannot be read). Nothing else, and never a traceback.

Profile options (``--require-qa``, ``--baseline PATH`` ...) are declared by the profile; using
one with a profile that does not declare it is a usage error. Options are matched exactly: no
abbreviations, so ``--base`` is not taken for ``--baseline``; a mistyped one gets the closest
valid name.

The commands are declared in :mod:`bench_gate.cli.commands` (typer). A plain gate command line
(reports, ``--profile`` and common options) is read by :mod:`bench_gate.cli.plain` without
importing typer; whenever that parser is not certain, typer reads it. This module maps every
outcome to the exit code and one error line.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from typing import Any

from bench_gate.cli.options import EXIT_PASS, EXIT_USAGE, Usage, error_line


def main(argv: Sequence[str] | None = None, *, typer_only: bool = False) -> int:
    """Run the command line; returns the exit code (0, 1 or 2).

    ``typer_only`` has typer parse even a command line the plain parser would read (the two
    are compared by the tests).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if not typer_only:
            from bench_gate.cli import plain

            code = plain.run(args)
            if code is not None:
                return code
        return _run(args)
    except Usage as exc:
        error_line(str(exc))
        if exc.hint:
            sys.stderr.write("(see bench-gate --help)\n")
        return EXIT_USAGE
    except (KeyboardInterrupt, EOFError):
        error_line("interrupted")
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_USAGE
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) and exc.code in (0, 1, 2) else EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the last line of defence: exit 2, no traceback
        error_line(f"internal error: {exc.__class__.__name__}: {exc}")
        return EXIT_USAGE


def _run(args: list[str]) -> int:
    from bench_gate.cli.commands import click, command

    try:
        code: Any = command().main(args, prog_name="bench-gate", standalone_mode=False)
    except click.exceptions.NoSuchOption as exc:
        raise Usage(_no_such_option(exc)) from None
    except click.exceptions.ClickException as exc:
        # usage errors and bad parameter values alike: the run could not be evaluated
        raise Usage(_first_lower(exc.format_message().replace("Value error, ", "")), hint=True) from None
    except click.exceptions.Abort as exc:
        # click turns an end of input into Abort; typer turns Ctrl-C into exit code 130
        raise Usage("interrupted" if isinstance(exc.__cause__, EOFError) else "aborted") from None
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    if code == 130:  # typer's answer to Ctrl-C
        raise Usage("interrupted")
    if code is None:  # --help, --version, completion
        return EXIT_PASS
    return code if isinstance(code, int) and code in (0, 1, 2) else EXIT_USAGE


def _no_such_option(exc: Any) -> str:
    """``no such option --profle; did you mean --profile?``, with the profile's options in mind."""
    import difflib

    from bench_gate.cli.commands import PROFILE_KEY

    name = exc.option_name
    close = difflib.get_close_matches(name, exc.possibilities or [], n=2, cutoff=0.75)
    if close:
        return f"no such option {name}; did you mean {' or '.join(close)}?"
    ctx = exc.ctx
    if ctx is None or ctx.info_name != "gate":
        return f"no such option {name}"
    profile = ctx.meta.get(PROFILE_KEY)
    if profile is None:
        return f"unknown option {name} (profile options need --profile)"
    return (f"option {name} is not an option of bench-gate or of profile {profile.name} "
            f"(`bench-gate --profile {profile.name} --help` lists them)")


def _first_lower(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def entry() -> None:
    """Console-script entry point.

    The process ends with ``os._exit`` once stdout and stderr are flushed: every output file is
    already written and closed, so the interpreter's teardown of each module and object (about
    a tenth of a small gate's run time) would change nothing. The cycle collector runs less
    often: a gate allocates many objects (compiled profile, parsed evidence) and frees them by
    reference counting, so frequent collections only cost time.
    """
    gc.set_threshold(20_000, *gc.get_threshold()[1:])
    code = main()
    try:
        sys.stdout.flush()
    except (OSError, ValueError):  # a closed pipe or a full disk: the verdict did not get out
        code = EXIT_USAGE
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":
    # Run as ``python -m bench_gate.cli.app``: use the importable module, so that the commands
    # and this file share one Usage class.
    from bench_gate.cli.app import entry as _entry

    _entry()
