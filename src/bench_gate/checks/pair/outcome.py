"""What a memory pair's result allows one to claim: the oracle gap as the difference of the two
accuracies (``pair_gap``, rule 6 of the memory-pair profile), the claim following the normal
arm's own gates with the oracle score a diagnostic (``pair_verdict``, rule 7), and no
interruption outcome (``pair_interruption``, rule 8). The two scores are reported side by side,
never combined.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from bench_gate import records
from bench_gate.checks.base import (
    kind,
    FORBID, MISSING, Context, Fail, failed, jsonable, passed, show, show_fraction, type_name,
)
from bench_gate.checks.pair.arm_folder import (
    Arm, PairParams, arm, bool_field, count_field, field_value, gate_lines, number_field, optional_arm, raw_value,
    record, record_ptr,
)
from bench_gate.text import rounding
from bench_gate.text.wording import plural
from bench_gate.models import Finding

VERDICTS = ("passed", "failed", "warn", "inconclusive", "not_measured", "scored")
BLOCKING = ("failed", "inconclusive")


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
    where = record_ptr("oracleGapPercentagePoints")
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
                   record_ptr("accuracyPercent"), normal.role if which == "normal" else oracle.role, None, "a number")
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


@records.record
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
                       f"stand in for it ({scores})", record_ptr("complete"), normal.role, diag, "normal arm completed")]
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
    for line, decision in gate_lines(normal):
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
                   f"{plural(len(wanted), 'gated lane')}, none failed or inconclusive): {scores}", record_ptr("accuracyPercent"), normal.role, diag,
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
                                   record_ptr("observedQuestions"), normal.role, 0, planned))
        else:
            findings.append(failed(f"the normal arm was interrupted after {observed} of {planned} planned questions; "
                                   "there is no result to claim", record_ptr("complete"), normal.role, False, True))
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
                       f"{oplanned} planned questions; the pair is incomplete", record_ptr("complete"), oracle.role,
                       False, True)]
    return [passed(f"both arms completed: normal {observed}/{planned} and oracle {oobserved}/{oplanned} questions "
                   "observed", record_ptr("complete"), oracle.role, True, True)]
