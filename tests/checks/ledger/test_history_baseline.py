"""History backs a no-regression baseline only when what it summarised can be checked.

A summary backs a baseline when its source is a citable entry of the ledger (and agrees with
it), or a file of the repository that hashes to the ``sha256`` the summary records, passes the
summary's gate and has its figures. A newer summary under the same ``baseline_key`` whose source
is gone (or unhashed, or another file) is a record, not a baseline: it cannot lower the bar a
real regression is held to.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from golden import case, materialise, run_main
from repo import ROOT

NOW = "2026-11-29T12:00:00Z"
EXT = "external/live_full_123.json"


def ledger_with_live_baseline(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The honest ledger whose latest history summary is of the live run (a citable entry at
    recall@5 0.9433, ndcg@10 0.9261), so its candidate (0.9406, 0.9240) regresses on ndcg@10."""
    work = materialise(case("ledger/honest"), tmp_path)
    ext = json.loads((work / EXT).read_text(encoding="utf-8"))
    write(work / "history" / "2026-07-01-live.json", summary(
        {"external_artifact_manifest": EXT, "suite": ext["suite"], "mode": ext["mode"],
         "sibyl_commit": ext["sibyl_commit"]}, "2026-07-01T08:00:00Z",
        {k: ext["overall"][k] for k in ("recall@5", "ndcg@5", "recall@10", "ndcg@10")}))
    return work, json.loads((work / "manifest.json").read_text(encoding="utf-8"))


def summary(source: dict[str, Any], generated_at: str, metrics: dict[str, Any]) -> dict[str, Any]:
    return {"schema_version": "sibyl-ai-memory-history-summary-v1", "baseline_key": "latest-citable-hybrid",
            "generated_at": generated_at, "source": source, "profile": "ai-memory", "metrics": metrics,
            "gate_command": "bench-gate x.json --profile ai-memory", "gate_passed": True}


def write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def gate(work: Path) -> tuple[int, dict[str, dict[str, Any]]]:
    code, out, err = run_main(["ledger", "manifest.json"], NOW, work, "json")
    assert err == ""
    return code, {r["rule"]: r for r in json.loads(out)["results"]}


def lowered(source: dict[str, Any]) -> dict[str, Any]:
    """A newer summary of the same key at recall@5 and ndcg@10 0.5."""
    return summary({"suite": "LongMemEval-S", "mode": "hybrid", "sibyl_commit": "a" * 40, **source},
                   "2026-08-01T00:00:00Z", {"recall@5": 0.5, "ndcg@10": 0.5})


def test_a_real_regression_against_a_checkable_summary_fails(tmp_path: Path) -> None:
    work, _ = ledger_with_live_baseline(tmp_path)
    code, results = gate(work)
    assert code == 1
    assert results["no-regression-pairs"]["message"].startswith(
        "/no_regression/1 longmemeval_hybrid_20260612.json vs history/2026-07-01-live.json: recall@5 dropped from "
        "baseline 0.9433")


UNCHECKABLE = {
    "source-gone": ({"artifact": "retired/longmemeval_hybrid_20260801.json"}, None,
                    "is neither a citable entry of this ledger nor a file of the repository"),
    "source-outside-the-ledger-folder-gone": ({"artifact": "../elsewhere/run.json"}, None, "leaves the repository"),
    "source-present-other-figures": ({"artifact": "retired/run.json"}, "copy",
                                     "metrics.recall@5 is 0.5, but its source retired/run.json has overall recall@5"),
    "source-present-other-hash": ({"artifact": "retired/run.json", "sha256": "ab" * 32}, "copy",
                                  "but source retired/run.json hashes to"),
}


@pytest.mark.parametrize("name", sorted(UNCHECKABLE))
def test_a_newer_summary_that_cannot_be_checked_does_not_lower_the_baseline(tmp_path: Path, name: str) -> None:
    work, _ = ledger_with_live_baseline(tmp_path)
    source, present, why = UNCHECKABLE[name]
    if present == "copy":
        (work / "retired").mkdir()
        shutil.copy(work / "longmemeval_hybrid_20260610.json", work / "retired" / "run.json")
    write(work / "history" / "2026-08-01-lowered.json", lowered(source))
    code, results = gate(work)
    assert code == 1
    pairs = results["no-regression-pairs"]
    # the pair is still held to the live run's summary: the lowered one is not its baseline
    assert pairs["status"] == "fail"
    assert "vs history/2026-07-01-live.json: recall@5 dropped from baseline 0.9433" in pairs["message"], pairs
    everything = json.dumps(results)
    assert why in everything, name


def test_a_summary_of_a_retired_file_that_hashes_to_its_record_backs_the_baseline(tmp_path: Path) -> None:
    work = materialise(case("ledger/honest"), tmp_path)
    (work / "retired").mkdir()
    art = work / "retired" / "run.json"
    data = json.loads((work / "longmemeval_hybrid_20260610.json").read_text(encoding="utf-8"))
    data["generated_at"] = "2026-07-31T00:00:00+00:00"  # a newer run than any other summary's (the latest run is the baseline)
    write(art, data)
    digest = hashlib.sha256(art.read_bytes()).hexdigest()
    write(work / "history" / "2026-08-01-retired.json", summary(
        {"artifact": "retired/run.json", "sha256": digest, "suite": data["suite"], "mode": data["mode"],
         "sibyl_commit": data["sibyl_commit"]}, "2026-08-01T00:00:00Z",
        {k: data["overall"][k] for k in ("recall@5", "ndcg@5", "recall@10", "ndcg@10")}))
    code, results = gate(work)
    assert code == 0, {k: r["message"] for k, r in results.items() if r["status"] == "fail"}
    assert "vs history/2026-08-01-retired.json" in results["no-regression-pairs"]["message"]


def test_a_retired_file_that_does_not_recompute_backs_nothing(tmp_path: Path) -> None:
    """A file written for the purpose (a summary that does not follow from its cases) fails its
    gate, so the summary that records its hash is neither true history nor a baseline."""
    work, _ = ledger_with_live_baseline(tmp_path)
    (work / "retired").mkdir()
    art = work / "retired" / "run.json"
    data = json.loads((work / "longmemeval_hybrid_20260610.json").read_text(encoding="utf-8"))
    data["overall"].update({"recall@5": 0.5, "ndcg@10": 0.5})
    write(art, data)
    digest = hashlib.sha256(art.read_bytes()).hexdigest()
    write(work / "history" / "2026-08-01-lowered.json",
          lowered({"artifact": "retired/run.json", "sha256": f"sha256:{digest}", "suite": data["suite"],
                   "mode": data["mode"], "sibyl_commit": data["sibyl_commit"]}))
    code, results = gate(work)
    assert code == 1
    assert "vs history/2026-07-01-live.json: recall@5 dropped" in results["no-regression-pairs"]["message"]
    assert "but its source retired/run.json fails its gate \"ai-memory\"" in results["history-summaries"]["message"]


def test_look_alike_baseline_keys_are_one_key_written_two_ways(tmp_path: Path) -> None:
    work, _ = ledger_with_live_baseline(tmp_path)
    path = work / "history" / "2026-07-01-live.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["baseline_key"] = "latest-citable-hybrid\u2065"
    write(path, data)
    code, results = gate(work)
    assert code == 1
    assert "reads as 'latest-citable-hybrid'" in results["history-summaries"]["message"]


def test_a_copy_without_a_recorded_hash_backs_nothing(tmp_path: Path) -> None:
    """Figures equal to a file that happens to be in the repository are not enough: the summary
    records the hash of the file it summarised, or it is not shown to be that file's."""
    work, _ = ledger_with_live_baseline(tmp_path)
    (work / "retired").mkdir()
    shutil.copy(work / "longmemeval_hybrid_20260610.json", work / "retired" / "run.json")
    data = json.loads((work / "retired" / "run.json").read_text(encoding="utf-8"))
    write(work / "history" / "2026-08-01-copy.json", summary(
        {"artifact": "retired/run.json", "suite": data["suite"], "mode": data["mode"],
         "sibyl_commit": data["sibyl_commit"]}, "2026-08-01T00:00:00Z",
        {k: data["overall"][k] for k in ("recall@5", "ndcg@5", "recall@10", "ndcg@10")}))
    code, results = gate(work)
    assert code == 1
    assert "vs history/2026-07-01-live.json: recall@5 dropped" in results["no-regression-pairs"]["message"]
    assert results["history-summaries"]["status"] == "pass"
    assert ("history/2026-08-01-copy.json: its source retired/run.json is not a citable entry of this ledger, and the "
            "summary records no sha256 of it") in results["history-summaries"]["message"]


# --- a baseline is the latest run of one line of runs ---------------------------------------------

SIBYL = "benchmarks/results/ai-memory"


def sibyl_with_regressing_pair(tmp_path: Path) -> Path:
    """The real ledger without its failing 2026-05-13 entries, plus a pair whose candidate (the
    offline hybrid run, recall@5 0.9406) regresses from the latest hybrid summary (the live run,
    0.9696) by more than its allowance."""
    work = tmp_path / "sibyl"
    shutil.copytree(ROOT / "examples" / "sibyl-repo", work)
    path = work / SIBYL / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    del manifest["citable"][0:2]
    del manifest["no_regression"][0]
    manifest["no_regression"].append({"candidate": "longmemeval_sibyl_hybrid_rc1_20260610.json",
                                      "baseline_history": "latest-citable-hybrid", "profile": "ai-memory",
                                      "metrics": ["recall@5"], "max_regression": {"recall@5": 0.005}})
    write(path, manifest)
    return work


def sibyl_gate(work: Path) -> tuple[int, dict[str, str]]:
    code, out, err = run_main(["ledger", f"{SIBYL}/manifest.json", "--external-profile", "product"],
                              "2026-07-04T00:00:00Z", work, "json")
    assert err == ""
    return code, {r["rule"]: r["message"] for r in json.loads(out)["results"] if r["status"] == "fail"}


def entry_summary(work: Path, artifact: str, generated_at: str) -> dict[str, Any]:
    """A history summary of a citable entry of the real ledger, true to its figures."""
    manifest = json.loads((work / SIBYL / "manifest.json").read_text(encoding="utf-8"))
    entry = next(e for e in manifest["citable"] if e.get("artifact") == artifact)
    return {**summary({"artifact": artifact, "suite": entry["suite"], "mode": entry["mode"],
                       "sibyl_commit": entry["sibyl_commit"]}, generated_at,
                      {"recall@5": entry["overall"]["recall@5"]}), "gate_command": "moon run bench-gate"}


def test_the_regression_fails_against_the_honest_history(tmp_path: Path) -> None:
    code, failing = sibyl_gate(sibyl_with_regressing_pair(tmp_path))
    assert code == 1
    assert "recall@5 dropped from baseline 0.9696333333333333 to 0.9405666666666668" in failing["no-regression-pairs"]


def test_a_summary_of_another_mode_under_the_key_fails(tmp_path: Path) -> None:
    """A later summary of the raw run (0.9171) under the hybrid key would lower the baseline below
    the regression."""
    work = sibyl_with_regressing_pair(tmp_path)
    write(work / SIBYL / "history" / "2026-07-03-raw.json",
          entry_summary(work, "longmemeval_sibyl_raw_rc1_20260610.json", "2026-07-03T12:00:00Z"))
    code, failing = sibyl_gate(work)
    assert code == 1
    assert "baseline_key 'latest-citable-hybrid' holds summaries of mode 'hybrid'" in failing["history-summaries"], \
        failing
    assert "and 'raw': a baseline key is one line of runs" in failing["history-summaries"]


def test_a_later_summary_of_an_older_run_is_not_the_baseline(tmp_path: Path) -> None:
    """The latest run sets the bar, not the latest summary: a summary written after the live run's
    of an older, lower run of the same mode does not become the baseline."""
    work, _ = ledger_with_live_baseline(tmp_path)
    old = json.loads((work / "longmemeval_hybrid_20260610.json").read_text(encoding="utf-8"))
    live = json.loads((work / EXT).read_text(encoding="utf-8"))
    assert old["generated_at"] < live["generated_at"]
    write(work / "history" / "2026-08-01-old-run.json", summary(
        {"artifact": "longmemeval_hybrid_20260610.json", "suite": old["suite"], "mode": old["mode"],
         "sibyl_commit": old["sibyl_commit"]}, "2026-08-01T00:00:00Z",
        {k: old["overall"][k] for k in ("recall@5", "ndcg@5", "recall@10", "ndcg@10")}))
    code, results = gate(work)
    assert code == 1, {k: r["message"] for k, r in results.items() if r["status"] == "fail"}
    assert "vs history/2026-07-01-live.json: recall@5 dropped from baseline 0.9433" in \
        results["no-regression-pairs"]["message"]


def test_a_pair_whose_baseline_is_its_candidate_fails(tmp_path: Path) -> None:
    work = sibyl_with_regressing_pair(tmp_path)
    path = work / SIBYL / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["no_regression"][-1] = {"candidate": "longmemeval_sibyl_hybrid_rc1_20260610.json",
                                     "baseline": "longmemeval_sibyl_hybrid_rc1_20260610.json",
                                     "metrics": ["recall@5"]}
    write(path, manifest)
    code, failing = sibyl_gate(work)
    assert code == 1
    assert "is the candidate itself: a run compared with itself never regresses" in failing["no-regression-pairs"]
