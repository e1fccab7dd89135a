"""Reading the arms of a paired normal/oracle memory run (profile ``memory-pair``) and AEF run folders.

A memory benchmark run twice over one selected workload leaves two AEF run folders: the
**normal** arm (the system's own memory, which carries the gate) and a gold-only **oracle** arm
(a diagnostic: how much of the gap is retrieval). Both summaries carry the pair record
``ext["agenteval.memoryPair"]`` (schema ``1.0``). Every pair kind reads run-folder documents
(format ``runfolder``) through this module; the arms are named by document role (defaults:
``normal: report``, ``oracle: oracle``). Accuracies in the record are percentages (0-100), never
fractions. No kind ever computes or prints a combined score of the two arms.

Here: an arm (:func:`arm`), its ``run.json``, its pair record and typed fields, its seal
verification and signature, and its gate decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from bench_gate import records
from bench_gate.aef import seal as sealmod
from bench_gate.aef import signatures
from bench_gate.loaders import strictjson
from bench_gate.checks.base import (
    described,
    FORBID, Context, Fail, as_count, as_number, failed, jsonable,
    show, type_name,
)
from bench_gate.models import Doc, Finding, WrittenFloat

PAIR_KEY = "agenteval.memoryPair"
RECORD = "/ext/agenteval.memoryPair"
COMMON_FIELDS = (
    "schemaVersion", "pairId", "role", "sourceInputsDigest", "plannedQuestions",
    "observedQuestions", "scoredQuestions", "totalLlmCalls", "complete", "diagnosticOnly",
    "accuracyPercent",
)
ORACLE_FIELDS = ("normalRunHash", "oracleGapPercentagePoints")


# --- reading an arm ----------------------------------------------------------------------


@records.record
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


def record_ptr(name: str) -> str:
    return f"{RECORD}/{name}"


def field_value(a: Arm, rec: Mapping[str, Any], name: str) -> Any:
    """A record field that must be present (it may be null)."""
    if name not in rec:
        raise Fail(f"{a.label} pair record has no {name}", record_ptr(name), a.role, None, "present")
    return rec[name]


def count_field(a: Arm, rec: Mapping[str, Any], name: str, nullable: bool = False) -> int | None:
    value = field_value(a, rec, name)
    if value is None:
        if nullable:
            return None
        raise Fail(f"{a.label} {name} is null", record_ptr(name), a.role, None, "an integer")
    number = as_count(value, f"{a.label} {name}", record_ptr(name), a.role)
    if number < 0:
        raise Fail(f"{a.label} {name} is {number}, below 0", record_ptr(name), a.role, number, ">= 0")
    return number


def bool_field(a: Arm, rec: Mapping[str, Any], name: str) -> bool:
    value = field_value(a, rec, name)
    if not isinstance(value, bool):
        raise Fail(f"{a.label} {name} must be true or false, got {described(value)}",
                   record_ptr(name), a.role, jsonable(value), "a boolean")
    return value


def number_field(a: Arm, rec: Mapping[str, Any], name: str) -> Fraction | None:
    value = field_value(a, rec, name)
    if value is None:
        return None
    return as_number(value, f"{a.label} {name}", record_ptr(name), a.role)


def string_field(a: Arm, rec: Mapping[str, Any], name: str) -> str:
    value = field_value(a, rec, name)
    if not isinstance(value, str) or value == "":
        raise Fail(f"{a.label} {name} must be a non-empty string, got {described(value)}",
                   record_ptr(name), a.role, jsonable(value), "a non-empty string")
    return value


def short_digest(value: Any) -> str:
    """``sha256:`` and the first 12 hex characters (the full value is in actual/expected)."""
    text = str(value)
    return text[:19] + "…" if len(text) > 19 else text


def raw_value(value: Any) -> Any:
    """A record value as written, for actual/expected (a literal that is not a double: its text)."""
    return value.literal if isinstance(value, WrittenFloat) else value


# --- seals and signatures ---------------------------------------------------------------


def trusted_keys(pems: Iterable[str]) -> tuple[signatures.TrustedKey, ...]:
    """The public keys a kind's ``trusted_keys`` gives (PEM); Fail when one cannot be read."""
    try:
        return signatures.load_trusted_keys([(f"trusted_keys[{i}]", pem.encode("utf-8"))
                                             for i, pem in enumerate(pems)])
    except signatures.SignatureSetupError as exc:
        raise Fail(str(exc), document="report") from None


def seal_findings(a: Arm, report: sealmod.SealReport, prefix: str = "") -> list[Finding]:
    """One failing finding per problem of an arm's seal, each message led by ``prefix``."""
    prefix = prefix or f"{a.label} seal is invalid"
    return [failed(f"{prefix}: {p.message}", "", a.role,
                   p.actual if p.actual is not None else p.path, p.expected if p.expected is not None else p.code)
            for p in report.problems]


def signature_of(a: Arm, keys: tuple[signatures.TrustedKey, ...]) -> tuple[str, Finding | None]:
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


# --- gate decisions ---------------------------------------------------------------------


def gate_lines(a: Arm) -> list[tuple[int, Any]]:
    """(line, decision) for each gate decision in an arm's ``gates.ndjson`` (none when absent or empty)."""
    raw = a.files.get("gates.ndjson")
    if raw is None or raw == b"":
        return []
    try:
        return strictjson.loads_lines(raw, 16 * 1024 * 1024)
    except strictjson.JsonError as exc:
        raise Fail(f"{a.label} gates.ndjson {exc}", "", a.role) from None


# --- both arms ---------------------------------------------------------------------------


@records.record
class PairParams:
    """The two arms, by document role."""

    __pydantic_config__ = FORBID
    normal: str = "report"
    oracle: str = "oracle"
