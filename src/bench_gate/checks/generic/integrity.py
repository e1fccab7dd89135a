"""Integrity checks: recorded hashes, artifact tables, and values that must agree.

These kinds are not tied to one report format. They verify that what a report records about
its evidence is true of the files the gate actually loaded: a recorded SHA-256 is the file's
hash (an empty file proves nothing), the files an artifact table lists have its hashes and sizes, two
sources of the same facts agree field by field, and a value given on the command line never
silently overrides the evidence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from bench_gate.records import field, record
from bench_gate.checks.base import (
    described,
    kind,
    FORBID, MISSING, Context, Fail, failed, jsonable, lookup, need, passed, same, show, skipped,
    escape, split_ref, tokens, type_name,
)
from bench_gate.checks.generic.fields import EMPTY_SHA256
from bench_gate.text.digests import is_sha256_hex
from bench_gate.text.wording import listing, plural
from bench_gate.models import ARTIFACT_FILES, Finding, exact_number

Number = int | float


# --- messages -----------------------------------------------------------------------------


def dotted(pointer: str) -> str:
    """``/official_qa/correct_count`` -> ``official_qa.correct_count`` for messages."""
    return ".".join(tokens(pointer)) or "the document"


def ref_label(role: str, pointer: str) -> str:
    return dotted(pointer) if role == "report" else f"{role} {dotted(pointer)}"


def normalize_model(name: str, model_ids: Mapping[str, str]) -> str:
    """The full model id for a short name (unchanged when the table does not know it)."""
    return model_ids.get(name.strip(), name.strip())


# --- hashes ------------------------------------------------------------------------------


@record
class Sha256Params:
    __pydantic_config__ = FORBID
    document: str
    recorded: str
    label: str | None = None


def _short(digest: str) -> str:
    return digest[:12] + "…" if len(digest) > 12 else digest


def hash_problem(recorded: Any, actual: str, label: str, doc_label: str) -> str | None:
    """Why a recorded hash does not describe the file, or None."""
    if not isinstance(recorded, str):
        return f"{label} must be a 64-hex string, got {described(recorded)}"
    if not is_sha256_hex(recorded):
        return f"{label} {show(recorded, 80)} is not 64 lowercase hex characters"
    if actual == EMPTY_SHA256:
        # a matching digest of zero bytes proves only that the evidence is empty
        return f"{doc_label} is empty (0 bytes): there is no evidence to hash"
    if recorded != actual:
        return f"{label} {_short(recorded)} does not match {doc_label} (sha256 {_short(actual)})"
    return None


@kind("sha256_matches", Sha256Params, "a recorded sha256 equals the file's actual hash")
def sha256_matches(ctx: Context, p: Sha256Params) -> Iterable[Finding]:
    """The hash recorded at ``recorded`` is 64 lowercase hex and equals the SHA-256 of the bytes
    of ``document``; an empty document fails (a hash of no bytes proves nothing). Params: ``document``, ``recorded``, ``label``.
    """
    doc = ctx.doc(p.document)
    if not doc.sha256:
        raise Fail(f"document '{p.document}' ({doc.path}) has no hash", document=p.document)
    value, role, ptr = need(ctx, p.recorded)
    label = p.label or ref_label(role, ptr)
    doc_label = f"the {p.document} file {doc.path}"
    problem = hash_problem(value, doc.sha256, label, doc_label)
    if problem:
        return [failed(problem, ptr, role, jsonable(value), doc.sha256)]
    return [passed(f"{label} {_short(value)} matches {doc_label} ({doc.size} bytes)", ptr, role, value, doc.sha256)]


@record
class ArtifactParams:
    __pydantic_config__ = FORBID
    tables: list[str]
    roles: dict[str, str] = field(default_factory=dict)


def _entry_problems(ctx: Context, ref: str, name: str, item: Any, roles: dict[str, str],
                    where: str, role: str) -> tuple[list[Finding], str]:
    """(failures, one-line note) for one table entry."""
    label = f"{ref_label(*split_ref(ref))}.{name}"
    if not isinstance(item, dict):
        return [failed(f"{label} must be an object {{path, sha256, bytes?}}, got {type_name(item)}", where,
                       role)], ""
    if item.get("exists") is False:
        return [], f"{name} (not present when the audit ran)"
    written = item.get("path")
    if not isinstance(written, str) or not written.strip():
        return [failed(f"{label}.path must name a file, got {described(written)}", where + "/path",
                       role, jsonable(written), "a path")], ""
    hashed = ctx.documents.get(ARTIFACT_FILES)
    found = hashed.extra.get(f"{ref}/{name}") if hashed is not None else None
    if found is None or found.error is not None:
        reason = found.error if found is not None else "it was not looked up"
        return [failed(f"{label}: {show(written)} cannot be hashed: {reason}", where + "/path", role,
                       written, "a file under the evidence root")], ""
    out: list[Finding] = []
    problem = hash_problem(item.get("sha256", MISSING), found.sha256, f"{label}.sha256", f"the file {written}")
    if problem:
        out.append(failed(problem, where + "/sha256", role, jsonable(item.get("sha256")), found.sha256))
    size = item.get("bytes", MISSING)
    if size is not MISSING and (isinstance(size, bool) or not isinstance(size, int) or size != found.size):
        out.append(failed(f"{label}.bytes {show(size)} is not the file's {found.size} bytes", where + "/bytes",
                          role, jsonable(size), found.size))
    judged_role = roles.get(name)
    judged = ctx.documents.get(judged_role) if judged_role else None
    if not out and judged is not None and judged.error is None and judged.sha256 and judged.sha256 != found.sha256:
        out.append(failed(f"{label} ({written}, sha256 {_short(found.sha256)}) is not the {judged_role} file "
                          f"judged here ({judged.path}, sha256 {_short(judged.sha256)})", where + "/sha256", role,
                          found.sha256, judged.sha256))
    at = f" at {found.found}" if found.found else ""
    return out, f"{name}{at}"


@kind("artifact_hashes", ArtifactParams, "every listed artifact's path, hash and size")
def artifact_hashes(ctx: Context, p: ArtifactParams) -> Iterable[Finding]:
    """Every entry ``{path, sha256, bytes?}`` of every artifact table named in ``tables`` (refs such
    as ``/artifacts`` and ``audit:/artifacts``; an absent table is skipped) is the file it names:
    the file was found (the runner hashes them before the checks run, see
    :mod:`bench_gate.loaders.artifacts`), its SHA-256 equals ``sha256``
    (64 lowercase hex) and its size equals ``bytes`` when given. An audit entry with
    ``exists: false`` is reported, not hashed. When an entry's name is in ``roles`` (artifact
    name -> document role) and that document was judged, the recorded hash must also be that
    document's hash: a table may not vouch for a copy while another file is judged.
    """
    out: list[Finding] = []
    notes: list[str] = []
    given: list[str] = []
    for ref in p.tables:
        role, ptr = split_ref(ref)
        if role != "report" and role not in ctx.documents:
            continue
        table, role, ptr = lookup(ctx, ref)
        if table is MISSING or table is None:
            continue
        label = ref_label(role, ptr)
        if not isinstance(table, dict):
            out.append(failed(f"{label} must be an object of {{path, sha256, bytes?}} entries, got "
                              f"{type_name(table)}", ptr, role, None, "an object"))
            continue
        given.append(label)
        for name, item in table.items():
            problems, note = _entry_problems(ctx, ref, name, item, p.roles, f"{ptr}/{escape(name)}", role)
            out.extend(problems)
            if not problems and note:
                notes.append(note)
    if out:
        return out
    if not given:
        return [skipped(f"no artifact table is given ({', '.join(p.tables)})")]
    if not notes:
        return [skipped(f"{' and '.join(given)} list no artifacts")]
    return [passed(f"{plural(len(notes), 'listed artifact')} in {' and '.join(given)} match their files: "
                   f"{listing(notes, 12)}", "", "report", len(notes), len(notes))]


# --- cross_check -------------------------------------------------------------------------


@record
class CrossCheckParams:
    __pydantic_config__ = FORBID
    fields: dict[str, list[str]] = field(default_factory=dict)
    hashes: dict[str, list[str]] = field(default_factory=dict)
    tolerances: dict[str, Number] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)
    model_ids: dict[str, str] = field(default_factory=dict)
    label: str = "validator evidence"


def _blank(value: Any) -> bool:
    return value is MISSING or value is None or (isinstance(value, str) and not value.strip())


def _state(value: Any) -> str:
    if value is MISSING:
        return "missing"
    if value is None:
        return "null"
    if isinstance(value, str) and not value.strip():
        return "blank"
    return show(value)


def _compare(name: str, a: Any, b: Any, p: CrossCheckParams) -> bool:
    if name in p.tolerances:
        na, nb, tol = exact_number(a), exact_number(b), exact_number(p.tolerances[name])
        return na is not None and nb is not None and tol is not None and abs(na - nb) <= tol
    if name in p.models:
        return isinstance(a, str) and isinstance(b, str) and \
            normalize_model(a, p.model_ids) == normalize_model(b, p.model_ids)
    return same(a, b)


@kind("cross_check", CrossCheckParams, "pairs of values and recorded hashes agree; every mismatch listed")
def cross_check(ctx: Context, p: CrossCheckParams) -> Iterable[Finding]:
    """Every pair of values agrees (``fields``: name -> [left ref, right ref]), with absolute
    ``tolerances`` by name, evaluator ``models`` compared through ``model_ids``; every recorded
    hash in ``hashes`` (name -> [ref, role]) equals the actual file hash. Every mismatch is
    listed. Params: ``fields``, ``hashes``, ``tolerances``, ``models``, ``model_ids``,
    ``label`` (default ``validator evidence``).
    """
    problems: list[Finding] = []
    short: list[str] = []
    for name, pair in p.fields.items():
        if len(pair) != 2:
            raise Fail(f"cross_check field {name!r} needs [left ref, right ref], got {len(pair)} refs")
        (a, arole, aptr), (b, brole, bptr) = lookup(ctx, pair[0]), lookup(ctx, pair[1])
        if _blank(a) or _blank(b) or not _compare(name, a, b, p):
            tol = f" (tolerance {show(p.tolerances[name])})" if name in p.tolerances else ""
            problems.append(failed(f"{name}: {ref_label(arole, aptr)} is {_state(a)} but "
                                   f"{ref_label(brole, bptr)} is {_state(b)}{tol}", aptr, arole,
                                   jsonable(a), jsonable(b)))
            short.append(f"{name} {_state(a)} vs {_state(b)}")
    for name, pair in p.hashes.items():
        if len(pair) != 2:
            raise Fail(f"cross_check hash {name!r} needs [ref, document role], got {len(pair)} items")
        value, role, ptr = lookup(ctx, pair[0])
        label = ref_label(role, ptr)
        try:
            doc = ctx.doc(pair[1])
        except Fail as exc:
            problems.append(failed(f"{name}: cannot check {label}: {exc.finding.message}", ptr, role))
            short.append(f"{name} unverifiable")
            continue
        problem = hash_problem(value if value is not MISSING else None, doc.sha256, label,
                               f"the {pair[1]} file {doc.path}")
        if problem:
            problems.append(failed(f"{name}: {problem}", ptr, role, jsonable(value), doc.sha256))
            short.append(f"{name} {_short(value) if isinstance(value, str) and value.strip() else _state(value)} vs "
                         f"{_short(doc.sha256)}")
    total = len(p.fields) + len(p.hashes)
    if problems:
        head = failed(f"{len(problems)} of {total} {p.label} checks disagree with the report and the files: "
                      f"{'; '.join(short)}", problems[0].pointer, problems[0].document, len(problems), 0)
        return [head] + problems
    return [passed(f"all {total} {p.label} checks agree with the report and the files "
                   f"({len(p.fields)} fields, {len(p.hashes)} file hashes)", "", "report",
                   sorted([*p.fields, *p.hashes]), "equal")]


# --- objects_agree -----------------------------------------------------------------------


@record
class ObjectsAgreeParams:
    __pydantic_config__ = FORBID
    left: str
    right: str
    when_left_absent: Literal["skip", "fail"] = "skip"
    ignore: list[str] = field(default_factory=list)


@kind("objects_agree", ObjectsAgreeParams, "two objects hold the same fields")
def objects_agree(ctx: Context, p: ObjectsAgreeParams) -> Iterable[Finding]:
    """Two objects (``left``, ``right``: e.g. the report's embedded ``/sota_baseline`` and the
    ``baseline:`` file) hold the same keys and values; every difference is listed. A null or
    absent ``left`` is skipped (``when_left_absent: fail`` to require it).
    """
    a, arole, aptr = lookup(ctx, p.left)
    alabel = ref_label(arole, aptr)
    if a is MISSING or a is None:
        if p.when_left_absent == "skip":
            return [skipped(f"{alabel} is {'missing' if a is MISSING else 'null'}; nothing to compare", aptr, arole)]
        raise Fail(f"{alabel} is {'missing' if a is MISSING else 'null'}", aptr, arole, None, "an object")
    b, brole, bptr = need(ctx, p.right)
    blabel = f"the {brole} file" if brole != "report" and bptr == "" else ref_label(brole, bptr)
    for value, label, role, ptr in ((a, alabel, arole, aptr), (b, blabel, brole, bptr)):
        if not isinstance(value, dict):
            raise Fail(f"{label} must be an object, got {type_name(value)}", ptr, role, None, "an object")
    out: list[Finding] = []
    for key in sorted(set(a) | set(b)):
        if key in p.ignore:
            continue
        va, vb = a.get(key, MISSING), b.get(key, MISSING)
        if va is MISSING or vb is MISSING or not same(va, vb):
            ptr = f"{aptr}/{key.replace('~', '~0').replace('/', '~1')}"
            out.append(failed(f"{key}: {alabel} has {_state(va)} but {blabel} has {_state(vb)}", ptr, arole,
                              jsonable(va), jsonable(vb)))
    if out:
        head = failed(f"{alabel} and {blabel} differ in {plural(len(out), 'field')}: "
                      f"{listing([o.message.split(':')[0] for o in out])}", out[0].pointer, arole, len(out), 0)
        return [head] + out
    return [passed(f"{alabel} and {blabel} agree on all {plural(len(set(a) | set(b)), 'field')}", aptr, arole)]


# --- cli_conflicts -----------------------------------------------------------------------


@record
class CliConflictsParams:
    __pydantic_config__ = FORBID
    given: dict[str, str | None]
    against: dict[str, list[str]]


@kind("cli_conflicts", CliConflictsParams, "command-line values do not conflict with non-blank evidence values")
def cli_conflicts(ctx: Context, p: CliConflictsParams) -> Iterable[Finding]:
    """Values given on the command line (``given``: option -> value or null) do not conflict with
    non-blank values at the refs of ``against`` (option -> refs); a conflict is rejected, never
    silently preferred.
    """
    out: list[Finding] = []
    compared = 0
    supplied = [opt for opt, v in p.given.items() if isinstance(v, str) and v.strip()]
    for option in supplied:
        value = p.given[option]
        assert value is not None
        refs = p.against.get(option)
        if refs is None:
            raise Fail(f"cli_conflicts has no refs to compare {option} with")
        for ref in refs:
            role, _ = split_ref(ref)
            if role != "report" and role not in ctx.documents:
                continue
            other, orole, optr = lookup(ctx, ref)
            if not isinstance(other, str) or not other.strip():
                continue
            compared += 1
            if other.strip() != value.strip():
                out.append(failed(f"{option} {show(value)} conflicts with {ref_label(orole, optr)} {show(other)}; "
                                  "a command-line value never overrides the evidence", optr, orole, value, other))
    if out:
        return out
    if not supplied:
        return [passed("no validator fields were given on the command line; nothing can conflict")]
    verb = "agrees" if len(supplied) == 1 else "agree"
    return [passed(f"{plural(len(supplied), 'command-line value')} ({', '.join(supplied)}) {verb} with "
                   f"{plural(compared, 'non-blank evidence value')}")]
