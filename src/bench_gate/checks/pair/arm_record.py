"""Each arm's own pair record: well-formed, of the expected role (``pair_arm``, rule 1 of the
memory-pair profile), and its question counts, scores and run status consistent with its
completion (``pair_counts``, rule 5). The record is read by :mod:`bench_gate.checks.pair.arm_folder`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from bench_gate import records
from bench_gate.checks.base import kind, FORBID, Context, Fail, failed, jsonable, passed, show
from bench_gate.checks.generic.fields import placeholder_digest
from bench_gate.checks.pair.arm_folder import (
    COMMON_FIELDS, ORACLE_FIELDS, RECORD, Arm, arm, bool_field, count_field, field_value, number_field, raw_value,
    record, record_ptr, run_header, run_status, string_field,
)
from bench_gate.text.canonical import skeleton
from bench_gate.text.digests import is_sha256_hex, is_sha256_uri
from bench_gate.models import Finding


# --- pair_arm (rule 1) -------------------------------------------------------------------


@records.record
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
            record_ptr(extra[0]), a.role, extra, list(allowed)))
    required = COMMON_FIELDS + (ORACLE_FIELDS if p.role == "oracle" else ())
    missing = [k for k in required if k not in rec]
    if missing:
        findings.append(failed(f"{a.label} pair record lacks {', '.join(missing)}", record_ptr(missing[0]), a.role,
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
                   record_ptr("schemaVersion"), a.role, jsonable(rec["schemaVersion"]), "1.0")


def _check_role(a: Arm, rec: Mapping[str, Any], role: str) -> None:
    if "role" in rec and rec["role"] != role:
        raise Fail(f"{a.label} pair record role is {show(rec['role'])}, expected {role!r}",
                   record_ptr("role"), a.role, jsonable(rec["role"]), role)


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
                       "on a pairId unique to this execution", record_ptr("pairId"), a.role, pair_id,
                       "a pair id unique to the execution")


def _check_source(a: Arm, rec: Mapping[str, Any], role: str) -> None:
    if "sourceInputsDigest" in rec:
        digest = rec["sourceInputsDigest"]
        if not is_sha256_uri(digest):
            raise Fail(f"{a.label} sourceInputsDigest {show(digest)} is not sha256:<64 lowercase hex>",
                       record_ptr("sourceInputsDigest"), a.role, jsonable(digest), "sha256:<64 hex>")
        why = placeholder_digest(digest)
        if why:
            raise Fail(f"{a.label} sourceInputsDigest {digest} is {why}, not the digest of a selected workload",
                       record_ptr("sourceInputsDigest"), a.role, digest, "the SHA-256 of the selected source workload")


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
                       record_ptr("normalRunHash"), a.role, jsonable(value), "64 hex or null")


_FIELD_CHECKS = (_check_schema, _check_role, _check_ids, _check_source, _check_counts, _check_flags, _check_numbers)


# --- pair_counts (rule 5) ----------------------------------------------------------------


@records.record
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
                               record_ptr("observedQuestions"), a.role, observed, f"<= {planned}"))
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
                                       record_ptr(name), a.role, None, "a value"))
        if scored is not None and scored > observed:
            findings.append(failed(f"{a.label} scoredQuestions {scored} exceeds observedQuestions {observed}",
                                   record_ptr("scoredQuestions"), a.role, scored, f"<= {observed}"))
        if accuracy is not None and not 0 <= accuracy <= 100:
            findings.append(failed(f"{a.label} accuracyPercent {show(raw_value(accuracy_raw))} is outside [0, 100] "
                                   "(a percentage)", record_ptr("accuracyPercent"), a.role,
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
                                   record_ptr(name), a.role, jsonable(raw_value(value)), None))
    if status != "aborted":
        findings.append(failed(f"{a.label} is interrupted (complete false) but its run.json status is {status!r} "
                               "(expected aborted)", "", a.role, status, "aborted"))
    if findings:
        return findings
    return [passed(f"{a.label} interrupted (run aborted): {observed} of {planned} planned questions observed; "
                   "scores, calls and accuracy null as required", RECORD, a.role)]
