"""What a report looks like, and whether it is the format the built-in profile judges.

A built-in profile run on a report of another format fails most of its rules, and a wall of
failures reads as "the claim is false". When the report has none of the top-level marks of the
profile's format, the gate says so first, in one result (``report-format``): what the report
looks like (an AEF run, a LongMemEval evaluator log, an importer report...) and the profile or
the walkthrough to use. The other rules still run and fail as they do; the exit code is 1.

Only the marks are looked at (which keys, which row fields), never the values: a report of the
right format that is broken is the other rules' business, not this one's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench_gate.models import Doc, RuleResult
from bench_gate.records import record

RULE = "report-format"
WALKTHROUGH = "docs/profiles.md, \"Gate a format bench-gate has never seen\""


def _rows(doc: Doc) -> list[Any]:
    """The objects a report holds as rows: its JSON Lines rows, the items of a top-level array."""
    if doc.rows is not None:
        return [value for _, value in doc.rows[:20]]
    if isinstance(doc.data, list):
        return doc.data[:20]
    return []


def _object(doc: Doc) -> dict[str, Any]:
    """The report as a JSON object (a one-line JSON Lines file included), or {}."""
    if isinstance(doc.data, dict):
        return doc.data
    if doc.rows is not None and len(doc.rows) == 1 and isinstance(doc.rows[0][1], dict):
        return doc.rows[0][1]
    return {}


def _rows_with(*fields: str) -> Callable[[Doc], bool]:
    def test(doc: Doc) -> bool:
        rows = _rows(doc)
        return bool(rows) and all(isinstance(r, dict) and any(f in r for f in fields) for r in rows)
    return test


def _keys(*keys: str) -> Callable[[Doc], bool]:
    return lambda doc: any(k in _object(doc) for k in keys)


def _aef(doc: Doc) -> bool:
    if isinstance(doc.extra, dict) and "files" in doc.extra:
        return True
    data = _object(doc)
    return "runId" in data and ("lanes" in data or "status" in data)


def _locomo(doc: Doc) -> bool:
    data = _object(doc)
    lists = [v for v in data.values() if isinstance(v, list)]
    return bool(lists) and len(lists) == len(data) and all(
        isinstance(item, dict) and "category" in item and "llm_score" in item for v in lists for item in v[:5])


@record
class Format:
    """A report format bench-gate has a built-in profile for."""

    name: str  # what it is, for messages: "an AEF run"
    marks: str  # why a report is not it: "it has no overall, per_type or case_results"
    profile: str
    page: str
    test: Callable[[Doc], bool]
    use: str = ""  # how to use it, when it is not the report of its profile


FORMATS: dict[str, Format] = {
    "aef": Format("an AEF run", "it is neither a run folder nor a summary.json with runId and lanes", "memory-pair",
                  "docs/memory-pair.md; aef-seal checks one run's seal", _aef),
    "importer": Format("a LongMemEval importer report", "it has no official_qa, external_suite or result_provenance",
                       "official-full", "docs/official-full.md",
                       _keys("official_qa", "external_suite", "result_provenance")),
    "ai-memory": Format("an ai-memory retrieval artifact", "it has no overall or case_results", "ai-memory",
                        "docs/ai-memory.md", _keys("overall", "case_results")),
    "qa-scores": Format("a LongMemEval QA scores file", "it has no overall_accuracy and task_averaged_accuracy",
                        "longmemeval-qa", "docs/longmemeval-qa.md",
                        lambda doc: all(k in _object(doc) for k in ("overall_accuracy", "task_averaged_accuracy")),
                        use="give it as --scores to --profile longmemeval-qa, with the evaluator's log as the report"),
    "locomo": Format("a LoCoMo evaluation output", "it is no object of lists of rows with category and llm_score", "locomo-qa",
                     "docs/locomo-qa.md", _locomo),
    "retrieval-log": Format("a LongMemEval retrieval log", "its rows have no retrieval_results",
                            "longmemeval-retrieval", "docs/longmemeval-retrieval.md", _rows_with("retrieval_results")),
    "qa-log": Format("a longmemeval-qa evaluator log", "its rows have no autoeval_label",
                     "longmemeval-qa", "docs/longmemeval-qa.md", _rows_with("autoeval_label")),
}
"""In the order they are recognised: the most specific marks first."""

JUDGED_BY = {"ai-memory": "ai-memory", "official-full": "importer", "official-sota": "importer",
             "memory-pair": "aef", "aef-seal": "aef", "longmemeval-qa": "qa-log",
             "longmemeval-retrieval": "retrieval-log", "locomo-qa": "locomo"}
"""The format each built-in profile judges."""


def looks_like(doc: Doc) -> Format | None:
    """The format the report shows the marks of, or None."""
    return next((f for f in FORMATS.values() if f.test(doc)), None)


def advice(found: Format | None) -> str:
    """What it looks like and what to use: ``it looks like an AEF run; use --profile memory-pair (...)``."""
    if found is None:
        return f"it looks like no format bench-gate has a profile for; write one ({WALKTHROUGH})"
    return f"it looks like {found.name}; {found.use or 'use --profile ' + found.profile} ({found.page})"


def mismatch(profile: str, doc: Doc) -> str | None:
    """One line when a built-in profile's report has none of its format's marks, else None."""
    key = JUDGED_BY.get(profile)
    if key is None or doc.error is not None:
        return None
    expected = FORMATS[key]
    if expected.test(doc):
        return None
    found = looks_like(doc)
    return (f"this report does not look like {expected.name}, which profile {profile} judges ({expected.marks}): "
            f"{advice(found)}. The failures that follow are of a report in another format")


def result(profile: str, source: str, doc: Doc) -> RuleResult | None:
    """The ``report-format`` result to put first, or None when the report has its format's marks."""
    message = mismatch(profile, doc)
    if message is None:
        return None
    key = JUDGED_BY[profile]
    found = looks_like(doc)
    return RuleResult(rule=RULE, title=f"The report is {FORMATS[key].name}", status="fail", severity="error",
                      message=message, document="report", pointer="", source=source, check=RULE,
                      actual=found.name if found is not None else "unknown", expected=FORMATS[key].name,
                      why="A built-in profile judges one format; a report in another fails its rules for that "
                          "reason, not for its claims.")


def hint(path: str, loaded: Callable[[str], Doc]) -> str:
    """For a report that cannot be read as its profile's format: what it looks like when read as JSON,
    as JSON Lines or as a run folder (``loaded(fmt)``), as ``"; it looks like ..."``, or ""."""
    for fmt in ("json", "jsonl", "runfolder"):
        doc = loaded(fmt)
        if doc.error is None:
            found = looks_like(doc)
            return f"; {advice(found)}" if found is not None else ""
    return ""
