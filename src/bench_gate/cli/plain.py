"""The plain gate command line, read without typer.

Most runs are ``bench-gate REPORT [REPORT ...] --profile NAME`` with a few common options.
Importing typer and click and building the commands costs more than judging a typical report,
so :func:`parse` reads such a command line itself, and answers None whenever it is not certain
that typer would read it the same way; typer then parses it (:mod:`bench_gate.cli.commands`),
with its help, completion, other commands and every error message.

:func:`parse` accepts only:

* reports: words that do not start with ``-`` (the first one must not be a command name);
* ``--profile NAME|PATH`` (``-p``, ``--profile=``, ``-pNAME``), once;
* ``--doc``, ``--set``, ``--output-file`` (repeatable), and ``--root``, ``--now``,
  ``--format``, ``--output``, ``--waivers``, each once;
* ``--fail-on`` and ``--color`` with one of their values, once;
* ``--quiet`` / ``-q``, ``--strict``, ``--no-color`` (once) and ``--verbose`` / ``-v`` (counted).

A value must be non-empty and must not start with ``-``. Anything else (``--help``, a profile's
own option, an unknown or repeated option, ``--``, shell completion) goes to typer. What
follows a certain parse is what typer does after its own: the same checks in the same order,
the same profile loading, the same :func:`~bench_gate.cli.gate.run_gate`, and the same answers
to an interrupt or a closed output pipe. ``tests/test_plain_cli.py`` runs both parsers over
the same command lines and compares exit code, standard output and standard error.

This module also holds what both parsers share before the gate runs: :func:`profile_ref` and
:func:`refuse_command_typo`.
"""

from __future__ import annotations

import difflib
import errno
import os
import sys
from collections.abc import Sequence
from typing import Any

from bench_gate.cli.options import Usage

COMMANDS = ("gate", "profiles", "explain", "kinds", "schema", "ledger", "claims")
"""The command names; any other first word is a report of the gate."""
GROUP_ONLY = frozenset({"--help", "-h", "--version", "--install-completion", "--show-completion"})
"""Options of ``bench-gate`` itself rather than of the gate."""
COMPLETE_VAR = "_BENCH_GATE_COMPLETE"
"""Set by a shell asking for completions (typer answers it)."""

_VALUES = {"--root": "root", "--now": "now", "--format": "fmt", "--output": "output",
           "--waivers": "waivers", "--fail-on": "fail_on", "--color": "color"}
_LISTS = {"--doc": "doc", "--set": "sets", "--output-file": "output_file"}
_FLAGS = {"--quiet": "quiet", "-q": "quiet", "--strict": "strict", "--no-color": "no_color"}
_CHOICES = {"fail_on": ("error", "warning", "info"), "color": ("always", "auto", "never")}


def profile_ref(argv: Sequence[str]) -> str | None:
    """``--profile`` before the full parse (the options depend on it); given twice is an error."""
    found: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = None
        if arg in ("--profile", "-p") and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--profile="):
            value = arg.split("=", 1)[1]
        elif arg.startswith("-p") and len(arg) > 2 and not arg.startswith("--"):
            value = arg[2:]
        if value is not None:
            if found is not None:
                raise Usage("--profile given more than once")
            found = value
    return found


def refuse_command_typo(word: str, commands: Sequence[str]) -> None:
    """``bench-gate explian``: not a file, close to a command name -> say which one."""
    if os.path.lexists(word) or "/" in word or "." in word:
        return
    close = difflib.get_close_matches(word, list(commands), n=1, cutoff=0.7)
    if close:
        raise Usage(f"no command {word!r} and no such report file; did you mean {close[0]!r}? "
                    "(`bench-gate --help` lists the commands)")


def parse(argv: Sequence[str]) -> dict[str, Any] | None:
    """The gate's arguments by name, or None when typer must read this command line."""
    if os.environ.get(COMPLETE_VAR) or not argv or argv[0] in COMMANDS:
        return None
    given: dict[str, Any] = {"reports": [], "verbose": 0}
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-"):
            if not arg:
                return None
            given["reports"].append(arg)
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in ("-v", "--verbose") and not eq:
            given["verbose"] += 1
            continue
        if name in _FLAGS and not eq:
            if _FLAGS[name] in given:
                return None
            given[_FLAGS[name]] = True
            continue
        if arg.startswith("-p") and len(arg) > 2 and not arg.startswith("--"):
            name, value, eq = "-p", arg[2:], "="
        if name in ("--profile", "-p"):
            key = "profile"
        elif name in _VALUES:
            key = _VALUES[name]
        elif name in _LISTS:
            key = _LISTS[name]
        else:
            return None  # --help, a profile's own option, an unknown option, --, -qv ...
        if not eq:
            if i >= len(args):
                return None
            value = args[i]
            i += 1
        if not value or value.startswith("-") or value not in _CHOICES.get(key, (value,)):
            return None
        if name in _LISTS:
            given.setdefault(key, []).append(value)
        elif key in given:
            return None
        else:
            given[key] = value
    if not given["reports"] or "profile" not in given:
        return None
    return given


def run(argv: Sequence[str], given: dict[str, Any]) -> int:
    """Run the gate on a command line :func:`parse` read: what typer would do after parsing it."""
    from bench_gate.cli.gate import GateArgs, load_profile_or_usage, rendering, run_gate

    if not argv[0].startswith("-"):
        refuse_command_typo(argv[0], COMMANDS)
    profile = load_profile_or_usage(given["profile"])
    try:
        return run_gate(GateArgs(
            reports=given["reports"], profile=profile, doc=given.get("doc", []),
            sets=given.get("sets", []), root=given.get("root"), quiet=given.get("quiet", False),
            out=rendering(given.get("now"), given.get("fmt"), given.get("output"),
                          given.get("output_file"), given.get("waivers"), given.get("fail_on"),
                          given.get("strict", False), given.get("color"),
                          given.get("no_color", False), given["verbose"])))
    # What typer's command runner does with these, so that both parsers answer alike:
    except EOFError:
        sys.stderr.write("\n")
        sys.stderr.flush()
        raise Usage("interrupted") from None
    except KeyboardInterrupt:
        raise Usage("interrupted") from None
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        # a reader that went away (``bench-gate ... | head -1``): exit 1, and flushing the
        # standard streams at exit must not fail again
        sys.stdout = _QuietFlush(sys.stdout)  # type: ignore[assignment]
        sys.stderr = _QuietFlush(sys.stderr)  # type: ignore[assignment]
        return 1


class _QuietFlush:
    """A standard stream whose ``flush`` ignores a broken pipe; everything else is the stream's."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.wrapped, attr)
