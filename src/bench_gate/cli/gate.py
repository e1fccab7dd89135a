"""The gate command after parsing: profile options, documents, judging each report, output.

``bench-gate REPORT [REPORT ...] --profile NAME|PATH [options] [profile options]``

A profile declares options of its own (:func:`profile_parameters` turns each into a click
parameter); their values reach the plan as parameter values. Exit codes: 0 every report
passed, 1 one failed, 2 one could not be evaluated (the readable ones are still judged).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from bench_gate.records import field, record, replace
from bench_gate import __version__
from bench_gate.models import Verdict
from bench_gate.cli.options import (
    EXIT_FAIL,
    EXIT_PASS,
    EXIT_USAGE,
    Usage,
    error_line,
    parse_number,
    parse_output_options,
    set_values,
    split_kv,
    use_colour,
    write_output,
)


@record(frozen=False)
class Rendering:
    """The options every verdict-producing command shares: time, format, outputs, waivers."""

    now: str | None = None
    format: str | None = None
    output: str | None = None
    output_file: list[str] = field(default_factory=list)
    waivers: str | None = None
    fail_on: str | None = None
    strict: bool = False
    color: str = "auto"
    verbose: int = 0


def rendering(now: str | None, fmt: str | None, output: str | None, output_file: list[str] | None,
              waivers: str | None, fail_on: str | None, strict: bool, color: str | None,
              no_color: bool, verbose: int) -> Rendering:
    """The shared options as a command line gave them (None: not given)."""
    return Rendering(now=now, format=fmt, output=output, output_file=output_file or [],
                     waivers=waivers, fail_on=fail_on, strict=strict,
                     color=color_choice(color, no_color), verbose=verbose)


def color_choice(color: str | None, no_color: bool) -> str:
    """``--color`` and its older spelling ``--no-color``, which must not contradict each other."""
    if no_color and color not in (None, "never"):
        raise Usage(f"--no-color contradicts --color {color}")
    return "never" if no_color else (color or "auto")


@record(frozen=False)
class Prepared:
    """:class:`Rendering` checked: the format, further outputs, the instant, the fail-on level
    and the loaded waivers (None without ``--waivers``)."""

    format: str
    extra: list[tuple[str, str]]
    now: datetime
    fail_on: str
    waivers: Any


def prepare(out: Rendering) -> Prepared:
    """Check the shared options before anything is evaluated; a problem is a usage error."""
    fmt, extra, now = parse_output_options(out.format, out.output_file, out.now)
    if out.strict and out.fail_on not in (None, "warning"):
        raise Usage(f"--strict means --fail-on warning; it contradicts --fail-on {out.fail_on}")
    waivers = None
    if out.waivers is not None:
        from bench_gate import waivers as waiver_mod

        try:
            waivers = waiver_mod.load(out.waivers)
        except waiver_mod.WaiverFileError as exc:
            raise Usage(str(exc)) from None
    return Prepared(fmt, extra, now, "warning" if out.strict else (out.fail_on or "error"), waivers)


def settle(verdict: Verdict, prepared: Prepared, max_waiver: str | None = None) -> Verdict:
    """The verdict under the fail-on level, with the waivers applied (a waiver may run at most
    ``max_waiver``, the profile's parameter, or the waivers' default)."""
    verdict = replace(verdict, fail_on=prepared.fail_on)
    if prepared.waivers is not None:
        from bench_gate import waivers as waiver_mod

        limit = waiver_mod.MAX_WAIVER if max_waiver is None else max_waiver
        verdict = waiver_mod.apply(verdict, prepared.waivers, limit)
    return verdict


def emit(verdicts: list[Verdict], out: Rendering, prepared: Prepared, root: str | None = None,
         inputs: Sequence[str] = ()) -> None:
    """Write the verdicts in the chosen format (and every ``--output-file``); the text format
    gets the verbosity and, for the gate, the evidence root to name when a report failed.

    An output that is one of the run's inputs (``inputs``, every file a verdict read, the
    waivers file) is a usage error before anything is written: ``--output report.json`` would
    replace the evidence with its own verdict."""
    from bench_gate.report import RenderOptions, render

    refuse_overwriting_inputs(out, prepared, verdicts, inputs, root)

    def rendered(fmt: str, color: bool) -> str:
        return render(fmt, verdicts, RenderOptions(color=color, verbosity=out.verbose, root=root))

    fmt = prepared.format
    write_output(out.output, rendered(fmt, use_colour(out.color, to_file=out.output not in (None, "-"))))
    for ofmt, path in prepared.extra:
        write_output(path, rendered(ofmt, False))


def refuse_overwriting_inputs(out: Rendering, prepared: Prepared, verdicts: list[Verdict],
                              inputs: Sequence[str], root: str | None) -> None:
    """A usage error when ``--output`` or an ``--output-file`` names a file the run read."""
    outputs = [("--output", out.output)] if out.output not in (None, "-") else []
    outputs += [(f"--output-file {fmt}=", path) for fmt, path in prepared.extra if path != "-"]
    existing = [(option, path) for option, path in outputs if path is not None and os.path.isfile(path)]
    if not existing:
        return
    read: list[tuple[str, str]] = [("input", p) for p in inputs]
    read += [(i.role, i.path) for v in verdicts for i in v.inputs]
    read += [("waivers", out.waivers)] if out.waivers else []
    for option, path in existing:
        for role, candidate in read:
            places = [candidate] + ([os.path.join(root, candidate)] if root else [])
            if any(_same_file(path, place) for place in places):
                what = "an input" if role == "input" else f"the {role} input"
                given = f"{option}{path}" if option.endswith("=") else f"{option} {path}"
                raise Usage(f"{given} is {what} of this run; writing the verdict there would destroy what "
                            "it judged (choose another path)")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def exit_code(verdicts: list[Verdict]) -> int:
    return EXIT_PASS if all(v.passed for v in verdicts) else EXIT_FAIL


@record(frozen=False)
class GateArgs:
    """The gate's command line, parsed."""

    reports: list[str]
    profile: Any
    out: Rendering
    doc: list[str] = field(default_factory=list)
    sets: list[str] = field(default_factory=list)
    root: str | None = None
    quiet: bool = False
    profile_values: dict[str, Any] = field(default_factory=dict)


def load_profile_or_usage(ref: str) -> Any:
    """The profile named by ``--profile``; a profile problem is a usage error (exit 2)."""
    from bench_gate.profile import load_profile
    from bench_gate.profile.plan import ProfileError

    try:
        return load_profile(ref)
    except ProfileError as exc:
        raise Usage(f"profile: {exc}") from None


def profile_parameters(profile: Any) -> list[Any]:
    """The options a profile declares, as typer builds them: document options
    (``--baseline PATH``) and the options that set parameters (flags, numbers, strings,
    repeatable ``K=V`` pairs, PEM keys). Their names start ``doc__`` / ``opt__``."""
    import inspect
    from typing import Annotated

    import typer

    declared: list[tuple[str, Any, Any]] = []  # (name, annotation, default)
    for role, doc in sorted(profile.documents.items()):
        if doc.spec.option:
            declared.append((f"doc__{role}", Annotated[str | None, typer.Option(
                doc.spec.option, metavar="PATH", show_default=False,
                help=doc.spec.description or f"The {role} document.")], None))
    for name, opt in sorted(profile.options.items()):
        spec = opt.spec
        if spec.kind == "flag":
            declared.append((f"opt__{spec.param}", Annotated[bool, typer.Option(
                name, help=spec.help, show_default=False)], False))
            continue
        if spec.kind in ("string", "number"):
            metavar, hint = spec.metavar or ("X" if spec.kind == "number" else "VALUE"), str | None
        else:
            metavar = spec.metavar or ("KEY=VALUE" if spec.kind.startswith("kv") else
                                       "PEM" if spec.kind == "pem" else "VALUE")
            hint = list[str] | None
        declared.append((f"opt__{spec.param}", Annotated[hint, typer.Option(
            name, metavar=metavar, help=spec.help, show_default=False)], None))

    def options(**values: Any) -> None:
        """The profile's own options."""

    options.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a)
         for n, a, d in declared])
    options.__annotations__ = {n: a for n, a, _ in declared}
    holder = typer.Typer(add_completion=False)
    holder.command()(options)
    return list(typer.main.get_command(holder).params)


def option_values(raw: dict[str, Any], profile: Any) -> dict[str, Any]:
    """The profile options given on the command line, as parameter values."""
    values: dict[str, Any] = {}
    for name, opt in profile.options.items():
        spec = opt.spec
        given = raw.get(f"opt__{spec.param}")
        if given is None or given is False or given == () or given == []:
            continue
        if spec.kind == "flag":
            values[spec.param] = True
        elif spec.kind == "string":
            if not given.strip():
                raise Usage(f"{name} needs a non-empty value")
            values[spec.param] = given
        elif spec.kind == "number":
            values[spec.param] = parse_number(given, f"{name} ")
        elif spec.kind == "list":
            values[spec.param] = list(given)
        elif spec.kind == "pem":
            from bench_gate.aef.signatures import SignatureSetupError, read_trusted_keys

            try:
                values[spec.param] = read_trusted_keys(list(given), name)
            except SignatureSetupError as exc:
                raise Usage(str(exc)) from None
        else:
            pairs: dict[str, Any] = {}
            for item in given:
                key, value = split_kv(item, name)
                if key in pairs:
                    raise Usage(f"{name} {key}=... given more than once")
                pairs[key] = parse_number(value, f"{name} {key}=") if spec.kind == "kv-number" else value
            values[spec.param] = pairs
    return values


def _named_documents(args: GateArgs) -> dict[str, str]:
    profile = args.profile
    named: dict[str, str] = {}
    for item in args.doc:
        role, path = split_kv(item, "--doc")
        if role in named:
            raise Usage(f"--doc {role}=... given more than once")
        if not path:
            raise Usage(f"--doc {item!r}: empty path")
        named[role] = path
    for role in profile.documents:
        path = args.profile_values.get(f"doc__{role}")
        if path is not None:
            if role in named:
                raise Usage(f"document {role} given both as {profile.documents[role].spec.option} and --doc")
            named[role] = path
    return named


def run_gate(args: GateArgs) -> int:
    """Judge every report; the exit code."""
    from bench_gate.profile.binding import bind
    from bench_gate.profile.plan import ProfileError
    from bench_gate.gates.report_gate import UsageError, judge, load_cli_documents

    profile = args.profile
    if profile is None:
        raise Usage("--profile is required (a built-in name such as ai-memory, or a YAML path); "
                    "`bench-gate profiles` lists them", hint=True)
    if not args.reports:
        raise Usage("no REPORT given", hint=True)
    prepared = prepare(args.out)
    root = Path(args.root) if args.root is not None else Path(".")
    if args.root is not None and not root.is_dir():
        raise Usage(f"--root {args.root!r}: not a directory")

    values = option_values(args.profile_values, profile)
    values.update(set_values(args.sets, profile))
    named = _named_documents(args)
    try:
        plan = bind(profile, values)
    except ProfileError as exc:
        raise Usage(f"profile: {exc}") from None
    try:
        cli_docs = load_cli_documents(plan, named)
    except UsageError as exc:
        raise Usage(str(exc)) from None
    verdicts = []
    unreadable: list[str] = []
    progress = Progress(len(args.reports), enabled=not args.quiet)
    for report in args.reports:
        progress.step(report)
        try:
            verdict = settle(judge(plan, report, cli_docs, root, prepared.now, __version__), prepared,
                             plan.values.get("max_waiver"))
        except UsageError as exc:
            if len(args.reports) == 1:
                raise Usage(str(exc)) from None
            # in a batch, the other reports are still judged, this one is shown as not evaluated
            # in every output format, and the run exits 2 at the end
            unreadable.append(str(exc))
            verdict = not_evaluated(plan, report, str(exc), prepared)
        verdicts.append(verdict)
    progress.done()

    inputs = [*args.reports, *named.values(), *(f for f, _ in profile.files)]
    emit(verdicts, args.out, prepared, root=args.root if args.root is not None else ".", inputs=inputs)
    for problem in unreadable:
        error_line(problem)
    return EXIT_USAGE if unreadable else exit_code(verdicts)


def not_evaluated(plan: Any, report: str, problem: str, prepared: Prepared) -> Verdict:
    """A report of a batch that could not be evaluated, as a verdict that fails: one result,
    ``report-readable``, whose check tells renderers it is an error of the run. Its inputs are
    what was read: the report's bytes when there were any, else the profile's files."""
    from bench_gate.models import NOT_EVALUATED, RuleResult

    inputs = [d for d in (_digest("report", report),) if d is not None] or \
        [d for d in (_digest("profile", f) for f, _ in plan.profile.files) if d is not None]
    result = RuleResult(
        rule="report-readable", title="The report can be read and evaluated", status="fail", severity="error",
        message=f"could not be evaluated: {problem}", document="report", pointer="",
        source=f"{plan.profile.source}:1", check=NOT_EVALUATED,
        why="A report that cannot be read or evaluated proves nothing; the run exits 2.")
    return Verdict(plan.name, plan.digest, prepared.now, tuple(inputs), (result,), fail_on=prepared.fail_on,
                   report_path=report, tool_version=__version__)


def _digest(role: str, path: str) -> Any:
    """The sha256 and size of a regular file, or None when it cannot be read."""
    import hashlib

    from bench_gate.models import InputDigest
    from bench_gate.profile.sources import builtin_dir

    p = Path(path)
    if not p.is_file() and role == "profile" and "/" in path:  # a built-in: profiles/NAME.yaml
        kind, _, name = path.partition("/")
        p = builtin_dir(kind) / name
    if not p.is_file():  # a folder, a pipe or a device is not read
        return None
    try:
        digest, size = hashlib.sha256(), 0
        with p.open("rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
    except OSError:
        return None
    return InputDigest(role, path, digest.hexdigest(), size)


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
