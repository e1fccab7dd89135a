"""No-regression pairs of a claim ledger: a citable candidate against a citable baseline or the
latest history summary of a ``baseline_key``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bench_gate.records import record, replace
from bench_gate.checks.base import (
    kind,
    FORBID,
    MISSING,
    Context,
    Fail,
    failed,
    jsonable,
    passed,
    show,
    skipped,
    type_name,
)
from bench_gate.checks.generic.thresholds import RegressionParams, regression
from bench_gate.checks.ledger.access import citable_by_name, entry_list, evidence, gate_of, profile_problem
from bench_gate.checks.ledger.external import external_unsound
from bench_gate.checks.ledger.history import latest_summary
from bench_gate.models import Doc, Finding, exact_number


# --- ledger_no_regression ----------------------------------------------------------------


@record
class NoRegressionParams:
    __pydantic_config__ = FORBID


@kind("ledger_no_regression", NoRegressionParams, "no-regression pairs of citable artifacts hold")
def ledger_no_regression(ctx: Context, p: NoRegressionParams) -> Iterable[Finding]:
    """Each pair names a citable ``candidate``, a built-in ``profile`` when it names one, and exactly one of ``baseline`` (a citable artifact)
    or ``baseline_history`` (a ``baseline_key`` of the history summaries; the latest one that
    can back a baseline is used: its source is a citable entry of this ledger, or a file of the
    repository that hashes to the ``sha256`` the summary records and passes its gate, and later
    summaries that cannot are named in the passing line), and the named ``metrics`` of the candidate do not regress beyond ``max_regression``
    (per metric, default 0), with the metric directions of the ``regression`` check kind
    (higher is better for recall@k, hit@k, ndcg@k...; lower for ``*_ms``...). The values
    compared are the entries' ``overall`` tables (which ``ledger_echo`` ties to the artifacts)
    and the summaries' ``metrics``. A pair whose candidate or baseline fails its own gate fails, and so
    does one whose candidate or baseline is an external entry whose manifest records no passing
    gate or whose archive has expired at the gate time.
    """
    ev = evidence(ctx)
    items = entry_list(ctx, "no_regression")
    if not items:
        return [skipped("no no_regression pairs")]
    by_name = citable_by_name(ctx)
    out: list[Finding] = []
    shown: list[str] = []
    notes: list[str] = []
    for i, pair in enumerate(items):
        ptr = f"/no_regression/{i}"
        if not isinstance(pair, dict):
            out.append(failed(f"{ptr} must be an object, got {type_name(pair)}", ptr))
            continue
        prof = pair.get("profile", MISSING)
        if prof is not MISSING and prof not in ev.data.get("profiles", []):
            why = profile_problem(prof, set(), local=True) if isinstance(prof, str) else f"is {show(prof)}"
            out.append(failed(f"{ptr}/profile {why}", f"{ptr}/profile", "report", jsonable(prof), "a built-in profile"))
            continue
        cand_name = pair.get("candidate", MISSING)
        if not isinstance(cand_name, str) or cand_name not in by_name:
            out.append(failed(f"{ptr}/candidate {show(cand_name)} is not a citable entry of this ledger",
                              f"{ptr}/candidate", "report", jsonable(cand_name), sorted(by_name)))
            continue
        named = [k for k in ("baseline", "baseline_history") if k in pair]
        if len(named) != 1:
            out.append(failed(f"{ptr} names {'neither' if not named else 'both'} of baseline / baseline_history "
                              "(exactly one is required)", ptr, "report", named, "exactly one"))
            continue
        if named[0] == "baseline":
            base_name = pair["baseline"]
            if not isinstance(base_name, str) or base_name not in by_name:
                out.append(failed(f"{ptr}/baseline {show(base_name)} is not a citable entry of this ledger",
                                  f"{ptr}/baseline", "report", jsonable(base_name), sorted(by_name)))
                continue
            if by_name[base_name][0] == by_name[cand_name][0]:
                out.append(failed(f"{ptr}/baseline {show(base_name)} is the candidate itself: a run compared with "
                                  "itself never regresses", f"{ptr}/baseline", "report", jsonable(base_name),
                                  "another citable entry"))
                continue
            base_overall = by_name[base_name][1].get("overall", MISSING)
            base_label = base_name
        else:
            key = pair["baseline_history"]
            found, passed_over = latest_summary(ctx, ev, key, ctx.now) if isinstance(key, str) else (None, [])
            cand_gate = gate_of(ev, by_name[cand_name][0])
            if found is None and (cand_gate is None or cand_gate.get("passed")):
                why = (f"no passing history summary with this baseline_key can back a baseline ({'; '.join(passed_over)})"
                       if passed_over else "no passing history summary has this baseline_key")
                out.append(failed(f"{ptr}/baseline_history {show(key)}: {why}", f"{ptr}/baseline_history", "report",
                                  jsonable(key), "a baseline_key of history/*.json whose source can be checked"))
                continue
            # a candidate that fails its own gate is said first (the baseline cannot help it)
            base_label = found[0] if found is not None else str(key)
            base_overall = found[1].get("metrics", MISSING) if found is not None else MISSING
            if passed_over and found is not None:
                notes.append(f"{ptr}: later summaries of {key!r} back no baseline: {'; '.join(passed_over)}")
        unsound = [(f"{which} {n} " + (f"fails its gate {g.get('profile')}" if "error" not in g else "cannot be gated"),
                    "external_artifact_manifest" in by_name[n][1])
                   for which, n, g in
                   (("candidate", cand_name, gate_of(ev, by_name[cand_name][0])),
                    ("baseline", base_label, gate_of(ev, by_name[base_label][0]) if named[0] == "baseline" else None))
                   if g is not None and not g.get("passed")]
        if unsound:
            if not any(ext for _, ext in unsound):
                why = (f"{' and '.join(t for t, _ in unsound)} (citable-gates): a comparison of numbers that do not "
                       "recompute from their cases proves nothing")
            else:  # an external manifest's summary fails the rules of its gate a summary can decide
                why = (" and ".join(f"{t} ({'external-gate' if ext else 'citable-gates'})" for t, ext in unsound)
                       + ": a comparison of numbers that fail their own gate proves nothing")
            out.append(failed(f"{ptr}: {why}", ptr, "report"))
            continue
        # An external entry's numbers rest on its archive: once the archive expired (or the manifest
        # records no passing gate) they are not citable, so they win no comparison either.
        stale = [f"{which} {n} {why}" for which, n, sub_ptr in
                 (("candidate", cand_name, by_name[cand_name][0]),
                  ("baseline", base_label, by_name[base_label][0] if named[0] == "baseline" else None))
                 if sub_ptr is not None and "external_artifact_manifest" in by_name[n][1]
                 and (why := external_unsound(ev, sub_ptr, ctx.now))]
        if stale:
            out.append(failed(f"{ptr}: {' and '.join(stale)}: its numbers are not citable at the gate time "
                              f"({ctx.now.isoformat()}), so the pair cannot be compared", ptr, "report"))
            continue
        metrics = pair.get("metrics", MISSING)
        if not isinstance(metrics, list) or not metrics or not all(isinstance(m, str) for m in metrics):
            out.append(failed(f"{ptr}/metrics must be a non-empty list of metric names, got {show(metrics)}",
                              f"{ptr}/metrics", "report", jsonable(metrics), "metric names"))
            continue
        allowed = pair.get("max_regression", {})
        if not isinstance(allowed, dict) or any(exact_number(v) is None for v in allowed.values()):
            out.append(failed(f"{ptr}/max_regression must map metric names to numbers, got {show(allowed)}",
                              f"{ptr}/max_regression", "report", jsonable(allowed), "an object of numbers"))
            continue
        cand_overall = by_name[cand_name][1].get("overall", MISSING)
        sub = Context(now=ctx.now, documents={
            "report": Doc("report", cand_name, data={"overall": cand_overall}),
            "baseline": Doc("baseline", base_label, data={"overall": base_overall})})
        try:
            found_here = list(regression(sub, RegressionParams(metrics=list(metrics),
                                                                   max_regression=dict(allowed))))
        except Fail as exc:
            found_here = [exc.finding]
        except ValueError as exc:  # a negative allowance
            found_here = [failed(str(exc).replace("--max-regression ", "max_regression "), f"{ptr}/max_regression")]
        prefix = f"{ptr} {cand_name} vs {base_label}: "
        for f in found_here:
            f = replace(f, message=f.message.replace("report:/overall/", "candidate overall/")
                                    .replace("baseline:/overall/", "baseline overall/"))
            if f.status == "fail":
                where = f"{ptr}/metrics"
                out.append(failed(prefix + f.message, where, "report", f.actual, f.expected))
            else:
                shown.append(prefix + f.message)
    if out:
        return out
    return [passed("; ".join(shown + notes), "/no_regression", "report")]
