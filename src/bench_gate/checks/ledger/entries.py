"""The citable list of a claim ledger: each entry names one readable file, each local artifact
passes its own gate, and each entry echoes its artifact exactly.

Gate profiles named in a ledger are names, never files. Anything that carries benchmark
metrics (a local artifact, an external artifact manifest, a history summary) names a built-in
profile, one that recomputes or checks those metrics.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
    kind,
    FORBID,
    MISSING,
    Context,
    Fail,
    failed,
    join,
    jsonable,
    passed,
    resolve,
    same,
    show,
    skipped,
    type_name,
)
from bench_gate.checks.ledger.access import citable_entries, entry_list, evidence, label, loaded, loaded_doc, profile_problem
from bench_gate.models import Finding


# --- ledger_sources ----------------------------------------------------------------------


@record
class SourcesParams:
    __pydantic_config__ = FORBID
    status: str = "citable"
    external_profiles: list[str] = field(default_factory=list)


@kind("ledger_sources", SourcesParams, "citable entries name exactly one readable artifact or external manifest")
def ledger_sources(ctx: Context, p: SourcesParams) -> Iterable[Finding]:
    """Every citable entry is an object with ``status: citable`` and exactly one of ``artifact`` /
    ``external_artifact_manifest``: a path, relative to the ledger's folder, of a readable JSON
    file inside the repository; a local artifact's ``gate_profile`` is a built-in profile
    name. Params: ``status`` (default ``citable``), ``external_profiles``. Example::

        check: ledger_sources
        with: {status: citable, external_profiles: "${external_profiles}"}
    """
    ev = evidence(ctx)
    items = entry_list(ctx, "citable", optional=False) or []
    if not items:
        raise Fail("/citable is empty: the ledger lists nothing citable", "/citable", "report", 0, ">= 1 entry")
    profiles = set(ev.data.get("profiles", []))
    out: list[Finding] = []
    for i, entry in enumerate(items):
        ptr = f"/citable/{i}"
        if not isinstance(entry, dict):
            out.append(failed(f"{ptr} must be an object, got {type_name(entry)}", ptr, "report"))
            continue
        if entry.get("status") != p.status:
            out.append(failed(f"{ptr}/status is {show(entry.get('status', MISSING))}, expected "
                              f"{show(p.status)} in the citable list", f"{ptr}/status", "report",
                              jsonable(entry.get("status")), p.status))
        named = [k for k in ("artifact", "external_artifact_manifest") if k in entry]
        if len(named) != 1:
            what = "neither" if not named else "both"
            out.append(failed(f"{ptr} names {what} of artifact / external_artifact_manifest (exactly one "
                              "is required)", ptr, "report", named, "exactly one"))
            continue
        key = named[0]
        info = loaded(ev, ptr)
        if info is None or info.get("error"):
            why = info.get("error") if info else "was not loaded"
            out.append(failed(f"{ptr}/{key} {show(entry[key])}: {why}", f"{ptr}/{key}", "report",
                              jsonable(entry[key]), "a readable JSON file inside the repository"))
            continue
        if key == "artifact":
            prof = entry.get("gate_profile", MISSING)
            if not isinstance(prof, str) or not prof:
                out.append(failed(f"{ptr}/gate_profile is {show(prof)}; a local artifact names the profile "
                                  "that gates it", f"{ptr}/gate_profile", "report", jsonable(prof), "a profile name"))
            elif prof not in profiles:
                out.append(failed(f"{ptr}/gate_profile: {profile_problem(prof, set(p.external_profiles), local=True)}",
                                  f"{ptr}/gate_profile", "report", prof, "a built-in profile"))
    if out:
        return out
    local = sum(1 for e in items if "artifact" in e)
    return [passed(f"{len(items)} citable entr{'y' if len(items) == 1 else 'ies'} ({local} local, "
                   f"{len(items) - local} external), each file read inside the repository", "/citable", "report")]


# --- ledger_gates ------------------------------------------------------------------------


@record
class GatesParams:
    __pydantic_config__ = FORBID


@kind("ledger_gates", GatesParams, "every citable local artifact passes its own gate")
def ledger_gates(ctx: Context, p: GatesParams) -> Iterable[Finding]:
    """Every citable local artifact passes its own ``gate_profile``, evaluated by the same engine
    as ``bench-gate ARTIFACT --profile P`` (with ``--require-accounting`` / ``--require-qa``
    when the entry sets ``accounting_required`` / ``qa_required``). Each failing artifact is one
    failure here, with its first failing rule and message and the ids of the others; the
    artifact's full verdict follows in the ledger verdict (its rules prefixed with the entry,
    ``citable/0/metrics-recompute``). No params.
    """
    ev = evidence(ctx)
    out: list[Finding] = []
    shown: list[str] = []
    for ptr, entry in citable_entries(ctx):
        if "artifact" not in entry or "external_artifact_manifest" in entry:
            continue
        info = loaded(ev, ptr)
        name = label(entry, ptr)
        if info is None or info.get("error"):
            out.append(failed(f"{name} cannot be gated: {info.get('error') if info else 'not loaded'}",
                              f"{ptr}/artifact", "report"))
            continue
        gate = info.get("gate") or {}
        if gate.get("error"):
            out.append(failed(f"{name} cannot be gated with {show(entry.get('gate_profile'))}: {gate['error']}",
                              f"{ptr}/gate_profile", "report"))
            continue
        flags = "".join(f" {f}" for f in gate.get("flags", []))
        if not gate.get("passed"):
            fails = gate.get("failed", [])
            head = f"{name} fails its gate {gate.get('profile')}{flags} ({gate.get('summary')})"
            if not fails:
                out.append(failed(head, f"{ptr}/artifact", "report"))
                continue
            first = fails[0]
            more = ""
            if len(fails) > 1:
                more = f"; also failing: {', '.join(f['rule'] for f in fails[1:])}"
            out.append(failed(f"{head}: {first['rule']}: {first['message']}{more}", first["pointer"],
                              first["document"], first.get("actual"), first.get("expected")))
            continue
        shown.append(f"{name} passes {gate.get('profile')}{flags} ({gate.get('summary')})")
    if out:
        return out
    if not shown:
        return [skipped("no citable local artifact to gate")]
    return [passed("; ".join(shown), "/citable", "report")]


# --- ledger_echo -------------------------------------------------------------------------


@record
class EchoField:
    __pydantic_config__ = FORBID
    entry: str
    artifact: str
    length: bool = False
    required: bool = False


@record
class EchoParams:
    __pydantic_config__ = FORBID
    fields: list[EchoField]
    source: str = "artifact"

    def __post_init__(self) -> None:
        if self.source not in ("artifact", "external"):
            raise ValueError("source must be artifact or external")


def diff(a: Any, b: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Every leaf where two JSON values differ: (relative pointer, a, b); MISSING for absent."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[tuple[str, Any, Any]] = []
        for key in list(a) + [k for k in b if k not in a]:
            out.extend(diff(a.get(key, MISSING), b.get(key, MISSING), join(path, key)))
        return out
    if a is MISSING and b is MISSING:
        return []
    if a is MISSING or b is MISSING or not same(a, b):
        return [(path, a, b)]
    return []


@kind("ledger_echo", EchoParams, "ledger entries echo their artifacts exactly")
def ledger_echo(ctx: Context, p: EchoParams) -> Iterable[Finding]:
    """The entry echoes its artifact exactly. ``fields`` lists ``{entry, artifact}`` pointer
    pairs; ``length: true`` compares with the length of the artifact's list (``case_results``
    is the number of cases); ``required: true`` fails when the entry lacks the field even if
    the artifact lacks it too. Objects are compared key by key and every differing leaf is a
    failure carrying both values. Params: ``fields``, ``source`` (``artifact`` for local
    artifacts, ``external`` for external artifact manifests). Example::

        check: ledger_echo
        with:
          fields:
            - {entry: /questions, artifact: /total_questions, required: true}
            - {entry: /case_results, artifact: /case_results, length: true, required: true}
    """
    ev = evidence(ctx)
    key = "artifact" if p.source == "artifact" else "external_artifact_manifest"
    out: list[Finding] = []
    checked = 0
    for ptr, entry in citable_entries(ctx):
        if key not in entry:
            continue
        info = loaded(ev, ptr)
        doc = loaded_doc(ev, info["role"]) if info and info.get("role") else None
        if doc is None or doc.error is not None or not isinstance(doc.data, dict):
            continue  # ledger_sources reports an unreadable file
        checked += 1
        name = label(entry, ptr)
        for spec in p.fields:
            mine = resolve(entry, spec.entry)
            theirs = resolve(doc.data, spec.artifact)
            what = spec.artifact
            if spec.length and theirs is not MISSING:
                if not isinstance(theirs, list):
                    out.append(failed(f"{name}: artifact {spec.artifact} must be a list, got {type_name(theirs)}",
                                      spec.artifact, doc.role))
                    continue
                theirs, what = len(theirs), f"len({spec.artifact})"
            eptr = ptr + spec.entry
            if mine is MISSING and theirs is MISSING:
                if spec.required:
                    out.append(failed(f"{name}: {spec.entry.lstrip('/')} is missing from the entry and "
                                      f"{spec.artifact} from the artifact", eptr, "report", None, "present"))
                continue
            if mine is MISSING and spec.required:
                out.append(failed(f"{name}: the entry lacks {spec.entry.lstrip('/')}; the artifact has "
                                  f"{what} = {show(theirs)}", eptr, "report", None, jsonable(theirs)))
                continue
            for sub, a, b in diff(mine, theirs):
                where = spec.entry + sub
                art = what + sub
                if a is MISSING:
                    msg = f"{name}: the entry lacks {where.lstrip('/')}; the artifact has {art} = {show(b)}"
                elif b is MISSING:
                    msg = f"{name}: the entry has {where.lstrip('/')} = {show(a)} but the artifact has no {art}"
                else:
                    msg = f"{name}: {where.lstrip('/')} drifted: ledger says {show(a)}, artifact {art} is {show(b)}"
                out.append(failed(msg, ptr + where, "report", None if a is MISSING else jsonable(a),
                                  None if b is MISSING else jsonable(b)))
    if out:
        return out
    if not checked:
        return [skipped(f"no citable entry with a readable {key.replace('_', ' ')}")]
    names = ", ".join(f.entry.lstrip("/") for f in p.fields)
    what = "artifact" if p.source == "artifact" else "external manifest"
    verb = f"entry echoes its {what}" if checked == 1 else f"entries echo their {what}s"
    return [passed(f"{checked} {verb} exactly: {names}", "/citable", "report")]
