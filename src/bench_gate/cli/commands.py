"""The commands of ``bench-gate`` and their options, declared with typer.

::

    bench-gate REPORT [REPORT ...] --profile NAME|PATH [options] [profile options]
    bench-gate gate REPORT ... --profile NAME|PATH     the same, by its name
    bench-gate profiles | explain PROFILE | kinds | schema | ledger MANIFEST | claims PATH...

The first word picks the command. A word that is not a command name is a report, so
``bench-gate report.json --profile P`` runs the gate; a word that is not a file but is close to
a command name (``explian``) is a usage error that names the command.

The gate's parameters are computed: :class:`GateCommand` reads ``--profile`` from the
arguments first, then offers the options that profile declares (``--require-qa``,
``--baseline PATH``, ...) next to the common ones, in parsing and in ``--help``.

Strict parsing everywhere: options are never abbreviated, and a single-valued option given
twice is an error rather than "the last one wins".

This module imports typer; :mod:`bench_gate.cli.app` imports it only when a command line is
parsed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

import click
import typer
from typer.core import TyperCommand, TyperGroup

from bench_gate.cli.options import Usage
from bench_gate.cli.plain import GROUP_ONLY, profile_ref, refuse_command_typo

PROFILE_KEY = "bench_gate.profile"
"""Where :class:`GateCommand` keeps the loaded profile in the click context's ``meta``."""

HELP = """Decide whether a benchmark result may be claimed.

bench-gate REPORT [REPORT ...] --profile NAME|PATH [options] judges each report against a
profile of declarative rules (the gate command; `bench-gate gate --help` lists its options,
`bench-gate -p PROFILE --help` the profile's own options too).

Exit codes: 0 passed, 1 failed, 2 could not be evaluated."""

GATE_HELP = """Judge report JSON files against a profile of declarative rules.

The report is named first; --profile picks the rules. A profile declares options of its own
(--require-qa, --baseline PATH, ...): `bench-gate -p PROFILE --help` lists them."""

EPILOG = """examples:

  bench-gate report.json --profile ai-memory

  bench-gate report.json -p ai-memory --require-qa --require-runtime qa_mode=model

  bench-gate report.json -p my-gate.yaml --format json --output verdict.json

  bench-gate explain ai-memory

exit codes: 0 passed, 1 failed, 2 could not be evaluated"""


def _profile_names(incomplete: str) -> list[str]:
    """Shell completion for --profile: built-in profile names (a path completes as a file)."""
    from bench_gate.profile.sources import builtin_names

    return [n for n in builtin_names() if n.startswith(incomplete)]


# --- options shared by the commands that render a verdict -------------------------------

Now = Annotated[str | None, typer.Option(
    "--now", metavar="TIMESTAMP", show_default=False,
    help="Evaluate as of this instant (RFC 3339 with an offset; default: now, UTC).")]
Format = Annotated[str | None, typer.Option(
    "--format", metavar="FMT", show_default=False,
    help="text (default), json, junit, sarif, github or markdown.")]
Output = Annotated[str | None, typer.Option(
    "--output", metavar="PATH", show_default=False,
    help="Write the rendered verdict to PATH instead of standard output.")]
OutputFile = Annotated[list[str] | None, typer.Option(
    "--output-file", metavar="FMT=PATH", show_default=False,
    help="Also write the verdict in FMT to PATH (repeatable).")]
Waivers = Annotated[str | None, typer.Option(
    "--waivers", metavar="FILE", show_default=False,
    help="YAML file of reviewed, expiring waivers for failing rules.")]
FailOn = Annotated[Literal["error", "warning", "info"] | None, typer.Option(
    "--fail-on", metavar="SEVERITY", show_default=False,
    help="Lowest severity whose failure fails the gate: error (default), warning, info.")]
Strict = Annotated[bool, typer.Option(
    "--strict", help="Warnings fail the gate too (--fail-on warning).")]
Color = Annotated[Literal["always", "auto", "never"] | None, typer.Option(
    "--color", metavar="WHEN", show_default=False,
    help="Colour the text output: always, auto (default: on a terminal, or when FORCE_COLOR is "
         "set; never when NO_COLOR is set) or never.")]
NoColor = Annotated[bool, typer.Option("--no-color", help="The same as --color never.")]
Verbose = Annotated[int, typer.Option(
    "--verbose", "-v", count=True, show_default=False,
    help="Text output: -v also lists the rules that passed, -vv the skipped ones with reasons.")]


# --- the group: a command name, or a report for the gate --------------------------------


class BenchGateGroup(TyperGroup):
    """The top-level command: a known command name runs that command; anything else is the gate."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args and ctx.resilient_parsing:  # completing the first word: offer the commands
            return super().parse_args(ctx, args)
        if not args or (args[0] not in self.commands and args[0] not in GROUP_ONLY):
            if args and not args[0].startswith("-"):
                refuse_command_typo(args[0], list(self.commands))
            args = ["gate", *args]
        return super().parse_args(ctx, args)


# --- the gate: parameters computed from the profile --------------------------------------


class StrictCommand(TyperCommand):
    """A command whose single-valued options may be given once only."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        refuse_repeats(self, ctx, args)
        return super().parse_args(ctx, args)


def refuse_repeats(command: click.Command, ctx: click.Context, args: list[str]) -> None:
    """A single-valued option given twice is a usage error, not "the last one wins"."""
    _, _, order = command.make_parser(ctx).parse_args(args=list(args))
    seen: set[str] = set()
    for param in order:
        if not isinstance(param, click.Option) or param.multiple or param.count or param.is_flag:
            continue
        if param.name in seen:
            raise Usage(f"{max(param.opts, key=len)} given more than once")
        seen.add(param.name or "")


class GateCommand(StrictCommand):
    """The gate. ``--profile`` is read first; the options it declares join the parameters."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ref = profile_ref(args)
        if ref is not None:
            from bench_gate.cli.gate import load_profile_or_usage

            ctx.meta[PROFILE_KEY] = load_profile_or_usage(ref)
        return super().parse_args(ctx, args)

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        profile = ctx.meta.get(PROFILE_KEY)
        if profile is None:
            return params
        from bench_gate.cli.gate import profile_parameters

        return [*params[:-1], *profile_parameters(profile), *params[-1:]]

    def invoke(self, ctx: click.Context) -> Any:
        # The profile's own options go to the gate as one mapping, not as keyword arguments.
        ctx.meta["bench_gate.profile_values"] = {
            k: ctx.params.pop(k) for k in list(ctx.params) if k.startswith(("opt__", "doc__"))}
        return super().invoke(ctx)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        sections: dict[str, list[tuple[str, str]]] = {"Arguments": [], "Options": []}
        profile = ctx.meta.get(PROFILE_KEY)
        own = f"Options of profile {profile.name}" if profile is not None else ""
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":  # without typer's <list[str]>
                sections["Arguments"].append((f"{param.metavar or param.name}...",
                                              getattr(param, "help", None) or record[1]))
            elif param.name and param.name.startswith(("opt__", "doc__")):
                sections.setdefault(own, []).append(record)
            else:
                sections["Options"].append(record)
        for title, records in sections.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


# --- the app --------------------------------------------------------------------------------

app = typer.Typer(
    name="bench-gate", cls=BenchGateGroup, help=HELP, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    pretty_exceptions_enable=False, add_completion=True,
)


def _version(value: bool) -> None:
    if value:
        from bench_gate import __version__

        typer.echo(f"bench-gate {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_version, help="Print the version and exit.")] = False,
          ) -> None:
    """Decide whether a benchmark result may be claimed."""


@app.command("gate", cls=GateCommand, help=GATE_HELP, epilog=EPILOG,
             context_settings={"help_option_names": ["-h", "--help"]})
def gate(
    ctx: typer.Context,
    reports: Annotated[list[str] | None, typer.Argument(
        metavar="REPORT", show_default=False, help="Report JSON file(s) to judge.")] = None,
    profile: Annotated[str | None, typer.Option(
        "--profile", "-p", metavar="NAME|PATH", show_default=False, autocompletion=_profile_names,
        help="Built-in profile name or a profile YAML path (required).")] = None,
    doc: Annotated[list[str] | None, typer.Option(
        "--doc", metavar="ROLE=PATH", show_default=False,
        help="Supply a document by role (repeatable).")] = None,
    sets: Annotated[list[str] | None, typer.Option(
        "--set", metavar="PARAM=VALUE", show_default=False,
        help="Override a declared profile parameter (the value is a JSON scalar).")] = None,
    root: Annotated[str | None, typer.Option(
        "--root", metavar="DIR", show_default=False,
        help="Evidence root for paths written inside reports (default: the current directory).")] = None,
    now: Now = None,
    fmt: Format = None,
    output: Output = None,
    output_file: OutputFile = None,
    waivers: Waivers = None,
    fail_on: FailOn = None,
    strict: Strict = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress display for large batches.")] = False,
    color: Color = None,
    no_color: NoColor = False,
    verbose: Verbose = 0,
) -> int:
    from bench_gate.cli.gate import GateArgs, rendering, run_gate

    return run_gate(GateArgs(
        reports=reports or [], profile=ctx.meta.get(PROFILE_KEY), doc=doc or [], sets=sets or [],
        root=root, quiet=quiet, profile_values=ctx.meta.get("bench_gate.profile_values", {}),
        out=rendering(now, fmt, output, output_file, waivers, fail_on, strict, color, no_color,
                      verbose)))


Format2 = Annotated[Literal["text", "json"], typer.Option("--format", help="text or json.")]


@app.command("profiles", cls=StrictCommand)
def profiles(fmt: Format2 = "text") -> int:
    """List the built-in profiles."""
    from bench_gate.cli import info

    return info.profiles(fmt)


@app.command("explain", cls=StrictCommand)
def explain(
    profile: Annotated[str, typer.Argument(metavar="PROFILE", autocompletion=_profile_names,
                                           help="Built-in profile name or a profile YAML path.")],
    rule: Annotated[str | None, typer.Argument(metavar="[RULE]", show_default=False,
                                               help="Print only this rule.")] = None,
    fmt: Format2 = "text",
    sets: Annotated[list[str] | None, typer.Option(
        "--set", metavar="PARAM=VALUE", show_default=False,
        help="Override a declared profile parameter.")] = None,
) -> int:
    """Print every rule a profile runs (or one RULE), with its effective parameters."""
    from bench_gate.cli import info

    return info.explain(profile, fmt, sets or [], rule)


@app.command("kinds", cls=StrictCommand)
def kinds(
    name: Annotated[str | None, typer.Argument(metavar="[NAME]", show_default=False,
                                               help="Print this kind's documentation.")] = None,
    fmt: Format2 = "text",
) -> int:
    """List the registered check kinds and their parameters, or document one kind."""
    from bench_gate.cli import info

    return info.kinds(fmt, name)


@app.command("schema", cls=StrictCommand)
def schema(which: Annotated[Literal["profile", "policy", "all"], typer.Argument(
        metavar="WHICH", help="Which schema: profile, policy or all.")] = "all") -> int:
    """Print the JSON Schema of profile and policy files."""
    from bench_gate.cli import info

    return info.schema(which)


LedgerProfile = Annotated[str, typer.Option(
    "--profile", "-p", metavar="NAME|PATH", autocompletion=_profile_names,
    help="The profile the ledger is gated with.")]
ExternalProfile = Annotated[list[str] | None, typer.Option(
    "--external-profile", metavar="NAME", show_default=False,
    help="A gate profile enforced outside bench-gate that the ledger's contracts, external artifacts "
         "and history may name, e.g. product (repeatable).")]


@app.command("ledger", cls=StrictCommand)
def ledger(
    manifest: Annotated[str, typer.Argument(metavar="MANIFEST", help="The ledger manifest JSON.")],
    profile: LedgerProfile = "ledger",
    root: Annotated[str | None, typer.Option(
        "--root", metavar="DIR", show_default=False,
        help="The repository root: history.directory is relative to it and no path leaves it "
             "(default: the current folder when the ledger is below it, else the nearest folder "
             "above the ledger holding .git).")] = None,
    external_profile: ExternalProfile = None,
    now: Now = None, fmt: Format = None, output: Output = None, output_file: OutputFile = None,
    waivers: Waivers = None, fail_on: FailOn = None, strict: Strict = False, color: Color = None,
    no_color: NoColor = False, verbose: Verbose = 0,
) -> int:
    """Gate a claim ledger and every citable artifact in it.

    Every citable artifact passes its own gate and is echoed exactly; planned entries,
    no-regression pairs, history and gate contracts are consistent.
    """
    from bench_gate.cli import gate as run
    from bench_gate.gates.ledger_gate import LedgerError, gate_ledger

    out = run.rendering(now, fmt, output, output_file, waivers, fail_on, strict, color, no_color, verbose)
    prepared = run.prepare(out)
    try:
        verdict = gate_ledger(manifest, prepared.now, profile=profile, root=root,
                              external_profiles=external_profile or [], read_command=read_command)
    except LedgerError as exc:
        raise Usage(str(exc)) from None
    verdicts = [run.settle(verdict, prepared)]
    run.emit(verdicts, out, prepared, inputs=[manifest])
    return run.exit_code(verdicts)


@app.command("claims", cls=StrictCommand)
def claims(
    paths: Annotated[list[str], typer.Argument(
        metavar="PATH", help="Markdown or text files, or folders to search.")],
    ledger: Annotated[str | None, typer.Option(
        "--ledger", metavar="MANIFEST", show_default=False,
        help="A claim ledger whose citable entries back the numbers (this, --evidence, or both).")] = None,
    evidence_file: Annotated[str | None, typer.Option(
        "--evidence", metavar="FILE", show_default=False,
        help="A YAML list of results, each gated with its profile, that back the numbers "
             "(evidence: [{name, report, profile, documents, set}]).")] = None,
    verdict: Annotated[str | None, typer.Option(
        "--verdict", metavar="PATH", show_default=False,
        help="A passing official-sota verdict JSON that backs state-of-the-art claims once "
             "re-checked.")] = None,
    sota_report: Annotated[str | None, typer.Option(
        "--sota-report", metavar="REPORT", show_default=False,
        help="Run the official-sota gate on REPORT now to back state-of-the-art claims.")] = None,
    sota_doc: Annotated[list[str] | None, typer.Option(
        "--sota-doc", metavar="ROLE=PATH", show_default=False,
        help="A document of the official-sota gate run by --sota-report (repeatable).")] = None,
    ledger_profile: Annotated[str, typer.Option(
        "--ledger-profile", metavar="NAME|PATH", autocompletion=_profile_names,
        help="The profile the ledger is gated with.")] = "ledger",
    external_profile: ExternalProfile = None,
    include_code: Annotated[bool, typer.Option(
        "--include-code", help="Also scan fenced code blocks and inline code.")] = False,
    profile: Annotated[str, typer.Option(
        "--profile", "-p", metavar="NAME|PATH", autocompletion=_profile_names,
        help="The claims profile.")] = "claims",
    now: Now = None, fmt: Format = None, output: Output = None, output_file: OutputFile = None,
    waivers: Waivers = None, fail_on: FailOn = None, strict: Strict = False, color: Color = None,
    no_color: NoColor = False, verbose: Verbose = 0,
) -> int:
    """Gate the benchmark numbers and claim language in documents against a claim ledger or an evidence file."""
    from bench_gate.gates.claims_gate import ClaimsError, scan_claims
    from bench_gate.cli import gate as run

    if ledger is None and evidence_file is None:
        raise Usage("--ledger MANIFEST or --evidence FILE is required (the evidence the numbers are checked against)")
    out = run.rendering(now, fmt, output, output_file, waivers, fail_on, strict, color, no_color, verbose)
    prepared = run.prepare(out)
    try:
        found = scan_claims(paths, ledger, verdict, prepared.now, include_code, profile=profile,
                            sota_report=sota_report, sota_docs=sota_doc or [],
                            ledger_profile=ledger_profile, external_profiles=external_profile or [],
                            evidence_file=evidence_file, read_command=read_command)
    except ClaimsError as exc:
        raise Usage(str(exc)) from None
    verdicts = [run.settle(found, prepared)]
    run.emit(verdicts, out, prepared, inputs=[*paths, *(p for p in (ledger, evidence_file, verdict, sota_report) if p)])
    return run.exit_code(verdicts)


def command() -> click.Command:
    """The click command behind the app (built once per process)."""
    return typer.main.get_command(app)


# --- reading a command line without running it ---------------------------------------------
#
# A ledger records the command each external gate run and each history summary came from
# (gate_command). Whether that command was a run of the gate is a question for this command line
# itself: read_command parses the arguments with the very parser above (the same commands, the
# profile's own options, the refusal of repeated options, no abbreviations) and says what it would
# run, without running it. The ledger gate receives it from here (nothing below the command line
# imports it) and hands what it reads to the ledger's check kinds as evidence.


def read_command(argv: Sequence[str]) -> dict[str, Any]:
    """``{"command": NAME, "given": {parameter: {"option": ..., "value": ...}}}`` for the
    arguments ``bench-gate`` would receive, or ``{"error": why}`` when it would refuse them.

    ``given`` holds only what the arguments set (not defaults). A ``--profile`` that is not a
    built-in profile name is refused before parsing: a recorded run names a built-in profile, and
    a profile file named in a ledger is not read."""
    from bench_gate.profile.sources import builtin_names

    args = list(argv)
    try:
        ref = profile_ref(args)
    except Usage as exc:
        return {"error": str(exc)}
    if ref is not None and ref not in builtin_names():
        return {"error": f"--profile {ref!r} is not a built-in profile (a recorded gate run names one)"}
    group = command()
    try:
        with group.make_context("bench-gate", args) as ctx:
            rest = [*getattr(ctx, "_protected_args", []), *ctx.args]
            name, sub, rest = group.resolve_command(ctx, rest)
            if sub is None or name is None:
                return {"error": "no command"}
            with sub.make_context(name, rest, parent=ctx) as sub_ctx:
                given: dict[str, Any] = {}
                for param in sub.get_params(sub_ctx):
                    if param.name is None:
                        continue
                    source = sub_ctx.get_parameter_source(param.name)
                    if source is not click.core.ParameterSource.COMMANDLINE:
                        continue
                    option = max(param.opts, key=len) if isinstance(param, click.Option) else param.name
                    given[param.name] = {"option": option, "value": _plain(sub_ctx.params.get(param.name))}
                return {"command": name, "given": given}
    except Usage as exc:
        return {"error": str(exc)}
    except click.exceptions.ClickException as exc:
        return {"error": exc.format_message().replace("Value error, ", "")}
    except (click.exceptions.Exit, click.exceptions.Abort):
        return {"error": "it would not run a gate"}


def _plain(value: Any) -> Any:
    """A parsed value as JSON data (tuples as lists; anything else as text)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)

