"""The verdict as JSON: the machine-readable contract (``bench-gate.verdict.v1``).

One report gives one verdict object; several reports give a ``bench-gate.batch.v1`` object
holding one verdict per report. Keys are written in a fixed order and the output ends with a
newline, so the same inputs, profile and ``--now`` give byte-identical output.

A result carries the contract fields (``rule``, ``status``, ``severity``, ``message``,
``document``, ``pointer``, ``actual``, ``expected``, ``source``) and, beyond the contract,
``title``, ``check``, ``why``, and ``details`` (further failures of the same rule, at most 20,
with ``omitted_details`` counting the rest), ``waiver`` when a waiver applied, and ``claim``
for a claim in a document (``bench-gate claims``): ``{"status": "confirmed" | "contradicted" |
"untestable", "text", "evidence": {"entry", "profile", "pointer", "value"}, "reason"}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bench_gate.models import BATCH_SCHEMA_VERSION, SCHEMA_VERSION, UNSET, RuleResult, Verdict
from bench_gate.report._common import PLAIN, RenderOptions, json_text


def timestamp(moment: datetime) -> str:
    """RFC 3339 in UTC with a Z, microseconds only when present."""
    utc = moment.astimezone(UTC)
    if utc.microsecond:
        return utc.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return utc.strftime("%Y-%m-%dT%H:%M:%SZ")


def result_dict(r: RuleResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rule": r.rule,
        "status": r.status,
        "severity": r.severity,
        "message": r.message,
        "document": r.document,
        "pointer": r.pointer,
    }
    if r.actual is not UNSET:
        out["actual"] = r.actual
    if r.expected is not UNSET:
        out["expected"] = r.expected
    out["source"] = r.source
    out["title"] = r.title
    out["check"] = r.check
    out["why"] = r.why
    if r.details:
        out["details"] = [
            {k: v for k, v in (("message", d.message), ("document", d.document), ("pointer", d.pointer),
                               ("actual", d.actual), ("expected", d.expected)) if v is not UNSET}
            for d in r.details
        ]
    if r.omitted_details:
        out["omitted_details"] = r.omitted_details
    if r.waiver is not None:
        out["waiver"] = r.waiver
    if r.claim is not None:
        out["claim"] = r.claim.to_json()
    return out


def verdict_dict(v: Verdict) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "bench-gate", "version": v.tool_version},
        "profile": {"name": v.profile_name, "digest": v.profile_digest},
        "evaluated_at": timestamp(v.evaluated_at),
        "report": v.report_path,
        "inputs": [{"role": i.role, "path": i.path, "sha256": i.sha256, "bytes": i.bytes} for i in v.inputs],
        "passed": v.passed,
        "fail_on": v.fail_on,
        "counts": v.counts(),
        "results": [result_dict(r) for r in v.results],
    }


def document(verdicts: Sequence[Verdict]) -> dict[str, Any]:
    if len(verdicts) == 1:
        return verdict_dict(verdicts[0])
    return {
        "schema_version": BATCH_SCHEMA_VERSION,
        "passed": all(v.passed for v in verdicts),
        "verdicts": [verdict_dict(v) for v in verdicts],
    }


def render(verdicts: Sequence[Verdict], options: RenderOptions = PLAIN) -> str:
    return json_text(document(verdicts), indent=2, allow_nan=False) + "\n"
