"""What backs a number in a document: gated evidence, loaded once before the claims rules run
(the rules themselves read no file).

Evidence comes from two places, and both end up as the same records (:class:`GatedEntry`):

* a claim ledger (``--ledger MANIFEST``): the ledger gate reads every citable entry's artifact
  and gates it; the scan takes what that gate read and judged (:class:`LedgerRun`), never
  reading the ledger a second time. An entry backs numbers only when its own gate passed and
  no ledger rule about the entry (a pointer under ``/citable/N``) failed;
* an evidence file (``--evidence FILE``), for a project without a ledger::

      evidence:
        - name: headline                      # shown in messages
          report: results/summary.json
          profile: profiles/my-format.yaml    # a built-in name or a user profile path
          documents: {rows: results/rows.jsonl}   # as --doc ROLE=PATH (or --OPTION)
          set: {}                             # optional, as --set (scalar parameters only)

  Paths are relative to the file's folder and may not leave the repository root (the current
  folder when the file lies below it, else the nearest folder above it holding ``.git``, else
  its own folder). Each entry is judged by :func:`bench_gate.gates.report_gate.judge`, the
  engine of ``bench-gate REPORT --profile``; an entry whose gate fails backs nothing.
  ``evidence: []`` is allowed: every number is then untestable.

Which values an entry backs is read from its gate's passing results, by check kind (never by
rule id): ``claimed_metrics`` lists the metrics of ``overall`` the gate recomputes (``hit@k``,
``recall@k``, ``ndcg@k``, ``legacy_recall@k``, the QA numbers; each ``per_type`` slice of the
same names too) and those it declared not citable; ``citable_values`` (a kind a user profile
uses) lists the values it declares citable, each a value or a count over a total. Every other
number of the report is *withheld*: it never backs a claim, and a claim it would have matched
says so. A value that rests on a user profile names that profile.

Each entry also says what the values are about: its benchmark and split (the ledger entry's
``suite`` and dataset name, the report's ``suite``/``dataset``, or the ``benchmark`` a
``citable_values`` rule names), its question count, the run's identities (CI ``run_id``,
commit, file name, ``mode``), its system and its runtime, QA block and accounting (which
providers it called).

From ``--verdict``: the verdict JSON as written, plus what only files can tell: the SHA-256 of
every input the verdict names, hashed again now, and the digest and rule ids of the built-in
``official-sota`` profile of this installation. The ``claim_phrase`` rule decides with these
whether the verdict can back a state-of-the-art claim.

A verdict is a JSON file anyone can write: the digest and rule ids are public. So its recorded
results are not taken on trust. The built-in official-sota gate is run again on the files the
verdict names (each unchanged since: the SHA-256 it recorded), as of the verdict's
``evaluated_at``, and only a passing re-run backs a claim. The verdict must therefore name a
file for every document official-sota requires (``report``, ``dataset``, ``hypotheses``,
``eval_log``, ``baseline``, ``validator``); the re-run reads exactly those files, and the
report's own paths only for optional documents the verdict did not record. Why a verdict does
not re-check is listed with its other problems as its input ``the official-sota re-run``.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench_gate.records import field, record
from bench_gate import __version__
from bench_gate.loaders import confined
from bench_gate.loaders import files as documents
from bench_gate.models import Doc, InputDigest, RuleResult, Verdict, exact_number
from bench_gate.profile import load_profile, yamlsafe
from bench_gate.profile.binding import bind
from bench_gate.profile.params import type_problem
from bench_gate.profile.plan import Plan, ProfileError
from bench_gate.profile.sources import builtin_names, looks_like_path
from bench_gate.text.isotime import instant_or_none

RERUN = "the official-sota re-run"
"""The input under which a verdict whose recorded inputs fail official-sota again is listed."""

MAX_EVIDENCE_BYTES = 1024 * 1024
ENTRY_KEYS = ("name", "report", "profile", "documents", "set")


class EvidenceError(Exception):
    """The ledger, the evidence file or the verdict cannot be read (exit 2); ``str()`` is the reason."""


@record
class GatedEntry:
    """One gated result that may back numbers in a document."""

    ref: str  # "/citable/4" (a ledger entry) or the evidence entry's name
    artifact: str  # the report file, as shown
    source: str  # "ledger PATH" or "evidence FILE"
    profile: str  # the profile that gated it
    user_profile: str | None  # the path of a user profile (named in every message resting on it)
    passed: bool
    summary: str
    failing: tuple[str, ...] = ()  # "rule: message" of the failing error rules
    scope: str = ""  # what names its benchmark and split (suite, dataset name)
    values: tuple[dict[str, Any], ...] = ()
    withheld: tuple[dict[str, Any], ...] = ()
    facts: dict[str, Any] = field(default_factory=dict)  # mode, ids, questions, total, runtime, calls, system

    def data(self) -> dict[str, Any]:
        """The entry as the ``citable`` document of the claims rules holds it."""
        return {"entry": self.ref, "artifact": self.artifact, "scope": self.scope, "passed": self.passed,
                "profile": self.profile, "user_profile": self.user_profile, **self.facts}


def _outcome(results: tuple[RuleResult, ...] | list[RuleResult]) -> tuple[bool, str, tuple[str, ...]]:
    counts = {s: sum(1 for r in results if r.status == s) for s in ("fail", "pass", "skip")}
    failing = tuple(f"{r.rule}: {r.message}" for r in results if r.status == "fail" and r.severity == "error")
    return not failing, f"{counts['fail']} failed, {counts['pass']} passed, {counts['skip']} skipped", failing


def _scope(*parts: Any) -> str:
    return " ".join(str(p) for p in parts if isinstance(p, str) and p.strip())


def _named(report: dict[str, Any], entry: dict[str, Any]) -> str:
    """The text that names an entry's benchmark and split: suite and dataset name, from the ledger
    entry and from the report."""
    out = []
    for source in (entry, report):
        dataset = source.get("dataset")
        out += [source.get("suite"), source.get("benchmark"),
                dataset.get("name") if isinstance(dataset, dict) else dataset]
    return _scope(*dict.fromkeys(x for x in out if isinstance(x, str)))


_RANKED = re.compile(r"^ranked_([a-z]+?)_ids$")
_RETRIEVAL = re.compile(r"^(?:hit|recall|recall_any|recall_all|legacy_recall|ndcg|precision|mrr)(?:@\d+)?$")


def granularity_of(report: dict[str, Any], cases: str = "case_results") -> str | None:
    """What a report's retrieval metrics count, as its rows declare it: every row ranks
    ``ranked_session_ids`` (``session``) or ``ranked_turn_ids`` (``turn``). None when the rows do
    not say, or say different things."""
    rows = report.get(cases)
    if not isinstance(rows, list) or not rows:
        return None
    said: set[str] = set()
    for row in rows:
        units = {m.group(1) for k in (row if isinstance(row, dict) else {}) if (m := _RANKED.match(str(k)))}
        if len(units) != 1:
            return None
        said |= units
    return said.pop() if len(said) == 1 else None


def values_of(verdict: Verdict, report: Any, ref: str, artifact: str, scope: str, profile: str,
              user_profile: str | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """(citable values, withheld values, the benchmark a ``citable_values`` rule names) of one
    gated report: read from the passing results of its ``claimed_metrics`` and ``citable_values``
    rules."""
    values: list[dict[str, Any]] = []
    withheld: list[dict[str, Any]] = []
    named = ""
    data = report if isinstance(report, dict) else {}
    base = {"entry": ref, "artifact": artifact, "scope": scope, "profile": profile, "user_profile": user_profile}

    grain = granularity_of(data)

    def add(item: dict[str, Any], why: str = "") -> None:
        value = item["value"] if isinstance(item.get("value"), Fraction) else exact_number(item.get("value"))
        if value is None or not isinstance(item.get("metric"), str):
            return
        full = {**base, **item, "value": value, "raw": item.get("raw", item.get("value"))}
        if grain and "granularity" not in item and _RETRIEVAL.match(item["metric"].lower()):
            full["granularity"] = grain  # the rows rank sessions: its recall@5 counts sessions
        if why:
            withheld.append({**full, "why": why})
        else:
            values.append(full)

    for r in verdict.results:
        if r.status != "pass" or not isinstance(r.actual, dict):
            continue
        if r.check == "claimed_metrics":
            recomputed = {str(x) for x in r.actual.get("recomputed", []) if isinstance(x, str)}
            declared = {str(x) for x in r.actual.get("not_citable", []) if isinstance(x, str)}
            overall = data.get("overall")
            for metric, value in (overall.items() if isinstance(overall, dict) else []):
                why = "" if metric in recomputed else (
                    "declared not citable by its gate (metrics-claimed)" if metric in declared
                    else "not a metric the gate recomputes")
                add({"metric": metric, "value": value, "pointer": f"/overall/{metric}"}, why)
            per_type = data.get("per_type")
            for name, metrics in (per_type.items() if isinstance(per_type, dict) else []):
                for metric, value in (metrics.items() if isinstance(metrics, dict) else []):
                    why = "" if metric in recomputed else "not a metric the gate recomputes"
                    add({"metric": metric, "value": value, "slice": name, "pointer": f"/per_type/{name}/{metric}"},
                        why)
        elif r.check == "citable_values":
            named = str(r.actual.get("benchmark") or named)
            for item in r.actual.get("values", []):
                if not isinstance(item, dict):
                    continue
                count, of, percent = item.get("count"), item.get("of"), exact_number(item.get("percent"))
                if isinstance(count, int) and isinstance(of, int) and of > 0:
                    add({**item, "value": Fraction(count, of), "raw": f"{count}/{of}"})
                elif percent is not None:
                    add({**item, "value": percent / 100, "raw": f"{item.get('percent')}%"})
                else:
                    add(dict(item))
    return values, withheld, named


# --- from a ledger -------------------------------------------------------------------------


def from_ledger(manifest: Doc, gathered: Doc, ledger_verdict: Verdict, path: str) -> list[GatedEntry]:
    """The citable entries of a gated ledger, from what its gate read and judged: the manifest,
    the ``evidence`` document it gathered (every file read and every artifact's verdict, see
    :func:`bench_gate.gates.ledger_gate.load_evidence`) and the ledger's verdict."""
    data = manifest.data if isinstance(manifest.data, dict) else {}
    extra = gathered.extra
    read: dict[str, Doc] = dict(extra.get("docs", {}))
    judged: dict[str, Verdict] = {**extra.get("summaries", {}), **extra.get("verdicts", {})}
    infos = (gathered.data or {}).get("entries", {})
    # a ledger rule that failed about one entry (its pointer is under /citable/N) takes it out too
    about: dict[str, list[str]] = {}
    for r in ledger_verdict.results:
        if r.status == "fail" and r.severity == "error" and "/" not in r.rule:
            for ptr in [r.pointer, *(d.pointer for d in r.details)]:
                parts = ptr.split("/")
                if len(parts) >= 3 and parts[1] == "citable" and parts[2].isdigit():
                    about.setdefault(f"/citable/{parts[2]}", []).append(f"{r.rule}: {r.message}")
    out: list[GatedEntry] = []
    listed = data.get("citable")
    for i, entry in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(entry, dict) or entry.get("status") != "citable":
            continue
        ref, role = f"/citable/{i}", f"citable/{i}"
        written = entry.get("artifact", entry.get("external_artifact_manifest", "?"))
        name = str(written)
        doc = read.get(role)
        report = doc.data if doc is not None and doc.error is None and isinstance(doc.data, dict) else {}
        verdict = judged.get(role)
        gate = (infos.get(ref) or {}).get("gate") or {}
        profile = str(gate.get("profile") or entry.get("gate_profile") or "?")
        failing = [f"{f.get('rule')}: {f.get('message')}" for f in gate.get("failed", []) if isinstance(f, dict)]
        failing += about.get(ref, [])
        if doc is None or doc.error is not None:
            failing.append(f"its artifact cannot be read: {doc.error if doc is not None else 'not read'}")
        if verdict is None:
            failing.append(f"it was not gated: {gate.get('error', 'no gate result')}")
        passed = not failing and gate.get("passed") is True
        scope = _named(report, entry)
        values, withheld, _ = values_of(verdict, report, ref, name, scope, profile, None) if verdict else ([], [], "")
        if not passed:
            withheld = [{**v, "why": f"of an entry that fails its gate ({failing[0][:120] if failing else 'not passed'})"}
                        for v in values + withheld]
            values = []
        dataset = entry.get("dataset")
        runtime = entry.get("runtime") if isinstance(entry.get("runtime"), dict) else report.get("runtime")
        # What a run called: the runtime, and the QA block and accounting of the entry and of its
        # artifact (a reader or judge model is a remote call even when the runtime does not echo it).
        calls = {f"{where} {block}": source[block] for where, source in (("ledger entry", entry), ("artifact", report))
                 for block in ("qa", "accounting") if isinstance(source.get(block), dict)}
        facts = {"mode": entry.get("mode"), "ids": _identities(entry, report), "questions": entry.get("questions"),
                 "runtime": runtime if isinstance(runtime, dict) else None, "calls": calls,
                 "evaluated": _count(dataset, "evaluated_entries", entry.get("questions")),
                 "total": _count(dataset, "total_entries", None), "system": _system(entry, report),
                 "judge": _judge(report), **(_question_set(verdict) if verdict else {})}
        out.append(GatedEntry(ref, name, f"ledger {path}", profile, None, passed, str(gate.get("summary", "")),
                              tuple(failing), scope, tuple(values), tuple(withheld), facts))
    return out


def _identities(entry: dict[str, Any], artifact: dict[str, Any]) -> list[str]:
    ids: list[str] = []
    external = artifact.get("external_artifact")
    if isinstance(external, dict) and isinstance(external.get("run_id"), str | int):
        ids.append(str(external["run_id"]))
    for key in ("sibyl_commit", "commit"):
        for source in (entry, artifact):
            if isinstance(source.get(key), str) and source[key]:
                ids.append(source[key].lower())
    for key in ("artifact", "external_artifact_manifest"):
        if isinstance(entry.get(key), str):
            name = Path(entry[key]).name
            ids.extend([name, Path(name).stem])
    return list(dict.fromkeys(ids))


def _count(dataset: Any, key: str, default: Any) -> int | None:
    """A question count of the entry's dataset block (``default`` when it has none), read as the
    gate reads it: any exact whole number (``441``, ``441.0``, ``4.41e2``), so a subset the gate
    accepted as declared stays a subset here (``total_entries: 500.0`` once hid it)."""
    value = dataset.get(key, default) if isinstance(dataset, dict) else default
    number = exact_number(value)
    return int(number) if number is not None and number.denominator == 1 else None


def _system(entry: dict[str, Any], artifact: dict[str, Any]) -> str | None:
    """The system an entry is a result of, as the ledger or its artifact names it."""
    for source in (entry, artifact):
        for key in ("system", "system_name"):
            if isinstance(source.get(key), str) and source[key].strip():
                return source[key].strip()
    return None


def _judge(report: dict[str, Any]) -> str | None:
    """The judge model of a QA result (its ``qa`` block), or None."""
    qa = report.get("qa")
    judge = qa.get("judge_model") if isinstance(qa, dict) else None
    return judge.strip() if isinstance(judge, str) and judge.strip() else None


# --- from an evidence file -----------------------------------------------------------------


def _root_for(file: Path) -> Path:
    """The folder no path of an evidence file may leave (see the module docs)."""
    where = file.resolve().parent
    cwd = Path.cwd().resolve()
    if where == cwd or cwd in where.parents:
        return cwd
    return next((d for d in (where, *where.parents) if (d / ".git").exists()), where)


def _confined(written: Any, folder: Path, root: Path, what: str) -> str:
    """A path of the evidence file, resolved from its folder and kept inside the root (after
    following links)."""
    if not isinstance(written, str) or not written.strip():
        raise EvidenceError(f"{what} must be a path string, got {written!r}")
    if Path(written).is_absolute():
        raise EvidenceError(f"{what} {written!r} is absolute; paths in an evidence file are relative to its folder")
    rel = os.path.relpath(folder.resolve() / written, root)
    try:
        if rel == ".." or rel.startswith("../"):
            raise confined.DocumentError(f"path {written!r} leaves the repository root {str(root)!r} with '..'")
        loc = confined.locate(rel, root, confine=True)
    except confined.DocumentError as exc:
        raise EvidenceError(f"{what}: {str(exc).replace('evidence root', 'repository root')}") from None
    return str(loc.real)


def _shown(real: str) -> str:
    try:
        return Path(real).relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return real


def load_file(path: str) -> list[dict[str, Any]]:
    """The entries of an evidence file as written (EvidenceError: not usable at all)."""
    p = Path(path)
    try:
        if not p.is_file():
            raise EvidenceError(f"--evidence {path}: no such file")
        if p.stat().st_size > MAX_EVIDENCE_BYTES:
            raise EvidenceError(f"--evidence {path}: over {MAX_EVIDENCE_BYTES} bytes")
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise EvidenceError(f"--evidence {path}: not UTF-8 text") from None
    except OSError as exc:
        raise EvidenceError(f"--evidence {path}: cannot be read ({exc.strerror})") from None
    try:
        data, lines = yamlsafe.load(text)
    except yamlsafe.YamlError as exc:
        raise EvidenceError(f"--evidence {path}{f':{exc.line}' if exc.line else ''}: {exc.message}") from None
    if not isinstance(data, dict) or set(data) != {"evidence"} or not isinstance(data["evidence"], list):
        raise EvidenceError(f"--evidence {path}: expected a mapping with one key, 'evidence', holding a list")
    seen: set[str] = set()
    for i, item in enumerate(data["evidence"]):
        where = f"--evidence {path}:{lines.line(('evidence', i))}"
        if not isinstance(item, dict):
            raise EvidenceError(f"{where}: an entry is a mapping of {', '.join(ENTRY_KEYS)}")
        unknown = sorted(set(item) - set(ENTRY_KEYS))
        if unknown:
            raise EvidenceError(f"{where}: unknown key {unknown[0]!r} (an entry has {', '.join(ENTRY_KEYS)})")
        for key in ("name", "report", "profile"):
            if not isinstance(item.get(key), str) or not item[key].strip():
                raise EvidenceError(f"{where}: {key} must be a non-empty string")
        if item["name"] in seen:
            raise EvidenceError(f"{where}: two entries are named {item['name']!r}")
        seen.add(item["name"])
        for key in ("documents", "set"):
            if not isinstance(item.get(key, {}), dict):
                raise EvidenceError(f"{where}: {key} must be a mapping")
        item["_where"] = where
    return list(data["evidence"])


def from_file(path: str, now: datetime, version: str = __version__) -> tuple[list[GatedEntry], list[InputDigest]]:
    """Every entry of an evidence file, each gated with its profile by the report gate's engine."""
    from bench_gate.gates.report_gate import UsageError, judge, load_cli_documents

    items = load_file(path)
    raw = Path(path).read_bytes()
    folder = Path(path).parent
    root = _root_for(Path(path))
    entries: list[GatedEntry] = []
    inputs: list[InputDigest] = [InputDigest("evidence", path, confined.sha256(raw), len(raw))]
    for item in items:
        where, name = item["_where"], item["name"]
        ref = str(item["profile"])
        user = None
        if looks_like_path(ref):
            real = _confined(ref, folder, root, f"{where}: profile")
            user = _shown(real)
            ref = real
        elif ref not in builtin_names():
            raise EvidenceError(f"{where}: profile {ref!r} is neither a built-in profile nor a path")
        try:
            profile = load_profile(ref)
            overrides = {}
            for key, value in (item.get("set") or {}).items():
                declared = profile.params.get(key)
                if declared is None:
                    raise EvidenceError(f"{where}: set {key}: profile {profile.name} declares no parameter {key!r}")
                if declared.type in ("list", "map", "number-map"):
                    # as with --set: a list or map holds a benchmark's facts (a pinned question list,
                    # its question counts), which only a profile that extends this one may replace
                    raise EvidenceError(f"{where}: set {key}: a {declared.type} parameter cannot be set, as with "
                                        f"--set; write a profile that extends {profile.name} and sets its default")
                problem = type_problem(value, declared.type)
                if problem:
                    raise EvidenceError(f"{where}: set {key}: {problem}")
                overrides[key] = value
            plan = bind(profile, overrides)
        except ProfileError as exc:
            raise EvidenceError(f"{where}: profile: {exc}") from None
        named: dict[str, str] = {}
        for role, written in (item.get("documents") or {}).items():
            role = _role(plan, str(role), where)
            named[role] = _confined(written, folder, root, f"{where}: documents {role}")
        report = _confined(item["report"], folder, root, f"{where}: report")
        try:
            verdict = judge(plan, report, load_cli_documents(plan, named), root, now, version)
        except UsageError as exc:
            raise EvidenceError(f"{where}: {exc}") from None
        passed, summary, failing = _outcome(verdict.results)
        passed = passed and verdict.passed
        doc = documents.load("report", report, Path("."), confine=False, fmt="json", want_object=True, origin="cli")
        data = doc.data if doc.error is None and isinstance(doc.data, dict) else {}
        shown = _shown(report)
        values, withheld, benchmark = values_of(verdict, data, name, shown, "", plan.name, user)
        scope = _scope(benchmark, _named(data, {}))
        for v in values + withheld:
            v["scope"] = scope
        if not values and passed:
            failing = failing + ("its gate declares no citable value (no passing claimed_metrics or citable_values "
                                 "rule)",)
        if not passed:
            withheld = [{**v, "why": f"of an entry whose gate fails ({failing[0][:120] if failing else ''})"}
                        for v in values + withheld]
            values = []
        declared = next((r.actual for r in verdict.results if r.check == "citable_values" and r.status == "pass"
                         and isinstance(r.actual, dict)), {})
        facts = {"mode": None, "ids": [name, shown, Path(shown).name, Path(shown).stem],
                 "questions": _questions(verdict, data), "runtime": data.get("runtime") if isinstance(
                     data.get("runtime"), dict) else None, "calls": {f"artifact {b}": data[b] for b in ("qa", "accounting")
                                                                    if isinstance(data.get(b), dict)},
                 "evaluated": _questions(verdict, data), "total": _count(data.get("dataset"), "total_entries", None),
                 "system": _system({}, data),
                 "judge": declared.get("judge") or _judge(data), **_question_set(verdict)}
        entries.append(GatedEntry(name, shown, f"evidence {path}", plan.name, user, passed, summary, failing, scope,
                                  tuple(values), tuple(withheld), facts))
        for i in verdict.inputs:
            inputs.append(InputDigest(f"{name}/{i.role}", _shown(i.path) if Path(i.path).is_absolute() else i.path,
                                      i.sha256, i.bytes))
    return entries, inputs


def _role(plan: Plan, given: str, where: str) -> str:
    """A document role of the plan, named by its role or by its option (``rows`` or ``--rows``)."""
    declared = plan.profile.documents
    if given in declared:
        return given
    for role, decl in declared.items():
        if decl.spec.option and decl.spec.option.lstrip("-") == given.lstrip("-"):
            return role
    known = ", ".join(sorted(declared)) or "none"
    raise EvidenceError(f"{where}: documents {given}: profile {plan.name} declares no document role {given!r} "
                        f"(declared: {known})")


def _question_set(verdict: Verdict) -> dict[str, Any]:
    """The groups (LoCoMo's categories) a passing ``citable_values`` rule says its values are over,
    with the benchmark as it names them (``LoCoMo (categories 1-4)``): ``groups`` and
    ``question_set``, or nothing when it states no groups."""
    for r in verdict.results:
        if r.check == "citable_values" and r.status == "pass" and isinstance(r.actual, dict) \
                and isinstance(r.actual.get("groups"), list) and r.actual["groups"]:
            return {"groups": [str(g) for g in r.actual["groups"]], "question_set": str(r.actual.get("benchmark", ""))}
    return {}


def _questions(verdict: Verdict, report: dict[str, Any]) -> int | None:
    """The question count a ``citable_values`` rule read, else the report's own."""
    for r in verdict.results:
        if r.check == "citable_values" and r.status == "pass" and isinstance(r.actual, dict):
            n = r.actual.get("questions")
            if isinstance(n, int) and not isinstance(n, bool):
                return n
    for key in ("questions", "n"):
        n = report.get(key)
        if isinstance(n, int) and not isinstance(n, bool):
            return n
    return _count(report.get("dataset"), "evaluated_entries", None)


def citable_data(entries: list[GatedEntry]) -> dict[str, Any]:
    """The ``values``, ``withheld`` and ``entries`` of the ``citable`` document."""
    return {"values": [v for e in entries for v in e.values],
            "withheld": [v for e in entries for v in e.withheld],
            "entries": [e.data() for e in entries]}


def verdict(path: str) -> tuple[dict[str, Any], documents.Doc]:
    """A ``--verdict`` file and what the files it names hash to now."""
    doc = documents.load("verdict", path, Path("."), confine=False, fmt="json", want_object=True, origin="cli")
    if doc.error is not None:
        raise EvidenceError(f"--verdict {path}: {doc.error}")
    hashes: dict[str, str] = {}
    inputs = doc.data.get("inputs")
    for item in inputs if isinstance(inputs, list) else []:
        written = item.get("path") if isinstance(item, dict) else None
        if not isinstance(written, str) or not written or written in hashes:
            continue
        hashes[written] = _hash_now(written, Path(path).parent)
    from bench_gate.profile import load_profile
    from bench_gate.profile.binding import bind

    plan = bind(load_profile("official-sota"))
    data = doc.data
    why = recheck(plan, data, hashes, Path(path).parent)
    if why is not None:  # listed with the verdict's other problems, as an input that does not hold
        data = {**data, "inputs": [*(inputs if isinstance(inputs, list) else []),
                                   {"role": "rerun", "path": RERUN, "sha256": None}]}
        hashes[RERUN] = f"error:{why}"
    report = next((item.get("path") for item in inputs if isinstance(item, dict) and item.get("role") == "report"),
                  None) if isinstance(inputs, list) else None
    info = {"path": path, "data": data, "hashes": hashes, "builtin_digest": plan.digest,
            "builtin_rules": sorted({r.id for r in plan.rules}),
            "system": validated_system(report, Path(path).parent) if isinstance(report, str) else None}
    return info, doc


def recheck(plan: Plan, data: dict[str, Any], hashes: dict[str, str], verdict_folder: Path) -> str | None:
    """Why official-sota does not pass again on the verdict's recorded inputs (None: it does, or the
    verdict already fails for a reason the claims rule names: another profile, no inputs, an input
    changed or gone, no readable ``evaluated_at``)."""
    from bench_gate.gates.report_gate import UsageError, judge, load_cli_documents

    profile = data.get("profile")
    inputs = data.get("inputs")
    if not isinstance(profile, dict) or profile.get("name") != "official-sota" or not isinstance(inputs, list) \
            or not inputs:
        return None
    recorded: dict[str, str] = {}
    for item in inputs:
        role, written = (item.get("role"), item.get("path")) if isinstance(item, dict) else (None, None)
        if not isinstance(role, str) or not isinstance(written, str) or hashes.get(written) != item.get("sha256"):
            return None  # an input without a role or path, or changed since: named as such already
        if role in recorded and recorded[role] != written:
            return f"it names two {role} files ({recorded[role]}, {written})"
        recorded[role] = written
    needed = ["report"] + sorted(r for r, d in plan.profile.documents.items() if d.spec.required)
    missing = [r for r in needed if r not in recorded]
    if missing:
        return (f"it names no {', '.join(missing)} file, so official-sota cannot be run again on what it judged "
                "(a verdict must list every document official-sota reads)")
    at = instant_or_none(data.get("evaluated_at"))
    if at is None:
        return None
    base = next((b for b in (Path("."), verdict_folder) if (b / recorded["report"]).is_file()), Path("."))
    named = {role: str(base / written) for role, written in recorded.items() if role != "report"}
    try:
        again = judge(plan, str(base / recorded["report"]), load_cli_documents(plan, named), base, at, __version__)
    except UsageError as exc:
        return f"official-sota cannot be run again on its recorded inputs: {exc}"
    if again.passed:
        return None
    failing = [r for r in again.results if r.status == "fail" and r.severity == "error"]
    first = f" (first: {failing[0].rule}: {failing[0].message[:200]})" if failing else ""
    return (f"its recorded inputs fail official-sota when it is run again: {len(failing)} error "
            f"rule{'s' if len(failing) != 1 else ''} failed{first}")


def validated_system(report: str, verdict_folder: Path = Path(".")) -> str | None:
    """The name of the system an official-sota report validated (``result_provenance.validated_system.name``,
    as written, else next to the verdict), or None when the report does not name one."""
    for base in dict.fromkeys((Path("."), verdict_folder)):
        if not (base / report).is_file():
            continue
        doc = documents.load("report", str(base / report), Path("."), confine=False, fmt="json", want_object=True,
                             origin="cli")
        provenance = doc.data.get("result_provenance") if doc.error is None and isinstance(doc.data, dict) else None
        system = provenance.get("validated_system") if isinstance(provenance, dict) else None
        name = system.get("name") if isinstance(system, dict) else None
        return name.strip() if isinstance(name, str) and name.strip() else None
    return None


def _hash_now(written: str, verdict_folder: Path) -> str:
    """The SHA-256 (hex) of the file as it is now (as written, else next to the verdict), or
    ``missing`` / ``error:<reason>``."""
    tried = []
    for base in (Path("."), verdict_folder):
        candidate = base / written
        if str(candidate) in tried:
            continue
        tried.append(str(candidate))
        if candidate.is_file():
            try:
                digest, _ = documents.hash_file(documents.locate(str(candidate), Path("."), confine=False))
            except (documents.DocumentError, OSError) as exc:
                return f"error:{exc}"
            return digest
    return "missing"
