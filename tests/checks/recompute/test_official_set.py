"""A citable number is bound to the official question set it names.

A run whose dataset block names LongMemEval-S (by corpus hash, name, split or file name) holds
the dataset's own questions: a made-up case, a copy of a good case under a new id, or a dropped
failing case with 499 written everywhere fails, in the report gate and so in the ledger (with or
without ``--citable``), and a claims scan over such a ledger backs no number. A declared subset
passes and stays visibly a subset.
"""

from __future__ import annotations

import copy
import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bench_gate.checks.recompute.question_set import official_question_types
from bench_gate.checks.recompute.retrieval import score
from bench_gate.cli.app import main
from bench_gate.models import Finding

import kindtest
from repo import ROOT

BASE = json.loads((ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json").read_text(encoding="utf-8"))
HASH = BASE["dataset"]["corpus_hash"]
NAMES = ["longmemeval_s_cleaned", "longmemeval_s"]
OFFICIAL = list(official_question_types())
NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)


def run(report: dict[str, Any], **params: Any) -> list[Finding]:
    return kindtest.run("official_question_set", {"corpus_hashes": [HASH], "names": NAMES, **params}, report, now=NOW)


def _resummarise(report: dict[str, Any]) -> dict[str, Any]:
    """Every summary recomputed from the cases, as a careful forger would."""
    cases = report["case_results"]

    def summary(group: list[dict[str, Any]]) -> dict[str, float]:
        out: dict[str, float] = {}
        for k in report["k_values"]:
            scores = [score(c["answer_session_ids"], c["ranked_session_ids"], k) for c in group]
            hit = sum((s[0] for s in scores), Fraction(0)) / len(scores)
            out |= {f"hit@{k}": float(hit), f"legacy_recall@{k}": float(hit),
                    f"recall@{k}": float(sum((s[1] for s in scores), Fraction(0)) / len(scores)),
                    f"ndcg@{k}": sum(s[2] for s in scores) / len(scores)}
        return out

    report["overall"].update(summary(cases))
    for qtype in list(report["per_type"]):
        group = [c for c in cases if c["question_type"] == qtype]
        if group:
            report["per_type"][qtype].update(summary(group))
        else:
            del report["per_type"][qtype]
    return report


def _failing(cases: list[dict[str, Any]]) -> int:
    return next(i for i, c in enumerate(cases) if c["recall@5"] < 1)


def made_up_case(new_id: str = "fake0001") -> dict[str, Any]:
    """A failing case replaced by a copy of a perfect case of the same type under a new id."""
    report = copy.deepcopy(BASE)
    cases = report["case_results"]
    i = _failing(cases)
    perfect = next(c for c in cases if c["recall@5"] == 1 and c["question_type"] == cases[i]["question_type"])
    cases[i] = dict(copy.deepcopy(perfect), question_id=new_id)
    return _resummarise(report)


def dropped_case() -> dict[str, Any]:
    """A failing case dropped, and 499 written everywhere."""
    report = copy.deepcopy(BASE)
    del report["case_results"][_failing(report["case_results"])]
    report["total_questions"] = 499
    report["dataset"].update(total_entries=499, evaluated_entries=499)
    return _resummarise(report)


def prefix(n: int) -> dict[str, Any]:
    """An honest run on the first n questions of the file, declared with ``limit``."""
    report = copy.deepcopy(BASE)
    report["case_results"] = report["case_results"][:n]
    report["total_questions"] = n
    report["dataset"].update(evaluated_entries=n, limit=n)
    return _resummarise(report)


def failures(found: list[Finding]) -> list[str]:
    return [f.message for f in found if f.status == "fail"]


# --- the kind ---------------------------------------------------------------------------------


def test_the_official_run_passes() -> None:
    found = run(BASE)
    assert [f.status for f in found] == ["pass"]
    assert "every case is an official question, each once, all 500 questions" in found[0].message


def test_the_shipped_ids_are_in_file_order() -> None:
    assert OFFICIAL[:3] == [c["question_id"] for c in BASE["case_results"][:3]]
    assert OFFICIAL == [c["question_id"] for c in BASE["case_results"]]


@pytest.mark.parametrize("new_id", ["fake0001", "e47becba_copy", "gpt4_00000000", "q-1"])
def test_a_made_up_case_fails(new_id: str) -> None:
    messages = failures(run(made_up_case(new_id)))
    assert any(f"'{new_id}'" in m and "not a question it declares" in m for m in messages), messages
    assert any("has no case for 1 question" in m for m in messages), messages


def test_a_dropped_case_with_499_everywhere_fails() -> None:
    messages = failures(run(dropped_case()))
    assert any(m.startswith("/dataset/total_entries is 499, but the dataset it names (corpus_hash sha256:d6f2")
               for m in messages), messages
    assert any("has no case for 1 question" in m for m in messages), messages
    assert any(m.startswith("/dataset/evaluated_entries is 499, but the run declares all 500 questions")
               for m in messages), messages


@pytest.mark.parametrize("block", [
    {"name": "longmemeval_s_cleaned"}, {"name": "LongMemEval-S"}, {"name": "LongMemEval_S_Cleaned"},
    {"path": "data/longmemeval_s_cleaned.json"}, {"path": "C:\\data\\longmemeval_s.json"},
    {"split": "longmemeval_s"}, {"corpus_hash": HASH.upper().replace("SHA256", "sha256")},
    {"name": "l\u043engmemeval_s_cleaned"},
], ids=["name", "title-name", "capitalised-name", "path", "windows-path", "split", "hash-in-capitals",
        "look-alike-name"])
def test_any_naming_of_the_official_dataset_binds_the_run(block: dict[str, Any]) -> None:
    report = made_up_case()
    report["dataset"] = {**block, "total_entries": 500, "evaluated_entries": 500}
    assert any("fake0001" in m for m in failures(run(report)))


def test_a_run_on_another_dataset_is_not_bound() -> None:
    report = made_up_case()
    for i, case in enumerate(report["case_results"]):
        case["question_id"] = f"mine-{i:04d}"  # another dataset's questions: no id is LongMemEval's
    report["dataset"] = {"name": "my-memory-suite", "corpus_hash": "sha256:" + "ab" * 32, "total_entries": 500}
    report["suite"] = "LongMemEval-style offline"
    assert [f.status for f in run(report)] == ["skip"]


@pytest.mark.parametrize("name", ["LongMemEvalS", "lme_s", "LongMemEval (small)", "long mem eval s", "my-copy"])
def test_official_case_ids_bind_a_run_whatever_its_dataset_is_called(name: str) -> None:
    """A dataset block that names no official file (another spelling, a re-serialised copy with
    its own hash) does not free a run of LongMemEval questions from their set."""
    for forge in (made_up_case, dropped_case):
        report = forge()
        report["dataset"] = {**report["dataset"], "name": name, "path": f"data/{name}.json",
                             "corpus_hash": "sha256:" + "ab" * 32}
        messages = failures(run(report))
        assert any("has no case for 1 question" in m and "LongMemEval-S by its case ids (499 of " in m
                   for m in messages), messages
    honest = copy.deepcopy(BASE)
    honest["dataset"] = {**honest["dataset"], "name": name, "path": f"data/{name}.json",
                         "corpus_hash": "sha256:" + "ab" * 32}
    found = run(honest)
    assert [f.status for f in found] == ["pass"], failures(found)
    assert "LongMemEval-S by its case ids (500 of 500 are official question ids" in found[0].message


def test_one_official_id_among_others_binds_the_run() -> None:
    report = copy.deepcopy(BASE)
    report["case_results"] = report["case_results"][:2]
    report["case_results"][1]["question_id"] = "mine-0001"
    report["dataset"] = {"name": "mine", "corpus_hash": "sha256:" + "ab" * 32, "total_entries": 2}
    messages = failures(run(report))
    assert any("'mine-0001'" in m and "not a question it declares" in m for m in messages), messages


@pytest.mark.parametrize("suite", ["LongMemEval-S live API", "longmemeval_s_cleaned", "LongMemEval S (oracle)"])
def test_a_suite_that_names_the_official_dataset_binds_the_run(suite: str) -> None:
    report = made_up_case()
    report["dataset"] = {"name": "my-copy", "corpus_hash": "sha256:" + "ab" * 32, "total_entries": 500,
                         "evaluated_entries": 500}
    report["suite"] = suite
    assert any("'fake0001'" in m for m in failures(run(report)))


@pytest.mark.parametrize("name", ["longmemeval_s_cleaned.json", "longmemeval_s_cleaned-v2", "LongMemEval S"])
def test_a_name_with_more_words_still_names_the_dataset(name: str) -> None:
    report = made_up_case()
    report["dataset"] = {"name": name, "total_entries": 500, "evaluated_entries": 500}
    assert any("'fake0001'" in m for m in failures(run(report)))


def test_a_declared_prefix_subset_passes() -> None:
    found = run(prefix(100))
    assert [f.status for f in found] == ["pass"]
    assert "the 100 questions its subset declares (a subset of 100 of 500, declared)" in found[0].message


def test_selected_indices_declare_a_subset() -> None:
    report = copy.deepcopy(BASE)
    picked = [3, 10, 499]
    report["case_results"] = [report["case_results"][i] for i in picked]
    report["total_questions"] = 3
    report["dataset"].update(evaluated_entries=3, selected_case_indices=picked)
    assert [f.status for f in run(_resummarise(report))] == ["pass"]
    report["case_results"][0] = copy.deepcopy(BASE["case_results"][4])
    assert any("outside the declared subset" in m for m in failures(run(report)))


def test_a_subset_cannot_hide_a_dropped_case_or_a_foreign_one() -> None:
    report = prefix(100)
    report["case_results"][5] = copy.deepcopy(BASE["case_results"][200])
    messages = failures(run(report))
    assert any("outside the declared subset" in m for m in messages)
    assert any("has no case for 1 question" in m for m in messages)


@pytest.mark.parametrize("limit", [0, -1, 1.5, "100", True])
def test_a_malformed_limit_fails(limit: Any) -> None:
    report = copy.deepcopy(BASE)
    report["dataset"]["limit"] = limit
    assert any("/dataset/limit is" in m for m in failures(run(report)))


def test_a_repeated_question_and_a_look_alike_fail() -> None:
    report = copy.deepcopy(BASE)
    report["case_results"][1] = copy.deepcopy(report["case_results"][0])
    report["case_results"][2] = dict(copy.deepcopy(report["case_results"][2]),
                                     question_id=OFFICIAL[2].replace("5", "S", 1) + "\u2065")
    messages = failures(run(report))
    assert any("two cases" in m and "'e47becba'" in m for m in messages), messages


def test_counts_alone_for_a_summary_without_cases() -> None:
    report = copy.deepcopy(BASE)
    report["case_results"] = 500
    assert [f.status for f in run(report, cases="")] == ["pass"]
    report["dataset"]["total_entries"] = 499
    assert [f.status for f in run(report, cases="")] == ["fail"]


# --- the report gate, the ledger and the claims scan ----------------------------------------------


def cli(args: list[str], where: Path) -> tuple[int, str]:
    import os

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(where)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main([*args, "--now", "2026-07-04T00:00:00Z", "--format", "json"])
    finally:
        os.chdir(here)
    assert err.getvalue() == ""
    return code, out.getvalue()


def ledger_repo(tmp_path: Path, artifact: dict[str, Any] | None) -> Path:
    """The real ledger without its two failing 2026-05-13 entries (it passes), with the hybrid
    rc1 artifact replaced by ``artifact`` and its entry rewritten to echo it."""
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "examples" / "sibyl-repo", repo)
    folder = repo / "benchmarks" / "results" / "ai-memory"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    del manifest["citable"][0:2]
    del manifest["no_regression"][0]
    if artifact is not None:
        entry = next(e for e in manifest["citable"] if e.get("artifact") == "longmemeval_sibyl_hybrid_rc1_20260610.json")
        (folder / entry["artifact"]).write_text(json.dumps(artifact), encoding="utf-8")
        entry.update(questions=artifact["total_questions"], case_results=len(artifact["case_results"]),
                     dataset=artifact["dataset"], overall=artifact["overall"])
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return repo


LEDGER = ["ledger", "benchmarks/results/ai-memory/manifest.json", "--external-profile", "product"]


def test_the_honest_ledger_still_passes(tmp_path: Path) -> None:
    code, out = cli(LEDGER, ledger_repo(tmp_path, None))
    assert code == 0, [r["message"] for r in json.loads(out)["results"] if r["status"] == "fail"]


@pytest.mark.parametrize("forge", [made_up_case, dropped_case], ids=["made-up-case", "dropped-case"])
def test_the_ledger_fails_an_artifact_off_the_official_set(tmp_path: Path, forge: Any) -> None:
    artifact = forge()
    assert artifact["overall"]["recall@5"] > BASE["overall"]["recall@5"]
    repo = ledger_repo(tmp_path, artifact)
    code, out = cli(LEDGER, repo)
    results = {r["rule"]: r for r in json.loads(out)["results"]}
    assert code == 1
    assert results["citable-gates"]["status"] == "fail"
    assert "case-official-set" in results["citable-gates"]["message"]
    nested = [r for rule, r in results.items() if rule.endswith("/case-official-set")]
    assert [r["status"] for r in nested] == ["pass", "fail"]
    # a claims scan over that ledger backs no number, the inflated one included
    inflated = f"{artifact['overall']['recall@5'] * 100:.2f}"
    (repo / "README.md").write_text(f"Sibyl hybrid reaches recall@5 of {inflated}% on LongMemEval-S.\n",
                                    encoding="utf-8")
    code, out = cli(["claims", "README.md", "--ledger", "benchmarks/results/ai-memory/manifest.json",
                     "--external-profile", "product"], repo)
    assert code == 1
    assert any(r["status"] == "fail" and r["rule"] == "claim-ledger-passes" for r in json.loads(out)["results"]), out


def test_a_declared_subset_is_a_subset_in_the_ledger_and_the_claims(tmp_path: Path) -> None:
    artifact = prefix(100)
    repo = ledger_repo(tmp_path, artifact)
    manifest_path = repo / "benchmarks" / "results" / "ai-memory" / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["no_regression"] = []  # a subset is compared with nothing
    manifest_path.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    code, out = cli(LEDGER, repo)
    results = {r["rule"]: r for r in json.loads(out)["results"]}
    assert code == 0, [r["message"] for r in results.values() if r["status"] == "fail"]
    assert "a subset of 100 of 500, declared" in results["citable/1/case-official-set"]["message"]
    value = f"{artifact['overall']['recall@5'] * 100:.2f}"
    scan = ["claims", "README.md", "--ledger", "benchmarks/results/ai-memory/manifest.json",
            "--external-profile", "product"]
    (repo / "README.md").write_text(f"Sibyl hybrid reaches recall@5 of {value}%.\n", encoding="utf-8")
    code, out = cli(scan, repo)
    subset = next(r for r in json.loads(out)["results"] if r["rule"] == "claim-subset-vs-full")
    assert (code, subset["status"]) == (1, "fail"), subset
    assert "a result on 100 of the dataset's 500 questions" in subset["message"]
    (repo / "README.md").write_text(f"On a 100-question subset, Sibyl hybrid reaches recall@5 of {value}%.\n",
                                    encoding="utf-8")
    code, out = cli(scan, repo)
    assert code == 0, [r["message"] for r in json.loads(out)["results"] if r["status"] == "fail"]


def test_a_block_that_names_the_dataset_says_its_size() -> None:
    """Without total_entries a subset would not read as one where its number is shown."""
    report = prefix(100)
    del report["dataset"]["total_entries"]
    assert any(m.startswith("/dataset/total_entries is absent; the dataset it names") for m in failures(run(report)))



@pytest.mark.parametrize("counts", [{"evaluated_entries": 100.0}, {"total_entries": 500.0},
                                    {"total_entries": 5e2, "evaluated_entries": 1e2}],
                         ids=["evaluated-as-float", "total-as-float", "exponents"])
def test_a_subset_written_with_whole_floats_is_still_a_subset_in_the_claims(tmp_path: Path,
                                                                            counts: dict[str, Any]) -> None:
    """The gate reads 500.0 as 500, so the claims scan must too: otherwise the declared subset
    passes the gate and its number is cited as a number on the full set."""
    artifact = prefix(100)
    artifact["dataset"].update(counts)
    repo = ledger_repo(tmp_path, artifact)
    manifest_path = repo / "benchmarks" / "results" / "ai-memory" / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["no_regression"] = []
    manifest_path.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    code, out = cli(LEDGER, repo)
    assert code == 0, [r["message"] for r in json.loads(out)["results"] if r["status"] == "fail"]
    value = f"{artifact['overall']['recall@5'] * 100:.2f}"
    (repo / "README.md").write_text(f"Sibyl hybrid reaches recall@5 of {value}% on LongMemEval-S.\n", encoding="utf-8")
    code, out = cli(["claims", "README.md", "--ledger", "benchmarks/results/ai-memory/manifest.json",
                     "--external-profile", "product"], repo)
    subset = next(r for r in json.loads(out)["results"] if r["rule"] == "claim-subset-vs-full")
    assert (code, subset["status"]) == (1, "fail"), subset
    assert "a result on 100 of the dataset's 500 questions" in subset["message"]
