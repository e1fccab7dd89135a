"""Every number a report claims is recomputed, declared not recomputable, or a failure.

A gate that recomputes ``recall@5`` but lets ``Recall@5`` through has not gated the claim: a
reader, a ledger and a docs page all see "recall 99%". These kinds close that gap for reports
whose summaries are metric tables (``overall``, and slices under ``per_type``, ``per_slice``,
``per_category``, ``per_task``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import fnmatchcase
from fractions import Fraction
from typing import Any

from bench_gate.records import field, record
from bench_gate.text.canonical import metric_skeleton, shown
from bench_gate.checks.base import (
    kind,
    FORBID, MISSING, Context, described, failed, join, jsonable, lookup, passed, show, show_fraction,
)
from bench_gate.checks.recompute.retrieval import SUMMARIES, _close
from bench_gate.text import rounding
from bench_gate.models import Finding, exact_number

RETRIEVAL = ("hit", "recall", "ndcg", "legacy_recall")
QA_NAMES = ("qa_accuracy", "qa_mean_score", "qa_evaluated_count", "qa_correct_count")
_AT_K = re.compile(r"^(hit|recall|ndcg|legacy_recall)@([1-9][0-9]*)$")
_SKELETON_AT_K = re.compile(r"^(hit|recall|ndcg|legacyrecall)@([0-9]+)$")


@record
class ClaimedParams:
    __pydantic_config__ = FORBID
    overall: str = "/overall"
    summaries: list[str] = field(default_factory=lambda: list(SUMMARIES))
    cases: str = "/case_results"
    qa: str = "/qa"
    recomputed_names: list[str] = field(default_factory=lambda: list(QA_NAMES))
    qa_names: list[str] = field(default_factory=lambda: list(QA_NAMES))
    declared: list[str] = field(default_factory=list)
    max_k: int = 100
    non_metric_blocks: list[str] = field(default_factory=list)
    qa_modes: list[str] = field(default_factory=lambda: ["fixture", "model"])
    case_fields: list[str] = field(default_factory=lambda: ["question_id", "case_id", "task_id", "question_type",
                                                            "question_date"])


class Names:
    """Classifies one metric name: recomputed, declared, or a failure with the reason."""

    def __init__(self, p: ClaimedParams) -> None:
        self.p = p
        self.exact = set(p.recomputed_names)
        self.skeletons = {metric_skeleton(n): n for n in p.recomputed_names}
        self.seen: dict[str, tuple[str, str]] = {}  # the cases repeat the same few names
        self.qa_skeletons: set[str] | None = None

    def classify(self, name: str) -> tuple[str, str]:
        """('recomputed' | 'declared' | 'misspelt' | 'unknown', the reason for a failure)."""
        found = self.seen.get(name)
        if found is None:
            found = self.seen[name] = self._classify(name)
        return found

    def _classify(self, name: str) -> tuple[str, str]:
        m = _AT_K.match(name)
        if m and int(m.group(2)) <= self.p.max_k:
            return "recomputed", ""
        if name in self.exact:
            return "recomputed", ""
        skeleton = metric_skeleton(name)
        sm = _SKELETON_AT_K.match(skeleton)
        if sm:
            family = "legacy_recall" if sm.group(1) == "legacyrecall" else sm.group(1)
            k = int(sm.group(2))
            if not 1 <= k <= self.p.max_k:
                return "misspelt", (f"is {family} at k = {k}, outside 1..{self.p.max_k} (max_k): not a cutoff a "
                                "retrieval summary reports")
            return "misspelt", f"is not a metric name: it differs from {family}@{k} only by spelling (not a new metric)"
        if skeleton in self.skeletons:
            return "misspelt", (f"is not a metric name: it differs from {self.skeletons[skeleton]} only by spelling "
                            "(not a new metric)")
        if any(fnmatchcase(name, pattern) for pattern in self.p.declared):
            return "declared", ""
        return "unknown", ("is neither recomputed from the cases nor declared by the profile (declared metrics: "
                        f"{', '.join(self.p.declared) or 'none'}); an unchecked number cannot be claimed")

    def qa_like(self, name: str) -> bool:
        if name in self.p.qa_names:
            return True
        if self.qa_skeletons is None:
            self.qa_skeletons = {metric_skeleton(q) for q in self.p.qa_names}
        return metric_skeleton(name) in self.qa_skeletons


def _is_number(value: Any) -> bool:
    """A JSON number (the strict reader has already refused NaN and infinities); never a boolean."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_NOT_NUMBERS = frozenset((str, list, dict, bool, type(None)))
"""Types whose values :func:`_is_number` never takes for a number."""


def _tables(ctx: Context, p: ClaimedParams) -> list[tuple[str, str, dict[str, Any] | Any]]:
    """(label, pointer, table) of overall and every summary slice."""
    out: list[tuple[str, str, Any]] = []
    overall, _, optr = lookup(ctx, p.overall)
    if overall is not MISSING:
        out.append(("overall", optr, overall))
    for ref in p.summaries:
        summary, _, sptr = lookup(ctx, ref)
        if isinstance(summary, dict):
            out += [(f"{sptr.lstrip('/')}[{name}]", join(sptr, name), t) for name, t in summary.items()]
    return out


def _holds_numbers(value: Any, depth: int = 0) -> bool:
    if _is_number(value):
        return True
    if isinstance(value, dict) and depth < 2:
        return any(_holds_numbers(v, depth + 1) for v in value.values())
    return False


@kind("claimed_metrics", ClaimedParams, "every claimed metric is recomputed or declared not recomputable; misspellings fail")
def claimed_metrics(ctx: Context, p: ClaimedParams) -> Iterable[Finding]:
    """Every key of ``overall`` and of every summary slice, and every numeric key of every case,
    is one of:

    * **recomputed**: a retrieval metric ``hit@k``, ``recall@k``, ``ndcg@k`` or
      ``legacy_recall@k`` with k a plain decimal from 1 to ``max_k`` (other rules recompute
      these from the cases), or one of ``recomputed_names`` (the QA numbers, recomputed by
      the QA rules);
    * **declared**: it matches one of ``declared`` (shell-style patterns such as ``*_ms``):
      a measurement the profile accepts without recomputing it (latency, token and call
      counts). A declared metric is never citable: the passing result lists the recomputed and
      the declared names of ``overall`` in ``actual`` (``{"recomputed": [...],
      "not_citable": [...]}``) for a ledger or a claims scan to honour;
    * otherwise a **failure**. A key that differs from a known name only by case, width,
      padding, invisible characters, separators or zero-padded k (``Recall@5``,
      ``recall@05``, ``"recall@5 "``, ``recall_at_5``) is a misspelling, never a new metric;
      a k of 0 or above ``max_k`` (``recall@1000000``) is out of range; anything else
      (``mrr``, ``precision@5``) is unknown unless the profile declares it.

    Numbers outside those tables are claims too: a top-level block other than the summaries and
    ``non_metric_blocks`` that holds numbers (``metrics: {"recall@5": 0.99}``) fails, and so
    does a top-level number whose name is a metric's. A QA number anywhere (a QA name in any
    table, or a case's ``qa`` record) needs the QA block on (``qa.mode`` exactly ``fixture`` or
    ``model`` and ``qa.enabled`` exactly true), so that the QA rules recompute it.

    Params: ``overall``, ``summaries``, ``cases``, ``qa``, ``recomputed_names``, ``qa_names``,
    ``declared``, ``max_k``, ``non_metric_blocks``, ``qa_modes``, ``case_fields`` (case keys that
    are not metrics: ids, question type and date).
    """
    names = Names(p)
    out: list[Finding] = []
    recomputed: set[str] = set()
    not_citable: set[str] = set()
    qa_claims: list[str] = []
    for label, where, table in _tables(ctx, p):
        if not isinstance(table, dict):
            continue  # the recompute and threshold rules say what a non-object summary is
        for name, value in table.items():
            kind, why = names.classify(name)
            if names.qa_like(name):
                qa_claims.append(f"{label} {name}")
            if kind in ("misspelt", "unknown"):
                out.append(failed(f"{label} {shown(name)} {why}", join(where, name), "report", jsonable(value),
                                  "a recomputed or declared metric"))
            elif label == "overall":
                (recomputed if kind == "recomputed" else not_citable).add(name)
    cases, crole, cptr = lookup(ctx, p.cases)
    # names that never fail in a case: the case fields, and metrics found recomputed or declared
    good = set(p.case_fields)
    for i, case in enumerate(cases if isinstance(cases, list) else []):
        if not isinstance(case, dict):
            continue
        if "qa" in case and not qa_claims:
            qa_claims.append(f"case {join(cptr, i)} qa")
        # the cases repeat the same names: most need no further look, which the types of the
        # other names' values show at once (text, ids, null) before any value is looked at
        others = case.keys() - good
        if _NOT_NUMBERS.issuperset(map(type, map(case.__getitem__, others))) or \
                not any(_is_number(case[name]) for name in others):
            continue
        for name, value in case.items():
            if not _is_number(value) or name in p.case_fields:  # a numeric id is the id rules' concern
                continue
            kind, why = names.classify(name)
            if kind in ("misspelt", "unknown"):
                out.append(failed(f"case {join(cptr, i)} {shown(name)} {why}", join(cptr, i, name), crole,
                                  jsonable(value), "a recomputed or declared metric"))
            else:
                good.add(name)
    out += _other_blocks(ctx, p)
    out += _qa_gate(ctx, p, qa_claims)
    if out:
        return out
    shown_names = ", ".join(sorted(recomputed)) or "none"
    declared = ", ".join(sorted(not_citable))
    return [passed(f"every claimed metric is recomputed ({shown_names})"
                   + (f" or declared not recomputable and never citable ({declared})" if declared else ""),
                   p.overall, "report", {"recomputed": sorted(recomputed), "not_citable": sorted(not_citable)})]


def _other_blocks(ctx: Context, p: ClaimedParams) -> list[Finding]:
    """Numbers claimed outside overall and the summaries."""
    report = ctx.doc("report").data
    if not isinstance(report, dict):
        return []
    known = {p.overall.lstrip("/"), p.cases.lstrip("/"), p.qa.lstrip("/"), *(s.lstrip("/") for s in p.summaries),
             *p.non_metric_blocks}
    names = Names(p)
    out = []
    for key, value in report.items():
        if key in known:
            continue
        if isinstance(value, dict) and _holds_numbers(value):
            out.append(failed(f"top-level block {shown(key)} holds numbers the gate does not recompute; metrics "
                              f"belong in {p.overall.lstrip('/')} or a summary ({', '.join(s.lstrip('/') for s in p.summaries)})",
                              join("", key), "report", None, "no unchecked metric block"))
        elif _is_number(value) and ("@" in key or names.classify(key)[0] in ("recomputed", "misspelt")):
            out.append(failed(f"top-level {shown(key)} is a metric outside {p.overall.lstrip('/')}: a number the gate "
                              "does not recompute", join("", key), "report", jsonable(value),
                              f"the metric in {p.overall.lstrip('/')}"))
    return out


def _qa_gate(ctx: Context, p: ClaimedParams, qa_claims: list[str]) -> list[Finding]:
    """QA numbers need the QA block on, so that the QA rules recompute them."""
    if not qa_claims:
        return []
    qa, role, ptr = lookup(ctx, p.qa)
    first = qa_claims[0] + (f" and {len(qa_claims) - 1} more" if len(qa_claims) > 1 else "")
    if not isinstance(qa, dict):
        return [failed(f"QA numbers are claimed ({first}) but {ptr} is {described(qa)}: a QA number needs its "
                       "QA block, which pins reader, judge, prompts and rubric", ptr, role, jsonable(qa),
                       "a qa block")]
    mode, enabled = qa.get("mode", MISSING), qa.get("enabled", MISSING)
    if isinstance(mode, str) and mode in p.qa_modes and enabled is True:
        return []
    return [failed(f"QA numbers are claimed ({first}) but the QA block is not on: mode {show(mode)} "
                   f"(expected exactly one of {', '.join(p.qa_modes)}), enabled {show(enabled)} (expected true)",
                   ptr, role, {"mode": jsonable(mode), "enabled": jsonable(enabled)},
                   {"mode": p.qa_modes, "enabled": True})]


# --- qa_scores ---------------------------------------------------------------------------


@record
class QaScoresParams:
    __pydantic_config__ = FORBID
    overall: str = "/overall"
    summaries: list[str] = field(default_factory=lambda: list(SUMMARIES))
    cases: str = "/case_results"
    type_field: str = "question_type"
    tolerance: float = 1e-9


@record(frozen=False)
class _Tally:
    evaluated: int = 0
    correct: int = 0
    score: Fraction = Fraction(0)

    def numbers(self) -> dict[str, Any]:
        if not self.evaluated:
            return {"qa_evaluated_count": 0, "qa_correct_count": 0}
        return {"qa_accuracy": Fraction(self.correct, self.evaluated), "qa_mean_score": self.score / self.evaluated,
                "qa_evaluated_count": self.evaluated, "qa_correct_count": self.correct}


@kind("qa_scores", QaScoresParams, "QA mean score and per-slice QA numbers recomputed from the cases")
def qa_scores(ctx: Context, p: QaScoresParams) -> Iterable[Finding]:
    """The QA numbers the QA accuracy rule does not already recompute: ``overall.qa_mean_score``
    (the mean of the evaluated cases' ``qa.score``) and, in every summary slice,
    ``qa_accuracy`` (correct / evaluated), ``qa_mean_score``, ``qa_evaluated_count`` and
    ``qa_correct_count`` over the slice's cases (by ``type_field``). A case whose ``qa`` record
    lacks a boolean ``evaluated``/``correct`` or a numeric ``score`` fails. A claimed rate or mean
    states its value within ``tolerance``, or by the rule of ``bench-gate kinds aggregate``
    (rounded to the claim's own decimals when it has at least 3, or the value's double); counts
    are exact. Params: ``overall``,
    ``summaries``, ``cases``, ``type_field``, ``tolerance``.
    """
    cases, crole, cptr = lookup(ctx, p.cases)
    if not isinstance(cases, list):
        return [failed(f"{cptr} must be a list of cases, got {described(cases)}", cptr, crole)]
    out: list[Finding] = []
    total = _Tally()
    by_type: dict[str, _Tally] = {}
    for i, case in enumerate(cases):
        qa = case.get("qa", MISSING) if isinstance(case, dict) else MISSING
        where = join(cptr, i, "qa")
        if not isinstance(qa, dict):
            out.append(failed(f"case {join(cptr, i)} has no qa record ({described(qa)})", where, crole))
            continue
        evaluated, correct, score = qa.get("evaluated"), qa.get("correct"), exact_number(qa.get("score"))
        if not isinstance(evaluated, bool) or not isinstance(correct, bool) or score is None:
            out.append(failed(f"case {join(cptr, i)} qa record needs boolean evaluated and correct and a numeric "
                              f"score, got evaluated {show(evaluated)}, correct {show(correct)}, score "
                              f"{show(qa.get('score', MISSING))}", where, crole))
            continue
        if not evaluated:
            continue
        qtype = case.get(p.type_field)
        for tally in (total, by_type.setdefault(qtype, _Tally()) if isinstance(qtype, str) else None):
            if tally is not None:
                tally.evaluated += 1
                tally.correct += correct
                tally.score += score
    if out:
        return out
    checked: list[str] = []
    overall, orole, optr = lookup(ctx, p.overall)
    if isinstance(overall, dict) and "qa_mean_score" in overall:
        out += _compare(overall, {"qa_mean_score": total.numbers().get("qa_mean_score")}, "overall", optr, orole,
                        total.evaluated, p.tolerance)
        checked.append("overall qa_mean_score")
    for ref in p.summaries:
        summary, srole, sptr = lookup(ctx, ref)
        if not isinstance(summary, dict):
            continue
        for name, table in summary.items():
            if not isinstance(table, dict) or not any(k in table for k in QA_NAMES):
                continue
            tally = by_type.get(name, _Tally())
            wanted = {k: tally.numbers().get(k) for k in QA_NAMES if k in table}
            out += _compare(table, wanted, f"{sptr.lstrip('/')}[{name}]", join(sptr, name), srole, tally.evaluated,
                            p.tolerance)
            checked.append(f"{sptr.lstrip('/')}[{name}]")
    if out:
        return out
    if not checked:
        return [passed("no QA mean score or per-slice QA number is claimed", optr, orole)]
    return [passed(f"recomputed from {total.evaluated} evaluated cases: {', '.join(checked)} match", optr, orole)]


def _compare(table: dict[str, Any], wanted: dict[str, Any], label: str, where: str, role: str, n: int,
             tol: float) -> list[Finding]:
    out = []
    for name, value in wanted.items():
        raw = table.get(name, MISSING)
        claimed = exact_number(raw)
        ptr = join(where, name)
        if value is None:
            out.append(failed(f"{label} {name} is claimed ({show(raw)}) but none of its cases was evaluated",
                              ptr, role, jsonable(raw), None))
        elif claimed is None:
            out.append(failed(f"{label} {name} must be a number, got {described(raw)}", ptr, role, jsonable(raw)))
        elif name.endswith("_count") and claimed != value:
            out.append(failed(f"{label} {name}: claimed {show(raw)}, counted {value} from the cases", ptr, role,
                              jsonable(raw), value))
        elif not name.endswith("_count") and not _close(claimed, value, tol):
            judgement = rounding.judge(raw, value, tolerance=tol)
            if judgement is not None and judgement.ok:
                continue  # rounded as written, or the value's double
            why = judgement.why() if judgement is not None else ""
            out.append(failed(f"{label} {name}: claimed {show(raw)}, recomputed from {n} evaluated cases is "
                              f"{show_fraction(value, 6)}{': ' + why if why else ''}", ptr, role, jsonable(raw),
                              jsonable(value)))
    return out
