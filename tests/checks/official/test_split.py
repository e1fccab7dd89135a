"""The LongMemEval split of an official QA result: read from every statement of the report.

Unit tests of ``bench_gate.checks.official.split`` (file names, the evaluator command's
reference file, dataset_counts, the accepted hash) and end-to-end runs of the command line on
the bundled example moved to the oracle file, as the real importer writes it by default.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bench_gate.checks.base import Context
from bench_gate.checks.official.split import (
    SplitParams, dataset_split, reference_file, split_label, split_of_name,
)
from bench_gate.cli.app import main
from bench_gate.models import Doc

from kindtest import context, run as run_kind
from repo import ROOT

EXAMPLE = ROOT / "examples" / "official"
NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
S_HASH = "d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442"
ACCEPTED = {"longmemeval_s_cleaned.json": [S_HASH]}
W = "/home/ci/LongMemEval/data/"


@pytest.mark.parametrize(("name", "split"), [
    (W + "longmemeval_s_cleaned.json", "s"), ("longmemeval_s.json", "s"), ("LongMemEval-S.json", "s"),
    ("longmemeval_s_question_types.json", "s"), (W + "longmemeval_m_cleaned.json", "m"),
    ("longmemeval_oracle.json", "oracle"), ("C:\\data\\LongMemEval_Oracle.json", "oracle"),
    ("my_oracle_copy.json", "oracle"), ("longmemeval_s_oracle.json", "oracle"),
    ("questions.json", None), ("longmemeval_sm.json", None), ("longmemeval.json", None),
    ("/home/longmemeval_s/data/questions.json", None),  # only the file name counts
])
def test_split_of_name(name: str, split: str | None) -> None:
    assert split_of_name(name) == split


@pytest.mark.parametrize(("command", "ref"), [
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl ../../data/longmemeval_oracle.json", "../../data/longmemeval_oracle.json"),
    ("/usr/bin/python3.11 src/evaluation/evaluate_qa.py gpt-4o hyp.jsonl ref.json", "ref.json"),
    ("evaluate_qa.py gpt-4o hyp.jsonl ref.json", "ref.json"),
    ("echo evaluate_qa.py gpt-4o hyp.jsonl ref.json", None),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl", None),
    ("python3 evaluate_qa.py 'unclosed", None),
])
def test_reference_file(command: str, ref: str | None) -> None:
    assert reference_file(command) == ref


def ctx(report: dict[str, Any], path: str = W + "longmemeval_s_cleaned.json", sha: str = "e" * 64,
        validator: dict[str, Any] | None = None) -> Context:
    docs = {"report": Doc("report", "report.json", "f" * 64, 10, data=report),
            "dataset": Doc("dataset", path, sha, 10, extra={"format": "dataset"})}
    if validator is not None:
        docs["validator"] = Doc("validator", "validator.json", "a" * 64, 10, data=validator)
    return context(**docs)


def report(dataset: str = "longmemeval_s_cleaned.json", ref: str = "longmemeval_s_cleaned.json",
           counts: dict[str, int | None] | None = None) -> dict[str, Any]:
    return {"official_qa": {"dataset_path": W + dataset,
                            "official_eval_command": f"python3 evaluate_qa.py gpt-4o hyp.jsonl {W}{ref}"},
            "result_provenance": {"dataset": W + dataset},
            "external_suite": {"dataset_counts": counts if counts is not None else
                               {"longmemeval_oracle.json": 500, "longmemeval_s_cleaned.json": 500,
                                "longmemeval_m_cleaned.json": None}}}


def one(c: Context, p: SplitParams) -> tuple[str, str]:
    [finding] = list(run_kind(dataset_split, p, c))
    return finding.status, finding.message


def test_s_everywhere_passes_and_names_the_split() -> None:
    status, message = one(ctx(report()), SplitParams(accepted=ACCEPTED))
    assert status == "pass"
    assert message.startswith("the result is on LongMemEval-S (longmemeval_s_cleaned.json: the split leaderboards "
                              "report); named by official_qa.dataset_path (longmemeval_s_cleaned.json), ")
    assert "dataset_counts" not in message  # two files counted: says nothing


def test_oracle_everywhere_is_named_in_official_full_and_not_comparable_in_sota() -> None:
    c = ctx(report("longmemeval_oracle.json", "longmemeval_oracle.json",
                   {"longmemeval_oracle.json": 500, "longmemeval_s_cleaned.json": None}), W + "longmemeval_oracle.json")
    status, message = one(c, SplitParams(accepted=ACCEPTED))
    assert status == "pass"
    assert message.startswith("the result is on the LongMemEval oracle split (longmemeval_oracle.json: evidence "
                              "sessions only): a diagnostic of the reader, not comparable with a leaderboard result;")
    assert "external_suite.dataset_counts (counts only longmemeval_oracle.json)" in message
    status, message = one(c, SplitParams(accepted=ACCEPTED, require="comparable"))
    assert status == "fail"
    assert "not comparable with the baseline, a LongMemEval-S result (longmemeval_s_cleaned.json)" in message


def test_m_result_is_not_comparable_with_an_s_baseline_but_with_an_m_one() -> None:
    c = ctx(report("longmemeval_m_cleaned.json", "longmemeval_m_cleaned.json"), W + "longmemeval_m_cleaned.json")
    assert one(c, SplitParams(require="comparable"))[0] == "fail"
    assert one(c, SplitParams(require="comparable", baseline_split="m"))[0] == "pass"


@pytest.mark.parametrize(("changes", "other"), [
    ({"ref": "longmemeval_oracle.json"}, "the reference file of official_qa.official_eval_command (longmemeval_oracle.json)"),
    ({"counts": {"longmemeval_oracle.json": 500, "longmemeval_s_cleaned.json": None}},
     "external_suite.dataset_counts (counts only longmemeval_oracle.json)"),
])
def test_two_splits_fail_listing_both(changes: dict[str, Any], other: str) -> None:
    status, message = one(ctx(report(**changes)), SplitParams())
    assert status == "fail"
    assert message.startswith("the report names more than one LongMemEval split (LongMemEval-S: ")
    assert f"the LongMemEval oracle split: {other}" in message


def test_the_validator_record_is_a_statement_too() -> None:
    c = ctx(report(), validator={"longmemeval": {"dataset": "data/longmemeval_oracle.json"}})
    p = SplitParams(paths=["/official_qa/dataset_path", "validator:/longmemeval/dataset"], require="comparable")
    status, message = one(c, p)
    assert status == "fail"
    assert "the LongMemEval oracle split: validator longmemeval.dataset (longmemeval_oracle.json)" in message


def test_a_renamed_file_is_placed_by_its_accepted_hash_and_a_hash_contradicts_a_name() -> None:
    anon = report("questions.json", "questions.json", {})
    status, message = one(ctx(anon, W + "questions.json", S_HASH), SplitParams(accepted=ACCEPTED))
    assert status == "pass"
    assert "the dataset file's SHA-256 (the official longmemeval_s_cleaned.json)" in message
    named_oracle = report("longmemeval_oracle.json", "longmemeval_oracle.json", {})
    status, message = one(ctx(named_oracle, W + "longmemeval_oracle.json", S_HASH), SplitParams(accepted=ACCEPTED))
    assert status == "fail"
    assert "more than one LongMemEval split" in message


def test_nothing_named_fails_closed() -> None:
    anon = report("questions.json", "questions.json", {"longmemeval_oracle.json": None})
    status, message = one(ctx(anon, W + "questions.json"), SplitParams(accepted=ACCEPTED))
    assert status == "fail" and "no part of the report names a LongMemEval split" in message, message
    assert split_label(ctx(anon, W + "questions.json"), ACCEPTED) == "LongMemEval split not named"


def test_a_dataset_read_from_another_path_is_a_statement() -> None:
    # --dataset names another file than the report: that file's name speaks too
    status, message = one(ctx(report(), W + "longmemeval_oracle.json"), SplitParams())
    assert status == "fail"
    assert "the dataset file read (longmemeval_oracle.json)" in message


def _oracle_bundle(tmp: Path) -> Path:
    """examples/official as the real importer writes a run on longmemeval_oracle.json (same bytes)."""
    shutil.copytree(EXAMPLE, tmp / "b")
    b = tmp / "b"
    (b / "data" / "longmemeval_s_question_types.json").rename(b / "data" / "longmemeval_oracle.json")
    for name in ("longmembench-report.json", "longmembench-report-sota.json", "validator-evidence.json"):
        text = (b / name).read_text()
        text = text.replace("longmemeval_s_question_types.json", "longmemeval_oracle.json")
        text = text.replace("longmemeval_s_cleaned.json\": 500", "longmemeval_s_cleaned.json\": null")
        text = text.replace("longmemeval_oracle.json\": null", "longmemeval_oracle.json\": 500")
        text = text.replace("data/longmemeval_s_cleaned.json", "data/longmemeval_oracle.json")
        (b / name).write_text(text)
    return b


def test_cli_oracle_run_passes_official_full_stating_the_split_and_fails_official_sota(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    b = _oracle_bundle(tmp_path)
    args = ["--root", str(b), "--now", "2026-11-29T12:00:00Z", "--format", "json"]
    assert main([str(b / "longmembench-report.json"), "-p", "official-full", "--strict", *args]) == 0
    verdict = json.loads(capsys.readouterr().out)
    [split] = [r for r in verdict["results"] if r["rule"] == "official-dataset-split"]
    assert split["message"].startswith("the result is on the LongMemEval oracle split")
    assert main([str(b / "longmembench-report-sota.json"), "-p", "official-sota", *args]) == 1
    verdict = json.loads(capsys.readouterr().out)
    failing = [r["rule"] for r in verdict["results"] if r["status"] == "fail"]
    assert failing == ["sota-dataset-split"]


def _scan(entries: list[Any]) -> Doc:
    import io

    from bench_gate.loaders.dataset import scan

    summary = scan(io.BytesIO(json.dumps(entries).encode()))
    return Doc("dataset", "d.json", summary.sha256, summary.size, extra=summary.extra())


def test_the_oracle_file_is_known_by_its_content_whatever_its_name(tmp_path: Path) -> None:
    # the real LongMemEval-S answer sessions and haystack ids of examples/longmemeval-retrieval
    real = json.loads((ROOT / "examples" / "longmemeval-retrieval" / "longmemeval_s_answer_sessions.json").read_text())
    s_doc = _scan(real)
    assert s_doc.extra["haystacks"] == 500 and s_doc.extra["evidence_only"] == 0
    oracle = [{**e, "haystack_session_ids": list(e["answer_session_ids"])} for e in real]
    o_doc = _scan(oracle)
    assert o_doc.extra["haystacks"] == 500 and o_doc.extra["evidence_only"] == 500
    named_s = Doc("dataset", W + "longmemeval_s_cleaned.json", o_doc.sha256, o_doc.size, extra=o_doc.extra)
    c = context(Doc("report", "r.json", "f" * 64, 1, data=report()), dataset=named_s)
    status, message = one(c, SplitParams())
    assert status == "fail"
    assert "the LongMemEval oracle split: the dataset file's content (500 of 500 entries hold only their evidence " \
           "sessions)" in message
    c = context(Doc("report", "r.json", "f" * 64, 1, data=report()),
                dataset=Doc("dataset", W + "longmemeval_s_cleaned.json", s_doc.sha256, 1, extra=s_doc.extra))
    assert one(c, SplitParams())[0] == "pass"
