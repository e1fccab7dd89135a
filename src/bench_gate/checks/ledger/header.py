"""The ledger's own statements: its date and its planned suites (which carry no number).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

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
    show,
    skipped,
    type_name,
)
from bench_gate.text.isotime import TimeError, parse_when, today
from bench_gate.checks.ledger.access import entry_list, manifest
from bench_gate.models import Finding


# --- ledger_date -------------------------------------------------------------------------


@record
class DateParams:
    __pydantic_config__ = FORBID
    path: str = "/updated_at"


@kind("ledger_date", DateParams, "a ledger date is a calendar date not after the gate time")
def ledger_date(ctx: Context, p: DateParams) -> Iterable[Finding]:
    """The ledger's date at ``path`` (default ``/updated_at``) is a calendar date ``YYYY-MM-DD``
    that exists (``2026-02-30`` fails) and is not after the gate's UTC date."""
    value = resolve(manifest(ctx), p.path)
    where = p.path.lstrip("/")
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise Fail(f"{where} is {show(value)}, not a date (YYYY-MM-DD)", p.path, "report", jsonable(value), "YYYY-MM-DD")
    try:
        day = parse_when(value).day
    except TimeError as exc:
        raise Fail(f"{where} {exc}", p.path, "report", value, "a real date") from None
    if day is None or day > today(ctx.now):
        raise Fail(f"{where} {value} is after the gate time {ctx.now.isoformat()}", p.path, "report", value,
                   f"<= {today(ctx.now).isoformat()}")
    return [passed(f"{where} {value} is a date not after the gate time", p.path, "report")]


# --- ledger_planned ----------------------------------------------------------------------


@record
class PlannedParams:
    __pydantic_config__ = FORBID
    artifact_fields: list[str] = field(default_factory=lambda: [
        "artifact", "external_artifact_manifest", "overall", "case_results", "questions", "sibyl_commit",
        "elapsed_seconds"])
    status: str = "planned"


@kind("ledger_planned", PlannedParams, "planned entries carry no artifact")
def ledger_planned(ctx: Context, p: PlannedParams) -> Iterable[Finding]:
    """A planned entry has ``status: planned`` and carries none of the artifact fields
    (``artifact_fields``): a planned suite has no number to cite.
    """
    items = entry_list(ctx, "planned")
    if not items:
        return [skipped("no planned entries")]
    out: list[Finding] = []
    for i, entry in enumerate(items):
        ptr = f"/planned/{i}"
        if not isinstance(entry, dict):
            out.append(failed(f"{ptr} must be an object, got {type_name(entry)}", ptr))
            continue
        if entry.get("status") != p.status:
            out.append(failed(f"{ptr}/status is {show(entry.get('status', MISSING))}, expected {show(p.status)}",
                              f"{ptr}/status", "report", jsonable(entry.get("status")), p.status))
        for key in p.artifact_fields:
            if key in entry:
                out.append(failed(f"{ptr} ({entry.get('suite', '?')}) is planned but carries {key} = "
                                  f"{show(entry[key])}: a planned suite has no artifact or number to cite",
                                  join(ptr, key), "report", jsonable(entry[key]), "absent"))
    if out:
        return out
    return [passed(f"{len(items)} planned entr{'y' if len(items) == 1 else 'ies'}, none carries an artifact",
                   "/planned", "report")]
