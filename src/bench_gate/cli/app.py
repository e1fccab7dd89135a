"""The ``bench-gate`` command line.

::

    bench-gate REPORT [REPORT ...] --profile NAME|PATH [options] [profile options]
    bench-gate profiles                 list the built-in profiles
    bench-gate explain PROFILE          every rule a profile runs, with its parameters
    bench-gate schema                   the JSON Schema of profile and policy files
    bench-gate kinds                    the registered check kinds and their parameters

Exit codes: 0 the gate passed; 1 it was evaluated and failed; 2 it could not be evaluated
(usage error, unreadable or invalid report, unknown or invalid profile, a document named on
the command line that cannot be read). Nothing else, and never a traceback.

Profile options (``--require-qa``, ``--baseline PATH`` ...) are declared by the profile; using
one with a profile that does not declare it is a usage error. Options are matched exactly: no
abbreviations, so ``--base`` is not taken for ``--baseline``.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from bench_gate import __version__
from bench_gate.cli.options import (
    EXIT_FAIL,
    EXIT_PASS,
    EXIT_USAGE,
    Once,
    Usage,
    error_line,
    parse_number,
    parse_output_options,
    set_values,
    split_kv,
    tty_colour,
    write_output,
)

VERBS = ("profiles", "explain", "schema", "kinds", "ledger", "claims")

EPILOG = """examples:
  bench-gate report.json --profile ai-memory
  bench-gate report.json --profile ai-memory --require-qa --require-runtime qa_mode=model
  bench-gate reports/longmembench-report.json --profile official-sota --baseline sota-baseline.json
  bench-gate report.json --profile my-gate.yaml --format json --output verdict.json
  bench-gate explain ai-memory

exit codes: 0 passed, 1 failed, 2 could not be evaluated"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise Usage(message, hint=True)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise SystemExit(status)


# --- parsers ----------------------------------------------------------------------------


def _base_parser() -> _Parser:
    p = _Parser(prog="bench-gate", allow_abbrev=False, add_help=False,
                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG,
                description="Gate a benchmark report against a profile of declarative rules.")
    p.add_argument("-h", "--help", action="store_true", help="show this help (with --profile: "
                   "including the profile's options) and exit")
    p.add_argument("--version", action="store_true", help="print the version and exit")
    p.add_argument("reports", nargs="*", metavar="REPORT", help="report JSON file(s) to judge")
    p.add_argument("-p", "--profile", action=Once, metavar="NAME|PATH",
                   help="built-in profile name or a profile YAML path (required)")
    p.add_argument("--doc", action="append", default=[], metavar="ROLE=PATH",
                   help="supply a document by role (repeatable)")
    p.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE", dest="sets",
                   help="override a declared profile parameter (value is a JSON scalar)")
    p.add_argument("--root", action=Once, metavar="DIR",
                   help="evidence root for paths written inside reports (default: .)")
    p.add_argument("--now", action=Once, metavar="TIMESTAMP",
                   help="evaluate as of this instant (RFC 3339 with offset; default: now, UTC)")
    p.add_argument("--format", action=Once, metavar="FMT",
                   help="text (default), json, junit, sarif, github or markdown")
    p.add_argument("--output", action=Once, metavar="PATH",
                   help="write the rendered verdict to PATH instead of stdout")
    p.add_argument("--output-file", action="append", default=[], metavar="FMT=PATH",
                   help="also write the verdict in FMT to PATH (repeatable)")
    p.add_argument("--waivers", action=Once, metavar="FILE",
                   help="YAML file of reviewed, expiring waivers for failing rules")
    p.add_argument("--fail-on", action=Once, choices=("error", "warning", "info"), metavar="SEVERITY",
                   help="lowest severity whose failure fails the gate: error (default), warning, info")
    p.add_argument("--strict", action="store_true", help="warnings fail the gate (--fail-on warning)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress display for large batches")
    p.add_argument("--no-color", action="store_true", help="never colour the text output")
    return p


def _profile_ref(argv: Sequence[str]) -> str | None:
    """Find --profile before the full parse (its options depend on it)."""
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


def _add_profile_options(p: _Parser, profile: Any) -> None:
    group = p.add_argument_group(f"options of profile {profile.name}")
    for role, doc in sorted(profile.documents.items()):
        if doc.spec.option:
            group.add_argument(doc.spec.option, action=Once, metavar="PATH", dest=f"doc__{role}",
                               help=doc.spec.description or f"the {role} document")
    for name, opt in sorted(profile.options.items()):
        spec = opt.spec
        dest = f"opt__{spec.param}"
        if spec.kind == "flag":
            group.add_argument(name, action="store_true", dest=dest, help=spec.help)
        elif spec.kind in ("string", "number"):
            group.add_argument(name, action=Once, dest=dest, help=spec.help,
                               metavar=spec.metavar or ("X" if spec.kind == "number" else "VALUE"))
        else:
            metavar = spec.metavar or ("KEY=VALUE" if spec.kind.startswith("kv") else
                                       "PEM" if spec.kind == "pem" else "VALUE")
            group.add_argument(name, action="append", dest=dest, help=spec.help, metavar=metavar)


def _option_values(ns: argparse.Namespace, profile: Any) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, opt in profile.options.items():
        spec = opt.spec
        raw = getattr(ns, f"opt__{spec.param}", None)
        if raw is None or raw is False:
            continue
        if spec.kind == "flag":
            values[spec.param] = True
        elif spec.kind == "string":
            if not raw.strip():
                raise Usage(f"{name} needs a non-empty value")
            values[spec.param] = raw
        elif spec.kind == "number":
            values[spec.param] = parse_number(raw, f"{name} ")
        elif spec.kind == "list":
            values[spec.param] = list(raw)
        elif spec.kind == "pem":
            from bench_gate.aef.signatures import SignatureSetupError, read_trusted_keys

            try:
                values[spec.param] = read_trusted_keys(list(raw), name)
            except SignatureSetupError as exc:
                raise Usage(str(exc)) from None
        else:
            pairs: dict[str, Any] = {}
            for item in raw:
                key, value = split_kv(item, name)
                if key in pairs:
                    raise Usage(f"{name} {key}=... given more than once")
                pairs[key] = parse_number(value, f"{name} {key}=") if spec.kind == "kv-number" else value
            values[spec.param] = pairs
    return values


# --- main -------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0, 1 or 2)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in VERBS:
            from bench_gate.cli import info as verbs

            return verbs.run(args[0], args[1:])
        return _gate(args)
    except Usage as exc:
        error_line(str(exc))
        if exc.hint:
            sys.stderr.write("(see bench-gate --help)\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        error_line("interrupted")
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_USAGE
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) and exc.code in (0, 1, 2) else EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the last line of defence: exit 2, no traceback
        error_line(f"internal error: {exc.__class__.__name__}: {exc}")
        return EXIT_USAGE


def _gate(args: list[str]) -> int:
    from bench_gate.profile import load_profile
    from bench_gate.profile.binding import bind
    from bench_gate.profile.model import ProfileError
    from bench_gate.runner import UsageError, judge, load_cli_documents

    ref = _profile_ref(args)
    parser = _base_parser()
    profile = None
    if ref is not None:
        try:
            profile = load_profile(ref)
        except ProfileError as exc:
            raise Usage(f"profile: {exc}") from None
        _add_profile_options(parser, profile)
    ns, unknown = parser.parse_known_args(args)
    if unknown:
        _unknown(unknown, profile)
    if ns.version:
        print(f"bench-gate {__version__}")
        return EXIT_PASS
    if ns.help:
        parser.print_help()
        return EXIT_PASS
    if profile is None:
        raise Usage("--profile is required (a built-in name such as ai-memory, or a YAML path); "
                    "`bench-gate profiles` lists them")
    if not ns.reports:
        raise Usage("no REPORT given")
    fmt, extra_outputs, now = parse_output_options(ns)
    root = Path(ns.root) if ns.root is not None else Path(".")
    if ns.root is not None and not root.is_dir():
        raise Usage(f"--root {ns.root!r}: not a directory")

    values = _option_values(ns, profile)
    values.update(set_values(ns.sets, profile))
    named: dict[str, str] = {}
    for item in ns.doc:
        role, path = split_kv(item, "--doc")
        if role in named:
            raise Usage(f"--doc {role}=... given more than once")
        if not path:
            raise Usage(f"--doc {item!r}: empty path")
        named[role] = path
    for role in profile.documents:
        path = getattr(ns, f"doc__{role}", None)
        if path is not None:
            if role in named:
                raise Usage(f"document {role} given both as {profile.documents[role].spec.option} and --doc")
            named[role] = path
    try:
        plan = bind(profile, values)
    except ProfileError as exc:
        raise Usage(f"profile: {exc}") from None
    if ns.strict and ns.fail_on not in (None, "warning"):
        raise Usage(f"--strict means --fail-on warning; it contradicts --fail-on {ns.fail_on}")
    fail_on = "warning" if ns.strict else (ns.fail_on or "error")
    waivers = None
    if ns.waivers is not None:
        from bench_gate import waivers as waiver_mod

        try:
            waivers = waiver_mod.load(ns.waivers)
        except waiver_mod.WaiverFileError as exc:
            raise Usage(str(exc)) from None
    try:
        cli_docs = load_cli_documents(plan, named)
    except UsageError as exc:
        raise Usage(str(exc)) from None
    verdicts = []
    unreadable: list[str] = []
    progress = Progress(len(ns.reports), enabled=not ns.quiet)
    for report in ns.reports:
        progress.step(report)
        try:
            verdict = replace(judge(plan, report, cli_docs, root, now, __version__), fail_on=fail_on)
        except UsageError as exc:
            if len(ns.reports) == 1:
                raise Usage(str(exc)) from None
            # in a batch, the other reports are still judged; the run exits 2 at the end
            unreadable.append(str(exc))
            continue
        if waivers is not None:
            verdict = waiver_mod.apply(verdict, waivers, plan.values.get("max_waiver_days", waiver_mod.MAX_DAYS))
        verdicts.append(verdict)
    progress.done()
    if not verdicts:
        raise Usage(unreadable[0] if len(unreadable) == 1 else
                    f"none of the {len(unreadable)} reports could be evaluated; first: {unreadable[0]}")

    from bench_gate.report import render

    color = fmt == "text" and not ns.no_color and ns.output is None and tty_colour()
    text = render(fmt, verdicts, color=color) if fmt == "text" else render(fmt, verdicts)
    write_output(ns.output, text)
    for ofmt, path in extra_outputs:
        write_output(path, render(ofmt, verdicts))
    for problem in unreadable:
        error_line(problem)
    if unreadable:
        return EXIT_USAGE
    return EXIT_PASS if all(v.passed for v in verdicts) else EXIT_FAIL


class Progress:
    """A one-line progress display on stderr, only for a large batch on a terminal outside CI."""

    THRESHOLD = 20

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.count = 0
        self.on = (enabled and total >= self.THRESHOLD and sys.stderr.isatty()
                   and not os.environ.get("CI") and "NO_PROGRESS" not in os.environ)

    def step(self, label: str) -> None:
        self.count += 1
        if self.on:
            sys.stderr.write(f"\r\033[K[{self.count}/{self.total}] {label[-60:]}")
            sys.stderr.flush()

    def done(self) -> None:
        if self.on:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _unknown(items: list[str], profile: Any) -> NoReturn:
    option = next((i for i in items if i.startswith("-")), None)
    if option is None:
        raise Usage(f"unexpected argument {items[0]!r}", hint=True)
    name = option.split("=", 1)[0]
    if profile is None:
        raise Usage(f"unknown option {name} (profile options need --profile)", hint=True)
    raise Usage(f"option {name} is not an option of bench-gate or of profile {profile.name} "
                f"(`bench-gate --profile {profile.name} --help` lists them)", hint=False)


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
    # Run as ``python -m bench_gate.cli.app``: use the importable module, so that the verbs and
    # this file share one Usage class.
    from bench_gate.cli.app import entry as _entry

    _entry()
