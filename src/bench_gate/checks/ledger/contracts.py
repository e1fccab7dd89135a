"""Gate contracts of a claim ledger and the receipts their blocking contracts require.

A gate contract's profile may be one of ``external_profiles`` (the ledger profile's
parameter, which ``--external-profile NAME`` extends): a profile enforced outside bench-gate,
vouching for contracts and receipts, never for a citable benchmark number.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
    kind,
    FORBID,
    MISSING,
    Context,
    failed,
    join,
    jsonable,
    passed,
    show,
    skipped,
    type_name,
)
from bench_gate.checks.generic.thresholds import direction
from bench_gate.checks.ledger.access import entry_list, evidence, loaded_doc, profile_problem
from bench_gate.text.canonical import describe, id_key, shown
from bench_gate.models import Doc, Finding, exact_number


# --- ledger_receipts ---------------------------------------------------------------------


@record
class ReceiptsParams:
    __pydantic_config__ = FORBID
    passing_status: str = "PASS"


def _receipt_problems(mc: dict[str, Any], doc: Doc | None, p: ReceiptsParams) -> list[str]:
    """Why one receipt contract does not hold (empty when it holds)."""
    written = mc.get("required_receipt")
    if doc is None:
        return [f"required_receipt {show(written)} was not read"]
    if doc.error is not None:
        return [f"required_receipt {written}: {doc.error}"]
    data = doc.data if isinstance(doc.data, dict) else {}
    problems: list[str] = []
    schema = data.get("schema_version", MISSING)
    if schema != mc.get("receipt_schema"):
        problems.append(f"{written} has schema_version {show(schema)}, expected {show(mc.get('receipt_schema'))}")
    metric = mc.get("metric")
    metrics = data.get("metrics")
    value = metrics.get(metric, MISSING) if isinstance(metrics, dict) and isinstance(metric, str) else MISSING
    number, limit = exact_number(value), exact_number(mc.get("threshold"))
    if number is None:
        problems.append(f"{written} metrics.{metric} is {show(value)}, not a finite number")
    elif limit is not None:
        way = mc.get("direction")
        ok = number >= limit if way == "higher" else number <= limit if way == "lower" else False
        if not ok:
            sign = ">=" if way == "higher" else "<="
            problems.append(f"{written} metrics.{metric} is {show(value)}, expected {sign} {show(mc.get('threshold'))} "
                            f"({way} is better)")
    checks = data.get("checks")
    rows = [c for c in checks if isinstance(c, dict)] if isinstance(checks, list) else []
    if mc.get("require_receipt_checks") is True:
        if not rows:
            problems.append(f"{written} lists no checks, but the contract requires its checks to pass")
        for c in rows:
            if c.get("status") != p.passing_status:
                problems.append(f"{written} check {show(c.get('name'))} has status {show(c.get('status', MISSING))}, "
                                f"expected {p.passing_status}")
    wanted = mc.get("required_surfaces") or []
    covered = {s for c in rows if c.get("status") == p.passing_status
               for s in (c.get("surfaces") if isinstance(c.get("surfaces"), list) else []) if isinstance(s, str)}
    missing = [s for s in wanted if s not in covered]
    if missing:
        problems.append(f"{written}: no passing check covers the required surface{'s' if len(missing) > 1 else ''} "
                        f"{', '.join(repr(s) for s in missing)}")
    return problems


@kind("ledger_receipts", ReceiptsParams, "receipts of blocking gate contracts exist, have their schema and hold their thresholds")
def ledger_receipts(ctx: Context, p: ReceiptsParams) -> Iterable[Finding]:
    """Every receipt contract of a blocking gate contract holds.

    The receipt (``required_receipt``, relative to the ledger's folder) exists, its
    ``schema_version`` equals ``receipt_schema``, ``metrics[metric]`` is a finite number on the
    right side of ``threshold`` (``higher``: at least, ``lower``: at most; a tie holds), with
    ``require_receipt_checks`` every check has status ``passing_status`` (default ``PASS``), and
    the surfaces of its passing checks cover ``required_surfaces``. Receipts of contracts that
    are not blocking are listed as present or missing, not enforced.
    """
    ev = evidence(ctx)
    items = entry_list(ctx, "gate_contracts")
    roles = ev.data.get("receipts", {})
    out: list[Finding] = []
    held: list[str] = []
    waiting: list[str] = []
    for i, c in enumerate(items or []):
        if not isinstance(c, dict) or not isinstance(c.get("metric_contracts"), list):
            continue  # gate-contracts reports the shape
        name = c.get("name") if isinstance(c.get("name"), str) else f"/gate_contracts/{i}"
        count = 0
        for j, mc in enumerate(c["metric_contracts"]):
            if not isinstance(mc, dict) or mc.get("mode") != "receipt":
                continue
            written = mc.get("required_receipt")
            doc = loaded_doc(ev, roles[written]) if isinstance(written, str) and written in roles else None
            if c.get("blocking") is not True:
                state = "missing" if doc is None or doc.error else "present"
                status = c.get("status") if isinstance(c.get("status"), str) else show(c.get("status", MISSING))
                note = f"{name} ({status}): {written} {state}"
                if note not in waiting:
                    waiting.append(note)
                continue
            count += 1
            ptr = f"/gate_contracts/{i}/metric_contracts/{j}"
            for problem in _receipt_problems(mc, doc, p):
                out.append(failed(f"{ptr} ({name}, {mc.get('metric')}): {problem}", join(ptr, "required_receipt"),
                                  "report", None, None))
        if count:
            held.append(f"{name} ({count} metric{'s' if count != 1 else ''})")
    if out:
        return out
    if not held and not waiting:
        return [skipped("no receipt contracts")]
    text = (f"receipts of blocking contracts hold: {', '.join(held)}" if held else
            "no blocking contract names a receipt")
    if waiting:
        text += f"; not enforced, the contract is not blocking: {'; '.join(waiting)}"
    return [passed(text, "/gate_contracts", "report")]


# --- ledger_contracts --------------------------------------------------------------------


@record
class ContractsParams:
    __pydantic_config__ = FORBID
    directions: list[str] = field(default_factory=lambda: ["higher", "lower"])
    external_profiles: list[str] = field(default_factory=list)


def _finite(value: Any) -> Fraction | None:
    return exact_number(value)


@kind("ledger_contracts", ContractsParams, "gate contracts are consistent")
def ledger_contracts(ctx: Context, p: ContractsParams) -> Iterable[Finding]:
    """Gate contracts: unique ``name``; ``blocking`` is true exactly when ``status`` is
    ``blocking``; ``profile`` is a built-in or declared profile; every metric contract names a
    ``metric`` and a ``mode``: ``threshold`` (``direction`` higher/lower and a finite
    ``threshold``), ``no-regression`` (``direction``, ``max_regression`` >= 0 and a
    ``baseline``) or ``receipt`` (``required_receipt``, ``receipt_schema``, ``direction``, a
    finite ``threshold``, optionally ``require_receipt_checks`` and ``required_surfaces``).
    Params: ``directions``, ``external_profiles``.
    """
    ev = evidence(ctx)
    items = entry_list(ctx, "gate_contracts")
    if not items:
        return [skipped("no gate contracts")]
    profiles = set(ev.data.get("profiles", [])) | set(p.external_profiles)
    out: list[Finding] = []
    names: dict[str, str] = {}
    taken: dict[str, str] = {}
    for i, c in enumerate(items):
        ptr = f"/gate_contracts/{i}"
        if not isinstance(c, dict):
            out.append(failed(f"{ptr} must be an object, got {type_name(c)}", ptr))
            continue
        name = c.get("name", MISSING)
        if not isinstance(name, str) or not name:
            out.append(failed(f"{ptr}/name is {show(name)}", f"{ptr}/name", "report", jsonable(name), "a name"))
        elif id_key(name) in names:
            # two names a reader cannot tell apart are one contract written twice
            first = names[id_key(name)]
            out.append(failed(f"{ptr}/name {shown(name)} is also the name of {first}"
                              + (f" ({describe(name, taken[first])})" if taken[first] != name else ""),
                              f"{ptr}/name", "report", name, "a unique name"))
        else:
            names[id_key(name)] = ptr
            taken[ptr] = name
        status, blocking = c.get("status", MISSING), c.get("blocking", MISSING)
        if not isinstance(blocking, bool):
            out.append(failed(f"{ptr}/blocking must be true or false, got {show(blocking)}", f"{ptr}/blocking",
                              "report", jsonable(blocking), "a boolean"))
        elif blocking != (status == "blocking"):
            out.append(failed(f"{ptr} says blocking {show(blocking)} but status {show(status)}: blocking is true "
                              "exactly when status is \"blocking\"", f"{ptr}/blocking", "report", blocking,
                              status == "blocking"))
        prof = c.get("profile", MISSING)
        if not isinstance(prof, str) or prof not in profiles:
            why = profile_problem(prof, set(p.external_profiles)) if isinstance(prof, str) else f"is {show(prof)}"
            out.append(failed(f"{ptr}/profile {why}", f"{ptr}/profile", "report", jsonable(prof),
                              "a built-in or declared external profile"))
        mcs = c.get("metric_contracts", MISSING)
        if not isinstance(mcs, list) or not mcs:
            out.append(failed(f"{ptr}/metric_contracts must be a non-empty list, got {show(mcs)}",
                              f"{ptr}/metric_contracts", "report"))
            continue
        for j, mc in enumerate(mcs):
            mptr = f"{ptr}/metric_contracts/{j}"

            def bad(msg: str, key: str, actual: Any = None, expected: Any = None) -> None:
                out.append(failed(f"{mptr}: {msg}", join(mptr, key) if key else mptr, "report", actual, expected))

            if not isinstance(mc, dict):
                bad(f"must be an object, got {type_name(mc)}", "")
                continue
            metric = mc.get("metric", MISSING)
            if not isinstance(metric, str) or not metric:
                bad(f"metric is {show(metric)}", "metric", jsonable(metric), "a metric name")
            mode = mc.get("mode", MISSING)
            if mode in ("threshold", "no-regression"):
                way = mc.get("direction", MISSING)
                if way not in p.directions:
                    bad(f"direction is {show(way)}, expected one of {', '.join(p.directions)}", "direction",
                        jsonable(way), p.directions)
                elif isinstance(metric, str) and direction(metric) not in (None, way):
                    bad(f"direction {way} contradicts {metric}, where {direction(metric)} is better", "direction",
                        way, direction(metric))
            if mode == "threshold":
                if _finite(mc.get("threshold", MISSING)) is None:
                    bad(f"threshold must be a finite number, got {show(mc.get('threshold', MISSING))}", "threshold",
                        jsonable(mc.get("threshold")), "a finite number")
            elif mode == "no-regression":
                allowed = _finite(mc.get("max_regression", MISSING))
                if allowed is None or allowed < 0:
                    bad(f"max_regression must be a number >= 0, got {show(mc.get('max_regression', MISSING))}",
                        "max_regression", jsonable(mc.get("max_regression")), ">= 0")
                base = mc.get("baseline", MISSING)
                if not isinstance(base, str) or not base:
                    bad(f"baseline is {show(base)}; a no-regression contract names its baseline", "baseline",
                        jsonable(base), "a baseline")
            elif mode == "receipt":
                for key, what in (("required_receipt", "the receipt file, relative to the ledger's folder"),
                                  ("receipt_schema", "the schema_version the receipt must have")):
                    value = mc.get(key, MISSING)
                    if not isinstance(value, str) or not value.strip():
                        bad(f"{key} is {show(value)}; a receipt contract names {what}", key, jsonable(value),
                            "a non-empty string")
                way = mc.get("direction", MISSING)
                if way not in p.directions:
                    bad(f"direction is {show(way)}, expected one of {', '.join(p.directions)}", "direction",
                        jsonable(way), p.directions)
                if _finite(mc.get("threshold", MISSING)) is None:
                    bad(f"threshold must be a finite number, got {show(mc.get('threshold', MISSING))}", "threshold",
                        jsonable(mc.get("threshold")), "a finite number")
                checks = mc.get("require_receipt_checks", False)
                if not isinstance(checks, bool):
                    bad(f"require_receipt_checks must be true or false, got {show(checks)}", "require_receipt_checks",
                        jsonable(checks), "a boolean")
                surfaces = mc.get("required_surfaces", [])
                if not isinstance(surfaces, list) or not all(isinstance(x, str) and x.strip() for x in surfaces):
                    bad(f"required_surfaces must be a list of surface names, got {show(surfaces)}",
                        "required_surfaces", jsonable(surfaces), "a list of strings")
            else:
                bad(f"mode is {show(mode)}, expected threshold, no-regression or receipt", "mode",
                    jsonable(mode), ["threshold", "no-regression", "receipt"])
    if out:
        return out
    used = sorted({c.get("profile") for c in items if isinstance(c, dict)} & set(p.external_profiles)
                  - set(ev.data.get("profiles", [])))
    declared = f" ({', '.join(used)} enforced outside bench-gate)" if used else ""
    return [passed(f"{len(items)} gate contract{'s' if len(items) != 1 else ''}: names unique, blocking matches "
                   f"status, profiles known{declared}, metric contracts complete", "/gate_contracts", "report")]
