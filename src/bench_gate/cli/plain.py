"""The plain gate command line, read without typer.

Most runs are ``bench-gate REPORT [REPORT ...] --profile NAME`` with a few options. Importing
typer and click and building the commands costs more than judging a typical report, so
:func:`run` reads such a command line itself. Whenever it is not certain that typer would read
it the same way it answers None, and typer parses the command line
(:mod:`bench_gate.cli.commands`), with its help, completion, other commands and every error
message.

Typer's gate does three things before it parses the options, whatever they are: the first word
must not be a mistyped command name (:func:`refuse_command_typo`), ``--profile`` is found
(:func:`profile_ref`, an error when given twice) and the profile is loaded; its options join
the command's. :func:`run` does the same three, in the same order, with the same errors, and
then :func:`parse` reads the rest, accepting only:

* reports: words that do not start with ``-``;
* ``--profile NAME|PATH`` (``-p``, ``--profile=``, ``-pNAME``);
* ``--doc``, ``--set``, ``--output-file`` (repeatable), and ``--root``, ``--now``,
  ``--format``, ``--output``, ``--waivers``, each once;
* ``--fail-on`` and ``--color`` with one of their values, once;
* ``--quiet`` / ``-q``, ``--strict``, ``--no-color`` (once) and ``--verbose`` / ``-v`` (counted);
* the profile's own options (``--require-qa``, ``--baseline PATH``, ``--min-metric K=V`` ...):
  a flag or a single value once, a repeatable one any number of times.

A value must be non-empty and must not start with ``-``. Anything else (``--help``, an unknown
or repeated option, ``--``, ``-vv``, shell completion) goes to typer, which loads the profile
again and answers. What follows a certain parse is what typer's command does:
:func:`~bench_gate.cli.gate.run_gate` with the same arguments, and the same answers to an
interrupt or a closed output pipe. ``tests/cli/test_plain.py`` runs both parsers over the same
command lines and compares exit code, standard output, standard error and written files.
"""

from __future__ import annotations

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

FLAG, VALUE, REPEATABLE = "flag", "value", "repeatable"
_COMMON = {
    "--profile": ("profile", VALUE), "-p": ("profile", VALUE),
    "--root": ("root", VALUE), "--now": ("now", VALUE), "--format": ("fmt", VALUE),
    "--output": ("output", VALUE), "--waivers": ("waivers", VALUE),
    "--fail-on": ("fail_on", VALUE), "--color": ("color", VALUE),
    "--doc": ("doc", REPEATABLE), "--set": ("sets", REPEATABLE), "--output-file": ("output_file", REPEATABLE),
    "--quiet": ("quiet", FLAG), "-q": ("quiet", FLAG), "--strict": ("strict", FLAG),
    "--no-color": ("no_color", FLAG),
}
"""The gate's own options: name -> (argument, how it is given)."""
_CHOICES = {"fail_on": ("error", "warning", "info"), "color": ("always", "auto", "never")}
_REPEATABLE_KINDS = ("list", "kv", "kv-number", "pem")


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
    import difflib

    close = difflib.get_close_matches(word, list(commands), n=1, cutoff=0.7)
    if close:
        raise Usage(f"no command {word!r} and no such report file; did you mean {close[0]!r}? "
                    "(`bench-gate --help` lists the commands)")


def run(argv: Sequence[str]) -> int | None:
    """Run the gate on a plain command line; None when typer must read it."""
    from bench_gate.cli.gate import GateArgs, rendering, run_gate

    try:
        found = read(argv)
        if found is None:
            return None
        profile, given = found
        return run_gate(GateArgs(
            reports=given["reports"], profile=profile, doc=given.get("doc", []),
            sets=given.get("sets", []), root=given.get("root"), quiet=given.get("quiet", False),
            profile_values={k: v for k, v in given.items() if k.startswith(("opt__", "doc__"))},
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


def read(argv: Sequence[str]) -> tuple[Any, dict[str, Any]] | None:
    """The loaded profile and the gate's arguments by name, or None when typer must read the
    command line. A mistyped command, ``--profile`` given twice or a profile that cannot be
    loaded raise the usage error typer's gate raises, before it parses anything else."""
    if os.environ.get(COMPLETE_VAR) or not argv or argv[0] in COMMANDS or argv[0] in GROUP_ONLY:
        return None
    from bench_gate.cli.gate import load_profile_or_usage

    if not argv[0].startswith("-"):
        refuse_command_typo(argv[0], COMMANDS)
    ref = profile_ref(argv)
    if ref is None:
        return None
    profile = load_profile_or_usage(ref)
    options = profile_options(profile)
    given = None if options is None else parse(argv, options)
    return None if given is None else (profile, given)


def profile_options(profile: Any) -> dict[str, tuple[str, str]] | None:
    """The gate's options and the profile's own, as :func:`parse` reads them; None when a
    profile option is not a plain long option of its own (typer decides what that means)."""
    options = dict(_COMMON)
    own: list[tuple[str, str, str]] = [(doc.spec.option, f"doc__{role}", VALUE)
                                       for role, doc in profile.documents.items() if doc.spec.option]
    own += [(name, f"opt__{opt.spec.param}",
             FLAG if opt.spec.kind == "flag" else REPEATABLE if opt.spec.kind in _REPEATABLE_KINDS else VALUE)
            for name, opt in profile.options.items()]
    for name, key, how in own:
        taken = {k for k, _ in options.values()}
        if name in options or key in taken or not name.startswith("--") or "=" in name or len(name) < 3:
            return None
        options[name] = (key, how)
    return options


def parse(argv: Sequence[str], options: dict[str, tuple[str, str]]) -> dict[str, Any] | None:
    """The gate's arguments by name, or None when typer must read this command line."""
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
        if arg in ("-v", "--verbose"):
            given["verbose"] += 1
            continue
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
        elif arg.startswith("-p") and len(arg) > 2:
            name, eq, value = "-p", "=", arg[2:]
        else:
            name, eq, value = arg, "", ""
        if name not in options:
            return None  # --help, an unknown option, --, -qv ...
        key, how = options[name]
        if how == FLAG:
            if eq or key in given:
                return None
            given[key] = True
            continue
        if not eq:
            if i >= len(args):
                return None
            value = args[i]
            i += 1
        if not value or value.startswith("-") or value not in _CHOICES.get(key, (value,)):
            return None
        if how == REPEATABLE:
            given.setdefault(key, []).append(value)
        elif key in given:
            return None
        else:
            given[key] = value
    return given if given["reports"] else None


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
