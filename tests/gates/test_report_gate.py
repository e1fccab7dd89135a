"""Adversarial types: a value of the wrong type where the ai-memory gate reads a number, a count
or a required string always fails the rule that reads it, with the exact reason, never passes.

Each row patches one value of the real fixture report (``examples/...rc1_20260610.json``, which
passes) and runs the real command line. The expected column lists *every* failing rule, in plan
order, with its exact message: a wrong type must fail where it is read, and nowhere pass.

Covered: booleans where numbers or counts belong (``true`` is not 1), numeric strings
(``"500"`` is not 500), integral vs non-integral counts (``500.5``; ``500.0`` is an exact
integer and passes), null, empty strings and whitespace-only strings where a value is required,
and a container of the wrong kind.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench_gate.cli.app import main
from golden import ROOT, apply_patch, cases, materialise

NOW = "2026-11-29T12:00:00Z"
BASE = json.loads((ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json").read_text(encoding="utf-8"))
COMMIT = BASE["sibyl_commit"]
CORPUS_HASH = BASE["dataset"]["corpus_hash"]


def judge(report: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, Any]]:
    """Run the command line on ``report``; (exit code, JSON verdict)."""
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["report.json", "--profile", "ai-memory", "--now", NOW, "--format", "json", *extra])
    out, err = capsys.readouterr()
    assert err == ""
    return code, json.loads(out)


def failures(verdict: dict[str, Any]) -> list[tuple[str, str]]:
    return [(r["rule"], r["message"]) for r in verdict["results"] if r["status"] == "fail"]


ROWS: list[tuple[str, str, str, Any, list[tuple[str, str]]]] = [
    ('repeat-count-true', 'replace', '/repeat_count', True, [
        ('repeat-and-auth',
         '/repeat_count must be an exact integer, got boolean true'),
    ]),
    ('repeat-count-string', 'replace', '/repeat_count', '1', [
        ('repeat-and-auth',
         '/repeat_count must be an exact integer, got string "1"'),
    ]),
    ('repeat-count-fractional', 'replace', '/repeat_count', 1.5, [
        ('repeat-and-auth',
         '/repeat_count must be an exact integer, got number 1.5'),
    ]),
    ('repeat-count-zero', 'replace', '/repeat_count', 0, [
        ('repeat-and-auth',
         '/repeat_count is 0, not above 0'),
    ]),
    ('repeat-count-null', 'replace', '/repeat_count', None, [
        ('repeat-and-auth',
         '/repeat_count is null'),
    ]),
    ('total-questions-string', 'replace', '/total_questions', '500', [
        ('case-count-matches',
         '/total_questions must be an integer, got string "500"'),
        ('case-official-set',
         '/total_questions is "500", but the run declares all 500 questions of corpus_hash sha256:d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442'),
    ]),
    ('total-questions-bool', 'replace', '/total_questions', True, [
        ('case-count-matches',
         '/total_questions must be an integer, got boolean true'),
        ('case-official-set',
         '/total_questions is true, but the run declares all 500 questions of corpus_hash sha256:d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442'),
    ]),
    ('total-questions-fractional', 'replace', '/total_questions', 500.5, [
        ('case-count-matches',
         '/total_questions must be an exact integer, got 500.5'),
        ('case-official-set',
         '/total_questions is 500.5, but the run declares all 500 questions of corpus_hash sha256:d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442'),
    ]),
    ('total-questions-null', 'replace', '/total_questions', None, [
        ('case-count-matches',
         '/total_questions is null'),
    ]),
    ('dimensions-string', 'replace', '/runtime/embedding_dimensions', '384', [
        ('scope-runtime',
         '/runtime/embedding_dimensions must be an exact integer, got string "384"'),
        ('embedding-coherent',
         '/runtime/embedding_dimensions must be an integer, got string "384"'),
    ]),
    ('dimensions-bool', 'replace', '/runtime/embedding_dimensions', True, [
        ('scope-runtime',
         '/runtime/embedding_dimensions must be an exact integer, got boolean true'),
        ('embedding-coherent',
         '/runtime/embedding_dimensions must be an integer, got boolean true'),
    ]),
    ('dimensions-fractional', 'replace', '/runtime/embedding_dimensions', 384.5, [
        ('scope-runtime',
         '/runtime/embedding_dimensions must be an exact integer, got number 384.5'),
        ('embedding-coherent',
         '/runtime/embedding_dimensions must be an exact integer, got 384.5'),
    ]),
    ('dimensions-null', 'replace', '/runtime/embedding_dimensions', None, [
        ('scope-runtime',
         '/runtime/embedding_dimensions is null'),
        ('embedding-coherent',
         '/runtime/embedding_dimensions is null'),
    ]),
    ('recall5-string', 'replace', '/overall/recall@5', '0.9406', [
        ('overall-thresholds',
         'overall recall@5 must be a number, got string "0.9406"'),
        ('metrics-recompute',
         'recall@5 must be a number, got string "0.9406"'),
        ('metrics-consistent',
         'overall recall@5 must be a number, got string "0.9406"'),
    ]),
    ('recall5-bool', 'replace', '/overall/recall@5', True, [
        ('overall-thresholds',
         'overall recall@5 must be a number, got boolean true'),
        ('metrics-recompute',
         'recall@5 must be a number, got boolean true'),
        ('metrics-consistent',
         'overall recall@5 must be a number, got boolean true'),
    ]),
    ('recall5-null', 'replace', '/overall/recall@5', None, [
        ('overall-thresholds',
         'overall recall@5 is null (threshold >= 0.75)'),
        ('metrics-recompute',
         'recall@5 must be a number, got null'),
        ('metrics-consistent',
         'overall recall@5 must be a number, got null'),
    ]),
    ('ndcg10-string', 'replace', '/overall/ndcg@10', '0.92', [
        ('overall-thresholds',
         'overall ndcg@10 must be a number, got string "0.92"'),
        ('metrics-recompute',
         'ndcg@10 must be a number, got string "0.92"'),
        ('metrics-consistent',
         'overall ndcg@10 must be a number, got string "0.92"'),
    ]),
    ('hit5-bool', 'replace', '/overall/hit@5', True, [
        ('metrics-recompute',
         'hit@5 must be a number, got boolean true'),
        ('metrics-consistent',
         'overall hit@5 must be a number, got boolean true'),
    ]),
    ('commit-empty', 'replace', '/sibyl_commit', '', [
        ('header-identity',
         '/sibyl_commit is empty'),
    ]),
    ('commit-whitespace', 'replace', '/sibyl_commit', '   ', [
        ('header-identity',
         '/sibyl_commit is empty'),
    ]),
    ('commit-null', 'replace', '/sibyl_commit', None, [
        ('header-identity',
         '/sibyl_commit is null'),
    ]),
    ('commit-number', 'replace', '/sibyl_commit', 123, [
        ('header-identity',
         '/sibyl_commit must be a string, got integer 123'),
    ]),
    ('commit-uppercase', 'replace', '/sibyl_commit', COMMIT.upper(), [
        ('header-identity',
         '/sibyl_commit is "E909F01DC265A2FD6CC06621C86A9717A9C1FC5A", expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)'),
    ]),
    ('commit-padded', 'replace', '/sibyl_commit', " " + COMMIT, [
        ('header-identity',
         '/sibyl_commit is " e909f01dc265a2fd6cc06621c86a9717a9c1fc5a", expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)'),
    ]),
    ('schema-empty', 'replace', '/schema_version', '', [
        ('header-identity',
         '/schema_version is empty'),
    ]),
    ('schema-whitespace', 'replace', '/schema_version', ' \t\n', [
        ('header-identity',
         '/schema_version is empty'),
    ]),
    ('suite-null', 'replace', '/suite', None, [
        ('header-identity',
         '/suite is null'),
    ]),
    ('generated-at-empty', 'replace', '/generated_at', '', [
        ('header-identity',
         '/generated_at is empty'),
        ('header-generated-at',
         "generated_at '' is neither an RFC 3339 timestamp with an offset (2026-11-29T12:00:00Z) nor a date "
         "(YYYY-MM-DD)"),
    ]),
    ('command-empty-string', 'replace', '/command', '', [
        ('header-identity',
         '/command is empty'),
    ]),
    ('command-empty-list', 'replace', '/command', [], [
        ('header-identity',
         '/command is empty'),
    ]),
    ('command-bool', 'replace', '/command', True, [
        ('header-identity',
         '/command must be a string-or-array, got boolean true'),
    ]),
    ('dataset-name-whitespace', 'replace', '/dataset/name', '  ', [
        ('scope-dataset',
         '/dataset/name is empty'),
    ]),
    ('corpus-hash-bool', 'replace', '/dataset/corpus_hash', True, [
        ('scope-dataset',
         '/dataset/corpus_hash must be a string, got boolean true'),
    ]),
    ('corpus-hash-bare', 'replace', '/dataset/corpus_hash', CORPUS_HASH[len('sha256:'):], [
        ('scope-dataset',
         '/dataset/corpus_hash is "d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442", expected a sha256-uri'),
    ]),
    ('corpus-hash-uppercase', 'replace', '/dataset/corpus_hash', 'SHA256:' + CORPUS_HASH[len('sha256:'):], [
        ('scope-dataset',
         '/dataset/corpus_hash is "SHA256:d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442", expected a sha256-uri'),
    ]),
    ('auth-empty', 'replace', '/auth_manifest_id', '', [
        ('repeat-and-auth',
         '/auth_manifest_id is empty'),
    ]),
    ('retrieval-mode-padded', 'replace', '/runtime/retrieval_mode', ' hybrid', [
        ('retrieval-mode-known',
         '/runtime/retrieval_mode is " hybrid", expected one of "pre-graphiti", "post-graphiti", "native", "compare", "raw", "hybrid"'),
        ('retrieval-mode-consistent',
         'report:/runtime/retrieval_mode is " hybrid" but report:/mode is "hybrid"'),
    ]),
    ('retrieval-mode-upper', 'replace', '/runtime/retrieval_mode', 'HYBRID', [
        ('retrieval-mode-known',
         '/runtime/retrieval_mode is "HYBRID", expected one of "pre-graphiti", "post-graphiti", "native", "compare", "raw", "hybrid"'),
        ('retrieval-mode-consistent',
         'report:/runtime/retrieval_mode is "HYBRID" but report:/mode is "hybrid"'),
    ]),
    ('retrieval-mode-null', 'replace', '/runtime/retrieval_mode', None, [
        ('scope-runtime',
         '/runtime/retrieval_mode is null'),
        ('retrieval-mode-known',
         '/runtime/retrieval_mode is null'),
        ('retrieval-mode-consistent',
         'report:/runtime/retrieval_mode is null (it must equal /mode, /runtime/retrieval_mode)'),
    ]),
    ('mode-bool', 'replace', '/mode', True, [
        ('retrieval-mode-consistent',
         'report:/runtime/retrieval_mode is "hybrid" but report:/mode is true'),
    ]),
    ('runtime-mode-whitespace', 'replace', '/runtime/runtime_mode', ' ', [
        ('scope-runtime',
         '/runtime/runtime_mode is empty'),
    ]),
    ('k-values-strings', 'replace', '/k_values', ['5', '10'], [
        ('metrics-recompute',
         '/k_values/0 must be an integer, got string "5"'),
        ('metrics-consistent',
         '/k_values/0 must be an integer, got string "5"'),
    ]),
    ('k-values-bools', 'replace', '/k_values', [True, 10], [
        ('metrics-recompute',
         '/k_values/0 must be an integer, got boolean true'),
        ('metrics-consistent',
         '/k_values/0 must be an integer, got boolean true'),
    ]),
    ('k-values-fractional', 'replace', '/k_values', [5.5, 10], [
        ('metrics-recompute',
         '/k_values/0 must be an exact integer, got 5.5'),
        ('metrics-consistent',
         '/k_values/0 must be an exact integer, got 5.5'),
    ]),
    ('k-values-empty', 'replace', '/k_values', [], [
        ('metrics-recompute',
         '/k_values must be a non-empty list of integers, got []'),
        ('metrics-consistent',
         '/k_values must be a non-empty list of integers, got []'),
    ]),
    ('k-values-null', 'replace', '/k_values', None, [
        ('metrics-recompute',
         '/k_values must be a non-empty list of integers, got null'),
        ('metrics-consistent',
         '/k_values must be a non-empty list of integers, got null'),
    ]),
    ('case-id-empty', 'replace', '/case_results/0/question_id', '', [
        ('cases-present',
         '/case_results/0/question_id is empty'),
        ('case-official-set',
         'a run on corpus_hash sha256:d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442 declaring all 500 questions has no case for 1 question (first e47becba): a number on 499 of them reads as a number on all of them; a run on part of the set declares it (dataset limit or selected_case_indices) and is cited as a subset (and 1 more)'),
        ('metrics-recompute',
         '/case_results/0 has no id (question_id / case_id / task_id)'),
    ]),
    ('case-id-number', 'replace', '/case_results/0/question_id', 7, [
        ('cases-present',
         '/case_results/0/question_id must be a string, got integer 7'),
        ('case-official-set',
         'a run on corpus_hash sha256:d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442 declaring all 500 questions has no case for 1 question (first e47becba): a number on 499 of them reads as a number on all of them; a run on part of the set declares it (dataset limit or selected_case_indices) and is cited as a subset (and 1 more)'),
        ('metrics-recompute',
         '/case_results/0 has no id (question_id / case_id / task_id)'),
    ]),
    ('case-answers-string', 'replace', '/case_results/0/answer_session_ids', 'answer_280352e9', [
        ('cases-present',
         '/case_results/0/answer_session_ids must be a array, got string "answer_280352e9"'),
        ('metrics-recompute',
         'case e47becba: answer_session_ids must be a list of session ids, got "answer_280352e9"'),
    ]),
    ('case-answers-empty', 'replace', '/case_results/0/answer_session_ids', [], [
        ('cases-present',
         '/case_results/0/answer_session_ids is empty'),
        ('metrics-recompute',
         'case e47becba: answer_session_ids is empty, so strict recall is undefined'),
    ]),
    ('case-answers-null', 'replace', '/case_results/0/answer_session_ids', None, [
        ('cases-present',
         '/case_results/0/answer_session_ids is null'),
        ('metrics-recompute',
         'case e47becba: answer_session_ids must be a list of session ids, got null'),
    ]),
    ('case-ranked-null', 'replace', '/case_results/0/ranked_session_ids', None, [
        ('cases-present',
         '/case_results/0/ranked_session_ids is null'),
        ('metrics-recompute',
         'case e47becba: ranked_session_ids must be a list of session ids, got null'),
    ]),
    ('case-ranked-numbers', 'replace', '/case_results/0/ranked_session_ids', [1, 2], [
        ('metrics-recompute',
         'case e47becba: ranked_session_ids must be a list of session ids, got [1, 2]'),
    ]),
    ('case-recall-string', 'replace', '/case_results/0/recall@5', '1.0', [
        ('metrics-recompute',
         'case e47becba recall@5 must be a number, got string "1.0"'),
    ]),
    ('case-recall-bool', 'replace', '/case_results/0/recall@5', True, [
        ('metrics-recompute',
         'case e47becba recall@5 must be a number, got boolean true'),
    ]),
    ('overall-null', 'replace', '/overall', None, [
        ('scope-overall',
         '/overall is null'),
        ('overall-thresholds',
         '/overall is null'),
        ('metrics-recompute',
         '/overall is null'),
        ('metrics-consistent',
         '/overall is null'),
    ]),
    ('overall-list', 'replace', '/overall', [], [
        ('scope-overall',
         '/overall must be a object, got array []'),
        ('overall-thresholds',
         '/overall must be an object of metrics, got array'),
        ('metrics-recompute',
         '/overall must be an object, got array'),
        ('metrics-consistent',
         '/overall must be an object, got array'),
    ]),
    ('runtime-string', 'replace', '/runtime', 'offline', [
        ('scope-runtime',
         '/runtime must be an object, got string'),
        ('retrieval-mode-known',
         '/runtime must be an object, got string'),
        ('embedding-coherent',
         '/runtime/embedding_provider is missing'),
    ]),
    ('case-results-object', 'replace', '/case_results', {}, [
        ('cases-present',
         '/case_results must be a list, got object'),
        ('case-count-matches',
         '/case_results must be a list, got object'),
        ('case-question-types',
         'report:/case_results holds no cases: a question set of nothing is no question set'),
        ('case-official-set',
         '/case_results must be a list of cases, got object'),
        ('isolation-recomputed',
         '/case_results must be a non-empty list of cases, got object'),
        ('metrics-recompute',
         '/case_results must be a non-empty list of cases, got object'),
    ]),
    ('per-type-null', 'replace', '/per_type', None, [
        ('summary-present',
         'none of the summaries is a non-empty object: /per_type null, /per_slice absent, /per_category absent, /per_task absent'),
        ('slice-thresholds',
         '/per_type must be an object of slices, got null'),
        ('metrics-recompute',
         '/per_type must be an object, got null'),
    ]),
    ('slice-string', 'replace', '/per_type/multi-session/recall@5', '0.9', [
        ('slice-thresholds',
         'per_type[multi-session] recall@5 must be a number, got string "0.9"'),
        ('metrics-recompute',
         'per_type[multi-session] recall@5 must be a number, got string "0.9"'),
        ('metrics-consistent',
         'per_type[multi-session] recall@5 must be a number, got string "0.9"'),
    ]),
    ('cross-question-bool', 'add', '/overall/cross_question_result_count', False, [
        ('isolation-no-leakage',
         '/overall/cross_question_result_count must be a number, got boolean false'),
    ]),
    ('cross-question-string', 'add', '/overall/cross_question_result_count', '0', [
        ('isolation-no-leakage',
         '/overall/cross_question_result_count must be a number, got string "0"'),
    ]),
]


@pytest.mark.parametrize(("op", "path", "value", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_wrong_type_fails_where_it_is_read(op: str, path: str, value: Any, expected: list[tuple[str, str]],
                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    report = apply_patch(BASE, [{"op": op, "path": path, "value": value}])
    code, verdict = judge(report, tmp_path, monkeypatch, capsys)
    assert (code, verdict["passed"]) == (1, False)
    assert failures(verdict) == expected
    assert not any("internal error" in r["message"] for r in verdict["results"])


# Integral counts written as floats are exact integers; the honest report stays a PASS.
ACCEPTED = [
    ("repeat-count-one-point-zero", "/repeat_count", 1.0),
    ("total-questions-500-point-0", "/total_questions", 500.0),
    ("dimensions-384-point-0", "/runtime/embedding_dimensions", 384.0),
    ("k-values-as-floats", "/k_values", [5.0, 10.0]),
]


@pytest.mark.parametrize(("path", "value"), [r[1:] for r in ACCEPTED], ids=[r[0] for r in ACCEPTED])
def test_integral_floats_are_counts(path: str, value: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    report = apply_patch(BASE, [{"op": "replace", "path": path, "value": value}])
    code, verdict = judge(report, tmp_path, monkeypatch, capsys)
    assert (code, failures(verdict)) == (0, [])


@pytest.mark.parametrize(("literal", "expected"), [
    ("500.0000000000000001", "/total_questions must be an exact integer, got 500.0000000000000001"),
    ("499.99999999999999", "/total_questions must be an exact integer, got 499.99999999999999"),
    ("5e2", None),
    ("500E0", None),
], ids=["just-above-500", "rounds-to-500-as-float", "exponent-integral", "upper-exponent-integral"])
def test_count_literal_is_judged_as_written(literal: str, expected: str | None, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(BASE).replace('"total_questions": 500,', f'"total_questions": {literal},', 1)
    assert literal in text
    (tmp_path / "report.json").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["report.json", "--profile", "ai-memory", "--now", NOW, "--format", "json"])
    out, err = capsys.readouterr()
    verdict = json.loads(out)
    assert err == ""
    if expected is None:
        assert (code, failures(verdict)) == (0, [])
    else:
        assert code == 1
        assert ("case-count-matches", expected) in failures(verdict)


def test_terminal_controls_from_the_report_are_escaped_in_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A report cannot redraw the log: ESC, carriage return and bidi overrides are shown escaped."""
    report = apply_patch(BASE, [
        {"op": "replace", "path": "/runtime/embedding_model", "value": "m\r\x1b[2KPASS\u202e"},
        {"op": "replace", "path": "/case_results/0/question_id", "value": "e47\x1b[2Kbecba"},
        {"op": "replace", "path": "/case_results/0/recall@5", "value": 0.5},
    ])
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["report.json", "--profile", "ai-memory", "--now", NOW, "--no-color", "-v"])
    out, _ = capsys.readouterr()
    assert code == 1
    assert not [c for c in out if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) <= 0x9f or c == "\u202e"]
    assert "       case e47\\x1b[2Kbecba recall@5: claimed 0.5, recomputed strict recall@5 is 1" in out.splitlines()
    assert "       chromadb m\\x0d\\x1b[2KPASS\\u202e: 384 dimensions" in out.splitlines()


@pytest.mark.parametrize(("allowance", "expected"), [
    ("1", ("fail", "--max-regression recall@5=1 allows any drop of a fraction in [0, 1] "
                   "(percentage points? one point is 0.01)")),
    ("5", ("fail", "--max-regression recall@5=5 allows any drop of a fraction in [0, 1] "
                   "(percentage points? one point is 0.01)")),
    ("0.05", ("pass", "recall@5 0.9405666666666668 vs baseline 0.99: regression 0.0494 (allowed 0.05)")),
    ("0.04", ("fail", "recall@5 dropped from baseline 0.99 to 0.9405666666666668, a regression of 0.0494 "
                      "(allowed 0.04)")),
], ids=["one-point-written-as-1", "five-points-written-as-5", "within-fraction", "beyond-fraction"])
def test_regression_allowance_is_a_fraction(allowance: str, expected: tuple[str, str], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    baseline = {"overall": dict(BASE["overall"], **{"recall@5": 0.99})}
    (tmp_path / "baseline.json").write_text(json.dumps(baseline), encoding="utf-8")
    code, verdict = judge(BASE, tmp_path, monkeypatch, capsys, "--baseline", "baseline.json",
                          "--baseline-metric", "recall@5", "--max-regression", f"recall@5={allowance}")
    result = next(r for r in verdict["results"] if r["rule"] == "baseline-regression")
    assert (result["status"], result["message"]) == expected
    assert code == (0 if expected[0] == "pass" else 1)


@pytest.mark.parametrize(("literal", "code", "message"), [
    ("0.9717", 0, "overall: recall@5 0.9406 ≥ 0.75, ndcg@5 0.9107 ≥ 0.7, recall@10 0.9717 ≥ 0.9717, ndcg@10 0.9240 ≥ 0.7"),
    ("0.9717000000000001", 1, "overall recall@10 0.9717 is below the minimum 0.9717000000000001"),
    ("0.97170000000000001", 2, "bench-gate: error: --min-metric recall@10=0.97170000000000001: cannot be held exactly "
                               "(it would be 0.9717); write 0.9717"),
], ids=["tie-passes", "one-ulp-above-fails", "beyond-float-precision-is-refused"])
def test_threshold_on_the_command_line_is_exact(literal: str, code: int, message: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "report.json").write_text(json.dumps(BASE), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = main(["report.json", "--profile", "ai-memory", "--now", NOW, "--format", "json",
                   "--min-metric", f"recall@10={literal}"])
    out, err = capsys.readouterr()
    assert result == code
    if code == 2:
        assert (out, err) == ("", message + "\n")
    else:
        rule = next(r for r in json.loads(out)["results"] if r["rule"] == "overall-thresholds")
        assert rule["message"] == message


@pytest.mark.parametrize(("candidate", "allowance", "code", "status", "message"), [
    (1000.0, "50", 1, "fail", "latency_p95_ms rose from baseline 900.0 to 1000.0, a regression of 100 (allowed 50)"),
    (950.5, "50", 1, "fail", "latency_p95_ms rose from baseline 900.0 to 950.5, a regression of 50.5 (allowed 50)"),
    (950.0, "50", 0, "pass", "latency_p95_ms 950.0 vs baseline 900.0: regression 50 (allowed 50)"),
    (800.0, "0", 0, "pass", "latency_p95_ms 800.0 vs baseline 900.0: regression 0 (allowed 0)"),
], ids=["lower-is-better-rose", "rose-just-beyond", "rose-exactly-the-allowance", "fell-is-an-improvement"])
def test_sign_of_a_regression(candidate: float, allowance: str, code: int, status: str, message: str, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """For a lower-is-better metric (``*_ms``) a rise is the regression and a fall is not."""
    report = apply_patch(BASE, [{"op": "add", "path": "/overall/latency_p95_ms", "value": candidate}])
    (tmp_path / "baseline.json").write_text(json.dumps({"overall": {"latency_p95_ms": 900.0}}), encoding="utf-8")
    result, verdict = judge(report, tmp_path, monkeypatch, capsys, "--baseline", "baseline.json",
                            "--baseline-metric", "latency_p95_ms", "--max-regression", f"latency_p95_ms={allowance}")
    rule = next(r for r in verdict["results"] if r["rule"] == "baseline-regression")
    assert (result, rule["status"], rule["message"]) == (code, status, message)


@pytest.mark.parametrize(("claimed", "code"), [
    (0.9405666666666668, 0),   # the mean as the float division gives it
    (0.9405666666666667, 0),   # float noise of another summation order: within the 1e-9 tolerance
    (0.94056667, 0),           # rounded to the 8 places it is written with: a producer's rounding
    (0.9406, 0),               # rounded to the 4 places it is written with
    (0.9405, 1),               # 4 places, truncated: 0.940566... rounds to 0.9406
    (0.94, 1),                 # 2 places: fewer than a rounded fraction needs (3)
], ids=["exact-float", "summation-noise", "eight-places", "four-places", "four-places-truncated", "two-places"])
def test_float_noise_in_a_claimed_mean(claimed: float, code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    report = apply_patch(BASE, [{"op": "replace", "path": "/overall/recall@5", "value": claimed}])
    result, verdict = judge(report, tmp_path, monkeypatch, capsys)
    assert result == code, [r["message"] for r in verdict["results"] if r["status"] == "fail"]


@pytest.mark.parametrize("literal", ["1" + "0" * 400, "-" + "9" * 4000, "1e-400", "0." + "9" * 4000],
                         ids=["integer-1e400", "negative-4000-digits", "tiny", "4000-decimal-places"])
def test_extreme_metric_values_fail_without_internal_errors(literal: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(BASE).replace('"recall@5": 0.9405666666666668', f'"recall@5": {literal}', 1)
    assert literal in text
    (tmp_path / "report.json").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for fmt in ("json", "text", "sarif", "junit", "github", "markdown"):
        code = main(["report.json", "--profile", "ai-memory", "--now", NOW, "--format", fmt])
        out, err = capsys.readouterr()
        assert (code, err) == (1, ""), fmt
        assert "internal error" not in out, fmt


def test_sum_beyond_the_float_range_fails_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A 401-digit cost makes the accounting sum unprintable as a float; it still fails with a message."""
    case = next(c for c in cases() if c.id == "ai-memory/seed-qa-gate-passes")
    work = materialise(case, tmp_path)
    text = (work / "report.json").read_text(encoding="utf-8")
    big = "1" + "0" * 400
    text = text.replace('"estimated_cost_usd": 1.59', f'"estimated_cost_usd": {big}', 1)
    assert big in text
    (work / "report.json").write_text(text, encoding="utf-8")
    monkeypatch.chdir(work)
    code = main([*case.args, "--now", NOW, "--format", "json"])
    out, err = capsys.readouterr()
    verdict = json.loads(out)
    total = next(r for r in verdict["results"] if r["rule"] == "accounting-total")
    assert (code, err, total["status"]) == (1, "", "fail")
    assert total["message"] == ("/accounting/cost/estimated_total_usd is 2.93 but /accounting/embedding/estimated_cost_usd"
                                " + /accounting/reader/estimated_cost_usd + /accounting/judge/estimated_cost_usd"
                                " = 1.000000e+400")
