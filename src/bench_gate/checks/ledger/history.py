"""History summaries of a claim ledger: the append-only record of earlier gate runs, whose latest
summary of a ``baseline_key`` may serve as a no-regression baseline.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
    described,
    kind,
    FORBID,
    MISSING,
    Context,
    Fail,
    failed,
    join,
    jsonable,
    passed,
    same,
    show,
    skipped,
    type_name,
)
from bench_gate.checks.ledger.recorded import history_gate_command_problems
from bench_gate.text.canonical import describe, id_key, shown
from bench_gate.text.digests import is_sha256_hex, is_sha256_uri
from bench_gate.text.isotime import instant_or_none
from bench_gate.checks.ledger.access import citable_by_name, evidence, loaded, loaded_doc, manifest, profile_problem
from bench_gate.models import Doc, Finding, exact_number


# --- ledger_history ----------------------------------------------------------------------


@record
class HistoryParams:
    __pydantic_config__ = FORBID
    append_policies: list[str] = field(default_factory=lambda: ["immutable-json"])
    external_profiles: list[str] = field(default_factory=list)


def leaves_repository(folder: str, written: str) -> bool:
    """Whether a path written in the ledger (relative to its folder, ``folder`` being the
    ledger's folder relative to the repository root) is absolute or climbs out of the root."""
    if written.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", written):
        return True
    joined = posixpath.normpath(posixpath.join(folder or ".", written.replace("\\", "/")))
    return joined == ".." or joined.startswith("../")


def ledger_source(ctx: Context, source: Any) -> tuple[str, dict[str, Any]] | None:
    """(pointer, entry) of the citable entry a summary's ``source`` names, or None."""
    try:
        by_name = citable_by_name(ctx)
    except Fail:
        return None  # no citable list: ledger-header and citable-sources report it
    if not isinstance(source, dict):
        return None
    named = [source[k] for k in ("artifact", "external_artifact_manifest") if isinstance(source.get(k), str)]
    # the same file however it is spelled (./a.json, external/../a.json)
    by_path = {posixpath.normpath(name.replace("\\", "/")): item for name, item in by_name.items()}
    return by_path.get(posixpath.normpath(named[0].replace("\\", "/"))) if len(named) == 1 else None


def _recorded_digest(source: dict[str, Any]) -> str | None:
    """The SHA-256 a summary records of its source file (``sha256``, hex or ``sha256:`` hex)."""
    value = source.get("sha256")
    if is_sha256_uri(value):
        return value[7:]
    return value if is_sha256_hex(value) else None


def source_problems(ctx: Context, ev: Doc, summary: dict[str, Any], source: dict[str, Any],
                    metrics: dict[str, Any], item: dict[str, Any] | None = None) -> list[tuple[str, str, Any, Any]]:
    """(pointer, problem, actual, expected) where a history summary is not its source's.

    The source is a citable entry of the ledger, or a file of the repository that the ledger
    gate read (``item["source_role"]``): every metric of the summary equals the source's
    ``overall`` value exactly, ``suite``, ``mode`` and the commit are the source's, the summary's
    ``profile`` is the entry's ``gate_profile``, the source passes its gate, and a ``sha256`` the
    summary records of a file is that file's. A source that is neither (retired and gone) is not
    a problem here: such a summary only backs no baseline (:func:`backing_problem`)."""
    found = ledger_source(ctx, source)
    named = [source[k] for k in ("artifact", "external_artifact_manifest") if isinstance(source.get(k), str)]
    out: list[tuple[str, str, Any, Any]] = []
    if found is not None:
        ptr, entry = found
        info = loaded(ev, ptr) or {}
        doc = loaded_doc(ev, info["role"]) if info.get("role") else None
        where, gate = f"source {named[0]} ({ptr})", info.get("gate") if isinstance(info.get("gate"), dict) else None
        external = "external_artifact_manifest" in entry
        profile = entry.get("gate_profile")
    else:
        doc = loaded_doc(ev, item["source_role"]) if item and item.get("source_role") else None
        if doc is None or doc.error is not None or not isinstance(doc.data, dict):
            return []
        where, gate = f"source {named[0]}", item.get("source_gate") if isinstance(item.get("source_gate"), dict) \
            else None
        external = "external_artifact_manifest" in source
        profile = None
        recorded = source.get("sha256", MISSING)
        if recorded is not MISSING and _recorded_digest(source) is None:
            out.append(("/source/sha256", f"source.sha256 is {show(recorded)}, not a SHA-256 (64 lowercase hex, or "
                        "sha256:<hex>)", jsonable(recorded), "a SHA-256"))
        elif recorded is not MISSING and _recorded_digest(source) != doc.sha256:
            out.append(("/source/sha256", f"source.sha256 is {show(recorded)}, but {where} hashes to {doc.sha256}: "
                        "the summary is not of this file", jsonable(recorded), doc.sha256))
    if doc is None or doc.error is not None or not isinstance(doc.data, dict):
        return out  # citable-sources reports the unreadable source
    art = doc.data
    overall = art.get("overall") if isinstance(art.get("overall"), dict) else {}
    for name, value in metrics.items():
        theirs = overall.get(name, MISSING)
        if theirs is MISSING:
            out.append((join("/metrics", name), f"metrics.{name} {show(value)} is not a figure of its {where}: its "
                        f"overall has no {name}", jsonable(value), None))
        elif exact_number(value) is not None and not same(value, theirs):
            out.append((join("/metrics", name), f"metrics.{name} is {show(value)}, but its {where} has overall "
                        f"{name} {show(theirs)}: a history summary records its source's figures, so a baseline "
                        "cannot be moved by editing one", jsonable(value), jsonable(theirs)))
    commit = "sibyl_commit" if "sibyl_commit" in source else "commit"
    for key, theirs_key in (("suite", "suite"), ("mode", "mode"), (commit, "sibyl_commit")):
        mine, theirs = source.get(key, MISSING), art.get(theirs_key, MISSING)
        if mine is not MISSING and not same(mine, theirs):
            out.append((join("/source", key), f"source.{key} is {show(mine)}, but its {where} has {theirs_key} "
                        f"{show(theirs)}", jsonable(mine), jsonable(theirs)))
    prof = summary.get("profile")
    if isinstance(prof, str) and isinstance(profile, str) and prof != profile:
        out.append(("/profile", f"profile is {show(prof)}, but its {where} is gated with {show(profile)}", prof,
                    profile))
    if gate is not None and (gate.get("error") or not gate.get("passed")):
        if found is None:
            why = gate.get("error") or "; ".join(f"{f['rule']}: {f['message']}" for f in gate.get("failed", [])[:1])
            out.append(("/gate_passed", f"gate_passed is true, but its {where} fails its gate "
                        f"{show(gate.get('profile'))}: {why}", True, None))
        else:
            rule = "external-gate" if external else "citable-gates"
            out.append(("/gate_passed", f"gate_passed is true, but its {where} fails its gate {gate.get('profile')} "
                        f"({rule})", True, None))
    return out


def backing_problem(ctx: Context, ev: Doc, item: dict[str, Any], summary: dict[str, Any]) -> str | None:
    """Why a history summary cannot back a no-regression baseline (None when it can).

    A summary backs a baseline only when what it summarised can be checked: its source is a
    citable entry of this ledger (the summary then equals the entry's figures and the entry
    passes its gate), or a file of the repository that hashes to the ``sha256`` the summary
    records, passes the summary's gate and has the summary's figures. A summary whose source is
    gone, or that records no hash of it, is a record of the past, not a baseline: anyone can
    write one with lower figures."""
    source = summary.get("source")
    if not isinstance(source, dict):
        return "it names no source"
    named = [source[k] for k in ("artifact", "external_artifact_manifest") if isinstance(source.get(k), str)]
    if len(named) != 1:
        return "its source names no single file"
    metrics = summary.get("metrics") if isinstance(summary.get("metrics"), dict) else {}
    problems = source_problems(ctx, ev, summary, source, metrics, item)
    if problems:
        return f"it does not agree with its source {named[0]} (history-summaries: {problems[0][1]})"
    if ledger_source(ctx, source) is not None:
        return None
    doc = loaded_doc(ev, item["source_role"]) if item.get("source_role") else None
    if doc is None or doc.error is not None:
        why = doc.error if doc is not None else "it was not read"
        return f"its source {named[0]} is neither a citable entry of this ledger nor a file of the repository ({why})"
    if _recorded_digest(source) is None:
        return (f"its source {named[0]} is not a citable entry of this ledger, and the summary records no sha256 "
                "of it, so the file cannot be shown to be the one it summarised")
    return None


@kind("ledger_history", HistoryParams, "history summaries are valid and append-only")
def ledger_history(ctx: Context, p: HistoryParams) -> Iterable[Finding]:
    """Every history summary (``history.directory``/*.json) has the ledger's
    ``history.summary_schema``, a ``baseline_key``, an RFC 3339 ``generated_at`` not in the
    future, a ``source`` naming exactly one of ``artifact`` / ``external_artifact_manifest``,
    ``suite``, ``mode`` and a commit (source paths stay inside the repository), a built-in
    ``profile``, finite numeric ``metrics``, a ``gate_command`` that runs bench-gate and whose
    failure would show, and ``gate_passed: true``. When the source is a citable entry of the ledger the summary is tied to it: every
    metric equals the source's ``overall`` value exactly, ``suite``, ``mode`` and the commit
    are the source's, ``profile`` is the entry's ``gate_profile`` and the source passes its
    gate (a lowered summary would otherwise move the no-regression baseline). When the source is a
    file of the repository that is not in the ledger, the summary is tied to it the same way (the
    ledger gate reads it and gates it with the summary's ``profile``), and a ``source.sha256`` it
    records must be that file's; a summary whose source is neither is kept as a record but backs
    no baseline, and the passing line says so. Two ``baseline_key`` values a reader cannot tell
    apart fail, and so do summaries of two modes under one key (a key is one line of runs, whose
    latest run is a baseline). No two summaries share a ``baseline_key`` and ``generated_at`` (under
    ``append_policy: immutable-json`` a summary is never rewritten, a new one is appended).
    ``history.directory`` is relative to the repository root. Params: ``append_policies``
    (known policies), ``external_profiles``.
    """
    ev = evidence(ctx)
    spec = manifest(ctx).get("history", MISSING)
    if spec is MISSING:
        return [skipped("the ledger declares no history")]
    if not isinstance(spec, dict):
        raise Fail(f"/history must be an object, got {type_name(spec)}", "/history", "report")
    out: list[Finding] = []
    policy = spec.get("append_policy", MISSING)
    if policy not in p.append_policies:
        out.append(failed(f"/history/append_policy is {show(policy)}, expected one of {', '.join(p.append_policies)}",
                          "/history/append_policy", "report", jsonable(policy), p.append_policies))
    schema = spec.get("summary_schema", MISSING)
    if not isinstance(schema, str) or not schema:
        out.append(failed(f"/history/summary_schema is {show(schema)}; it names the schema every summary has",
                          "/history/summary_schema", "report", jsonable(schema), "a schema name"))
    hist = ev.data.get("history", {})
    if hist.get("error"):
        out.append(failed(f"/history/directory {show(spec.get('directory', MISSING))}: {hist['error']}",
                          "/history/directory", "report"))
        return out
    seen: dict[tuple[str, str], str] = {}
    keys: dict[str, tuple[str, str]] = {}
    modes: dict[str, tuple[str, str]] = {}
    unbacked: list[str] = []
    files = hist.get("files", [])
    for item in files:
        doc = loaded_doc(ev, item["role"])
        path, role = item["path"], item["role"]
        if doc is None or doc.error is not None:
            out.append(failed(f"{path}: {doc.error if doc else 'not loaded'}", "", role))
            continue
        data = doc.data
        if not isinstance(data, dict):
            out.append(failed(f"{path} must be a JSON object", "", role))
            continue

        def bad(msg: str, pointer: str, actual: Any = None, expected: Any = None) -> None:
            out.append(failed(f"{path}: {msg}", pointer, role, actual, expected))

        if isinstance(schema, str) and data.get("schema_version") != schema:
            bad(f"schema_version is {show(data.get('schema_version', MISSING))}, expected {show(schema)}",
                "/schema_version", jsonable(data.get("schema_version")), schema)
        key = data.get("baseline_key", MISSING)
        if not isinstance(key, str) or not key:
            bad(f"baseline_key is {show(key)}", "/baseline_key", jsonable(key), "a non-empty string")
        when = instant_or_none(data.get("generated_at"))
        if when is None:
            bad(f"generated_at {show(data.get('generated_at', MISSING))} is not an RFC 3339 timestamp with an offset",
                "/generated_at", jsonable(data.get("generated_at")), "RFC 3339")
        elif when > ctx.now:
            bad(f"generated_at {data['generated_at']} is in the future (gate time {ctx.now.isoformat()})",
                "/generated_at", data["generated_at"], f"<= {ctx.now.isoformat()}")
        source = data.get("source", MISSING)
        if not isinstance(source, dict):
            bad(f"source must be an object, got {type_name(source)}", "/source")
        else:
            named = [k for k in ("artifact", "external_artifact_manifest") if k in source]
            if len(named) != 1:
                bad("source names " + ("neither" if not named else "both") +
                    " of artifact / external_artifact_manifest (exactly one is required)", "/source")
            for k in named:
                if not isinstance(source[k], str) or not source[k].strip():
                    bad(f"source.{k} is {show(source[k])}", f"/source/{k}", jsonable(source[k]), "a relative path")
                elif leaves_repository(ev.data.get("repo_folder", ""), source[k]):
                    bad(f"source.{k} {source[k]!r} leaves the repository: paths in a ledger stay inside it",
                        f"/source/{k}", source[k], "a path inside the repository")
            for k in ("suite", "mode"):
                if not isinstance(source.get(k), str) or not source.get(k):
                    bad(f"source.{k} is {show(source.get(k, MISSING))}", f"/source/{k}", jsonable(source.get(k)), "a string")
            commit = source.get("sibyl_commit", source.get("commit", MISSING))
            if not (isinstance(commit, str) and re.fullmatch(r"[0-9a-f]{40}", commit)):
                bad(f"source.sibyl_commit {show(commit)} is not a full 40-hex commit SHA in lowercase (a short "
                    "SHA is ambiguous: as a repository grows, more commits share its prefix)", "/source/sibyl_commit",
                    jsonable(commit), "40 hex")
        for k in ("profile", "gate_command"):
            if not isinstance(data.get(k), str) or not data.get(k):
                bad(f"{k} is {show(data.get(k, MISSING))}", f"/{k}", jsonable(data.get(k)), "a non-empty string")
        for problem in history_gate_command_problems(data.get("gate_command"), data.get("profile"),
                                                     ev.data.get("commands")):
            bad(problem, "/gate_command", jsonable(data.get("gate_command")), "a bench-gate run that fails when the "
                "gate fails")
        prof = data.get("profile")
        if isinstance(prof, str) and prof and prof not in set(ev.data.get("profiles", [])):
            # a summary carries benchmark metrics: only a built-in profile recomputes them
            bad(f"profile {profile_problem(prof, set(p.external_profiles), local=True)}", "/profile", prof,
                "a built-in profile")
        if data.get("gate_passed") is not True:
            bad(f"gate_passed is {show(data.get('gate_passed', MISSING))}; a summary records a passing gate",
                "/gate_passed", jsonable(data.get("gate_passed")), True)
        metrics = data.get("metrics", MISSING)
        if not isinstance(metrics, dict) or not metrics:
            bad(f"metrics must be a non-empty object, got {show(metrics)}", "/metrics")
        else:
            for name, value in metrics.items():
                if exact_number(value) is None:
                    bad(f"metrics.{name} must be a finite number, got {described(value)}",
                        join("/metrics", name), jsonable(value), "a finite number")
        if isinstance(source, dict) and isinstance(metrics, dict):
            for pointer, problem, actual, expected in source_problems(ctx, ev, data, source, metrics, item):
                bad(problem, pointer, actual, expected)
        if isinstance(key, str) and key:
            spelt = keys.setdefault(id_key(key), (key, path))
            if spelt[0] != key:
                # two spellings a reader cannot tell apart would be two baselines under one name
                bad(f"baseline_key {shown(key)} reads as {shown(spelt[0])} of {spelt[1]} ({describe(key, spelt[0])}): "
                    "one baseline, written two ways", "/baseline_key", key, spelt[0])
        mode = source.get("mode") if isinstance(source, dict) else None
        if isinstance(key, str) and key and isinstance(mode, str) and mode:
            first = modes.setdefault(id_key(key), (mode, path))
            if first[0] != mode:
                # the latest summary of a key is a baseline: one of another mode (a raw run under a
                # hybrid key) would lower the bar for runs it never measured
                bad(f"baseline_key {key!r} holds summaries of mode {first[0]!r} ({first[1]}) and {mode!r}: a "
                    "baseline key is one line of runs, and a summary of another mode under it would become the "
                    "baseline of runs it never measured", "/source/mode", mode, first[0])
        if isinstance(key, str) and when is not None:
            pair = (id_key(key), when.astimezone(UTC).isoformat())
            if pair in seen:
                bad(f"baseline_key {key!r} at generated_at {data['generated_at']} also appears in {seen[pair]}: "
                    "history is append-only, a summary is never rewritten or duplicated", "/baseline_key", key)
            else:
                seen[pair] = path
        if isinstance(source, dict) and (why := backing_problem(ctx, ev, item, data)) is not None:
            unbacked.append(f"{path}: {why}")
    if out:
        return out
    note = (f"; {len(unbacked)} cannot back a no-regression baseline: {'; '.join(unbacked)}" if unbacked else "")
    return [passed(f"{len(files)} history summar{'y' if len(files) == 1 else 'ies'} in "
                   f"{spec.get('directory')}: schema {schema}, gates passed, metrics finite and equal to their "
                   f"source's where the source can be read, keys unique{note}",
                   "/history", "report")]


def source_run(ctx: Context, ev: Doc, item: dict[str, Any], summary: dict[str, Any]) -> datetime | None:
    """When the run a summary summarises was made: its source's ``generated_at`` (or ``timestamp``),
    or None when the source cannot be read."""
    source = summary.get("source")
    found = ledger_source(ctx, source)
    if found is not None:
        info = loaded(ev, found[0]) or {}
        doc = loaded_doc(ev, info["role"]) if info.get("role") else None
    else:
        doc = loaded_doc(ev, item["source_role"]) if item.get("source_role") else None
    if doc is None or doc.error is not None or not isinstance(doc.data, dict):
        return None
    for name in ("generated_at", "timestamp"):
        when = instant_or_none(doc.data.get(name))
        if when is not None:
            return when
    return None


def latest_summary(ctx: Context, ev: Doc, key: str, now: datetime
                   ) -> tuple[tuple[str, dict[str, Any]] | None, list[str]]:
    """((file, summary) of the passing history summary with this baseline_key that can back a
    baseline and summarises the latest run (its source's ``generated_at``; the summary's own
    ``generated_at`` breaks a tie), or None; and "FILE: why" for each later or unusable summary of
    the key that cannot).

    Summaries dated after the gate time are ignored (``ledger_history`` reports them)."""
    candidates: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = []
    for item in ev.data.get("history", {}).get("files", []):
        doc = loaded_doc(ev, item["role"])
        if doc is None or doc.error or not isinstance(doc.data, dict):
            continue
        if doc.data.get("baseline_key") != key or doc.data.get("gate_passed") is not True:
            continue
        when = instant_or_none(doc.data.get("generated_at"))
        if when is None or when > now:
            continue
        run = source_run(ctx, ev, item, doc.data) or when
        candidates.append(((run.astimezone(UTC), when.astimezone(UTC)), item["path"], doc.data, item))
    passed_over: list[str] = []
    # the latest run, not the latest summary: a summary written today of an older, lower run of
    # the key does not become the baseline over a summary of a newer run
    for _, path, data, item in sorted(candidates, key=lambda c: c[0], reverse=True):
        why = backing_problem(ctx, ev, item, data)
        if why is None:
            return (path, data), passed_over
        passed_over.append(f"{path}: {why}")
    return None, passed_over
