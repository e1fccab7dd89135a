"""Evidence for a claims scan without a ledger: ``bench-gate claims PATH --evidence FILE``, the
``citable_values`` kind a user profile declares its citable values with, and the audit table."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bench_gate.gates.claims_gate import ClaimsError, scan_claims
from bench_gate.report import render

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

PROFILE = """\
name: tiny-format
description: a results format bench-gate has no code for
rules:
  - id: n-is-positive
    title: n is a positive count
    check: fields
    with: {fields: [{path: /n, type: integer, min: 1}]}
    why: w
  - id: citable
    title: the values a page may cite
    check: citable_values
    with:
      benchmark_at: /dataset
      questions: /n
      values:
        - {metric: hit@5, count: /any5, of: /n}
        - {metric: ndcg@10, value: /ndcg10}
      slices_at: /by_type
      slice_values:
        - {metric: hit@5, count: /any5, of: /n}
    why: w
"""

SUMMARY = {"dataset": "LongMemEval-S", "n": 50, "any5": 48, "ndcg10": 0.8123,
           "by_type": {"multi-session": {"n": 10, "any5": 9}}}


def folder(tmp_path: Path, summary: dict[str, Any] | None = None, evidence: str | None = None,
           page: str = "On LongMemEval-S, hit@5 is 96% (48 of 50 questions).\n") -> Path:
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "tiny.yaml").write_text(PROFILE, encoding="utf-8")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "summary.json").write_text(json.dumps(summary or SUMMARY), encoding="utf-8")
    (tmp_path / "evidence.yaml").write_text(evidence if evidence is not None else (
        "evidence:\n  - name: tiny\n    report: results/summary.json\n    profile: profiles/tiny.yaml\n"),
        encoding="utf-8")
    (tmp_path / "README.md").write_text(page, encoding="utf-8")
    return tmp_path


def scan(work: Path, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> Any:
    monkeypatch.chdir(work)
    return scan_claims(["README.md"], kw.pop("ledger", None), None, NOW, evidence_file="evidence.yaml", **kw)


def numbers(verdict: Any) -> list[tuple[str, str, str]]:
    return [(r.status, r.claim.status, r.claim.text) for r in verdict.results if r.claim is not None]


def test_a_user_profile_backs_the_values_it_declares(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = ("On LongMemEval-S, hit@5 is 96% (48 of 50 questions) and nDCG@10 is 0.81.\n\n"
            "Multi-session hit@5 is 90%. Its recall@5 is 94%.\n")
    v = scan(folder(tmp_path, page=page), monkeypatch)
    assert numbers(v) == [("pass", "confirmed", "96%"), ("pass", "confirmed", "48 of 50"), ("pass", "confirmed", "0.81"),
                          ("pass", "confirmed", "90%"), ("fail", "untestable", "94%")]
    confirmed = next(r for r in v.results if r.claim is not None and r.claim.text == "96%")
    # a number resting on a user profile names it, and the evidence names the value's place
    assert "user profile profiles/tiny.yaml" in confirmed.message
    assert confirmed.claim.evidence == {"entry": "tiny", "artifact": "results/summary.json", "pointer": "/any5",
                                        "metric": "hit@5", "value": "0.96 (48/50)",
                                        "user_profile": "profiles/tiny.yaml"}
    assert not v.passed


def test_another_value_is_contradicted_with_the_right_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v = scan(folder(tmp_path, page="On LongMemEval-S, hit@5 is 98%.\n"), monkeypatch)
    [result] = [r for r in v.results if r.claim is not None]
    assert (result.status, result.claim.status) == ("fail", "contradicted")
    assert "the evidence gives hit@5 on LongMemEval-S 0.96 (96%) (tiny, results/summary.json, user profile " \
           "profiles/tiny.yaml)" in result.message


@pytest.mark.parametrize("page,why", [
    ("On LoCoMo, hit@5 is 96%.\n", "no evidence covers LoCoMo"),
    ("On LongMemEval-M, hit@5 is 96%.\n", "no evidence covers LongMemEval-M"),
    ("On LongMemEval (oracle), hit@5 is 96%.\n", "no evidence covers LongMemEval (oracle)"),
    ("On LongMemEval-S, hit@5 is 96% on 500 questions.\n", "the evidence has no hit@5 on LongMemEval-S on 500 questions"),
], ids=["other-benchmark", "other-split", "oracle-split", "other-question-set"])
def test_never_matched_across_benchmarks_splits_or_question_sets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 page: str, why: str) -> None:
    v = scan(folder(tmp_path, page=page), monkeypatch)
    [result] = [r for r in v.results if r.claim is not None]
    assert (result.claim.status, result.claim.reason) == ("untestable", why)


def test_an_entry_whose_gate_fails_backs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v = scan(folder(tmp_path, summary={**SUMMARY, "n": 0}), monkeypatch)
    gate = next(r for r in v.results if r.rule == "claim-evidence-passes")
    assert gate.status == "fail" and gate.message.startswith(
        "evidence 'tiny' (results/summary.json, user profile profiles/tiny.yaml) fails its gate")
    assert [(s, c) for s, c, _ in numbers(v)] == [("fail", "untestable")] * 2


def test_no_evidence_at_all_leaves_every_number_untestable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v = scan(folder(tmp_path, evidence="evidence: []\n"), monkeypatch)
    gate = next(r for r in v.results if r.rule == "claim-evidence-passes")
    assert (gate.status, gate.message) == ("skip", "the evidence file evidence.yaml lists no entry: every number in "
                                                   "the documents is untestable")
    assert numbers(v) == [("fail", "untestable", "96%"), ("fail", "untestable", "48 of 50")]


@pytest.mark.parametrize("evidence,message", [
    ("evidence: {}\n", "expected a mapping with one key, 'evidence', holding a list"),
    ("evidence:\n  - name: a\n    report: results/summary.json\n    profile: profiles/tiny.yaml\n    extra: 1\n",
     "unknown key 'extra'"),
    ("evidence:\n  - report: results/summary.json\n    profile: profiles/tiny.yaml\n", "name must be a non-empty string"),
    ("evidence:\n  - {name: a, report: results/summary.json, profile: profiles/tiny.yaml}\n"
     "  - {name: a, report: results/summary.json, profile: profiles/tiny.yaml}\n", "two entries are named 'a'"),
    ("evidence:\n  - {name: a, report: ../outside.json, profile: profiles/tiny.yaml}\n", "leaves the repository root"),
    ("evidence:\n  - {name: a, report: /etc/passwd, profile: profiles/tiny.yaml}\n", "is absolute"),
    ("evidence:\n  - {name: a, report: results/summary.json, profile: no-such-profile}\n",
     "neither a built-in profile nor a path"),
    ("evidence:\n  - {name: a, report: results/summary.json, profile: profiles/tiny.yaml, set: {x: 1}}\n",
     "declares no parameter 'x'"),
    ("evidence:\n  - {name: a, report: results/summary.json, profile: locomo-qa, set: {questions_sha256: ['" + "0" * 64
     + "']}}\n", "set questions_sha256: a list parameter cannot be set, as with --set; write a profile that extends "
                 "locomo-qa and sets its default"),
    ("evidence:\n  - {name: a, report: results/summary.json, profile: profiles/tiny.yaml, documents: {rows: r.jsonl}}\n",
     "declares no document role 'rows'"),
    ("evidence:\n  - {name: a, report: results/missing.json, profile: profiles/tiny.yaml}\n", "missing.json"),
    ("evidence: [\n", "--evidence evidence.yaml"),
], ids=["not-a-list", "unknown-key", "no-name", "same-name", "dot-dot", "absolute", "unknown-profile",
        "unknown-param", "pinned-list-param", "unknown-role", "missing-report", "not-yaml"])
def test_an_unusable_evidence_file_cannot_be_evaluated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       evidence: str, message: str) -> None:
    work = folder(tmp_path / "repo", evidence=evidence) if (tmp_path / "repo").mkdir() is None else None
    assert work is not None
    (tmp_path / "repo" / ".git").mkdir()
    (tmp_path / "outside.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ClaimsError) as exc:
        scan(work, monkeypatch)
    assert message in str(exc.value)


def test_ledger_or_evidence_is_required(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder(tmp_path))
    with pytest.raises(ClaimsError, match="give --ledger MANIFEST or --evidence FILE"):
        scan_claims(["README.md"], None, None, NOW)


def test_the_audit_table_lists_every_claim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = "On LongMemEval-S, hit@5 is 96% and nDCG@10 is 0.91.\n\nIt is state of the art.\n"
    v = scan(folder(tmp_path, page=page), monkeypatch)
    md = render("markdown", [v])
    assert "**Claims** (3: 1 confirmed, 1 contradicted, 1 untestable)" in md
    rows = [line for line in md.splitlines() if line.startswith("| `README.md:")]
    assert rows[0].startswith("| `README.md:1:28` | `96%` | confirmed | hit@5 = 0.96 (48/50) (`tiny`, "
                              "`results/summary.json` at `/any5`, user profile `profiles/tiny.yaml`) |")
    assert rows[1].startswith("| `README.md:1:47` | `0.91` | **contradicted** | ndcg@10 = 0.8123 (`tiny`, ")
    assert rows[2].startswith("| `README.md:3:7` | `state of the art` | **untestable** | a state-of-the-art claim "
                              "needs a passing official-sota verdict")
    # the JSON verdict carries the same record on each result
    doc = json.loads(render("json", [v]))
    claims = [r["claim"] for r in doc["results"] if "claim" in r]
    assert [c["status"] for c in claims] == ["confirmed", "contradicted", "untestable"]
    assert claims[0]["evidence"]["pointer"] == "/any5"


def test_citable_values_fails_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A declared value that is missing, not a count, or more than its total fails the gate."""
    from bench_gate.gates.report_gate import judge
    from bench_gate.profile import load_profile
    from bench_gate.profile.binding import bind

    work = folder(tmp_path)
    plan = bind(load_profile(str(work / "profiles" / "tiny.yaml")))
    for broken, message in [({"any5": 51}, "count 51 at /any5 over 50 at /n is no share of the questions"),
                            ({"any5": 4.5}, "hit@5 count /any5 must be an exact integer"),
                            ({"ndcg10": "0.8"}, "ndcg@10 /ndcg10 must be a number, got string"),
                            ({"ndcg10": 1.5}, "outside 0..1"),
                            ({"by_type": {"multi-session": {"n": 10}}}, "hit@5 count /by_type/multi-session/any5"),
                            ({"dataset": ""}, "the benchmark at /dataset is \"\"")]:
        (work / "results" / "summary.json").write_text(json.dumps({**SUMMARY, **broken}), encoding="utf-8")
        v = judge(plan, str(work / "results" / "summary.json"), {}, work, NOW, "0.1.0")
        result = next(r for r in v.results if r.rule == "citable")
        assert result.status == "fail" and message in result.message, (broken, result.message)


def test_ledger_and_evidence_combine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sources are gated and both back numbers; each has its own rule's result."""
    work = folder(tmp_path)
    (work / "ledger").mkdir()
    (work / "ledger" / "manifest.json").write_text(json.dumps({"citable": []}), encoding="utf-8")
    v = scan(work, monkeypatch, ledger="ledger/manifest.json")
    rules = {r.rule: r.status for r in v.results if r.rule in ("claim-ledger-passes", "claim-evidence-passes")}
    assert rules == {"claim-ledger-passes": "fail", "claim-evidence-passes": "pass"}
    assert numbers(v) == [("pass", "confirmed", "96%"), ("pass", "confirmed", "48 of 50")]
    assert {i.role for i in v.inputs} >= {"ledger/manifest.json", "evidence", "tiny/report", "README.md"}
