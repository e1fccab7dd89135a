"""The ledger check kinds, one table per kind: pass and fail rows with the exact message.

Property tests of the external-manifest checks: a summary that does not follow from its
slices, or a gate receipt that does not match the summary, never passes, whatever the numbers.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from bench_gate.checks.base import Context
from bench_gate.checks.ledger.recorded import read_runs
from bench_gate.cli.commands import read_command
from bench_gate.checks.ledger.entries import (
    EchoField,
    EchoParams,
    GatesParams,
    SourcesParams,
    diff,
    ledger_echo,
    ledger_gates,
    ledger_sources,
)
from bench_gate.checks.ledger.contracts import ContractsParams, ReceiptsParams, ledger_contracts, ledger_receipts
from bench_gate.checks.ledger.external import (
    BasisParams,
    ExternalGateParams,
    ExternalParams,
    check_gate_receipt,
    check_slices,
    ledger_external,
    ledger_external_basis,
    ledger_external_gate,
)
from bench_gate.checks.ledger.header import DateParams, PlannedParams, ledger_date, ledger_planned
from bench_gate.checks.ledger.history import HistoryParams, leaves_repository, ledger_history
from bench_gate.checks.ledger.regression import NoRegressionParams, ledger_no_regression
from bench_gate.models import Doc, Finding

from kindtest import context, doc, run as run_kind

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
COMMIT = "e909f01dc265a2fd6cc06621c86a9717a9c1fc5a"
ARTIFACT = {"suite": "S", "mode": "hybrid", "sibyl_commit": COMMIT, "total_questions": 2,
            "case_results": [{}, {}], "overall": {"recall@5": 0.94, "ndcg@5": 0.91},
            "runtime": {"store": "chroma"}}
ENTRY = {"artifact": "a.json", "status": "citable", "gate_profile": "ai-memory", "suite": "S", "mode": "hybrid",
         "sibyl_commit": COMMIT, "questions": 2, "case_results": 2, "overall": {"recall@5": 0.94, "ndcg@5": 0.91},
         "runtime": {"store": "chroma"}}
GATE_PASS = {"profile": "ai-memory", "flags": [], "passed": True, "summary": "0 failed, 17 passed, 20 skipped",
             "failed": []}
DIGEST = "9b2d5f0c1e7a4b3c8d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c"
EXTERNAL = {
    "generated_at": "2026-10-01T00:00:00Z", "total_questions": 500, "case_results": 500,
    "dataset": {"corpus_hash": "sha256:" + "c" * 63 + "d"},
    "overall": {"recall@5": 0.942, "hit@5": 1.0, "created_entity_count": 23868.0},
    "per_type": {"a": {"recall@5": 0.95, "hit@5": 1.0}, "b": {"recall@5": 0.93, "hit@5": 1.0}},
    "external_artifact": {
        "provider": "github-actions", "repo": "o/r", "run_id": "1", "run_url": "https://github.com/o/r/actions/runs/1",
        "sha256": DIGEST, "size_bytes": 10, "archive_size_bytes": 5, "expires_at": "2027-01-01T00:00:00Z",
        "verified_at": "2026-11-01T00:00:00Z", "gate_passed": True, "gate_profile": "ai-memory",
        "gate_receipt": "Gate passed; recall@5 0.9420 >= 0.7500",
        "verification_receipt": f"sha256 {DIGEST}; size 10 bytes; GitHub archive size 5 bytes; "
                                "artifact expires 2027-01-01T00:00:00Z"}}
SUMMARY = {"schema_version": "h-v1", "baseline_key": "latest", "generated_at": "2026-06-10T13:00:00Z",
           "source": {"artifact": "a.json", "suite": "S", "mode": "hybrid", "sibyl_commit": COMMIT},
           "profile": "ai-memory", "metrics": {"recall@5": 0.96}, "gate_command": "bench-gate ledger manifest.json",
           "gate_passed": True}


def ctx(manifest: dict[str, Any], entries: dict[str, Any] | None = None, docs: dict[str, Any] | None = None,
        history: dict[str, Any] | None = None, receipts: dict[str, Any] | None = None) -> Context:
    loaded = {role: Doc(role, path, data=data) for role, (path, data) in (docs or {}).items()}
    # every recorded gate command read by the command line, as `bench-gate ledger` hands it over
    texts = [d.get(k) for _, d in (docs or {}).values() if isinstance(d, dict)
             for k in ("gate_command",)] + [d["external_artifact"].get("gate_command") for _, d in (docs or {}).values()
                                            if isinstance(d, dict) and isinstance(d.get("external_artifact"), dict)]
    commands = {text: read_runs(text, read_command) for text in texts if isinstance(text, str) and text.strip()}
    evidence = Doc("evidence", ".", data={"profiles": ["ai-memory", "ledger"], "entries": entries or {},
                                          "history": history or {"files": []}, "receipts": receipts or {},
                                          "commands": commands},
                   extra={"docs": loaded})
    return context(doc("report", manifest, path="manifest.json"), evidence=evidence)


def local(entry: dict[str, Any] | None = None, artifact: dict[str, Any] | None = None,
          gate: dict[str, Any] | None = None) -> Context:
    return ctx({"citable": [entry or ENTRY]},
               {"/citable/0": {"role": "citable/0", "path": "a.json", "error": None, "gate": gate or GATE_PASS}},
               {"citable/0": ("a.json", artifact or ARTIFACT)})


def messages(findings: Any) -> list[str]:
    return [f.message for f in findings]


def first(findings: Any) -> Finding:
    return list(findings)[0]


# --- ledger_sources ----------------------------------------------------------------------

SOURCES = [
    ("one-local", local(), "pass",
     "1 citable entry (1 local, 0 external), each file read inside the repository"),
    ("both", ctx({"citable": [{"artifact": "a.json", "external_artifact_manifest": "e.json", "status": "citable"}]}),
     "fail", "/citable/0 names both of artifact / external_artifact_manifest (exactly one is required)"),
    ("neither", ctx({"citable": [{"status": "citable"}]}), "fail",
     "/citable/0 names neither of artifact / external_artifact_manifest (exactly one is required)"),
    ("missing-file", ctx({"citable": [dict(ENTRY)]}, {"/citable/0": {"role": "citable/0", "error": "no such file"}}),
     "fail", '/citable/0/artifact "a.json": no such file'),
    ("status", local({**ENTRY, "status": "draft"}), "fail",
     '/citable/0/status is "draft", expected "citable" in the citable list'),
    ("unknown-profile", local({**ENTRY, "gate_profile": "nope"}), "fail",
     "/citable/0/gate_profile: 'nope' is not a built-in profile (`bench-gate profiles` lists them)"),
    ("profile-file", local({**ENTRY, "gate_profile": "../lax.yaml"}), "fail",
     "/citable/0/gate_profile: '../lax.yaml' is a file, not a profile name: a ledger names built-in profiles only, "
     "so that it cannot choose a profile that checks less"),
    ("profile-file-in-folder", local({**ENTRY, "gate_profile": "lax.yml"}), "fail",
     "/citable/0/gate_profile: 'lax.yml' is a file, not a profile name: a ledger names built-in profiles only, "
     "so that it cannot choose a profile that checks less"),
    ("not-object", ctx({"citable": ["a.json"]}), "fail", "/citable/0 must be an object, got string"),
]


@pytest.mark.parametrize("c,status,message", [r[1:] for r in SOURCES], ids=[r[0] for r in SOURCES])
def test_sources(c: Context, status: str, message: str) -> None:
    f = first(run_kind(ledger_sources, SourcesParams(), c))
    assert (f.status, f.message) == (status, message)


def test_sources_empty_citable_fails() -> None:
    (f,) = run_kind(ledger_sources, SourcesParams(), ctx({"citable": []}))
    assert (f.status, f.message) == ("fail", "/citable is empty: the ledger lists nothing citable")


def test_without_evidence_the_kinds_say_how_to_run() -> None:
    (f,) = run_kind(ledger_sources, SourcesParams(), doc("report", {"citable": [ENTRY]}, path="m.json"))
    assert (f.status, f.message) == ("fail", "the ledger's artifacts were not loaded: gate a ledger with "
                                             "`bench-gate ledger MANIFEST`")


# --- ledger_gates ------------------------------------------------------------------------

GATES = [
    ("passes", local(), "pass",
     "/citable/0 (a.json) passes ai-memory (0 failed, 17 passed, 20 skipped)", ""),
    ("fails", local(gate={"profile": "ai-memory", "flags": ["--require-qa"], "passed": False,
                          "summary": "2 failed, 14 passed, 19 skipped",
                          "failed": [{"rule": "qa-block", "message": "/qa is missing", "document": "citable/0",
                                      "pointer": "/qa"},
                                     {"rule": "qa-cases", "message": "x", "document": "citable/0",
                                      "pointer": "/case_results/0/qa"}]}),
     "fail", "/citable/0 (a.json) fails its gate ai-memory --require-qa (2 failed, 14 passed, 19 skipped): "
             "qa-block: /qa is missing; also failing: qa-cases", "/qa"),
    ("profile-error", local(gate={"profile": "x", "flags": [], "error": "unknown profile 'x'"}), "fail",
     '/citable/0 (a.json) cannot be gated with "ai-memory": unknown profile \'x\'', "/citable/0/gate_profile"),
]


@pytest.mark.parametrize("c,status,message,pointer", [r[1:] for r in GATES], ids=[r[0] for r in GATES])
def test_gates(c: Context, status: str, message: str, pointer: str) -> None:
    f = first(run_kind(ledger_gates, GatesParams(), c))
    assert (f.status, f.message) == (status, message)
    if status == "fail":
        assert f.pointer == pointer


# --- ledger_echo -------------------------------------------------------------------------

FIELDS = EchoParams(fields=[
    EchoField("/suite", "/suite", required=True), EchoField("/questions", "/total_questions", required=True),
    EchoField("/case_results", "/case_results", length=True, required=True),
    EchoField("/overall", "/overall", required=True), EchoField("/runtime", "/runtime"),
    EchoField("/claim_boundary", "/claim_boundary")])

ECHO = [
    ("exact", local(), [], "1 entry echoes its artifact exactly: suite, questions, case_results, overall, runtime, "
                           "claim_boundary"),
    ("rounded-metric", local({**ENTRY, "overall": {"recall@5": 0.9406, "ndcg@5": 0.91}},
                             {**ARTIFACT, "overall": {"recall@5": 0.9405666666666668, "ndcg@5": 0.91}}),
     ["/citable/0 (a.json): overall/recall@5 drifted: ledger says 0.9406, artifact /overall/recall@5 is "
      "0.9405666666666668"], ""),
    ("count-and-length", local({**ENTRY, "questions": 3, "case_results": 1}),
     ["/citable/0 (a.json): questions drifted: ledger says 3, artifact /total_questions is 2",
      "/citable/0 (a.json): case_results drifted: ledger says 1, artifact len(/case_results) is 2"], ""),
    ("nested-and-missing", local({k: v for k, v in ENTRY.items() if k != "suite"} | {"runtime": {"store": "x"}}),
     ["/citable/0 (a.json): the entry lacks suite; the artifact has /suite = \"S\"",
      "/citable/0 (a.json): runtime/store drifted: ledger says \"x\", artifact /runtime/store is \"chroma\""], ""),
    ("extra-in-entry", local({**ENTRY, "claim_boundary": "live"}),
     ["/citable/0 (a.json): the entry has claim_boundary = \"live\" but the artifact has no /claim_boundary"], ""),
    ("type-drift", local({**ENTRY, "questions": "2"}),
     ["/citable/0 (a.json): questions drifted: ledger says \"2\", artifact /total_questions is 2"], ""),
    ("bool-is-not-1", local({**ENTRY, "overall": {"recall@5": True, "ndcg@5": 0.91}},
                            {**ARTIFACT, "overall": {"recall@5": 1, "ndcg@5": 0.91}}),
     ["/citable/0 (a.json): overall/recall@5 drifted: ledger says true, artifact /overall/recall@5 is 1"], ""),
]


@pytest.mark.parametrize("c,fails,passes", [r[1:] for r in ECHO], ids=[r[0] for r in ECHO])
def test_echo(c: Context, fails: list[str], passes: str) -> None:
    found = list(run_kind(ledger_echo, FIELDS, c))
    if fails:
        assert messages(found) == fails
        assert all(f.status == "fail" for f in found)
    else:
        assert [(f.status, f.message) for f in found] == [("pass", passes)]


def test_echo_drift_points_at_the_entry_and_carries_both_values() -> None:
    f = first(run_kind(ledger_echo, FIELDS, local({**ENTRY, "questions": 3})))
    assert (f.document, f.pointer, f.actual, f.expected) == ("report", "/citable/0/questions", 3, 2)


def test_diff_lists_every_leaf() -> None:
    assert diff({"a": 1, "b": {"c": 2}}, {"a": 1.0, "b": {"c": 3, "d": 4}}) == [
        ("/b/c", 2, 3), ("/b/d", diff.__globals__["MISSING"], 4)]


# --- ledger_external ---------------------------------------------------------------------


def external(top: dict[str, Any] | None = None, **changes: Any) -> Context:
    doc = copy.deepcopy(EXTERNAL)
    doc.update(top or {})
    for key, value in changes.items():
        if key == "case_results":
            doc["case_results"] = value
        elif value is None:
            del doc["external_artifact"][key]
        else:
            doc["external_artifact"][key] = value
    return ctx({"citable": [{"external_artifact_manifest": "e.json", "status": "citable"}]},
               {"/citable/0": {"role": "citable/0", "path": "e.json", "error": None}},
               {"citable/0": ("e.json", doc)})


EXT_PARAMS = ExternalParams(required=["provider", "run_url", "sha256"], external_profiles=["product"],
                            question_type_counts={"sha256:" + "c" * 63 + "d": {"a": 300, "b": 200}})
EXTERNALS = [
    ("valid", external(), "pass", "1 external artifact manifest: provider known, gate passed and its receipt agrees "
                                  "with the summary, overall figures follow from the per-type slices, sizes and "
                                  "sha256 valid (not placeholders), verified before the gate time and not expired, "
                                  "public run URL, gate and verification commands that run what they record and could "
                                  "fail"),
    ("provider", external(provider="jenkins"), "fail",
     '/citable/0 (e.json): provider "jenkins" is not a known provider (github-actions)'),
    ("gate", external(gate_passed=False), "fail",
     "/citable/0 (e.json): gate_passed is false; only an artifact that passed its gate is citable"),
    ("size-zero", external(size_bytes=0), "fail", "/citable/0 (e.json): size_bytes must be a positive integer, "
                                                   "got integer 0"),
    ("size-bool", external(archive_size_bytes=True), "fail",
     "/citable/0 (e.json): archive_size_bytes must be a positive integer, got boolean true"),
    ("sha", external(sha256="A" * 64), "fail",
     f'/citable/0 (e.json): sha256 "{"A" * 64}" is not 64 lowercase hex digits'),
    ("sha-zero", external(sha256="0" * 64), "fail",
     f"/citable/0 (e.json): sha256 {'0' * 64} is a placeholder digest (all '0'), not the hash of an archived "
     "artifact"),
    ("sha-empty-input", external(sha256="e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "fail",
     "/citable/0 (e.json): sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 is the SHA-256 "
     "of empty input, not the hash of an archived artifact"),
    ("expired", external(expires_at="2026-11-29T12:00:00Z",
                         verification_receipt=f"sha256 {DIGEST}; artifact expires 2026-11-29T12:00:00Z"), "fail",
     "/citable/0 (e.json): the archive expired on 2026-11-29T12:00:00Z (gate time 2026-11-29T12:00:00+00:00): it "
     "can no longer be fetched and re-verified against its sha256, so its numbers are not citable"),
    ("made-up-overall", external({"overall": {"recall@5": 0.99, "hit@5": 1.0}},
                                 gate_receipt="Gate passed; recall@5 0.9900 >= 0.7500"), "fail",
     "/citable/0 (e.json): overall recall@5 is 0.99, but the per-type slices weighted by their question counts "
     "give 0.942: the summary does not follow from its slices"),
    ("made-up-metric", external({"overall": {"recall@5": 0.942, "hit@5": 1.0, "Recall@5": 0.99}}), "fail",
     "/citable/0 (e.json): overall Recall@5 cannot be checked: slice a has no numeric Recall@5"),
    ("no-slices", external({"per_type": None}), "fail",
     "/citable/0 (e.json): /per_type must be an object of per-type slices, got null"),
    ("slices-relabelled", external({"per_type": {"a": {"recall@5": 0.95, "hit@5": 1.0},
                                                 "c": {"recall@5": 0.93, "hit@5": 1.0}}}), "fail",
     "/citable/0 (e.json): /per_type has slices ['a', 'c']; the dataset's question types are ['a', 'b'] "
     "(missing ['b'], unknown ['c'])"),
    ("dataset-not-pinned", external({"dataset": {"corpus_hash": "sha256:" + "1" * 64}}), "fail",
     "/citable/0 (e.json): dataset corpus_hash \"sha256:" + "1" * 64 + "\" has no pinned question counts per "
     "type (parameter question_type_counts): the overall figures cannot be checked against the slices"),
    ("subset", external({"total_questions": 470, "case_results": 470}), "fail",
     "/citable/0 (e.json): total_questions 470 is not the 500 questions of the pinned dataset "
     "sha256:" + "c" * 63 + "d: its per-type counts do not apply"),
    ("receipt-value", external(gate_receipt="Gate passed; recall@5 0.9900 >= 0.7500"), "fail",
     "/citable/0 (e.json): gate_receipt says recall@5 0.9900, but the summary's overall recall@5 is 0.942"),
    ("receipt-comparison", external(gate_receipt="Gate passed; recall@5 0.9420 >= 0.9500"), "fail",
     "/citable/0 (e.json): gate_receipt says recall@5 0.9420 >= 0.9500, but the summary's 0.942 is not >= 0.9500"),
    ("receipt-unknown-clause", external(gate_receipt="Gate passed; recall@5 is about 0.94"), "fail",
     "/citable/0 (e.json): gate_receipt clause \"recall@5 is about 0.94\" is not METRIC VALUE >= THRESHOLD: its "
     "numbers cannot be checked against the summary"),
    ("receipt-not-passed", external(gate_receipt="Gate failed; recall@5 0.9420 >= 0.7500"), "fail",
     "/citable/0 (e.json): gate_receipt starts with \"Gate failed\", not \"Gate passed\""),
    ("receipt-empty", external(gate_receipt="Gate passed"), "fail",
     "/citable/0 (e.json): gate_receipt names no metric it checked"),
    ("verification-hash", external(verification_receipt="sha256 " + "1" * 64 + "; size 10 bytes"), "fail",
     f'/citable/0 (e.json): verification_receipt does not record the sha256 "{DIGEST}"'),
    ("verification-size", external(verification_receipt=f"sha256 {DIGEST}; size 11 bytes"), "fail",
     "/citable/0 (e.json): verification_receipt records size 11 bytes, but size_bytes is 10"),
    ("verification-time", external(verification_receipt=f"sha256 {DIGEST}; expires 2028-01-01T00:00:00Z"), "fail",
     "/citable/0 (e.json): verification_receipt records the time 2028-01-01T00:00:00Z, which is neither "
     "expires_at nor verified_at"),
    ("verified-before-run", external(verified_at="2026-09-01T00:00:00Z"), "fail",
     "/citable/0 (e.json): verified_at 2026-09-01T00:00:00Z is before the run's generated_at 2026-10-01T00:00:00Z"),
    ("verified-after-expiry", external(expires_at="2026-12-01T00:00:00Z", verified_at="2026-12-01T00:00:00Z",
                                       verification_receipt=f"sha256 {DIGEST}"), "fail",
     "/citable/0 (e.json): verified_at 2026-12-01T00:00:00Z is in the future (gate time 2026-11-29T12:00:00+00:00)"),
    ("run-url-other-run", external(run_url="https://github.com/o/r/actions/runs/2"), "fail",
     "/citable/0 (e.json): run_url \"https://github.com/o/r/actions/runs/2\" is not the run 1 of o/r "
     "(https://github.com/o/r/actions/runs/1)"),
    ("gate-profile-file", external(gate_profile="../lax.yaml"), "fail",
     "/citable/0 (e.json): gate_profile '../lax.yaml' is a file, not a profile name: a ledger names built-in "
     "profiles only, so that it cannot choose a profile that checks less"),
    ("gate-profile-undeclared", external(gate_profile="vendor"), "fail",
     "/citable/0 (e.json): gate_profile 'vendor' is not a built-in profile (`bench-gate profiles` lists them)"),
    ("verified-future", external(verified_at="2026-11-29T12:00:01Z"), "fail",
     "/citable/0 (e.json): verified_at 2026-11-29T12:00:01Z is in the future (gate time 2026-11-29T12:00:00+00:00)"),
    ("declared-external-profile", external(gate_profile="product"), "fail",
     "/citable/0 (e.json): gate_profile 'product' is enforced outside bench-gate (--external-profile); benchmark "
     "metrics are citable only when a built-in profile recomputed them (external profiles serve contracts and "
     "receipts)"),
    ("no-offset", external(expires_at="2027-01-01T00:00:00", verification_receipt=f"sha256 {DIGEST}"), "fail",
     '/citable/0 (e.json): expires_at "2027-01-01T00:00:00" is not an RFC 3339 timestamp with an offset'),
    ("private-url", external(run_url="https://10.0.0.1/runs/1"), "fail",
     '/citable/0 (e.json): run_url "https://10.0.0.1/runs/1" host 10.0.0.1 is a private or special-purpose address'),
    ("missing-field", external(sha256=None), "fail", "/citable/0 (e.json): external_artifact.sha256 is missing"),
    ("cases", external(case_results=499), "fail",
     "/citable/0 (e.json): case_results 499 must be an integer equal to total_questions 500"),
]


@pytest.mark.parametrize("c,status,message", [r[1:] for r in EXTERNALS], ids=[r[0] for r in EXTERNALS])
def test_external(c: Context, status: str, message: str) -> None:
    found = list(run_kind(ledger_external, EXT_PARAMS, c))
    assert (found[0].status, found[0].message) == (status, message)


def test_external_slices_within_tolerance_pass_and_beyond_fail() -> None:
    near = external({"overall": {"recall@5": 0.9420000000001, "hit@5": 1.0}},
                    gate_receipt="Gate passed; recall@5 0.9420 >= 0.7500")
    assert first(run_kind(ledger_external, EXT_PARAMS, near)).status == "pass"
    far = external({"overall": {"recall@5": 0.942000002, "hit@5": 1.0}},
                   gate_receipt="Gate passed; recall@5 0.9420 >= 0.7500")
    assert first(run_kind(ledger_external, EXT_PARAMS, far)).message.startswith("/citable/0 (e.json): overall recall@5 is "
                                                                   "0.942000002, but the per-type slices")


def test_external_basis_says_the_cases_were_not_reread() -> None:
    f = first(run_kind(ledger_external_basis, BasisParams(), external()))
    assert (f.status, f.message) == ("pass", (
        f'/citable/0 (e.json): its 500 cases were not re-read (they are in the archive of run "1", not in the '
        f'repository); its summary rests on the archive\'s sha256 "{DIGEST}" and the recorded gate run '
        '("ai-memory", gate_passed true), checked here for consistency only'))
    assert first(run_kind(ledger_external_basis, BasisParams(), local())).status == "skip"


# --- ledger_planned ----------------------------------------------------------------------

PLANNED = [
    ("clean", {"planned": [{"suite": "LoCoMo", "status": "planned", "required_artifact_pattern": "x"}]}, "pass",
     "1 planned entry, none carries an artifact"),
    ("artifact", {"planned": [{"suite": "LoCoMo", "status": "planned", "artifact": "a.json"}]}, "fail",
     '/planned/0 (LoCoMo) is planned but carries artifact = "a.json": a planned suite has no artifact or number '
     "to cite"),
    ("metric", {"planned": [{"suite": "M", "status": "planned", "overall": {"recall@5": 0.9}}]}, "fail",
     "/planned/0 (M) is planned but carries overall = {object with 1 key}: a planned suite has no artifact or "
     "number to cite"),
    ("status", {"planned": [{"suite": "M", "status": "citable"}]}, "fail",
     '/planned/0/status is "citable", expected "planned"'),
    ("none", {}, "skip", "no planned entries"),
]


@pytest.mark.parametrize("manifest,status,message", [r[1:] for r in PLANNED], ids=[r[0] for r in PLANNED])
def test_planned(manifest: dict[str, Any], status: str, message: str) -> None:
    f = first(run_kind(ledger_planned, PlannedParams(), ctx(manifest)))
    assert (f.status, f.message) == (status, message)


# --- ledger_no_regression ----------------------------------------------------------------


def pair_ctx(pair: dict[str, Any], cand: dict[str, Any], base: dict[str, Any] | None = None,
             summaries: list[dict[str, Any]] | None = None) -> Context:
    entries = [{**ENTRY, "artifact": "b.json", "overall": cand}]
    if base is not None:
        entries.append({**ENTRY, "artifact": "a.json", "overall": base})
    files = [{"role": f"history/{i}.json", "path": f"history/{i}.json"} for i in range(len(summaries or []))]
    docs = {f"history/{i}.json": (f"history/{i}.json", s) for i, s in enumerate(summaries or [])}
    return ctx({"citable": entries, "no_regression": [pair]}, docs=docs, history={"files": files})


REGRESSIONS = [
    ("holds", pair_ctx({"candidate": "b.json", "baseline": "a.json", "metrics": ["recall@5"]},
                       {"recall@5": 0.94}, {"recall@5": 0.94}), "pass",
     "/no_regression/0 b.json vs a.json: recall@5 0.94 vs baseline 0.94: regression 0 (allowed 0)"),
    ("tie-with-allowance", pair_ctx({"candidate": "b.json", "baseline": "a.json", "metrics": ["recall@5"],
                                     "max_regression": {"recall@5": 0.01}}, {"recall@5": 0.93}, {"recall@5": 0.94}),
     "pass", "/no_regression/0 b.json vs a.json: recall@5 0.93 vs baseline 0.94: regression 0.01 (allowed 0.01)"),
    ("drops", pair_ctx({"candidate": "b.json", "baseline": "a.json", "metrics": ["recall@5"],
                        "max_regression": {"recall@5": 0.005}}, {"recall@5": 0.93}, {"recall@5": 0.94}), "fail",
     "/no_regression/0 b.json vs a.json: recall@5 dropped from baseline 0.94 to 0.93, a regression of 0.01 "
     "(allowed 0.005)"),
    ("latency-rises", pair_ctx({"candidate": "b.json", "baseline": "a.json", "metrics": ["latency_p95_ms"]},
                               {"latency_p95_ms": 900}, {"latency_p95_ms": 800}), "fail",
     "/no_regression/0 b.json vs a.json: latency_p95_ms rose from baseline 800 to 900, a regression of 100 "
     "(allowed 0)"),
    ("history-latest", pair_ctx({"candidate": "b.json", "baseline_history": "latest", "metrics": ["recall@5"]},
                                {"recall@5": 0.94}, {"recall@5": 0.96},
                                summaries=[SUMMARY, {**SUMMARY, "generated_at": "2026-05-01T00:00:00Z",
                                                     "metrics": {"recall@5": 0.5}}]), "fail",
     "/no_regression/0 b.json vs history/0.json: recall@5 dropped from baseline 0.96 to 0.94, a regression of "
     "0.02 (allowed 0)"),
    ("history-newer-unchecked", pair_ctx(
        {"candidate": "b.json", "baseline_history": "latest", "metrics": ["recall@5"]}, {"recall@5": 0.94},
        {"recall@5": 0.96}, summaries=[SUMMARY, {**SUMMARY, "generated_at": "2026-06-11T00:00:00Z",
                                                 "source": {**SUMMARY["source"], "artifact": "gone.json"},
                                                 "metrics": {"recall@5": 0.5}}]), "fail",
     "/no_regression/0 b.json vs history/0.json: recall@5 dropped from baseline 0.96 to 0.94, a regression of "
     "0.02 (allowed 0)"),
    ("history-none-checkable", pair_ctx(
        {"candidate": "b.json", "baseline_history": "latest", "metrics": ["recall@5"]}, {"recall@5": 0.94},
        summaries=[{**SUMMARY, "metrics": {"recall@5": 0.5}}]), "fail",
     '/no_regression/0/baseline_history "latest": no passing history summary with this baseline_key can back a '
     "baseline (history/0.json: its source a.json is neither a citable entry of this ledger nor a file of the "
     "repository (it was not read))"),
    ("history-unknown", pair_ctx({"candidate": "b.json", "baseline_history": "nope", "metrics": ["recall@5"]},
                                 {"recall@5": 0.94}, summaries=[SUMMARY]), "fail",
     '/no_regression/0/baseline_history "nope": no passing history summary has this baseline_key'),
    ("candidate-not-citable", pair_ctx({"candidate": "z.json", "baseline": "a.json", "metrics": ["recall@5"]},
                                       {"recall@5": 0.94}, {"recall@5": 0.94}), "fail",
     '/no_regression/0/candidate "z.json" is not a citable entry of this ledger'),
    ("both-baselines", pair_ctx({"candidate": "b.json", "baseline": "a.json", "baseline_history": "latest",
                                 "metrics": ["recall@5"]}, {"recall@5": 0.94}, {"recall@5": 0.94}), "fail",
     "/no_regression/0 names both of baseline / baseline_history (exactly one is required)"),
    ("unknown-profile", pair_ctx({"candidate": "b.json", "baseline": "a.json", "profile": "ai-memmory",
                                  "metrics": ["recall@5"]}, {"recall@5": 0.94}, {"recall@5": 0.94}), "fail",
     "/no_regression/0/profile 'ai-memmory' is not a built-in profile (`bench-gate profiles` lists them)"),
    ("no-metrics", pair_ctx({"candidate": "b.json", "baseline": "a.json", "metrics": []},
                            {"recall@5": 0.94}, {"recall@5": 0.94}), "fail",
     "/no_regression/0/metrics must be a non-empty list of metric names, got []"),
]


@pytest.mark.parametrize("c,status,message", [r[1:] for r in REGRESSIONS], ids=[r[0] for r in REGRESSIONS])
def test_no_regression(c: Context, status: str, message: str) -> None:
    f = first(run_kind(ledger_no_regression, NoRegressionParams(), c))
    assert (f.status, f.message) == (status, message)


# --- ledger_history ----------------------------------------------------------------------


def history_ctx(*summaries: dict[str, Any], policy: str = "immutable-json") -> Context:
    files = [{"role": f"history/{i}.json", "path": f"history/{i}.json"} for i in range(len(summaries))]
    docs = {f"history/{i}.json": (f"history/{i}.json", s) for i, s in enumerate(summaries)}
    manifest = {"history": {"directory": "history", "summary_schema": "h-v1", "append_policy": policy}}
    return ctx(manifest, docs=docs, history={"files": files})


HISTORY = [
    ("valid", history_ctx(SUMMARY), "pass",
     "1 history summary in history: schema h-v1, gates passed, metrics finite and equal to their source's where "
     "the source can be read, keys unique; 1 cannot back a no-regression baseline: history/0.json: its source "
     "a.json is neither a citable entry of this ledger nor a file of the repository (it was not read)"),
    ("duplicate", history_ctx(SUMMARY, {**SUMMARY, "metrics": {"recall@5": 0.97}}), "fail",
     "history/1.json: baseline_key 'latest' at generated_at 2026-06-10T13:00:00Z also appears in history/0.json: "
     "history is append-only, a summary is never rewritten or duplicated"),
    ("same-instant-other-offset", history_ctx(SUMMARY, {**SUMMARY, "generated_at": "2026-06-10T15:00:00+02:00"}),
     "fail", "history/1.json: baseline_key 'latest' at generated_at 2026-06-10T15:00:00+02:00 also appears in "
             "history/0.json: history is append-only, a summary is never rewritten or duplicated"),
    ("schema", history_ctx({**SUMMARY, "schema_version": "h-v0"}), "fail",
     'history/0.json: schema_version is "h-v0", expected "h-v1"'),
    ("gate", history_ctx({**SUMMARY, "gate_passed": "true"}), "fail",
     'history/0.json: gate_passed is "true"; a summary records a passing gate'),
    ("metric-string", history_ctx({**SUMMARY, "metrics": {"recall@5": "0.9"}}), "fail",
     'history/0.json: metrics.recall@5 must be a finite number, got string "0.9"'),
    ("future", history_ctx({**SUMMARY, "generated_at": "2026-12-01T00:00:00Z"}), "fail",
     "history/0.json: generated_at 2026-12-01T00:00:00Z is in the future (gate time 2026-11-29T12:00:00+00:00)"),
    ("policy", history_ctx(SUMMARY, policy="mutable"), "fail",
     '/history/append_policy is "mutable", expected one of immutable-json'),
    ("bad-commit", history_ctx({**SUMMARY, "source": {**SUMMARY["source"], "sibyl_commit": "abc"}}), "fail",
     'history/0.json: source.sibyl_commit "abc" is not a full 40-hex commit SHA in lowercase (a short SHA '
     'is ambiguous: as a repository grows, more commits share its prefix)'),
]


@pytest.mark.parametrize("c,status,message", [r[1:] for r in HISTORY], ids=[r[0] for r in HISTORY])
def test_history(c: Context, status: str, message: str) -> None:
    f = first(run_kind(ledger_history, HistoryParams(), c))
    assert (f.status, f.message) == (status, message)


# --- ledger_contracts --------------------------------------------------------------------

GOOD = {"name": "g", "status": "blocking", "blocking": True, "profile": "ai-memory",
        "metric_contracts": [{"metric": "recall@5", "mode": "no-regression", "direction": "higher",
                              "baseline": "latest", "max_regression": 0.005},
                             {"metric": "latency_p95_ms", "mode": "threshold", "direction": "lower",
                              "threshold": 1000},
                             {"metric": "leak_count", "mode": "receipt", "required_receipt": "r.json",
                              "receipt_schema": "r-v1", "direction": "lower", "threshold": 0}]}
RECEIPT = {"schema_version": "r-v1", "metrics": {"leak_count": 0, "coverage": 1.0},
           "checks": [{"name": "a", "status": "PASS", "surfaces": ["x", "y"]},
                      {"name": "b", "status": "PASS", "surfaces": ["z"]}]}


def contracts(*items: dict[str, Any], receipt: Any = RECEIPT, error: str | None = None) -> Context:
    c = ctx({"gate_contracts": list(items)}, docs={"receipt/r.json": ("r.json", receipt)},
            receipts={"r.json": "receipt/r.json"})
    if error is not None:
        docs = c.documents["evidence"].extra["docs"]
        docs["receipt/r.json"] = Doc("receipt/r.json", "r.json", error=error)
    return c


def mc(i: int, **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(GOOD)
    out["metric_contracts"][i].update(changes)
    return out


CONTRACTS = [
    ("valid", contracts(GOOD), "pass",
     "1 gate contract: names unique, blocking matches status, profiles known, metric contracts complete"),
    ("external-declared", contracts({**GOOD, "profile": "product"}), "pass",
     "1 gate contract: names unique, blocking matches status, profiles known (product enforced outside "
     "bench-gate), metric contracts complete"),
    ("receipt-fields", contracts(mc(2, required_receipt="", receipt_schema=None)), "fail",
     '/gate_contracts/0/metric_contracts/2: required_receipt is ""; a receipt contract names the receipt file, '
     "relative to the ledger's folder"),
    ("receipt-threshold", contracts(mc(2, threshold="0")), "fail",
     '/gate_contracts/0/metric_contracts/2: threshold must be a finite number, got "0"'),
    ("receipt-direction", contracts(mc(2, direction="down")), "fail",
     '/gate_contracts/0/metric_contracts/2: direction is "down", expected one of higher, lower'),
    ("receipt-checks-flag", contracts(mc(2, require_receipt_checks="yes")), "fail",
     '/gate_contracts/0/metric_contracts/2: require_receipt_checks must be true or false, got "yes"'),
    ("receipt-surfaces", contracts(mc(2, required_surfaces="x")), "fail",
     '/gate_contracts/0/metric_contracts/2: required_surfaces must be a list of surface names, got "x"'),
    ("duplicate", contracts(GOOD, GOOD), "fail", "/gate_contracts/1/name 'g' is also the name of /gate_contracts/0"),
    ("blocking-status", contracts({**GOOD, "status": "advisory"}), "fail",
     '/gate_contracts/0 says blocking true but status "advisory": blocking is true exactly when status is '
     '"blocking"'),
    ("profile", contracts({**GOOD, "profile": "x"}), "fail",
     "/gate_contracts/0/profile 'x' is neither a built-in profile (`bench-gate profiles` lists them) nor declared "
     "as enforced outside bench-gate (--external-profile x)"),
    ("profile-file", contracts({**GOOD, "profile": "../lax.yaml"}), "fail",
     "/gate_contracts/0/profile '../lax.yaml' is a file, not a profile name: a ledger names built-in profiles "
     "only, so that it cannot choose a profile that checks less"),
    ("direction", contracts(mc(1, direction="higher")), "fail",
     "/gate_contracts/0/metric_contracts/1: direction higher contradicts latency_p95_ms, where lower is better"),
    ("threshold", contracts(mc(1, threshold=None)), "fail",
     "/gate_contracts/0/metric_contracts/1: threshold must be a finite number, got null"),
    ("max-regression", contracts(mc(0, max_regression=-0.1)), "fail",
     "/gate_contracts/0/metric_contracts/0: max_regression must be a number >= 0, got -0.1"),
    ("mode", contracts(mc(0, mode="vibes")), "fail",
     '/gate_contracts/0/metric_contracts/0: mode is "vibes", expected threshold, no-regression or receipt'),
]


@pytest.mark.parametrize("c,status,message", [r[1:] for r in CONTRACTS], ids=[r[0] for r in CONTRACTS])
def test_contracts(c: Context, status: str, message: str) -> None:
    f = first(run_kind(ledger_contracts, ContractsParams(external_profiles=["product"]), c))
    assert (f.status, f.message) == (status, message)


# --- ledger_receipts ---------------------------------------------------------------------

SURFACED = mc(2, require_receipt_checks=True, required_surfaces=["x", "z"])
RECEIPTS = [
    ("holds", contracts(SURFACED), "pass", "receipts of blocking contracts hold: g (1 metric)"),
    ("tie-holds", contracts(mc(2, metric="coverage", direction="higher", threshold=1)), "pass",
     "receipts of blocking contracts hold: g (1 metric)"),
    ("missing", contracts(GOOD, error="no such file"), "fail",
     "/gate_contracts/0/metric_contracts/2 (g, leak_count): required_receipt r.json: no such file"),
    ("schema", contracts(GOOD, receipt={**RECEIPT, "schema_version": "r-v0"}), "fail",
     '/gate_contracts/0/metric_contracts/2 (g, leak_count): r.json has schema_version "r-v0", expected "r-v1"'),
    ("over-threshold", contracts(GOOD, receipt={**RECEIPT, "metrics": {"leak_count": 1}}), "fail",
     "/gate_contracts/0/metric_contracts/2 (g, leak_count): r.json metrics.leak_count is 1, expected <= 0 "
     "(lower is better)"),
    ("under-threshold", contracts(mc(2, metric="coverage", direction="higher", threshold=1),
                                  receipt={**RECEIPT, "metrics": {"coverage": 0.99}}), "fail",
     "/gate_contracts/0/metric_contracts/2 (g, coverage): r.json metrics.coverage is 0.99, expected >= 1 "
     "(higher is better)"),
    ("not-a-number", contracts(GOOD, receipt={**RECEIPT, "metrics": {"leak_count": "0"}}), "fail",
     '/gate_contracts/0/metric_contracts/2 (g, leak_count): r.json metrics.leak_count is "0", not a finite number'),
    ("bool-is-not-a-number", contracts(GOOD, receipt={**RECEIPT, "metrics": {"leak_count": False}}), "fail",
     "/gate_contracts/0/metric_contracts/2 (g, leak_count): r.json metrics.leak_count is false, not a finite number"),
    ("absent-metric", contracts(GOOD, receipt={**RECEIPT, "metrics": {}}), "fail",
     "/gate_contracts/0/metric_contracts/2 (g, leak_count): r.json metrics.leak_count is missing, not a finite "
     "number"),
    ("failing-check", contracts(SURFACED, receipt={**RECEIPT, "checks": [
        {"name": "a", "status": "FAIL", "surfaces": ["x", "y"]}, {"name": "b", "status": "PASS", "surfaces": ["z"]}]}),
     "fail", '/gate_contracts/0/metric_contracts/2 (g, leak_count): r.json check "a" has status "FAIL", expected PASS'),
    ("no-checks", contracts(SURFACED, receipt={**RECEIPT, "checks": []}), "fail",
     "/gate_contracts/0/metric_contracts/2 (g, leak_count): r.json lists no checks, but the contract requires its "
     "checks to pass"),
    ("surface-uncovered", contracts(mc(2, required_surfaces=["x", "w"])), "fail",
     "/gate_contracts/0/metric_contracts/2 (g, leak_count): r.json: no passing check covers the required surface "
     "'w'"),
    ("not-blocking", contracts({**GOOD, "status": "planned", "blocking": False}, error="no such file"), "pass",
     "no blocking contract names a receipt; not enforced, the contract is not blocking: g (planned): r.json "
     "missing"),
    ("none", contracts({**GOOD, "metric_contracts": GOOD["metric_contracts"][:2]}), "skip", "no receipt contracts"),
]


@pytest.mark.parametrize("c,status,message", [r[1:] for r in RECEIPTS], ids=[r[0] for r in RECEIPTS])
def test_receipts(c: Context, status: str, message: str) -> None:
    f = first(run_kind(ledger_receipts, ReceiptsParams(), c))
    assert (f.status, f.message) == (status, message)


# --- ledger_date -------------------------------------------------------------------------

DATES = [
    ("valid", "2026-07-03", None),
    ("today", "2026-11-29", None),
    ("feb-30", "2026-02-30", "updated_at '2026-02-30' is not a calendar date (day is out of range for month)"),
    ("month-13", "2026-13-01", "updated_at '2026-13-01' is not a calendar date (month must be in 1..12)"),
    ("future", "2026-11-30", "updated_at 2026-11-30 is after the gate time 2026-11-29T12:00:00+00:00"),
    ("not-a-date", "July 3", 'updated_at is "July 3", not a date (YYYY-MM-DD)'),
    ("number", 20260703, "updated_at is 20260703, not a date (YYYY-MM-DD)"),
    ("missing", None, "updated_at is null, not a date (YYYY-MM-DD)"),
]


@pytest.mark.parametrize("value,problem", [r[1:] for r in DATES], ids=[r[0] for r in DATES])
def test_updated_at(value: Any, problem: str | None) -> None:
    c = ctx({"updated_at": value, "citable": []})
    if problem is None:
        assert first(run_kind(ledger_date, DateParams(), c)).status == "pass"
    else:
        (f,) = run_kind(ledger_date, DateParams(), c)
        assert (f.status, f.message) == ("fail", problem)


# --- paths and profile names --------------------------------------------------------------

@pytest.mark.parametrize("folder,written,leaves", [
    ("benchmarks/results/ai-memory", "external/x.json", False),
    ("benchmarks/results/ai-memory", "../../../x.json", False),
    ("benchmarks/results/ai-memory", "../../../../x.json", True),
    ("", "../x.json", True),
    ("", "a/../../x.json", True),
    ("", "/etc/passwd", True),
    ("", "C:/x.json", True),
    ("a", "b/./c.json", False),
])
def test_leaves_repository(folder: str, written: str, leaves: bool) -> None:
    assert leaves_repository(folder, written) is leaves


def test_history_profile_and_source_paths_stay_in_the_repository() -> None:
    c = history_ctx({**SUMMARY, "profile": "../lax.yaml",
                     "source": {**SUMMARY["source"], "artifact": "../../outside.json"}})
    assert messages(run_kind(ledger_history, HistoryParams(), c)) == [
        "history/0.json: source.artifact '../../outside.json' leaves the repository: paths in a ledger stay inside it",
        "history/0.json: profile '../lax.yaml' is a file, not a profile name: a ledger names built-in profiles only, "
        "so that it cannot choose a profile that checks less"]


def test_history_summary_profile_declared_external_fails() -> None:
    c = history_ctx({**SUMMARY, "profile": "product"})
    assert messages(run_kind(ledger_history, HistoryParams(external_profiles=["product"]), c)) == [
        "history/0.json: profile 'product' is enforced outside bench-gate (--external-profile); benchmark metrics "
        "are citable only when a built-in profile recomputed them (external profiles serve contracts and receipts)"]


def external_pair_ctx(expires_at: str) -> Context:
    doc = copy.deepcopy(EXTERNAL)
    doc["external_artifact"]["expires_at"] = expires_at
    entries = [{"external_artifact_manifest": "e.json", "status": "citable", "overall": {"recall@5": 0.942}},
               {**ENTRY, "artifact": "a.json", "overall": {"recall@5": 0.94}}]
    return ctx({"citable": entries, "no_regression": [{"candidate": "e.json", "baseline": "a.json",
                                                        "metrics": ["recall@5"]}]},
               {"/citable/0": {"role": "citable/0", "path": "e.json", "error": None},
                "/citable/1": {"role": "citable/1", "path": "a.json", "error": None, "gate": GATE_PASS}},
               {"citable/0": ("e.json", doc)})


def test_a_pair_whose_external_candidate_expired_fails() -> None:
    assert messages(run_kind(ledger_no_regression, NoRegressionParams(), external_pair_ctx("2026-11-29T12:00:00Z"))) == [
        "/no_regression/0: candidate e.json has an archive that expired on 2026-11-29T12:00:00Z (external-manifest): "
        "its numbers are not citable at the gate time (2026-11-29T12:00:00+00:00), so the pair cannot be compared"]
    assert messages(run_kind(ledger_no_regression, NoRegressionParams(), external_pair_ctx("2026-11-29T12:00:01Z"))) == [
        "/no_regression/0 e.json vs a.json: recall@5 0.942 vs baseline 0.94: regression 0 (allowed 0)"]


def test_a_pair_of_artifacts_that_fail_their_gate_fails() -> None:
    c = pair_ctx({"candidate": "b.json", "baseline": "a.json", "metrics": ["recall@5"]},
                 {"recall@5": 0.94}, {"recall@5": 0.94})
    c.documents["evidence"].data["entries"].update({
        "/citable/0": {"role": "citable/0", "gate": {"profile": "ai-memory", "passed": False}},
        "/citable/1": {"role": "citable/1", "gate": {"profile": "ai-memory", "passed": True}}})
    assert messages(run_kind(ledger_no_regression, NoRegressionParams(), c)) == [
        "/no_regression/0: candidate b.json fails its gate ai-memory (citable-gates): a comparison of numbers that do "
        "not recompute from their cases proves nothing"]


# --- ledger_external_gate ----------------------------------------------------------------


def gated_external(gate: dict[str, Any] | None) -> Context:
    c = external()
    if gate is not None:
        c.documents["evidence"].data["entries"]["/citable/0"]["gate"] = gate
    return c


SLICE_FAIL = {"rule": "slice-thresholds", "message": "per_type[single-session-preference] recall@5 0.3 is below the "
              "minimum 0.7", "pointer": "/per_type/single-session-preference/recall@5", "document": "citable/0",
              "actual": 0.3, "expected": ">= 0.7"}
EXTERNAL_GATES = [
    ("passes", gated_external({**GATE_PASS, "decided": 16, "needs_cases": ["cases-present", "metrics-recompute"]}),
     [("pass", "/citable/0 (e.json): its summary passes the 16 ai-memory rules a summary can decide; not decided "
               "without the cases: cases-present, metrics-recompute")]),
    ("slice-below-minimum", gated_external({**GATE_PASS, "passed": False, "failed": [SLICE_FAIL]}),
     [("fail", "/citable/0 (e.json): its summary fails ai-memory slice-thresholds, so the recorded gate run cannot "
               "have passed: per_type[single-session-preference] recall@5 0.3 is below the minimum 0.7")]),
    ("every-failing-rule", gated_external({**GATE_PASS, "passed": False, "flags": ["--require-qa"], "failed": [
        SLICE_FAIL, {**SLICE_FAIL, "rule": "qa-block", "message": "/qa is missing", "pointer": "/qa"}]}),
     [("fail", "/citable/0 (e.json): its summary fails ai-memory --require-qa slice-thresholds, so the recorded gate "
               "run cannot have passed: per_type[single-session-preference] recall@5 0.3 is below the minimum 0.7"),
      ("fail", "/citable/0 (e.json): its summary fails ai-memory --require-qa qa-block, so the recorded gate run "
               "cannot have passed: /qa is missing")]),
    ("no-gate", gated_external({"profile": "product", "flags": [], "error": "'product' is not a built-in profile"}),
     [("fail", "/citable/0 (e.json): its summary cannot be held to its gate \"product\": 'product' is not a "
               "built-in profile")]),
    ("not-gated", gated_external(None),
     [("fail", "/citable/0 (e.json): its summary cannot be held to its gate null: it was not gated")]),
]


@pytest.mark.parametrize("c,expected", [r[1:] for r in EXTERNAL_GATES], ids=[r[0] for r in EXTERNAL_GATES])
def test_external_gate(c: Context, expected: list[tuple[str, str]]) -> None:
    assert [(f.status, f.message) for f in run_kind(ledger_external_gate, ExternalGateParams(), c)] == expected


def test_external_gate_failure_points_into_the_manifest() -> None:
    f = first(run_kind(ledger_external_gate, ExternalGateParams(), gated_external({**GATE_PASS, "passed": False, "failed": [SLICE_FAIL]})))
    assert (f.document, f.pointer, f.actual, f.expected) == (
        "citable/0", "/per_type/single-session-preference/recall@5", 0.3, ">= 0.7")


def test_external_gate_skips_without_external_entries() -> None:
    assert [(f.status, f.message) for f in run_kind(ledger_external_gate, ExternalGateParams(), local())] == [
        ("skip", "no citable entry names a readable external artifact manifest")]


def test_a_pair_whose_external_candidate_fails_its_gate_fails() -> None:
    c = external_pair_ctx("2027-01-01T00:00:00Z")
    c.documents["evidence"].data["entries"]["/citable/0"]["gate"] = {"profile": "ai-memory", "passed": False}
    assert messages(run_kind(ledger_no_regression, NoRegressionParams(), c)) == [
        "/no_regression/0: candidate e.json fails its gate ai-memory (external-gate): a comparison of numbers that "
        "fail their own gate proves nothing"]


def test_the_rules_left_out_for_a_summary_are_rules_of_their_profile() -> None:
    """A renamed rule would otherwise silently apply (and fail) or a stale name linger."""
    from bench_gate.profile import load_profile

    left_out = load_profile("ledger").params["summary_case_rules"].default
    assert left_out
    for profile, rules in left_out.items():
        ids = {r.spec.id for r in load_profile(profile).rules}
        assert sorted(set(rules) - ids) == [], profile


# --- history summaries tied to their source ----------------------------------------------


def sourced_history(summary: dict[str, Any], artifact: dict[str, Any] | None = None,
                    gate: dict[str, Any] | None = None) -> Context:
    """A ledger whose citable a.json is the source of one history summary."""
    files = [{"role": "history/0.json", "path": "history/0.json"}]
    manifest = {"history": {"directory": "history", "summary_schema": "h-v1", "append_policy": "immutable-json"},
                "citable": [ENTRY]}
    return ctx(manifest, {"/citable/0": {"role": "citable/0", "path": "a.json", "error": None,
                                         "gate": gate or GATE_PASS}},
               {"citable/0": ("a.json", artifact or ARTIFACT), "history/0.json": ("history/0.json", summary)},
               history={"files": files})


TIED = {**SUMMARY, "metrics": {"recall@5": 0.94, "ndcg@5": 0.91}}
SOURCED = [
    ("equal", sourced_history(TIED), [
        "1 history summary in history: schema h-v1, gates passed, metrics finite and equal to their source's where "
        "the source can be read, keys unique"]),
    ("source-not-in-ledger", sourced_history({**TIED, "source": {**TIED["source"], "artifact": "retired.json"},
                                              "metrics": {"recall@5": 0.5}}), [
        "1 history summary in history: schema h-v1, gates passed, metrics finite and equal to their source's where "
        "the source can be read, keys unique; 1 cannot back a no-regression baseline: history/0.json: its source "
        "retired.json is neither a citable entry of this ledger nor a file of the repository (it was not read)"]),
    ("lowered", sourced_history({**TIED, "metrics": {"recall@5": 0.90, "ndcg@5": 0.91}}), [
        "history/0.json: metrics.recall@5 is 0.9, but its source a.json (/citable/0) has overall recall@5 0.94: a "
        "history summary records its source's figures, so a baseline cannot be moved by editing one"]),
    ("lowered-source-spelled-otherwise", sourced_history({
        **TIED, "source": {**TIED["source"], "artifact": "./x/../a.json"}, "metrics": {"recall@5": 0.90}}), [
        "history/0.json: metrics.recall@5 is 0.9, but its source ./x/../a.json (/citable/0) has overall recall@5 0.94: "
        "a history summary records its source's figures, so a baseline cannot be moved by editing one"]),
    ("invented-metric", sourced_history({**TIED, "metrics": {"recall@5": 0.94, "mrr": 0.99}}), [
        "history/0.json: metrics.mrr 0.99 is not a figure of its source a.json (/citable/0): its overall has no mrr"]),
    ("other-suite-and-commit", sourced_history({**TIED, "source": {**TIED["source"], "suite": "T",
                                                                   "sibyl_commit": "f" * 40}}), [
        'history/0.json: source.suite is "T", but its source a.json (/citable/0) has suite "S"',
        f'history/0.json: source.sibyl_commit is "{"f" * 40}", but its source a.json (/citable/0) has sibyl_commit '
        f'"{COMMIT}"']),
    ("other-profile", sourced_history({**TIED, "profile": "ledger"}), [
        'history/0.json: profile is "ledger", but its source a.json (/citable/0) is gated with '
        '"ai-memory"']),
    ("source-fails-gate", sourced_history(TIED, gate={**GATE_PASS, "passed": False}), [
        "history/0.json: gate_passed is true, but its source a.json (/citable/0) fails its gate ai-memory "
        "(citable-gates)"]),
]


@pytest.mark.parametrize("c,expected", [r[1:] for r in SOURCED], ids=[r[0] for r in SOURCED])
def test_history_summary_is_its_sources(c: Context, expected: list[str]) -> None:
    assert messages(run_kind(ledger_history, HistoryParams(), c)) == expected


def test_a_lowered_summary_points_at_the_metric_with_both_values() -> None:
    f = first(run_kind(ledger_history, HistoryParams(), sourced_history({**TIED, "metrics": {"recall@5": 0.90}})))
    assert (f.document, f.pointer, f.actual, f.expected) == ("history/0.json", "/metrics/recall@5", 0.9, 0.94)


# --- Property tests of the external-manifest checks: a summary that does not follow from its ---------

HASH = "sha256:" + "c" * 63 + "d"
COUNTS = {"a": 78, "b": 133, "c": 56, "d": 30, "e": 70, "f": 133}
PARAMS = ExternalParams(question_type_counts={HASH: COUNTS})
# Slice values as the producers write them: ratios of a case count, printed as floats.
SLICE = st.fractions(min_value=0, max_value=1, max_denominator=200).map(lambda f: float(f))


def manifest(slices: dict[str, float], overall: float) -> dict:
    return {"total_questions": 500, "dataset": {"corpus_hash": HASH},
            "overall": {"recall@5": overall},
            "per_type": {name: {"recall@5": value} for name, value in slices.items()}}


def weighted(slices: dict[str, float]) -> Fraction:
    return sum((n * Fraction(repr(slices[t])) for t, n in COUNTS.items()), Fraction(0)) / 500


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({t: SLICE for t in COUNTS}))
def test_the_weighted_mean_of_the_slices_passes(slices: dict[str, float]) -> None:
    assert check_slices(manifest(slices, float(weighted(slices))), PARAMS) == []


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({t: SLICE for t in COUNTS}),
       st.fractions(min_value=Fraction(1, 10**8), max_value=1).map(float), st.booleans())
def test_an_overall_off_the_weighted_mean_fails(slices: dict[str, float], delta: float, up: bool) -> None:
    claimed = float(weighted(slices)) + (delta if up else -delta)
    problems = check_slices(manifest(slices, claimed), PARAMS)
    assert [p for p, _ in problems] == ["/overall/recall@5"]


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({t: SLICE for t in COUNTS}), st.sampled_from(sorted(COUNTS)),
       st.sampled_from(["Recall@5", "recall@05", "recall_at_5", "mrr", "precision@5", "qa_accuracy"]))
def test_a_metric_the_slices_do_not_carry_fails(slices: dict[str, float], _t: str, name: str) -> None:
    doc = manifest(slices, float(weighted(slices)))
    doc["overall"][name] = 0.99
    assert any(p == f"/per_type/a/{name}" for p, _ in check_slices(doc, PARAMS))


@settings(max_examples=300, deadline=None)
@given(st.decimals(min_value=0, max_value=1, places=4), st.decimals(min_value=0, max_value=1, places=4))
def test_a_gate_receipt_value_is_the_summary_at_the_precision_written(actual, written) -> None:
    overall = {"recall@5": float(actual)}
    problems = check_gate_receipt(f"Gate passed; recall@5 {written} >= 0.0000", overall)
    assert (problems == []) is (actual == written)
