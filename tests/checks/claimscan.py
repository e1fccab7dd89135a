"""The built-in ``claims`` profile run in-process on one document, with evidence of one
LongMemEval-S run (recall@5 0.9717, hit@5 0.98, nDCG@5 0.9107, QA accuracy 0.886 on 500
questions): the setup the tests of claim classes share (``tests/checks/claims/``)."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

from bench_gate.engine import evaluate
from bench_gate.models import Doc
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SCOPE = "LongMemEval-S offline longmemeval_s_cleaned"
RUN = {"recall@5": Fraction(9717, 10000), "recall@10": Fraction(9717, 10000), "hit@5": Fraction(98, 100),
       "ndcg@5": Fraction(9107, 10000), "qa_accuracy": Fraction(443, 500)}
VALUES = [{"metric": m, "value": v, "entry": "/citable/0", "artifact": "run.json", "scope": SCOPE,
           "pointer": f"/overall/{m}"} for m, v in RUN.items()]
ENTRIES = [{"entry": "/citable/0", "artifact": "run.json", "scope": SCOPE, "mode": "hybrid", "ids": ["run.json"],
            "questions": 500, "evaluated": 500, "total": 500, "runtime": None, "calls": {}}]
PLAN = bind(load_profile("claims"))


def scan(text: str, path: str = "README.md") -> list[tuple[str, str, str, str]]:
    """(rule, status, claim status, text) of every claim the profile's rules report."""
    return [(r.rule, r.status, r.claim.status, r.claim.text) for r in _results(text, path) if r.claim is not None]


def messages(text: str, path: str = "README.md", values: list[dict[str, object]] | None = None,
             source: str = "ledger") -> list[tuple[str, str, str]]:
    """(rule, status, message) of every claim the profile's rules report; ``values`` replace the
    run's values, ``source`` says whether they came from a ledger or an evidence file."""
    return [(r.rule, r.status, r.message) for r in _results(text, path, values, source) if r.claim is not None]


def _results(text: str, path: str, values: list[dict[str, object]] | None = None, source: str = "ledger") -> list:
    ledger = {"path": "m.json", "passed": True, "summary": "", "failed": [], "values": 5}
    evidence = {"path": "evidence.yaml", "entries": []}
    docs = {"scan": Doc("scan", path, data={"files": [{"path": path, "text": text}], "include_code": False,
                                             "skipped": []}),
            "citable": Doc("citable", "m.json", data={"values": VALUES if values is None else values, "withheld": [],
                                                       "entries": ENTRIES, "verdict": None, "sota_run": None,
                                                       "tool_version": "0.1.0",
                                                       "ledger": ledger if source == "ledger" else None,
                                                       "evidence": evidence if source == "evidence" else None})}
    return list(evaluate(PLAN, docs, NOW, each_finding=True).results)
