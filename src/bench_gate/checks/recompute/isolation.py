"""Cross-question isolation recomputed from the cases."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from typing import Any

from bench_gate.records import field, record
from bench_gate.text.canonical import shown
from bench_gate.checks.recompute.cases import case_ids, id_lists
from bench_gate.checks.base import (
    kind,
    FORBID,
    only_strings,
    MISSING,
    Context,
    Fail,
    failed,
    jsonable,
    lookup,
    need,
    passed,
    show,
    type_name,
)
from bench_gate.models import Finding, exact_number


@record
class CrossQuestionParams:
    __pydantic_config__ = FORBID
    cases: str = "/case_results"
    claimed: str = "/overall/cross_question_result_count"
    id_fields: list[str] = field(default_factory=lambda: ["question_id", "case_id", "task_id"])
    answers_field: str = "answer_session_ids"
    ranked_field: str = "ranked_session_ids"
    show: int = 3


def _strings(value: Any) -> list[str]:
    """The strings of a list ([] for anything else); a list of only strings as it is."""
    if not isinstance(value, list):
        return []
    if only_strings(value):
        return value
    return [v for v in value if isinstance(v, str)]


@kind("cross_question", CrossQuestionParams, "no case ranks another question's answer session")
def cross_question(ctx: Context, p: CrossQuestionParams) -> Iterable[Finding]:
    """Cross-question isolation recomputed from the cases.

    Each LongMemEval question has its own haystack, and its answer sessions belong to that
    haystack. A runner that isolates questions (one namespace per question) can never rank
    another question's answer session; a shared index can, and then one question's evidence
    inflates another's score. The runner's own ``overall.cross_question_result_count`` says how
    often that happened, but it is a summary like any other: the cases show it directly.

    ``cross_question``
        A ranked id of a case that is an answer session of another case, and not one of the
        case's own answer sessions, is a cross-question result (an answer session shared by two
        questions, such as a question and its ``_abs`` twin, counts as each one's own). Any such
        result fails, with the first few (case, ranked id, owning question, rank) and the counter
        the report claims at ``claimed`` (a claimed 0 beside leaking cases does not follow from
        them). On the real 500-case Sibyl artifacts, whose rankings run to 62 sessions, the
        recomputed count is 0.

    Parameters: ``cases`` (``/case_results``), ``claimed`` (``/overall/cross_question_result_count``),
    ``id_fields``, ``answers_field``, ``ranked_field``, ``show`` (how many examples a failure lists).
    """
    items, role, ptr = need(ctx, p.cases)
    if not isinstance(items, list) or not items:
        raise Fail(f"{ptr} must be a non-empty list of cases, got {type_name(items)}", ptr, role)
    # (index, answer sessions, ranked sessions) of every case; the shape of the others is the
    # cases rule's finding
    answer_lists, ranked_lists = id_lists(ctx, items, p.answers_field), id_lists(ctx, items, p.ranked_field)
    cases = [(i, answer_lists[i] or _strings(case.get(p.answers_field)),
              ranked_lists[i] or _strings(case.get(p.ranked_field)))
             for i, case in enumerate(items) if isinstance(case, dict)]
    owners: dict[str, list[int]] = {}  # the cases whose answer session each is: worked out for a leak only

    def owner(session: str) -> int:
        if not owners:
            for i, answers, _ in cases:
                for answer in dict.fromkeys(answers):
                    owners.setdefault(answer, []).append(i)
        return owners[session][0]

    def ident(i: int) -> str:
        return case_ids(ctx, items, p.id_fields)[i] or f"#{i}"

    leaks: list[str] = []
    leaking_cases = total = 0
    # The answer sessions of the other cases: all of them less the case's own, taken out for the
    # case and put back after it (its own are answer sessions too), so that a case without a
    # crossed result costs one pass over its ranking that stops at nothing and builds nothing.
    every = set(chain.from_iterable(answers for _, answers, _ in cases))
    others = set(every)
    for i, answers, ranked in cases:
        others.difference_update(answers)
        clean = others.isdisjoint(ranked)
        others.update(answers)
        if clean:  # every ranked answer session is the case's own
            continue
        own = set(answers)
        found = [(rank, session) for rank, session in enumerate(ranked, start=1)
                 if session not in own and session in every]
        if found:
            leaking_cases += 1
            total += len(found)
            if len(leaks) < p.show:
                rank, session = found[0]
                leaks.append(f"case {shown(ident(i))} ranks {shown(session)} of {shown(ident(owner(session)))} "
                             f"at {rank}")
    claimed, _, cptr = lookup(ctx, p.claimed)
    claimed_n = exact_number(claimed) if claimed is not MISSING else None
    if total:
        msg = (f"{leaking_cases} case{'s rank' if leaking_cases != 1 else ' ranks'} an answer session of another "
               f"question ({total} result{'s' if total != 1 else ''}; first: {'; '.join(leaks)}): results crossed "
               "from another question's haystack")
        if claimed is not MISSING:
            agrees = claimed_n is not None and claimed_n >= total
            msg += f"{', and' if agrees else ', yet'} {cptr.lstrip('/')} claims {show(claimed)}"
        return [failed(msg, ptr, role, jsonable(claimed) if claimed is not MISSING else None, 0)]
    claim = f"; {cptr.lstrip('/')} {show(claimed)}" if claimed is not MISSING else ""
    return [passed(f"no case among {len(cases)} ranks another question's answer session{claim}", ptr, role, 0, 0)]
