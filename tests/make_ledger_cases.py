"""Writes golden/ledger/*/: one honest ledger and one variant per failure kind.

Each case folder holds the ledger ``manifest.json`` and its small evidence (external artifact
manifests, history summaries, receipts) plus ``ledger-case.yaml``. The large artifacts are not
copied: ``ledger-case.yaml`` names them under ``artifacts`` as the real Sibyl fixture
(``examples/``) with an optional JSON patch, and the test runner writes them into the case's
work folder. Run ``python tests/make_ledger_cases.py``, then
``pytest tests/e2e/test_golden.py -k ledger --update-golden``, and read every changed expected file.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "golden" / "ledger"
REPO = "examples/sibyl-repo"
LEDGER = "benchmarks/results/ai-memory/manifest.json"
LIVE = "longmemeval_sibyl_live_full_26304777971.json"
BASE = "examples/longmemeval_sibyl_hybrid_rc1_20260610.json"
NOW = "2026-11-29T12:00:00Z"
A = "longmemeval_hybrid_20260610.json"
B = "longmemeval_hybrid_20260612.json"
EXT = "external/live_full_123.json"
RERUN = [{"op": "replace", "path": "/elapsed_seconds", "value": 301.25},
         {"op": "replace", "path": "/generated_at", "value": "2026-06-12T09:14:02+00:00"}]

FIXTURE = json.loads((ROOT / BASE).read_text(encoding="utf-8"))
ECHO = ("suite", "suite_version", "mode", "sibyl_commit", "elapsed_seconds", "runtime", "dataset",
        "overall", "claim_boundary", "repeat_count", "auth_manifest_id")


def patched(ops: list[dict[str, Any]]) -> dict[str, Any]:
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from golden import apply_patch

    return apply_patch(FIXTURE, ops)


def entry(name: str, data: dict[str, Any], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"artifact": name, "status": "citable", "gate_profile": "ai-memory"}
    for key in ECHO[:4]:
        out[key] = data[key]
    out["questions"] = data["total_questions"]
    out["case_results"] = len(data["case_results"])
    for key in ECHO[4:]:
        out[key] = copy.deepcopy(data[key])
    out["accounting_required"] = False
    out["qa_required"] = False
    out.update(extra)
    return out


LONGMEMEVAL_S = "sha256:d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442"

REAL_LIVE = json.loads((ROOT / REPO / "benchmarks/results/ai-memory/external" / LIVE).read_text(encoding="utf-8"))
"""The practice's real external manifest: the synthetic one below carries its header and summary."""


def external_manifest(**ext: Any) -> dict[str, Any]:
    # A full report header and summary (what the recorded gate run judged), less the cases: the
    # real live run's header under another run id and commit, with figures of its own.
    quality = {"hit@5": 0.982, "recall@5": 0.9433, "ndcg@5": 0.9121, "hit@10": 0.9877, "recall@10": 0.9611,
               "ndcg@10": 0.9261}
    overall = {**quality, "cross_question_result_count": 0.0}
    body = {
        "schema_version": "sibyl-external-artifact-v1",
        "suite": "LongMemEval-S live", "suite_version": "live-runner-v3", "mode": "hybrid",
        "generated_at": "2026-11-18T08:00:00Z",
        "sibyl_commit": "3f1c2b7a9d0e4f5a6b7c8d9e0f1a2b3c4d5e6f70",
        "command": ["benchmarks/longmemeval_live.py", ".moon/cache/benchmarks/longmemeval_s_cleaned.json",
                    "--output", ".moon/cache/evals/longmemeval_live_full.json", "--label", "live-full"],
        "runtime": {k: REAL_LIVE["runtime"][k] for k in (
            "runtime_mode", "graph_engine", "store", "retrieval_mode", "embedding_provider", "embedding_model",
            "embedding_dimensions", "tokenizer_estimate_method")},
        "total_questions": 500, "case_results": 500,
        "dataset": {"name": "longmemeval_s_cleaned", "corpus_hash": LONGMEMEVAL_S},
        "repeat_count": 1, "auth_manifest_id": "ephemeral-local-signup-v1",
        "overall": overall,
        # Every slice at the overall value: the overall figures are the slices weighted by their counts.
        "per_type": {t: dict(quality) for t in REAL_LIVE["per_type"]},
        "claim_boundary": "Live API retrieval on LongMemEval-S; not QA accuracy.",
        "external_artifact": {
            "provider": "github-actions", "repo": "hyperb1iss/sibyl", "run_id": 123,
            "run_url": "https://github.com/hyperb1iss/sibyl/actions/runs/123",
            "job_name": "longmemeval-live-full", "artifact_name": "longmemeval-live-full-123",
            "artifact_path": "longmemeval_live_full.json",
            "sha256": "9b2d5f0c1e7a4b3c8d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c",
            "size_bytes": 912345, "archive_size_bytes": 201234,
            "expires_at": "2027-03-01T00:00:00Z", "verified_at": "2026-11-20T10:00:00Z",
            "verification_command": "gh run download 123 --repo hyperb1iss/sibyl && sha256sum longmemeval_live_full.json",
            "verification_receipt": "sha256 9b2d5f0c1e7a4b3c8d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c; size 912345 "
                                    "bytes; GitHub archive size 201234 bytes; artifact expires 2027-03-01T00:00:00Z",
            "gate_profile": "ai-memory", "gate_command": "bench-gate longmemeval_live_full.json --profile ai-memory",
            "gate_passed": True,
            "gate_receipt": "Gate passed; recall@5 0.9433 >= 0.7500; ndcg@5 0.9121 >= 0.7000; recall@10 0.9611 >= "
                            "0.8000; ndcg@10 0.9261 >= 0.7000",
        },
    }
    body["external_artifact"].update(ext)
    return body


def external_entry(doc: dict[str, Any]) -> dict[str, Any]:
    out = {"external_artifact_manifest": EXT, "status": "citable", "gate_profile": "ai-memory"}
    for key in ("suite", "suite_version", "mode", "sibyl_commit"):
        out[key] = doc[key]
    out["questions"] = doc["total_questions"]
    out["case_results"] = doc["case_results"]
    out["dataset"] = dict(doc["dataset"])
    out["overall"] = dict(doc["overall"])
    out["claim_boundary"] = doc["claim_boundary"]
    out["runtime"] = dict(doc["runtime"])
    out["repeat_count"] = doc["repeat_count"]
    out["auth_manifest_id"] = doc["auth_manifest_id"]
    return out


RECEIPT = {"schema_version": "eval-regression-gate-receipt-v1", "metrics": {"leak_count": 0},
           "checks": [{"name": "regression", "status": "PASS", "command": "bench-gate ledger manifest.json",
                       "exit_code": 0, "surfaces": ["manifest"]}]}


def summary(data: dict[str, Any], source: str, generated_at: str, **extra: Any) -> dict[str, Any]:
    out = {
        "schema_version": "sibyl-ai-memory-history-summary-v1", "baseline_key": "latest-citable-hybrid",
        "generated_at": generated_at,
        "source": {"artifact": source, "suite": data["suite"], "mode": data["mode"],
                   "sibyl_commit": data["sibyl_commit"]},
        "profile": "ai-memory",
        "metrics": {k: data["overall"][k] for k in ("recall@5", "ndcg@5", "recall@10", "ndcg@10")},
        "gate_command": f"bench-gate {source} --profile ai-memory", "gate_passed": True,
    }
    out.update(extra)
    return out


def ledger(citable: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "schema_version": "sibyl-ai-memory-benchmark-ledger-v2",
        "updated_at": "2026-11-20",
        "release_scope": "1.2 release notes and README",
        "artifact_policy": "Only citable entries may appear in release notes, the README or the docs.",
        "history": {"directory": "history", "summary_schema": "sibyl-ai-memory-history-summary-v1",
                    "append_policy": "immutable-json"},
        "gate_contracts": [{
            "name": "eval-regression-gate", "owner_wave": "W2A", "status": "blocking", "blocking": True,
            "profile": "ai-memory",
            "metric_contracts": [
                {"metric": "recall@5", "mode": "no-regression", "direction": "higher",
                 "baseline": "latest-citable-hybrid", "max_regression": 0.005},
                {"metric": "latency_p95_ms", "mode": "threshold", "direction": "lower", "threshold": 1000},
                {"metric": "leak_count", "mode": "receipt", "required_receipt": "receipts/eval-regression-gate.json",
                 "receipt_schema": "eval-regression-gate-receipt-v1", "direction": "lower", "threshold": 0,
                 "require_receipt_checks": True, "required_surfaces": ["manifest"]}]}],
        "citable": citable,
        "no_regression": [
            {"candidate": B, "baseline": A, "profile": "ai-memory", "metrics": ["recall@5", "ndcg@5"],
             "max_regression": {"recall@5": 0.005}},
            {"candidate": B, "baseline_history": "latest-citable-hybrid", "profile": "ai-memory",
             "metrics": ["recall@5", "ndcg@10"], "max_regression": {}}],
        "planned": [{"suite": "LoCoMo", "status": "planned",
                     "required_artifact_pattern": "locomo_*_live_full.json",
                     "required_summary": "history/locomo-*.json"}],
    }
    out.update(extra)
    return out


def write_case(name: str, description: str, exit_code: int, manifest: dict[str, Any] | None,
               files: dict[str, Any], artifacts: dict[str, list[dict[str, Any]]],
               args: list[str] | None = None, raw: dict[str, str] | None = None) -> None:
    folder = OUT / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    case = {"description": description, "args": args or ["ledger", "manifest.json"], "now": NOW,
            "exit": exit_code,
            "artifacts": {path: {"base": BASE, "patch": ops} for path, ops in artifacts.items()}}
    _write(folder, case, manifest, files, raw)


def write_real_case(name: str, description: str, exit_code: int, now: str,
                    patches: dict[str, list[dict[str, Any]]] | None = None, external: bool = True,
                    files: dict[str, Any] | None = None) -> None:
    """A case on the real Sibyl ledger (examples/sibyl-repo, run from its root), optionally patched."""
    folder = OUT / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    args = ["ledger", LEDGER] + (["--external-profile", "product"] if external else [])
    case = {"description": description, "repo": REPO, "args": args, "now": now, "exit": exit_code,
            "patches": patches or {}}
    _write(folder, case, None, files or {}, None)


def _write(folder: Path, case: dict[str, Any], manifest: dict[str, Any] | None, files: dict[str, Any],
           raw: dict[str, str] | None) -> None:
    (folder / "ledger-case.yaml").write_text(yaml.safe_dump(case, sort_keys=False, width=100), encoding="utf-8")
    if files and "repo" in case:
        for path, body in files.items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(yaml.safe_dump(body) if path.endswith(".yaml") else json.dumps(body, indent=2) + "\n",
                              encoding="utf-8")
        return
    if manifest is not None:
        (folder / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    for path, body in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    for path, text in (raw or {}).items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def honest_parts() -> tuple[dict[str, Any], dict[str, Any], dict[str, list[dict[str, Any]]]]:
    a, b = FIXTURE, patched(RERUN)
    ext = external_manifest()
    manifest = ledger([entry(A, a), entry(B, b), external_entry(ext)])
    files = {
        EXT: ext,
        "history/2026-06-10-hybrid.json": summary(a, A, "2026-06-10T13:00:00Z"),
        "history/2026-06-12-hybrid.json": summary(b, B, "2026-06-12T10:00:00Z"),
        "receipts/eval-regression-gate.json": RECEIPT,
    }
    return manifest, files, {A: [], B: RERUN}


def main() -> None:
    if OUT.exists():
        for child in OUT.iterdir():
            if child.is_dir() and (child / "ledger-case.yaml").exists():
                shutil.rmtree(child)
    m, files, arts = honest_parts()
    write_case("honest", "Two honest local artifacts (the real fixture and a re-run of it), a valid external "
               "manifest, history, contracts, a planned suite and two holding no-regression pairs: passes",
               0, m, files, arts)

    # Every echo field drifts in one entry; the second entry lacks overall and runtime keys.
    m, files, arts = honest_parts()
    e = m["citable"][0]
    e.update({"suite": "LongMemEval-S", "suite_version": "offline-runner-v3", "mode": "raw",
              "sibyl_commit": "0" * 40, "questions": 498, "case_results": 499, "elapsed_seconds": 314.2,
              "claim_boundary": "Live retrieval", "repeat_count": 3, "auth_manifest_id": "auth-2026"})
    e["runtime"]["store"] = "surrealdb"
    e["dataset"]["corpus_hash"] = "sha256:" + "1" * 64
    e["overall"]["recall@5"] = 0.9406
    del m["citable"][1]["overall"]["ndcg@10"]
    m["citable"][1]["overall"]["qa_accuracy"] = 0.91
    write_case("drift", "Entry 0 drifts from its artifact in every echoed field (suite, suite_version, mode, "
               "commit, questions, case_results, elapsed_seconds, runtime, dataset, overall rounded, "
               "claim_boundary, repeat_count, auth_manifest_id); entry 1 lacks a metric and adds one: "
               "every drift is listed with both values", 1, m, files, arts)

    # The artifact claims a recall it does not have; the entry echoes the claim faithfully.
    m, files, arts = honest_parts()
    bad_ops = RERUN + [{"op": "replace", "path": "/overall/recall@5", "value": 0.966}]
    m["citable"][1] = entry(B, patched(bad_ops))
    arts[B] = bad_ops
    m["no_regression"] = m["no_regression"][:1]
    write_case("artifact-fails-gate", "A citable artifact that fails its own gate (overall recall@5 0.966 is "
               "not what its 500 cases give) while the entry echoes it exactly", 1, m, files, arts)

    # Entry requires QA but the artifact has no QA block.
    m, files, arts = honest_parts()
    m["citable"][0]["qa_required"] = True
    write_case("qa-required", "An entry with qa_required: the artifact is gated with --require-qa and fails "
               "because it has no QA block", 1, m, files, arts)

    # The latest summary in history is of the live run (a citable entry, so it can back a baseline),
    # which is better than the candidate.
    m, files, arts = honest_parts()
    ext = external_manifest()
    better = summary(ext, EXT, "2026-07-01T08:00:00Z")
    better["source"] = {"external_artifact_manifest": EXT, **{k: v for k, v in better["source"].items()
                                                                if k != "artifact"}}
    files["history/2026-07-01-hybrid.json"] = better
    m["no_regression"][0]["metrics"] = ["recall@5", "ndcg@5", "recall@10"]
    m["no_regression"][0]["max_regression"] = {"recall@5": 0.001}
    m["no_regression"][1]["max_regression"] = {"recall@5": 0.001}
    m["citable"][1] = entry(B, patched(RERUN))
    write_case("regression", "A no-regression pair whose latest history baseline is better than the "
               "candidate: recall@5 and ndcg@10 regress beyond the allowed amount", 1, m, files, arts)

    m, files, arts = honest_parts()
    m["planned"].append({"suite": "LongMemEval-M", "status": "planned", "artifact": A,
                         "overall": {"recall@5": 0.9406}})
    m["planned"].append({"suite": "LongMemEval-V2", "status": "citable"})
    write_case("planned-with-artifact", "A planned entry that carries an artifact and a metric, and one whose "
               "status is not planned", 1, m, files, arts)

    m, files, arts = honest_parts()
    ext = external_manifest(provider="jenkins", gate_passed=False, size_bytes=0, archive_size_bytes="201234",
                            sha256="9B2D", expires_at="2026-11-01T00:00:00Z",
                            verified_at="2026-12-01T00:00:00Z", run_url="http://localhost:8080/runs/123")
    del ext["external_artifact"]["verification_receipt"]
    ext["case_results"] = 480
    files[EXT] = ext
    write_case("external-untrusted", "An external artifact manifest with an unknown provider, a failed gate, "
               "bad sizes and digest, expired, verified in the future, a private run URL, a missing "
               "receipt field and case_results != total_questions", 1, m, files, arts)

    m, files, arts = honest_parts()
    m["citable"].append({"artifact": "../outside.json", "status": "citable", "gate_profile": "ai-memory"})
    m["citable"].append({"artifact": "missing.json", "status": "citable", "gate_profile": "ai-memory"})
    m["citable"].append({"artifact": A, "external_artifact_manifest": EXT, "status": "citable"})
    m["citable"].append({"artifact": B, "status": "draft", "gate_profile": "no-such-profile"})
    write_case("sources", "Citable entries whose artifact leaves the ledger folder, is missing, names both an "
               "artifact and an external manifest, or has a wrong status and an unknown gate profile",
               1, m, files, arts)

    m, files, arts = honest_parts()
    c = m["gate_contracts"]
    c.append({"name": "eval-regression-gate", "status": "advisory", "blocking": True, "profile": "ai-memmory",
              "metric_contracts": [
                  {"metric": "recall@5", "mode": "threshold", "direction": "lower", "threshold": "0.9"},
                  {"metric": "ndcg@5", "mode": "no-regression", "direction": "higher", "max_regression": -0.01},
                  {"metric": "qa", "mode": "vibes"}]})
    c[0]["metric_contracts"][2]["required_receipt"] = "receipts/missing.json"
    write_case("contracts", "Gate contracts with a duplicate name, blocking that contradicts status, an "
               "unknown profile, a wrong direction, a string threshold, a negative max_regression, "
               "no baseline, an unknown mode and a blocking receipt that does not exist", 1, m, files, arts)

    m, files, arts = honest_parts()
    dup = summary(FIXTURE, A, "2026-06-10T13:00:00Z")
    dup["metrics"]["recall@5"] = 0.95
    files["history/2026-06-10-hybrid-rewrite.json"] = dup
    files["history/2026-06-11-failed.json"] = summary(FIXTURE, A, "2026-06-11T13:00:00+00:00", gate_passed=False,
                                                      schema_version="history-v0")
    files["history/2026-12-01-future.json"] = summary(FIXTURE, A, "2026-12-01T00:00:00Z",
                                                      metrics={"recall@5": "0.94"})
    write_case("history", "History summaries: a second summary for the same baseline_key and generated_at "
               "(a rewrite), a failed gate with the wrong schema, a future timestamp and a metric that is "
               "not a number", 1, m, files, arts)

    write_case("unreadable", "A ledger that is not JSON cannot be evaluated: exit 2", 2, None, {}, {},
               raw={"manifest.json": "{\"schema_version\": \"x\",\n"})
    real_cases()


AI = "benchmarks/results/ai-memory"
WITHOUT_0513 = [{"op": "remove", "path": "/citable/1"}, {"op": "remove", "path": "/citable/0"},
                {"op": "remove", "path": "/no_regression/0"}]
JULY = "2026-07-04T00:00:00Z"


def real_cases() -> None:
    """The practice's real ledger as it is, and one change per class of problem."""
    write_real_case("real-2026-07-04", "The real Sibyl ledger as of 2026-07-04 with its product gates declared: it "
                    "fails only because the two 2026-05-13 artifacts claim hit@k as recall@k (and their nDCG does "
                    "not recompute) and the no-regression pair built on them", 1, JULY)
    write_real_case("real-without-0513", "The real ledger without the two 2026-05-13 entries and their pair: passes "
                    "as of 2026-07-04, its external live run checked for consistency and said to rest on the "
                    "archive's hash", 0, JULY, {LEDGER: WITHOUT_0513})
    write_real_case("real-2026-12-01", "The same ledger as of 2026-12-01: the CI archive of the live run expired on "
                    "2026-08-20 and can no longer be re-verified, so its numbers are not citable and the no-regression pair "
                    "it is the candidate of cannot be compared", 1, "2026-12-01T00:00:00Z",
                    {LEDGER: WITHOUT_0513})
    write_real_case("real-receipt-over-threshold", "A blocking product receipt over its threshold: the "
                    "write-path-integrity receipt reports one hallucinated fact where the contract allows 0", 1,
                    JULY, {LEDGER: WITHOUT_0513, f"{AI}/write-path-integrity-receipt.json": [
                        {"op": "replace", "path": "/metrics/hallucinated_fact_count", "value": 1}]})
    write_real_case("real-receipt-outdated", "Blocking receipts that do not hold: one has another schema_version, "
                    "one has a failing check and one no longer covers a required surface", 1, JULY,
                    {LEDGER: WITHOUT_0513,
                     f"{AI}/usage-loop-receipt.json": [
                         {"op": "replace", "path": "/schema_version", "value": "sibyl-usage-loop-receipt-v0"}],
                     f"{AI}/forgetting-receipt.json": [
                         {"op": "replace", "path": "/checks/0/status", "value": "FAIL"}],
                     f"{AI}/team-scope-trust-receipt.json": [
                         {"op": "replace", "path": "/checks/1/surfaces", "value": ["private source isolation"]}]})
    write_real_case("real-undeclared-product", "Without --external-profile the practice's product gates are "
                    "profiles bench-gate does not know: each contract naming one is a finding", 1, JULY,
                    {LEDGER: WITHOUT_0513}, external=False)
    write_real_case("real-lax-profile", "A citable entry names a profile file next to the ledger (which would "
                    "switch recomputation off) and a contract names one outside the repository: both refused", 1,
                    JULY, {LEDGER: WITHOUT_0513 + [
                        {"op": "replace", "path": "/citable/0/gate_profile", "value": "lax.yaml"},
                        {"op": "replace", "path": "/gate_contracts/0/profile", "value": "../../../../lax.yaml"}]},
                    files={f"{AI}/lax.yaml": {"name": "lax", "use": []}})
    write_real_case("real-paths-leave-repository", "Paths that leave the repository: an artifact two folders above "
                    "the root and a history directory outside it", 1, JULY, {LEDGER: WITHOUT_0513 + [
                        {"op": "replace", "path": "/citable/0/artifact", "value": "../../../../outside.json"},
                        {"op": "replace", "path": "/history/directory", "value": "../history"}]})
    live = f"{AI}/external/{LIVE}"
    write_real_case("real-external-placeholder-sha", "The external manifest's sha256 is all zeros (a placeholder) "
                    "and the ledger's updated_at is 2026-02-30, a date that does not exist", 1, JULY,
                    {LEDGER: WITHOUT_0513 + [{"op": "replace", "path": "/updated_at", "value": "2026-02-30"}],
                     live: [{"op": "replace", "path": "/external_artifact/sha256", "value": "0" * 64}]})
    write_real_case("real-external-made-up", "A made-up overall recall@5 of 0.99 in the external manifest, its "
                    "ledger entry and its self-asserted gate receipt, with gate_passed true: the per-type slices "
                    "weighted by their question counts give 0.9696", 1, JULY,
                    {LEDGER: WITHOUT_0513 + [{"op": "replace", "path": "/citable/2/overall/recall@5", "value": 0.99}],
                     live: [{"op": "replace", "path": "/overall/recall@5", "value": 0.99},
                            {"op": "replace", "path": "/external_artifact/gate_receipt",
                             "value": "Gate passed; recall@5 0.9900 >= 0.7500; ndcg@5 0.9463 >= 0.7000; "
                                      "recall@10 0.9890 >= 0.8000; ndcg@10 0.9548 >= 0.7000"}]})

    write_real_case("real-external-slice-below-minimum", "The external manifest's single-session-preference slice "
                    "has recall@5 0.30 (30 questions; ai-memory's slice minimum is 0.70) and its overall, ledger entry, "
                    "history summary and gate receipt are made consistent with it: the summary visibly fails its "
                    "declared gate, so gate_passed true cannot make it citable", 1, JULY,
                    {LEDGER: WITHOUT_0513 + [{"op": "replace", "path": "/citable/2/overall/recall@5",
                                              "value": 0.9276333333333333}],
                     f"{AI}/history/2026-07-03-live-hybrid.json": [
                         {"op": "replace", "path": "/metrics/recall@5", "value": 0.9276333333333333}],
                     live: [{"op": "replace", "path": "/per_type/single-session-preference/recall@5", "value": 0.3},
                            {"op": "replace", "path": "/overall/recall@5", "value": 0.9276333333333333},
                            {"op": "replace", "path": "/external_artifact/gate_receipt",
                             "value": "Gate passed; recall@5 0.9276 >= 0.7500; ndcg@5 0.9463 >= 0.7000; "
                                      "recall@10 0.9890 >= 0.8000; ndcg@10 0.9548 >= 0.7000"}]})

    write_real_case("real-history-lowered", "The real history summary of the live run is rewritten with a lower "
                    "recall@5 (0.90, its source's overall is 0.9696) and another commit: a lowered summary would move "
                    "the no-regression baseline, so it must be its source's", 1, JULY,
                    {LEDGER: WITHOUT_0513, f"{AI}/history/2026-07-03-live-hybrid.json": [
                        {"op": "replace", "path": "/metrics/recall@5", "value": 0.9},
                        {"op": "replace", "path": "/source/sibyl_commit",
                         "value": "e909f01dc265a2fd6cc06621c86a9717a9c1fc5a"}]})

    write_real_case("real-external-commands", "The external manifest's recorded gate run cannot have failed and "
                    "checks less: its gate_command ends in '|| true', its verification_command is 'true', and its gate "
                    "receipt lowers the recall@5 minimum to 0.1 and leaves out the k=10 thresholds", 1, JULY,
                    {LEDGER: WITHOUT_0513, live: [
                        {"op": "replace", "path": "/external_artifact/gate_command",
                         "value": "moon run bench-gate -- longmemeval_live_full.json --profile ai-memory || true"},
                        {"op": "replace", "path": "/external_artifact/verification_command", "value": "true"},
                        {"op": "replace", "path": "/external_artifact/gate_receipt",
                         "value": "Gate passed; recall@5 0.9696 >= 0.1000; ndcg@5 0.9463 >= 0.7000"}]})

    write_real_case("real-external-product-profile", "The external manifest's recorded gate run names the declared "
                    "product gate instead of ai-memory: an --external-profile name vouches for contracts and "
                    "receipts, never for a citable benchmark summary", 1, JULY,
                    {LEDGER: WITHOUT_0513 + [{"op": "replace", "path": "/citable/2/gate_profile", "value": "product"}],
                     live: [{"op": "replace", "path": "/external_artifact/gate_profile", "value": "product"}]})


if __name__ == "__main__":
    main()
