"""Paired normal/oracle memory evidence (profile ``memory-pair``) and AEF evidence seals.

A memory benchmark run twice over one selected workload leaves two AEF run folders: the
**normal** arm (the system's own memory, which carries the gate) and a gold-only **oracle** arm
(a diagnostic: how much of the gap is retrieval). Both summaries carry the pair record
``ext["agenteval.memoryPair"]`` (schema ``1.0``). Every kind here reads run-folder documents
(format ``runfolder``); the arms are named by document role (defaults: ``normal: report``,
``oracle: oracle``). Accuracies in the record are percentages (0-100), never fractions. No kind
ever computes or prints a combined score of the two arms.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from bench_gate.aef import seal as sealmod
from bench_gate.aef import signatures
from bench_gate.loaders import strictjson
from bench_gate.checks.base import (
    described,
    kind,
    FORBID, MISSING, Context, Fail, as_count, as_number, failed, jsonable, passed,
    show, show_fraction, type_name,
)
from bench_gate.checks.generic.fields import placeholder_digest
from bench_gate.text import rounding
from bench_gate.text.canonical import skeleton
from bench_gate.text.digests import is_sha256_hex, is_sha256_uri
from bench_gate.text.wording import plural
from bench_gate.models import Doc, Finding, WrittenFloat

PAIR_KEY = "agenteval.memoryPair"
RECORD = "/ext/agenteval.memoryPair"
COMMON_FIELDS = (
    "schemaVersion", "pairId", "role", "sourceInputsDigest", "plannedQuestions",
    "observedQuestions", "scoredQuestions", "totalLlmCalls", "complete", "diagnosticOnly",
    "accuracyPercent",
)
ORACLE_FIELDS = ("normalRunHash", "oracleGapPercentagePoints")
VERDICTS = ("passed", "failed", "warn", "inconclusive", "not_measured", "scored")
BLOCKING = ("failed", "inconclusive")



# --- reading an arm ----------------------------------------------------------------------


@dataclass(frozen=True)
class Arm:
    """A run-folder document seen as one arm of the pair."""

    role: str
    name: str
    doc: Doc
    files: Mapping[str, bytes]
    problems: tuple[Mapping[str, Any], ...]

    @property
    def label(self) -> str:
        return f"{self.name} arm"

    @property
    def summary(self) -> Any:
        return self.doc.data


def arm(ctx: Context, role: str, name: str) -> Arm:
    """The run folder with this document role; Fail when absent, unreadable or not a folder."""
    doc = ctx.doc(role)
    files = doc.extra.get("files") if isinstance(doc.extra, Mapping) else None
    if not isinstance(files, Mapping):
        raise Fail(f"document '{role}' ({doc.path}) is not a run folder: declare it with format runfolder",
                   document=role)
    problems = tuple(doc.extra.get("problems", ()))
    return Arm(role, name, doc, files, problems)


def optional_arm(ctx: Context, role: str, name: str) -> Arm | None:
    """The arm, or None when the document was not supplied at all."""
    if ctx.documents.get(role) is None:
        return None
    return arm(ctx, role, name)


_SEALS: dict[int, tuple[Mapping[str, bytes], sealmod.SealReport]] = {}


def seal_of(a: Arm) -> sealmod.SealReport:
    """The seal verification of an arm (memoised per loaded folder: several rules read it)."""
    key = id(a.files)
    hit = _SEALS.get(key)
    if hit is not None and hit[0] is a.files:
        return hit[1]
    report = sealmod.verify(a.files, a.problems)
    if len(_SEALS) > 16:
        _SEALS.clear()
    _SEALS[key] = (a.files, report)
    return report


def run_header(a: Arm) -> dict[str, Any]:
    """run.json as a JSON object; Fail with the reason otherwise."""
    raw = a.files.get("run.json")
    if raw is None:
        raise Fail(f"{a.label} ({a.doc.path}) has no run.json", "", a.role, None, "run.json")
    try:
        data = strictjson.loads(raw)
    except strictjson.JsonError as exc:
        raise Fail(f"{a.label} run.json {exc}", "", a.role) from None
    if not isinstance(data, dict):
        raise Fail(f"{a.label} run.json is not a JSON object", "", a.role)
    return data


def run_status(a: Arm) -> str:
    status = run_header(a).get("status")
    if status not in sealmod.RUN_STATUSES:
        raise Fail(f"{a.label} run.json status is {show(status)}, not running, completed or aborted",
                   "", a.role, jsonable(status), list(sealmod.RUN_STATUSES))
    return str(status)


def record(a: Arm) -> dict[str, Any]:
    """The pair record of an arm; Fail when it is absent or not an object."""
    summary = a.summary
    ext = summary.get("ext") if isinstance(summary, dict) else None
    rec = ext.get(PAIR_KEY) if isinstance(ext, dict) else None
    if rec is None:
        raise Fail(f"{a.label} summary.json has no pair record ext[\"{PAIR_KEY}\"]", RECORD, a.role,
                   None, "a pair record")
    if not isinstance(rec, dict):
        raise Fail(f"{a.label} pair record is {type_name(rec)}, not an object", RECORD, a.role,
                   jsonable(rec), "an object")
    return rec


def _ptr(name: str) -> str:
    return f"{RECORD}/{name}"


def field_value(a: Arm, rec: Mapping[str, Any], name: str) -> Any:
    """A record field that must be present (it may be null)."""
    if name not in rec:
        raise Fail(f"{a.label} pair record has no {name}", _ptr(name), a.role, None, "present")
    return rec[name]


def count_field(a: Arm, rec: Mapping[str, Any], name: str, nullable: bool = False) -> int | None:
    value = field_value(a, rec, name)
    if value is None:
        if nullable:
            return None
        raise Fail(f"{a.label} {name} is null", _ptr(name), a.role, None, "an integer")
    number = as_count(value, f"{a.label} {name}", _ptr(name), a.role)
    if number < 0:
        raise Fail(f"{a.label} {name} is {number}, below 0", _ptr(name), a.role, number, ">= 0")
    return number


def bool_field(a: Arm, rec: Mapping[str, Any], name: str) -> bool:
    value = field_value(a, rec, name)
    if not isinstance(value, bool):
        raise Fail(f"{a.label} {name} must be true or false, got {described(value)}",
                   _ptr(name), a.role, jsonable(value), "a boolean")
    return value


def number_field(a: Arm, rec: Mapping[str, Any], name: str) -> Fraction | None:
    value = field_value(a, rec, name)
    if value is None:
        return None
    return as_number(value, f"{a.label} {name}", _ptr(name), a.role)


def string_field(a: Arm, rec: Mapping[str, Any], name: str) -> str:
    value = field_value(a, rec, name)
    if not isinstance(value, str) or value == "":
        raise Fail(f"{a.label} {name} must be a non-empty string, got {described(value)}",
                   _ptr(name), a.role, jsonable(value), "a non-empty string")
    return value


def short_digest(value: Any) -> str:
    """``sha256:`` and the first 12 hex characters (the full value is in actual/expected)."""
    text = str(value)
    return text[:19] + "…" if len(text) > 19 else text


def raw_value(value: Any) -> Any:
    """A record value as written, for actual/expected (a literal that is not a double: its text)."""
    return value.literal if isinstance(value, WrittenFloat) else value


def _keys(pems: Iterable[str]) -> tuple[signatures.TrustedKey, ...]:
    try:
        return signatures.load_trusted_keys([(f"trusted_keys[{i}]", pem.encode("utf-8"))
                                             for i, pem in enumerate(pems)])
    except signatures.SignatureSetupError as exc:
        raise Fail(str(exc), document="report") from None


# --- aef_seal ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Run(Arm):
    @property
    def label(self) -> str:
        return self.name


@dataclass(frozen=True)
class SealParams:
    __pydantic_config__ = FORBID
    arm: str = "report"
    require_sealed: bool = False
    trusted_keys: list[str] = field(default_factory=list)


def _seal_findings(a: Arm, report: sealmod.SealReport, prefix: str = "") -> list[Finding]:
    prefix = prefix or f"{a.label} seal is invalid"
    return [failed(f"{prefix}: {p.message}", "", a.role,
                   p.actual if p.actual is not None else p.path, p.expected if p.expected is not None else p.code)
            for p in report.problems]


def _signature(a: Arm, keys: tuple[signatures.TrustedKey, ...]) -> tuple[str, Finding | None]:
    """(' (signed by KEYID)' or '', a failing finding or None)."""
    envelope = a.files.get(sealmod.ATTESTATION_FILE)
    if not keys:
        # an intact seal proves consistency, not origin: never call it signed unless verified
        return (" (unsigned)" if envelope is None else " (its signature is not checked: no trusted key given)"), None
    if envelope is None:
        return "", failed(f"{a.label} has no attestation.dsse.json, but a signature by a trusted key is required",
                          "", a.role, None, "a DSSE signature by a trusted key")
    result = signatures.verify_envelope(envelope, a.files[sealmod.SEAL_FILE], keys)
    if result.status != "verified":
        return "", failed(f"{a.label} signature is not verified: {result.message}", "", a.role,
                          result.status, "verified")
    return f" (signed by {result.verified_keyids[0]})", None


@kind("aef_seal", SealParams, "An AEF run folder's seal is intact (or explicitly unsealed), optionally signed by a trusted key")
def aef_seal(ctx: Context, p: SealParams) -> Iterable[Finding]:
    """One run folder's seal: ``intact``, ``unsealed`` or ``invalid`` with every problem
    (``digest``, ``missing``, ``not-sealed``, ``run-hash``, ``run-id``, ``run-open``, ``path``,
    ``seal-invalid``...; see :mod:`bench_gate.aef.seal`). Params: ``arm`` (role, default
    ``report``), ``require_sealed`` (default false: unsealed passes as "unsealed"),
    ``trusted_keys`` (PEM public keys; when given, ``attestation.dsse.json`` must carry a valid
    signature by one of them).

    .. code-block:: yaml

       - id: run-seal
         check: aef_seal
         with: {arm: report, require_sealed: true}
    """
    found = arm(ctx, p.arm, p.arm)
    # Arm.label is "<name> arm"; a single run is simply "the run" (or "the <role> run").
    a = _Run(found.role, "the run" if p.arm == "report" else f"the {p.arm} run", found.doc, found.files,
             found.problems)
    report = seal_of(a)
    if report.outcome == "invalid":
        return _seal_findings(a, report, "seal invalid")
    if report.outcome == "unsealed":
        if p.require_sealed or p.trusted_keys:
            return [failed(f"{a.label} is unsealed (no seal.json), but sealed evidence is required",
                           "", a.role, "unsealed", "intact")]
        return [passed(f"{a.label} is unsealed (no seal.json; sealing not required): run hash "
                       f"{report.run_hash} over {report.sealed_files} files", "", a.role, "unsealed", "intact or unsealed")]
    signed, bad = _signature(a, _keys(p.trusted_keys))
    if bad is not None:
        return [bad]
    return [passed(f"seal intact{signed}: runHash {report.run_hash} over {report.sealed_files} sealed files",
                   "", a.role, report.run_hash, report.run_hash)]


# --- pair_arm (rule 1) -------------------------------------------------------------------


@dataclass(frozen=True)
class ArmParams:
    __pydantic_config__ = FORBID
    arm: str
    role: Literal["normal", "oracle"]


@kind("pair_arm", ArmParams, "A memory-pair arm is a readable run folder with a well-formed pair record of the expected role")
def pair_arm(ctx: Context, p: ArmParams) -> Iterable[Finding]:
    """Rule 1. The arm is a readable run folder; ``run.json`` and ``summary.json`` agree on
    ``runId``; the pair record is present with schema ``1.0``, exactly the record's fields (no
    question text or anything else), correct types (counts are integers, not booleans) and the
    expected ``role``. Params: ``arm`` (role), ``role`` (``normal`` | ``oracle``).
    """
    a = arm(ctx, p.arm, p.role)
    header = run_header(a)
    run_id = header.get("runId")
    if not isinstance(run_id, str) or not run_id:
        raise Fail(f"{a.label} run.json has no string runId", "", a.role, jsonable(run_id), "a string")
    summary_id = a.summary.get("runId") if isinstance(a.summary, dict) else None
    if summary_id != run_id:
        raise Fail(f"{a.label} summary.json runId {show(summary_id)} is not run.json runId {show(run_id)}",
                   "/runId", a.role, jsonable(summary_id), run_id)
    rec = record(a)
    findings: list[Finding] = []
    allowed = COMMON_FIELDS + ORACLE_FIELDS
    extra = sorted(k for k in rec if k not in allowed)
    if extra:
        findings.append(failed(
            f"{a.label} pair record carries fields outside its schema: {', '.join(extra)} (a pair record holds "
            "identifiers, digests and counts only: no questions, answers or retrieved text)",
            _ptr(extra[0]), a.role, extra, list(allowed)))
    required = COMMON_FIELDS + (ORACLE_FIELDS if p.role == "oracle" else ())
    missing = [k for k in required if k not in rec]
    if missing:
        findings.append(failed(f"{a.label} pair record lacks {', '.join(missing)}", _ptr(missing[0]), a.role,
                               None, missing))
    for check in _FIELD_CHECKS:
        try:
            check(a, rec, p.role)
        except Fail as exc:
            if exc.finding.message not in {f.message for f in findings}:
                findings.append(exc.finding)
    if findings:
        return findings
    return [passed(f"{a.label} {a.doc.path}: run {run_id} ({header.get('status')}), pair record 1.0 "
                   f"for pair {rec['pairId']!r} with role {p.role}", RECORD, a.role)]


def _check_schema(a: Arm, rec: Mapping[str, Any], role: str) -> None:
    if "schemaVersion" in rec and rec["schemaVersion"] != "1.0":
        raise Fail(f"{a.label} pair record schemaVersion is {show(rec['schemaVersion'])}, not \"1.0\"",
                   _ptr("schemaVersion"), a.role, jsonable(rec["schemaVersion"]), "1.0")


def _check_role(a: Arm, rec: Mapping[str, Any], role: str) -> None:
    if "role" in rec and rec["role"] != role:
        raise Fail(f"{a.label} pair record role is {show(rec['role'])}, expected {role!r}",
                   _ptr("role"), a.role, jsonable(rec["role"]), role)


PLACEHOLDER_IDS = ("tbd", "todo", "tba", "na", "none", "null", "nil", "unknown", "placeholder", "pair", "pairid",
                   "id", "test", "example", "sample", "dummy", "fixme", "changeme")
"""Pair ids that name no execution (compared on letters and digits, so ``N/A`` is ``na``)."""


def placeholder_id(value: str) -> bool:
    """A pair id that names no execution: a placeholder word, no letter or digit at all (``-``,
    ``???``), or one repeated character (``0000``, ``xxxx``)."""
    key = skeleton(value)
    return not key or key in {skeleton(word) for word in PLACEHOLDER_IDS} or len(set(key)) == 1


def _check_ids(a: Arm, rec: Mapping[str, Any], role: str) -> None:
    if "pairId" in rec:
        pair_id = string_field(a, rec, "pairId")
        if placeholder_id(pair_id):
            raise Fail(f"{a.label} pairId {show(pair_id)} is a placeholder, not an identifier: the pair link rests "
                       "on a pairId unique to this execution", _ptr("pairId"), a.role, pair_id,
                       "a pair id unique to the execution")


def _check_source(a: Arm, rec: Mapping[str, Any], role: str) -> None:
    if "sourceInputsDigest" in rec:
        digest = rec["sourceInputsDigest"]
        if not is_sha256_uri(digest):
            raise Fail(f"{a.label} sourceInputsDigest {show(digest)} is not sha256:<64 lowercase hex>",
                       _ptr("sourceInputsDigest"), a.role, jsonable(digest), "sha256:<64 hex>")
        why = placeholder_digest(digest)
        if why:
            raise Fail(f"{a.label} sourceInputsDigest {digest} is {why}, not the digest of a selected workload",
                       _ptr("sourceInputsDigest"), a.role, digest, "the SHA-256 of the selected source workload")


def _check_counts(a: Arm, rec: Mapping[str, Any], role: str) -> None:
    for name in ("plannedQuestions", "observedQuestions"):
        if name in rec:
            count_field(a, rec, name)
    for name in ("scoredQuestions", "totalLlmCalls"):
        if name in rec:
            count_field(a, rec, name, nullable=True)


def _check_flags(a: Arm, rec: Mapping[str, Any], role: str) -> None:
    for name in ("complete", "diagnosticOnly"):
        if name in rec:
            bool_field(a, rec, name)


def _check_numbers(a: Arm, rec: Mapping[str, Any], role: str) -> None:
    for name in ("accuracyPercent", "oracleGapPercentagePoints"):
        if name in rec:
            number_field(a, rec, name)
    if "normalRunHash" in rec:
        value = rec["normalRunHash"]
        if value is not None and not is_sha256_hex(value):
            raise Fail(f"{a.label} normalRunHash {show(value)} is not 64 lowercase hex characters or null",
                       _ptr("normalRunHash"), a.role, jsonable(value), "64 hex or null")


_FIELD_CHECKS = (_check_schema, _check_role, _check_ids, _check_source, _check_counts, _check_flags, _check_numbers)


# --- pair kinds over both arms -----------------------------------------------------------


@dataclass(frozen=True)
class PairParams:
    __pydantic_config__ = FORBID
    normal: str = "report"
    oracle: str = "oracle"


@dataclass(frozen=True)
class PairSealParams:
    __pydantic_config__ = FORBID
    normal: str = "report"
    oracle: str = "oracle"
    require_sealed: bool = False
    trusted_keys: list[str] = field(default_factory=list)


@kind("pair_seal", PairSealParams, "Both arms are sealed intact, or both explicitly unsealed")
def pair_seal(ctx: Context, p: PairSealParams) -> Iterable[Finding]:
    """Rule 2. Both arms intact, or both explicitly unsealed; a mixed pair or an invalid arm fails
    with the seal problems listed. ``require_sealed`` fails unsealed pairs; ``trusted_keys``
    requires a valid signature on each arm. With no oracle arm the normal arm is checked alone.
    Params: ``normal``, ``oracle``, ``require_sealed`` (false), ``trusted_keys`` ([]).
    """
    normal = arm(ctx, p.normal, "normal")
    oracle = optional_arm(ctx, p.oracle, "oracle")
    arms = [normal] + ([oracle] if oracle is not None else [])
    reports = {a.name: seal_of(a) for a in arms}
    invalid = [f for a in arms for f in _seal_findings(a, reports[a.name])]
    if invalid:
        return invalid
    keys = _keys(p.trusted_keys)
    outcomes = {name: r.outcome for name, r in reports.items()}
    if oracle is not None and outcomes["normal"] != outcomes["oracle"]:
        sealed, unsealed = ("normal", "oracle") if outcomes["normal"] == "intact" else ("oracle", "normal")
        return [failed(f"the {sealed} arm is sealed (intact) but the {unsealed} arm is unsealed: both arms are "
                       "sealed, or both explicitly unsealed", "", p.normal if unsealed == "normal" else p.oracle,
                       outcomes, "both intact or both unsealed")]
    if outcomes["normal"] == "unsealed":
        which = "both arms are" if oracle is not None else "the normal arm is"
        if p.require_sealed or keys:
            why = "a signature by a trusted key is required" if keys else "sealed evidence is required"
            return [failed(f"{which} unsealed (no seal.json), but {why}", "", p.normal, outcomes, "intact")]
        alone = "" if oracle is not None else "; no oracle arm"
        return [passed(f"{which} explicitly unsealed (no seal.json); sealing not required{alone}", "", p.normal,
                       outcomes, "both intact or both unsealed")]
    signed: dict[str, str] = {}
    bad: list[Finding] = []
    for a in arms:
        signed[a.name], finding = _signature(a, keys)
        if finding is not None:
            bad.append(finding)
    if bad:
        return bad
    hashes = {name: r.run_hash for name, r in reports.items()}
    parts = [f"{name} runHash {hashes[name]}{signed[name]}" for name in hashes]
    if oracle is None:
        return [passed(f"the normal arm seal is intact: {parts[0]}; no oracle arm", "", p.normal, hashes)]
    return [passed(f"both arms sealed intact: {'; '.join(parts)}", "", p.normal, hashes)]


@kind("pair_link", PairParams, "The oracle links to the normal run hash, pair id, source digest and roster size")
def pair_link(ctx: Context, p: PairParams) -> Iterable[Finding]:
    """Rule 3. The oracle's ``normalRunHash`` is the normal arm's recomputed run hash (null when
    both are explicitly unsealed); ``pairId``, ``sourceInputsDigest`` and ``plannedQuestions``
    are equal in both; the normal record carries no ``normalRunHash`` or
    ``oracleGapPercentagePoints`` (absent or null). Params: ``normal``, ``oracle``.
    """
    normal = arm(ctx, p.normal, "normal")
    oracle = arm(ctx, p.oracle, "oracle")
    nrec, orec = record(normal), record(oracle)
    findings: list[Finding] = []
    report = seal_of(normal)
    expected = report.run_hash if sealmod.SEAL_FILE in normal.files else None
    link = field_value(oracle, orec, "normalRunHash")
    if link != expected:
        if expected is None:
            msg = (f"oracle normalRunHash is {sealmod.short(str(link))} but the normal arm is unsealed: with explicitly "
                   "unsealed evidence the link is null")
        elif link is None:
            msg = f"oracle normalRunHash is null but the normal arm is sealed with run hash {expected}"
        else:
            msg = (f"oracle normalRunHash {sealmod.short(str(link))} is not the normal arm's run hash "
                   f"{sealmod.short(expected)}: the oracle points at another normal run")
        findings.append(failed(msg, _ptr("normalRunHash"), oracle.role, jsonable(link), expected))
    for name, what in (("pairId", "the arms belong to different executions"),
                       ("sourceInputsDigest", "the arms ran different source workloads"),
                       ("plannedQuestions", "the arms do not share one selected roster")):
        nv, ov = field_value(normal, nrec, name), field_value(oracle, orec, name)
        if name == "plannedQuestions":
            nv = count_field(normal, nrec, name)
            ov = count_field(oracle, orec, name)
        if nv != ov or type(nv) is not type(ov):
            shown = (short_digest(nv), short_digest(ov)) if name == "sourceInputsDigest" else (show(nv), show(ov))
            findings.append(failed(f"{name} differs: normal {shown[0]}, oracle {shown[1]}: {what}",
                                   _ptr(name), oracle.role, jsonable(ov), jsonable(nv)))
    for name in ORACLE_FIELDS:
        if nrec.get(name) is not None:
            findings.append(failed(
                f"the normal pair record carries {name} {show(raw_value(nrec[name]), 20)}: only the oracle links back "
                "to the normal (absent or null in the normal)", _ptr(name), normal.role,
                jsonable(raw_value(nrec[name])), None))
    if findings:
        return findings
    hash_text = "null (both explicitly unsealed)" if link is None else str(link)
    return [passed(f"the oracle links to the normal arm: normalRunHash {hash_text}, pairId {nrec['pairId']!r}, "
                   f"sourceInputsDigest {short_digest(nrec['sourceInputsDigest'])}, "
                   f"{nrec['plannedQuestions']} planned questions in both", _ptr("normalRunHash"), oracle.role,
                   jsonable(link), expected)]


@kind("pair_roles", PairParams, "The normal arm is gated and the oracle is diagnostic-only")
def pair_roles(ctx: Context, p: PairParams) -> Iterable[Finding]:
    """Rule 4. Normal ``diagnosticOnly`` is false; oracle ``diagnosticOnly`` is true."""
    normal = arm(ctx, p.normal, "normal")
    oracle = arm(ctx, p.oracle, "oracle")
    findings: list[Finding] = []
    for a, want, why in ((normal, False, "the normal arm carries the gate and is never diagnostic-only"),
                         (oracle, True, "the oracle is a diagnostic and is marked diagnosticOnly true")):
        rec = record(a)
        value = rec.get("diagnosticOnly", MISSING)
        if value is not want:
            findings.append(failed(f"{a.label} diagnosticOnly is {show(value)}, expected {str(want).lower()}: {why}",
                                   _ptr("diagnosticOnly"), a.role, jsonable(value), want))
    if findings:
        return findings
    return [passed("normal diagnosticOnly false (it carries the gate); oracle diagnosticOnly true (diagnostic)",
                   _ptr("diagnosticOnly"), oracle.role, True, True)]


@dataclass(frozen=True)
class CountsParams:
    __pydantic_config__ = FORBID
    arm: str


@kind("pair_counts", CountsParams, "An arm's question counts, scores and run status are consistent with its completion")
def pair_counts(ctx: Context, p: CountsParams) -> Iterable[Finding]:
    """Rule 5, for one arm. ``observedQuestions`` <= ``plannedQuestions``; ``scoredQuestions`` <=
    ``observedQuestions``; a completed arm has non-null scored questions, LLM calls and accuracy
    in [0, 100] and a ``completed`` run; an interrupted arm (``complete`` false) has null scored
    questions, LLM calls and accuracy and an ``aborted`` run. Params: ``arm``.
    """
    doc_arm = arm(ctx, p.arm, p.arm)
    rec = record(doc_arm)
    role = rec.get("role")
    a = Arm(doc_arm.role, role if role in ("normal", "oracle") else p.arm, doc_arm.doc, doc_arm.files,
            doc_arm.problems)
    planned = count_field(a, rec, "plannedQuestions")
    observed = count_field(a, rec, "observedQuestions")
    assert planned is not None and observed is not None
    complete = bool_field(a, rec, "complete")
    status = run_status(a)
    findings: list[Finding] = []
    if observed > planned:
        findings.append(failed(f"{a.label} observedQuestions {observed} exceeds plannedQuestions {planned}",
                               _ptr("observedQuestions"), a.role, observed, f"<= {planned}"))
    scored_raw = field_value(a, rec, "scoredQuestions")
    calls_raw = field_value(a, rec, "totalLlmCalls")
    accuracy_raw = field_value(a, rec, "accuracyPercent")
    if complete:
        scored = count_field(a, rec, "scoredQuestions", nullable=True)
        calls = count_field(a, rec, "totalLlmCalls", nullable=True)
        accuracy = number_field(a, rec, "accuracyPercent")
        for name, value in (("scoredQuestions", scored), ("totalLlmCalls", calls), ("accuracyPercent", accuracy)):
            if value is None:
                findings.append(failed(f"{a.label} completed but {name} is null: a completed arm reports it",
                                       _ptr(name), a.role, None, "a value"))
        if scored is not None and scored > observed:
            findings.append(failed(f"{a.label} scoredQuestions {scored} exceeds observedQuestions {observed}",
                                   _ptr("scoredQuestions"), a.role, scored, f"<= {observed}"))
        if accuracy is not None and not 0 <= accuracy <= 100:
            findings.append(failed(f"{a.label} accuracyPercent {show(raw_value(accuracy_raw))} is outside [0, 100] "
                                   "(a percentage)", _ptr("accuracyPercent"), a.role,
                                   jsonable(raw_value(accuracy_raw)), "0 to 100"))
        if status != "completed":
            findings.append(failed(f"{a.label} is complete but its run.json status is {status!r} (expected completed)",
                                   "", a.role, status, "completed"))
        if findings:
            return findings
        return [passed(f"{a.label} completed: {observed} of {planned} planned questions observed, {scored} scored, "
                       f"{calls} LLM calls, accuracy {show(raw_value(accuracy_raw))}%", RECORD, a.role)]
    for name, value in (("scoredQuestions", scored_raw), ("totalLlmCalls", calls_raw),
                        ("accuracyPercent", accuracy_raw)):
        if value is not None:
            findings.append(failed(f"{a.label} is interrupted (complete false) but {name} is {show(raw_value(value))}: "
                                   "an interrupted arm has null scoredQuestions, totalLlmCalls and accuracyPercent",
                                   _ptr(name), a.role, jsonable(raw_value(value)), None))
    if status != "aborted":
        findings.append(failed(f"{a.label} is interrupted (complete false) but its run.json status is {status!r} "
                               "(expected aborted)", "", a.role, status, "aborted"))
    if findings:
        return findings
    return [passed(f"{a.label} interrupted (run aborted): {observed} of {planned} planned questions observed; "
                   "scores, calls and accuracy null as required", RECORD, a.role)]


def gap_stated(gap_raw: Any, normal_raw: Any, oracle_raw: Any, normal: Fraction, oracle: Fraction) -> rounding.Judgement | None:
    """How the written gap states oracle - normal: the rule of :mod:`bench_gate.text.rounding`
    (exact, its double, or rounded to the decimals written, at least 1; a gap of 0 is never
    reached by rounding). The double a producer computing in binary gets is the difference of
    the two written doubles."""
    computed = None
    try:
        computed = Fraction(float(oracle_raw)) - Fraction(float(normal_raw))
    except (TypeError, ValueError, OverflowError):
        pass
    return rounding.judge(gap_raw, oracle - normal, min_places=rounding.MIN_PLACES_PERCENT,
                          boundaries=rounding.POINT_BOUNDARIES, computed=computed)


@kind("pair_gap", PairParams, "The oracle gap is oracle minus normal accuracy when both completed, else null")
def pair_gap(ctx: Context, p: PairParams) -> Iterable[Finding]:
    """Rule 6. When both arms completed, ``oracleGapPercentagePoints`` is oracle minus normal
    accuracy, stated by the rule of ``bench-gate kinds aggregate``: exactly, as its double (the
    IEEE-754 difference of the two written doubles a producer computing in binary writes), or
    rounded to the decimals written (at least 1); otherwise null. Params: ``normal``, ``oracle``.
    """
    normal = arm(ctx, p.normal, "normal")
    oracle = arm(ctx, p.oracle, "oracle")
    nrec, orec = record(normal), record(oracle)
    ncomplete = bool_field(normal, nrec, "complete")
    ocomplete = bool_field(oracle, orec, "complete")
    gap_raw = field_value(oracle, orec, "oracleGapPercentagePoints")
    gap = number_field(oracle, orec, "oracleGapPercentagePoints")
    where = _ptr("oracleGapPercentagePoints")
    if not (ncomplete and ocomplete):
        which = "normal" if not ncomplete else "oracle"
        if gap is not None:
            return [failed(f"oracleGapPercentagePoints is {show(raw_value(gap_raw))} but the {which} arm did not "
                           "complete: the gap is null unless both arms completed", where, oracle.role,
                           jsonable(raw_value(gap_raw)), None)]
        return [passed(f"oracleGapPercentagePoints is null: the {which} arm did not complete", where, oracle.role,
                       None, None)]
    n_raw = field_value(normal, nrec, "accuracyPercent")
    o_raw = field_value(oracle, orec, "accuracyPercent")
    n_acc = number_field(normal, nrec, "accuracyPercent")
    o_acc = number_field(oracle, orec, "accuracyPercent")
    if n_acc is None or o_acc is None:
        which = "normal" if n_acc is None else "oracle"
        raise Fail(f"the {which} arm completed but its accuracyPercent is null: the gap cannot be checked",
                   _ptr("accuracyPercent"), normal.role if which == "normal" else oracle.role, None, "a number")
    diff = o_acc - n_acc
    if gap is None:
        return [failed(f"oracleGapPercentagePoints is null but both arms completed: expected oracle "
                       f"{show(raw_value(o_raw))} - normal {show(raw_value(n_raw))} = {show_fraction(diff)}",
                       where, oracle.role, None, jsonable(diff))]
    judgement = gap_stated(gap_raw, n_raw, o_raw, n_acc, o_acc)
    if judgement is None or not judgement.ok:
        why = judgement.why() if judgement is not None else ""
        return [failed(f"oracleGapPercentagePoints {show(raw_value(gap_raw))} is not oracle {show(raw_value(o_raw))} "
                       f"- normal {show(raw_value(n_raw))} = {show_fraction(diff)}{': ' + why if why else ''}", where,
                       oracle.role, jsonable(raw_value(gap_raw)), jsonable(diff))]
    return [passed(f"oracleGapPercentagePoints {show(raw_value(gap_raw))} = oracle {show(raw_value(o_raw))} - normal "
                   f"{show(raw_value(n_raw))} ({judgement.how_text() + '; ' if judgement.how_text() else ''}a "
                   "diagnostic)", where, oracle.role,
                   jsonable(raw_value(gap_raw)), jsonable(diff))]


@dataclass(frozen=True)
class VerdictParams:
    __pydantic_config__ = FORBID
    normal: str = "report"
    oracle: str = "oracle"
    gated_lanes: list[str] | None = None


def diagnostics(normal: Arm, oracle: Arm | None) -> dict[str, Any]:
    """The two scores and the gap side by side, as written; never combined."""
    nrec = record(normal)
    out: dict[str, Any] = {"normalAccuracyPercent": jsonable(raw_value(nrec.get("accuracyPercent")))}
    if oracle is None:
        out.update(oracleAccuracyPercent=None, oracleGapPercentagePoints=None, oracle="absent")
        return out
    try:
        orec = record(oracle)
    except Fail:
        out.update(oracleAccuracyPercent=None, oracleGapPercentagePoints=None, oracle="no pair record")
        return out
    out.update(oracleAccuracyPercent=jsonable(raw_value(orec.get("accuracyPercent"))),
               oracleGapPercentagePoints=jsonable(raw_value(orec.get("oracleGapPercentagePoints"))),
               oracle="diagnostic only")
    return out


def _score_text(diag: Mapping[str, Any]) -> str:
    def fmt(v: Any, unit: str) -> str:
        return "null" if v is None else f"{v}{unit}"
    if diag.get("oracle") == "absent":
        return f"normal accuracy {fmt(diag['normalAccuracyPercent'], '%')}; no oracle arm"
    return (f"normal accuracy {fmt(diag['normalAccuracyPercent'], '%')}; the oracle is a second evaluation, its "
            f"{fmt(diag['oracleAccuracyPercent'], '%')} and the gap {fmt(diag['oracleGapPercentagePoints'], ' pp')} "
            "are diagnostics only")


def _lanes(a: Arm) -> list[tuple[str, list[Any], int]]:
    summary = a.summary
    lanes = summary.get("lanes", MISSING) if isinstance(summary, dict) else MISSING
    if not isinstance(lanes, list):
        raise Fail(f"{a.label} summary.json lanes is {type_name(lanes)}, not an array", "/lanes", a.role,
                   jsonable(lanes), "an array")
    out = []
    for i, lane in enumerate(lanes):
        name = lane.get("lane") if isinstance(lane, dict) else None
        metrics = lane.get("metrics") if isinstance(lane, dict) else None
        if not isinstance(name, str) or not isinstance(metrics, list):
            raise Fail(f"{a.label} summary.json lanes[{i}] has no string lane and metrics array",
                       f"/lanes/{i}", a.role)
        out.append((name, metrics, i))
    return out


def _gate_lines(a: Arm) -> list[tuple[int, Any]]:
    raw = a.files.get("gates.ndjson")
    if raw is None or raw == b"":
        return []
    try:
        return strictjson.loads_lines(raw, 16 * 1024 * 1024)
    except strictjson.JsonError as exc:
        raise Fail(f"{a.label} gates.ndjson {exc}", "", a.role) from None


@kind("pair_verdict", VerdictParams, "The claim follows the normal arm's own gates; the oracle score is a diagnostic")
def pair_verdict(ctx: Context, p: VerdictParams) -> Iterable[Finding]:
    """Rule 7. The claim follows the normal arm: it completed and its own gates passed (at least
    one metric verdict ``passed`` and none ``failed`` or ``inconclusive`` in a gated lane, no
    gate decision in ``gates.ndjson`` other than ``ship``). The oracle score can never lift it. The normal score,
    the oracle score and the gap are reported side by side in ``actual``, as diagnostics.
    Params: ``normal``, ``oracle``, ``gated_lanes`` (default null: every lane of the normal
    summary is gated).
    """
    normal = arm(ctx, p.normal, "normal")
    oracle = optional_arm(ctx, p.oracle, "oracle")
    nrec = record(normal)
    diag = diagnostics(normal, oracle)
    scores = _score_text(diag)
    complete = bool_field(normal, nrec, "complete")
    if not complete:
        return [failed(f"the normal arm did not complete: there is no normal result to claim, and the oracle cannot "
                       f"stand in for it ({scores})", _ptr("complete"), normal.role, diag, "normal arm completed")]
    lanes = _lanes(normal)
    if not lanes:
        return [failed(f"the normal summary has no lanes: no gate was evaluated ({scores})", "/lanes", normal.role,
                       diag, "at least one gated lane")]
    wanted = set(p.gated_lanes) if p.gated_lanes is not None else {name for name, _, _ in lanes}
    findings: list[Finding] = []
    for name in sorted(wanted - {n for n, _, _ in lanes}):
        findings.append(failed(f"gated lane {name!r} is absent from the normal summary ({scores})", "/lanes",
                               normal.role, diag, f"lane {name}"))
    checked = passed_count = 0
    for name, metrics, i in lanes:
        if name not in wanted:
            continue
        for j, metric in enumerate(metrics):
            pointer = f"/lanes/{i}/metrics/{j}/verdict"
            verdict = metric.get("verdict", MISSING) if isinstance(metric, dict) else MISSING
            label = metric.get("metric") if isinstance(metric, dict) else None
            label = label if isinstance(label, str) else f"#{j}"
            checked += 1
            if verdict not in VERDICTS:
                findings.append(failed(f"normal lane {name!r} metric {label!r} verdict is {show(verdict)}, not one of "
                                       f"{', '.join(VERDICTS)} ({scores})", pointer, normal.role, diag,
                                       "a known verdict"))
            elif verdict == "passed":
                passed_count += 1
            elif verdict in BLOCKING:
                value = metric.get("value") if isinstance(metric, dict) else None
                findings.append(failed(f"the normal arm's gate failed: lane {name!r} metric {label!r} verdict is {verdict} "
                                       f"(value {show(raw_value(value))}); the claim follows the normal arm ({scores})",
                                       pointer, normal.role, diag, "no failed or inconclusive metric"))
    for line, decision in _gate_lines(normal):
        outcome = decision.get("outcome") if isinstance(decision, dict) else None
        if outcome != "ship":
            findings.append(failed(f"the normal arm's gate decision on gates.ndjson line {line} is {show(outcome)}, "
                                   f"not ship ({scores})", "", normal.role, diag, "ship"))
    if not findings and passed_count == 0:
        findings.append(failed(f"no metric of the normal arm's gated lanes has a passed verdict ({plural(checked, 'metric')}"
                               f", none passed): no gate was evaluated, so there is nothing to claim ({scores})",
                               "/lanes", normal.role, diag, "at least one passed metric in a gated lane"))
    if findings:
        return findings
    return [passed(f"the normal arm completed and its gates passed ({plural(checked, 'metric')} in "
                   f"{plural(len(wanted), 'gated lane')}, none failed or inconclusive): {scores}", _ptr("accuracyPercent"), normal.role, diag,
                   "normal arm completed with its gates passed")]


@kind("pair_interruption", PairParams, "No interruption outcome: both arms prepared and completed")
def pair_interruption(ctx: Context, p: PairParams) -> Iterable[Finding]:
    """Rule 8. Each interruption outcome fails with its own message: cancelled before the first
    question (an empty aborted normal run); a normal run interrupted later; cancelled between
    arms (normal evidence alone); the oracle interrupted after preparation; and an oracle arm
    present although the normal never completed (an arm that never reached preparation must
    not appear). Params: ``normal``, ``oracle``.
    """
    normal = arm(ctx, p.normal, "normal")
    oracle = optional_arm(ctx, p.oracle, "oracle")
    nrec = record(normal)
    complete = bool_field(normal, nrec, "complete")
    planned = count_field(normal, nrec, "plannedQuestions")
    observed = count_field(normal, nrec, "observedQuestions")
    findings: list[Finding] = []
    if not complete:
        if observed == 0:
            findings.append(failed(f"cancelled before the first question: the normal arm is an empty aborted run "
                                   f"(0 of {planned} planned questions); there is no result to claim",
                                   _ptr("observedQuestions"), normal.role, 0, planned))
        else:
            findings.append(failed(f"the normal arm was interrupted after {observed} of {planned} planned questions; "
                                   "there is no result to claim", _ptr("complete"), normal.role, False, True))
        if oracle is not None:
            findings.append(failed("an oracle arm is present although the normal arm never completed: the oracle is "
                                   "prepared only after the normal run, so an arm that never reached preparation "
                                   "must not appear", "", oracle.role, oracle.doc.path, None))
        return findings
    if oracle is None:
        return [failed("cancelled between arms: only the normal evidence exists (no oracle arm); the pair is "
                       "incomplete", "", p.oracle, None, "an oracle arm")]
    orec = record(oracle)
    ocomplete = bool_field(oracle, orec, "complete")
    oplanned = count_field(oracle, orec, "plannedQuestions")
    oobserved = count_field(oracle, orec, "observedQuestions")
    if not ocomplete:
        empty = " and empty" if oobserved == 0 else ""
        return [failed(f"the oracle was interrupted after preparation: its run is aborted{empty} after {oobserved} of "
                       f"{oplanned} planned questions; the pair is incomplete", _ptr("complete"), oracle.role,
                       False, True)]
    return [passed(f"both arms completed: normal {observed}/{planned} and oracle {oobserved}/{oplanned} questions "
                   "observed", _ptr("complete"), oracle.role, True, True)]


@kind("pair_separate", PairParams, "The two arms are separate runs and the oracle has no gate: never combined")
def pair_separate(ctx: Context, p: PairParams) -> Iterable[Finding]:
    """Rule 9. The arms are two separate runs (different ``runId`` and run hash) and the oracle
    carries no gate decision: the two results are never one combined run or score.
    Params: ``normal``, ``oracle``.
    """
    normal = arm(ctx, p.normal, "normal")
    oracle = arm(ctx, p.oracle, "oracle")
    nid, oid = run_header(normal).get("runId"), run_header(oracle).get("runId")
    findings: list[Finding] = []
    if nid == oid:
        findings.append(failed(f"both arms have runId {show(nid)}: the two arms are two separate runs, never one "
                               "combined run", "", oracle.role, jsonable(oid), "a runId other than the normal's"))
    nhash, ohash = seal_of(normal).run_hash, seal_of(oracle).run_hash
    if nhash == ohash:
        findings.append(failed(f"both arms are the same files (run hash {nhash}): the oracle must be its own run",
                               "", oracle.role, ohash, "a run other than the normal"))
    gates = _gate_lines(oracle)
    if gates:
        findings.append(failed(f"the oracle arm carries {len(gates)} gate decision(s) in gates.ndjson: the oracle is "
                               "a diagnostic and has no gate", "", oracle.role, len(gates), 0))
    if findings:
        return findings
    return [passed(f"the arms are separate runs (normal {nid}, oracle {oid}) and the oracle has no gate; their "
                   "scores are reported side by side, never combined", "", oracle.role)]
