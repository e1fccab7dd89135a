"""``bench-gate ledger MANIFEST``: gate a claim ledger.

::

    bench-gate ledger benchmarks/results/ai-memory/manifest.json [--root DIR]
        [--external-profile NAME]... [--format json] [--now T]

A ledger (manifest JSON) lists the benchmark artifacts whose numbers may be cited. This verb
reads every file the ledger names (local artifacts, external artifact manifests, history
summaries, receipts), gates every citable local artifact with its own built-in
``gate_profile`` through the same engine as ``bench-gate ARTIFACT --profile P`` (adding
``--require-accounting`` / ``--require-qa`` when the entry sets ``accounting_required`` /
``qa_required``), and then evaluates the built-in ``ledger`` profile (``bench-gate explain
ledger``; ``--profile PATH`` names another one, e.g. a profile that ``extends: ledger``) over
the manifest. ``--waivers FILE`` applies reviewed, expiring waivers exactly as the report gate
does.

Paths are resolved the way the practice's own gate resolves them. ``artifact``,
``external_artifact_manifest`` and ``required_receipt`` are relative to the ledger's folder;
``history.directory`` is relative to the **repository root**: ``--root`` when given, else the
current folder when the ledger lies below it (a project runs its gate from its root), else the
nearest folder above the ledger that holds ``.git``, else the ledger's folder. No path may
leave the repository root (``..`` that climbs out, an absolute path, a symlink that points
outside): such an entry fails with the reason.

Gate profiles named in a ledger are names, never files: a local artifact is gated with a
built-in profile, and a gate contract or external artifact may also name a profile that is
enforced outside bench-gate when the command line declares it (``--external-profile product``,
repeatable; the ledger profile's ``external_profiles`` parameter). A file name such as
``../lax.yaml`` would let the ledger choose a profile that checks nothing.

The result is one verdict: the ledger's own rules, followed by the full verdict of every gated
artifact, its rule ids prefixed with the entry (``citable/0/metrics-recompute``) and its
document roles with the entry (``citable/0``; ``citable/0/baseline`` for an artifact's own
documents). Exit codes as for the report gate: 0 passed, 1 failed, 2 the manifest could not be
read (missing, not JSON, not an object), lies outside ``--root``, or the command line is wrong.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from bench_gate.records import record, replace
from bench_gate import __version__
from bench_gate.loaders import confined
from bench_gate.loaders import files as documents
from bench_gate.checks.ledger.access import EVIDENCE, profile_problem
from bench_gate.checks.ledger.recorded import read_runs
from bench_gate.engine import evaluate
from bench_gate.models import Doc, InputDigest, RuleResult, Verdict
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.plan import Plan, ProfileError
from bench_gate.profile.sources import builtin_names
from bench_gate.text.canonical import skeleton

CommandReader = Callable[[list[str]], dict[str, Any]]
"""What the command line reads in the arguments of a recorded gate run (``bench_gate.cli.reading``)."""

GATE_FLAGS = (("accounting_required", "require_accounting", "--require-accounting"),
              ("qa_required", "require_qa", "--require-qa"))
"""Entry field -> gate parameter -> the option a user would pass."""


class LedgerError(Exception):
    """The ledger cannot be evaluated at all (exit 2); ``str()`` is the reason."""


@record
class Repo:
    """Where a ledger's paths are read from.

    ``root`` is the repository root (every path stays inside it), ``folder`` the ledger's
    folder relative to the root (posix, ``""`` at the root) and ``shown`` the ledger's folder
    as the user wrote it, so that messages name files the way the user would type them.
    """

    root: Path
    folder: str
    shown: Path

    def in_folder(self, written: str) -> str:
        """A ledger-folder-relative path as a root-relative one."""
        return f"{self.folder}/{written}" if self.folder else written

    @property
    def label(self) -> str:
        """The root as the user would type it from the current folder (``.`` when it is the cwd)."""
        try:
            return self.root.relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            return str(self.root)

    def show(self, written: str, from_root: bool = False) -> str:
        """A path as the user would type it from the current folder."""
        if from_root:
            try:
                base = self.root.relative_to(Path.cwd().resolve())
            except ValueError:
                base = self.root
            return written if str(base) in ("", ".") else str(base / written)
        return written if str(self.shown) in ("", ".") else str(self.shown / written)


def repository_root(ledger: Path, root: str | None) -> Repo:
    """The repository a ledger belongs to (see the module docs); LedgerError when the ledger
    is not inside ``--root``."""
    where = ledger.resolve().parent
    if root is not None:
        base = Path(root).resolve()
        if not base.is_dir():
            raise LedgerError(f"--root {root}: not a folder")
    else:
        cwd = Path.cwd().resolve()
        if where == cwd or cwd in where.parents:
            base = cwd
        else:
            base = next((d for d in (where, *where.parents) if (d / ".git").exists()), where)
    try:
        folder = where.relative_to(base).as_posix()
    except ValueError:
        raise LedgerError(f"ledger {ledger}: not inside the repository root {root}") from None
    return Repo(base, "" if folder == "." else folder, ledger.parent)


def _refuse_absolute(written: str) -> str | None:
    if Path(written).is_absolute() or re_windows_drive.match(written):
        return f"path {written!r} is absolute; paths in a ledger are relative to its folder"
    return None


re_windows_drive = re.compile(r"^[A-Za-z]:[\\/]")


def read(repo: Repo, role: str, written: str, fmt: str = "json", from_root: bool = False) -> Doc:
    """One file a ledger names, read inside the repository root; problems land on the Doc."""
    shown = repo.show(written, from_root)
    problem = _refuse_absolute(written)
    if problem is not None:
        return Doc(role, shown, error=problem, origin="report")
    doc = documents.load(role, written if from_root else repo.in_folder(written), repo.root, confine=True,
                         fmt=fmt, want_object=True, origin="report")
    error = doc.error
    if error and "evidence root" in error:
        error = re.sub(r"the evidence root( '[^']*')?", f"the repository root '{repo.label}'", error)
        error = error.replace("paths in a report", "paths in a ledger")
        error = error.replace(repr(repo.in_folder(written)), repr(written))
    return replace(doc, path=shown, error=error)


def _gate_artifact(entry: dict[str, Any], doc: Doc, shown: str, folder: Path, now: datetime,
                   version: str, role: str, external: frozenset[str]) -> tuple[dict[str, Any], Verdict | None]:
    """Gate one artifact with its own built-in profile; (summary for the rules, full verdict)."""
    from bench_gate.gates.report_gate import gather

    ref = entry.get("gate_profile")
    info: dict[str, Any] = {"profile": ref, "flags": []}
    if not isinstance(ref, str) or not ref:
        info["error"] = "no gate_profile"
        return info, None
    values: dict[str, Any] = {}
    if ref not in builtin_names():
        info["error"] = profile_problem(ref, external, local=True)
        return info, None
    try:
        profile = load_profile(ref)
        for field, param, option in GATE_FLAGS:
            wanted = entry.get(field, False)
            if not isinstance(wanted, bool):
                info["error"] = f"{field} must be true or false, got {wanted!r}"
                return info, None
            if wanted:
                if param not in profile.params:
                    info["error"] = f"{field} is true but profile {profile.name} has no {option}"
                    return info, None
                values[param] = True
                info["flags"].append(option)
        plan = bind(profile, values)
    except ProfileError as exc:
        info["error"] = str(exc)
        return info, None
    info["limits"] = overall_limits(plan)
    report = replace(doc, role="report", path=shown, origin="cli")
    verdict = evaluate(plan, gather(plan, report, {}, folder), now, report_path=shown, tool_version=version)
    info.update(_outcome(verdict.results, role))
    return info, verdict


def overall_limits(plan: Plan) -> list[list[Any]]:
    """``[metric, ">=" | "<=", limit]`` for every threshold the plan puts on ``/overall``: what a
    gate receipt of this profile must have checked (at least as strictly)."""
    out: list[list[Any]] = []
    for rule in plan.rules:
        params = rule.params
        if rule.check != "metric_thresholds" or getattr(params, "table", None) != "/overall":
            continue
        for op, limits in ((">=", {**params.min, **(params.extra_min or {})}),
                           ("<=", {**params.max, **(params.extra_max or {})})):
            out.extend([name, op, limit] for name, limit in limits.items())
    return out


def _outcome(results: Sequence[RuleResult], role: str) -> dict[str, Any]:
    """passed / summary / failed (every failing error rule) of a gate's results."""
    counts = {status: sum(1 for r in results if r.status == status) for status in ("fail", "pass", "skip")}
    failed = [
        {"rule": r.rule, "message": r.message, "pointer": r.pointer,
         "document": role if r.document == "report" else f"{role}/{r.document}",
         "actual": r.actual, "expected": r.expected}
        for r in results if r.status == "fail" and r.severity == "error"
    ]
    return {"passed": not failed, "failed": failed, "decided": counts["pass"],
            "summary": f"{counts['fail']} failed, {counts['pass']} passed, {counts['skip']} skipped"}


def _gate_summary(entry: dict[str, Any], doc: Doc, folder: Path, now: datetime, version: str, role: str,
                  external: frozenset[str],
                  needs_cases: Mapping[str, Sequence[str]]) -> tuple[dict[str, Any], Verdict | None]:
    """Hold an external artifact manifest's own summary to its declared built-in gate.

    The manifest carries the report's header and summary but not its cases, so the rules of the
    gate that read the cases (``needs_cases[profile]``, the ledger profile's
    ``summary_case_rules``) cannot be decided here and are left out; every other rule (overall
    and slice minimums, hit/recall consistency, provenance, runtime...) is decided exactly as
    ``bench-gate ARTIFACT --profile P`` would decide it.
    """
    ext = doc.data.get("external_artifact") if isinstance(doc.data, dict) else None
    recorded = ext.get("gate_profile") if isinstance(ext, dict) else None
    ref = recorded if isinstance(recorded, str) and recorded else entry.get("gate_profile")
    info, verdict = _gate_artifact(dict(entry, gate_profile=ref), doc, doc.path, folder, now, version, role, external)
    if verdict is None:
        return info, None
    left_out = set(needs_cases.get(str(ref), ()))
    info.update(_outcome([r for r in verdict.results if r.rule not in left_out], role))
    info["needs_cases"] = [r.rule for r in verdict.results if r.rule in left_out and r.status != "skip"]
    return info, verdict


def load_evidence(data: dict[str, Any], repo: Repo, now: datetime, version: str = __version__,
                  external: frozenset[str] = frozenset(),
                  needs_cases: Mapping[str, Sequence[str]] | None = None,
                  read_command: CommandReader | None = None) -> tuple[Doc, list[tuple[str, Verdict]]]:
    """Read every file the ledger names, gate its citable artifacts and hold each external
    artifact manifest's summary to its declared gate (less the rules in ``needs_cases``), and
    read every recorded gate command with ``read_command`` (the command line's own parser; without
    it the recorded commands are left unread, and the rules that need them fail).

    Returns the ``evidence`` document for the ledger's check kinds and the nested verdicts
    (entry role, verdict) of the local artifacts in ledger order. The document's ``extra`` holds
    what was read and judged, for a claims scan to use as it is: ``docs`` (every file by role),
    ``verdicts`` (each local artifact's verdict) and ``summaries`` (each external artifact
    manifest's verdict). Problems are recorded, never raised.
    """
    entries: dict[str, Any] = {}
    docs: dict[str, Doc] = {}
    verdicts: list[tuple[str, Verdict]] = []
    summaries: dict[str, Verdict] = {}
    citable = data.get("citable")
    for i, entry in enumerate(citable if isinstance(citable, list) else []):
        if not isinstance(entry, dict):
            continue
        ptr, role = f"/citable/{i}", f"citable/{i}"
        named = [k for k in ("artifact", "external_artifact_manifest") if k in entry]
        if len(named) != 1:
            continue
        written = entry[named[0]]
        if not isinstance(written, str) or not written.strip():
            entries[ptr] = {"role": role, "path": None, "error": f"must be a relative path string, got {written!r}"}
            continue
        doc = read(repo, role, written)
        docs[role] = doc
        info: dict[str, Any] = {"role": role, "path": written, "error": doc.error}
        entries[ptr] = info
        if named[0] == "artifact" and doc.error is None:
            gate, verdict = _gate_artifact(entry, doc, doc.path, repo.shown, now, version, role, external)
            info["gate"] = gate
            if verdict is not None:
                verdicts.append((role, verdict))
        elif doc.error is None and isinstance(doc.data, dict):
            info["gate"], summary = _gate_summary(entry, doc, repo.shown, now, version, role, external,
                                                  needs_cases or {})
            if summary is not None:
                summaries[role] = summary

    history: dict[str, Any] = {"files": []}
    spec = data.get("history")
    if isinstance(spec, dict):
        directory = spec.get("directory")
        if not isinstance(directory, str) or not directory.strip():
            history["error"] = f"must be a folder relative to the repository root, got {directory!r}"
        else:
            names: list[str] = []
            try:
                if _refuse_absolute(directory):
                    raise confined.DocumentError(_refuse_absolute(directory) or "")
                where = confined.locate(directory, repo.root, confine=True)
                if not where.real.is_dir():
                    raise confined.DocumentError(
                        f"no such folder under the repository root '{repo.label}' (history.directory is relative "
                        "to the repository root: run from it or give --root)")
                names = sorted(p.name for p in where.real.iterdir() if p.name.endswith(".json"))
            except (confined.DocumentError, OSError) as exc:
                history["error"] = re.sub(r"the evidence root( '[^']*')?", f"the repository root '{repo.label}'",
                                          str(exc)).replace("paths in a report", "paths in a ledger")
            listed = {posixpath.normpath(e[k].replace("\\", "/")) for e in (citable if isinstance(citable, list) else [])
                      if isinstance(e, dict) for k in ("artifact", "external_artifact_manifest")
                      if isinstance(e.get(k), str)}
            for name in names:
                written = f"{directory.rstrip('/')}/{name}"
                role = f"history/{name}"
                docs[role] = read(repo, role, written, from_root=True)
                item: dict[str, Any] = {"role": role, "path": written}
                history["files"].append(item)
                source = _history_source(docs[role], listed)
                if source is not None:
                    # a summary whose source is not a ledger entry backs a baseline only through its
                    # source file: read it, and gate it as the summary says it was gated
                    key, path = source
                    src_role = f"history-source/{name}"
                    src = docs[src_role] = read(repo, src_role, path)
                    item["source_role"] = src_role
                    if src.error is None and isinstance(src.data, dict):
                        prof = docs[role].data.get("profile")
                        entry = {"gate_profile": prof if isinstance(prof, str) else None}
                        if key == "artifact":
                            item["source_gate"], sub = _gate_artifact(entry, src, src.path, repo.shown, now, version,
                                                                     src_role, external)
                        else:
                            item["source_gate"] = _gate_summary(entry, src, repo.shown, now, version, src_role,
                                                                external, needs_cases or {})

    receipts: dict[str, str] = {}
    contracts = data.get("gate_contracts")
    for c in contracts if isinstance(contracts, list) else []:
        # read with no assumed type: a wrong one is the gate-contracts / ledger-header finding
        mcs = c.get("metric_contracts") if isinstance(c, dict) else None
        for mc in mcs if isinstance(mcs, list) else []:
            receipt = mc.get("required_receipt") if isinstance(mc, dict) else None
            if isinstance(receipt, str) and receipt.strip() and receipt not in receipts:
                role = f"receipt/{receipt}"
                docs[role] = read(repo, role, receipt)
                receipts[receipt] = role

    commands: dict[str, Any] = {}
    if read_command is not None:
        for doc in docs.values():
            data_ = doc.data if doc.error is None and isinstance(doc.data, dict) else {}
            ext = data_.get("external_artifact")
            for text in (data_.get("gate_command"), ext.get("gate_command") if isinstance(ext, dict) else None):
                if isinstance(text, str) and text.strip() and text not in commands:
                    commands[text] = read_runs(text, read_command)
    evidence = Doc(EVIDENCE, str(repo.shown), data={
        "folder": str(repo.shown), "repo_folder": repo.folder, "profiles": builtin_names(), "entries": entries,
        "history": history, "receipts": receipts, "commands": commands if read_command is not None else None},
        extra={"docs": docs, "verdicts": dict(verdicts), "summaries": summaries})
    return evidence, verdicts


def _history_source(doc: Doc, listed: set[str]) -> tuple[str, str] | None:
    """(key, path) of the one file a history summary's ``source`` names, when that file is not a
    citable entry of the ledger (None otherwise, or when the summary names no single file)."""
    data = doc.data if doc.error is None and isinstance(doc.data, dict) else {}
    source = data.get("source")
    if not isinstance(source, dict):
        return None
    named = [(k, source[k]) for k in ("artifact", "external_artifact_manifest") if k in source]
    if len(named) != 1 or not isinstance(named[0][1], str) or not named[0][1].strip():
        return None
    key, path = named[0]
    if posixpath.normpath(path.replace("\\", "/")) in listed or _refuse_absolute(path):
        return None
    return key, path


def _nested(role: str, verdict: Verdict) -> tuple[list[RuleResult], list[InputDigest]]:
    """An artifact's results and inputs, renamed into the ledger's namespace."""
    def doc_role(d: str) -> str:
        return role if d == "report" else f"{role}/{d}"

    results = [replace(
        r, rule=f"{role}/{r.rule}", document=doc_role(r.document),
        details=tuple(replace(d, document=doc_role(d.document)) for d in r.details))
        for r in verdict.results]
    inputs = [InputDigest(doc_role(i.role), i.path, i.sha256, i.bytes) for i in verdict.inputs]
    return results, inputs


EXTERNAL_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")


def external_names(names: Sequence[str]) -> list[str]:
    """Validated ``--external-profile`` names; LedgerError for a name that is a path or built in."""
    out: list[str] = []
    for name in names:
        if not EXTERNAL_NAME.match(name):
            raise LedgerError(f"--external-profile {name!r}: a profile name is lowercase letters, digits, "
                              "'.', '_' and '-' (not a path)")
        if name in builtin_names():
            raise LedgerError(f"--external-profile {name}: {name} is a built-in profile, enforced here")
        taken = next((b for b in builtin_names() if skeleton(b) == skeleton(name)), None)
        if taken is not None:
            # a verdict line "contract X (0fficial-sota)" would read as the built-in gate
            raise LedgerError(f"--external-profile {name}: reads as {taken!r}, the name of a built-in profile; an "
                              "external profile needs a name of its own")
        if name not in out:
            out.append(name)
    return out


@record
class LedgerRun:
    """A gated ledger: its verdict, the manifest as read, and the ``evidence`` document (every
    file it names and every artifact's verdict; see :func:`load_evidence`), so that a claims
    scan uses what this gate read and judged instead of reading the ledger a second time."""

    verdict: Verdict
    manifest: Doc
    evidence: Doc


def gate_ledger(path: str, now: datetime, version: str = __version__, profile: str = "ledger",
                root: str | None = None, external_profiles: Sequence[str] = (),
                read_command: CommandReader | None = None) -> Verdict:
    """The verdict for one ledger; :class:`LedgerError` when the manifest cannot be read.

    ``root`` is ``--root`` (None: found as the module docs say); ``external_profiles`` are the
    ``--external-profile`` names, added to the ledger profile's ``external_profiles``;
    ``read_command`` is the command line's parser (``bench_gate.cli.commands.read_command``),
    which reads every recorded gate command as bench-gate would: without it, a recorded gate
    command cannot be shown to be a gate run, and the rules that check one fail.
    """
    return judge_ledger(path, now, version, profile, root, external_profiles, read_command).verdict


def judge_ledger(path: str, now: datetime, version: str = __version__, profile: str = "ledger",
                 root: str | None = None, external_profiles: Sequence[str] = (),
                 read_command: CommandReader | None = None) -> LedgerRun:
    """:func:`gate_ledger`, with what it read and judged."""
    manifest = documents.load("report", path, Path("."), confine=False, fmt="json", want_object=True, origin="cli")
    if manifest.error is not None:
        raise LedgerError(f"ledger {path}: {manifest.error}")
    extra = external_names(external_profiles)
    repo = repository_root(Path(path), root)
    try:
        loaded = load_profile(profile)
        values: dict[str, Any] = {}
        if extra:
            if "external_profiles" not in loaded.params:
                raise LedgerError(f"profile {loaded.name} has no external_profiles parameter: "
                                  "--external-profile cannot be applied")
            declared = list(loaded.params["external_profiles"].default or [])
            values["external_profiles"] = declared + [n for n in extra if n not in declared]
        plan = bind(loaded, values)
    except ProfileError as exc:
        raise LedgerError(f"profile: {exc}") from None
    external = frozenset(plan.values.get("external_profiles") or [])
    needs_cases = plan.values.get("summary_case_rules") or {}
    evidence, nested = load_evidence(manifest.data, repo, now, version, external, needs_cases, read_command)
    verdict = evaluate(plan, {"report": manifest, EVIDENCE: evidence}, now, report_path=path,
                       tool_version=version)
    results = list(verdict.results)
    inputs = list(verdict.inputs)
    seen = {(i.role, i.path) for i in inputs}
    for role, doc in evidence.extra["docs"].items():
        if doc.error is None and doc.sha256 and (role, doc.path) not in seen:
            inputs.append(InputDigest(role, doc.path, doc.sha256, doc.size))
            seen.add((role, doc.path))
    for role, sub in nested:
        more_results, more_inputs = _nested(role, sub)
        results.extend(more_results)
        for i in more_inputs:
            if (i.role, i.path) not in seen:
                inputs.append(i)
                seen.add((i.role, i.path))
    located = _locate(replace(verdict, results=tuple(results), inputs=tuple(inputs)), repo)
    return LedgerRun(located, manifest, evidence)


def _locate(verdict: Verdict, repo: Repo) -> Verdict:
    """The ledger's verdict with the line and column of every failure in the file it names:
    the manifest and each artifact, read again and used only when its bytes still hash to the
    digest that was judged."""
    from bench_gate.loaders.positions import positions_in_file

    located: dict[str, str] = {}
    digests: dict[str, str] = {}
    for i in verdict.inputs:
        if i.role in located or not i.sha256:
            continue
        path = Path(i.path)
        if not path.is_absolute() and not path.exists() and (repo.root / path).exists():
            path = repo.root / path
        located[i.role] = str(path)
        digests[i.role] = i.sha256
    wanted: dict[str, set[str]] = {}
    for r in verdict.results:
        if r.status in ("fail", "waived"):
            for document, pointer in [(r.document, r.pointer), *((d.document, d.pointer) for d in r.details)]:
                if pointer.startswith("/") and document in located:
                    wanted.setdefault(document, set()).add(pointer)
    found: dict[tuple[str, str], tuple[int, int]] = {}
    for role, pointers in wanted.items():
        for pointer, position in positions_in_file(located[role], digests[role], pointers).items():
            found[(role, pointer)] = position
    return replace(verdict, positions=found, located=located)
