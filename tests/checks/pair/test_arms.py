"""The memory-pair check kinds: one table per kind, pass and fail rows, exact messages."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pairgen
from bench_gate.checks.base import kinds_of
from bench_gate.checks.pair import arms as P
from bench_gate.models import Doc
from kindtest import run
from pairsetup import BASE, NHASH, NRUN, OHASH, Row, Setup, check, doc, field_edit, fill, run_kind, set_field, set_run

# --- rule 1: pair_arm --------------------------------------------------------------------

NORMAL_ARM = P.ArmParams("report", "normal")
ORACLE_ARM = P.ArmParams("oracle", "oracle")
ARM_ROWS: list[Row] = [
    ("normal-ok", NORMAL_ARM, Setup(), [("pass", "normal arm evidence/report: run {nrun} (completed), pair record "
                                         "1.0 for pair '{pair}' with role normal")]),
    ("oracle-ok", ORACLE_ARM, Setup(), [("pass", "oracle arm evidence/oracle: run {orun} (completed), pair record "
                                         "1.0 for pair '{pair}' with role oracle")]),
    ("question-text", NORMAL_ARM, Setup("question-text"),
     [("fail", "normal arm pair record carries fields outside its schema: question (a pair record holds "
       "identifiers, digests and counts only: no questions, answers or retrieved text)")]),
    ("runid-mismatch", NORMAL_ARM,
     Setup(normal=lambda f: f.__setitem__("summary.json", f["summary.json"].replace(NRUN.encode(), b"other-run"))),
     [("fail", 'normal arm summary.json runId "other-run" is not run.json runId "{nrun}"')]),
    ("no-record", NORMAL_ARM, Setup(normal=lambda f: f.__setitem__("summary.json", pairgen.dumps(
        {"schemaVersion": "1.0", "runId": NRUN, "lanes": []}))),
     [("fail", 'normal arm summary.json has no pair record ext["agenteval.memoryPair"]')]),
    ("missing-diagnostic-only", ORACLE_ARM, Setup(oracle=field_edit("diagnosticOnly", None)),
     [("fail", "oracle arm pair record lacks diagnosticOnly")]),
    ("oracle-lacks-link-fields", ORACLE_ARM, Setup(oracle=lambda f: (set_field(f, "normalRunHash", None),
                                                                     set_field(f, "oracleGapPercentagePoints", None))),
     [("fail", "oracle arm pair record lacks normalRunHash, oracleGapPercentagePoints")]),
    ("wrong-role", ORACLE_ARM, Setup(oracle=field_edit("role", '"normal"')),
     [("fail", "oracle arm pair record role is \"normal\", expected 'oracle'")]),
    ("schema-1.1", NORMAL_ARM, Setup(normal=field_edit("schemaVersion", '"1.1"')),
     [("fail", 'normal arm pair record schemaVersion is "1.1", not "1.0"')]),
    ("count-is-boolean", NORMAL_ARM, Setup(normal=field_edit("plannedQuestions", "true")),
     [("fail", "normal arm plannedQuestions must be an integer, got boolean true")]),
    ("count-is-string", NORMAL_ARM, Setup(normal=field_edit("observedQuestions", '"40"')),
     [("fail", 'normal arm observedQuestions must be an integer, got string "40"')]),
    ("count-is-fractional", NORMAL_ARM, Setup(normal=field_edit("scoredQuestions", "39.5")),
     [("fail", "normal arm scoredQuestions must be an exact integer, got 39.5")]),
    ("count-nearly-integer", NORMAL_ARM, Setup(normal=field_edit("totalLlmCalls", "79.99999999999999999")),
     [("fail", "normal arm totalLlmCalls must be an exact integer, got 79.99999999999999999")]),
    ("count-negative", NORMAL_ARM, Setup(normal=field_edit("plannedQuestions", "-1")),
     [("fail", "normal arm plannedQuestions is -1, below 0")]),
    ("complete-is-string", NORMAL_ARM, Setup(normal=field_edit("complete", '"true"')),
     [("fail", 'normal arm complete must be true or false, got string "true"')]),
    ("accuracy-is-string", NORMAL_ARM, Setup(normal=field_edit("accuracyPercent", '"60"')),
     [("fail", 'normal arm accuracyPercent must be a number, got string "60"')]),
    ("bad-source-digest", NORMAL_ARM, Setup(normal=field_edit("sourceInputsDigest", '"md5:abc"')),
     [("fail", 'normal arm sourceInputsDigest "md5:abc" is not sha256:<64 lowercase hex>')]),
    ("placeholder-pair-id", NORMAL_ARM, Setup(normal=field_edit("pairId", '"TBD"')),
     [("fail", 'normal arm pairId "TBD" is a placeholder, not an identifier: the pair link rests on a pairId unique to '
       "this execution")]),
    ("placeholder-pair-id-spelled", ORACLE_ARM, Setup(oracle=field_edit("pairId", '"N/A"')),
     [("fail", 'oracle arm pairId "N/A" is a placeholder, not an identifier: the pair link rests on a pairId unique to '
       "this execution")]),
    ("pair-id-one-character", NORMAL_ARM, Setup(normal=field_edit("pairId", '"0000-0000"')),
     [("fail", 'normal arm pairId "0000-0000" is a placeholder, not an identifier: the pair link rests on a pairId '
       "unique to this execution")]),
    ("pair-id-punctuation", NORMAL_ARM, Setup(normal=field_edit("pairId", '"???"')),
     [("fail", 'normal arm pairId "???" is a placeholder, not an identifier: the pair link rests on a pairId unique '
       "to this execution")]),
    ("source-digest-zeros", NORMAL_ARM, Setup(normal=field_edit("sourceInputsDigest", '"sha256:' + "0" * 64 + '"')),
     [("fail", "normal arm sourceInputsDigest sha256:" + "0" * 64 + " is a placeholder digest (all '0'), not the "
       "digest of a selected workload")]),
    ("source-digest-empty-input", ORACLE_ARM, Setup(oracle=field_edit(
        "sourceInputsDigest", '"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"')),
     [("fail", "oracle arm sourceInputsDigest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "
       "is the SHA-256 of empty input, not the digest of a selected workload")]),
    ("empty-pair-id", NORMAL_ARM, Setup(normal=field_edit("pairId", '""')),
     [("fail", 'normal arm pairId must be a non-empty string, got string ""')]),
    ("bad-normal-run-hash", ORACLE_ARM, Setup(oracle=field_edit("normalRunHash", '"ABC"')),
     [("fail", 'oracle arm normalRunHash "ABC" is not 64 lowercase hex characters or null')]),
    ("several-problems", NORMAL_ARM, Setup(normal=lambda f: (set_field(f, "extra", '"x"'),
                                                             set_field(f, "complete", "1"))),
     [("fail", "normal arm pair record carries fields outside its schema: extra (a pair record holds identifiers, "
       "digests and counts only: no questions, answers or retrieved text)"),
      ("fail", "normal arm complete must be true or false, got integer 1")]),
    ("no-run-json", NORMAL_ARM, Setup(normal=lambda f: f.pop("run.json")),
     [("fail", "normal arm (evidence/report) has no run.json")]),
    ("oracle-absent", ORACLE_ARM, Setup(drop_oracle=True), [("fail", "document 'oracle' was not supplied")]),
    ("not-a-run-folder", NORMAL_ARM, Setup(extra_docs={"report": Doc("report", "r.json", data={})}),
     [("fail", "document 'report' (r.json) is not a run folder: declare it with format runfolder")]),
]


@check(ARM_ROWS)
def test_pair_arm(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_arm", kind_params, setup) == fill(expected)


# --- rule 2: pair_seal and aef_seal ------------------------------------------------------

SEAL = P.PairSealParams()
SEAL_ROWS: list[Row] = [
    ("both-intact", SEAL, Setup(),
     [("pass", "both arms sealed intact: normal runHash {nhash} (unsigned); oracle runHash {ohash} (unsigned)")]),
    ("both-unsealed", SEAL, Setup(mode="unsealed"),
     [("pass", "both arms are explicitly unsealed (no seal.json); sealing not required")]),
    ("both-unsealed-but-required", P.PairSealParams(require_sealed=True), Setup(mode="unsealed"),
     [("fail", "both arms are unsealed (no seal.json), but sealed evidence is required")]),
    ("mixed", SEAL, Setup("mixed-seal"),
     [("fail", "the normal arm is sealed (intact) but the oracle arm is unsealed: both arms are sealed, or both "
       "explicitly unsealed")]),
    ("mixed-other-way", SEAL, Setup(normal=lambda f: f.pop("seal.json")),
     [("fail", "the oracle arm is sealed (intact) but the normal arm is unsealed: both arms are sealed, or both "
       "explicitly unsealed")]),
    ("tampered", SEAL, Setup("tampered-normal"),
     [("fail", "normal arm seal is invalid: results.ndjson changed after sealing: sha256 {tampered}… (sealed "
       "{sealed}…)")]),
    ("normal-alone-intact", SEAL, Setup(drop_oracle=True),
     [("pass", "the normal arm seal is intact: normal runHash {nhash} (unsigned); no oracle arm")]),
    ("normal-alone-unsealed", SEAL, Setup(mode="unsealed", drop_oracle=True),
     [("pass", "the normal arm is explicitly unsealed (no seal.json); sealing not required; no oracle arm")]),
    ("open-run-unsealed", SEAL, Setup(mode="unsealed", oracle=lambda f: set_run(f, status="running")),
     [("fail", "oracle arm seal is invalid: run.json status is 'running': the run is still open (only a closed run "
       "is evidence)")]),
    ("oracle-file-added", SEAL, Setup(oracle=lambda f: f.__setitem__("notes.txt", b"x")),
     [("fail", "oracle arm seal is invalid: notes.txt is in the run folder but not in the seal")]),
]


@check(SEAL_ROWS)
def test_pair_seal(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_seal", kind_params, setup) == fill(expected)


AEF_ROWS: list[Row] = [
    ("intact", P.SealParams(), Setup(), [("pass", "seal intact (unsigned): runHash {nhash} over 4 "
                                          "sealed files")]),
    ("unsealed-allowed", P.SealParams(), Setup(mode="unsealed"),
     [("pass", "the run is unsealed (no seal.json; sealing not required): run hash {nhash} over 4 files")]),
    ("unsealed-required", P.SealParams(require_sealed=True), Setup(mode="unsealed"),
     [("fail", "the run is unsealed (no seal.json), but sealed evidence is required")]),
    ("seal-runhash-edited", P.SealParams(arm="oracle"),
     Setup(oracle=lambda f: f.__setitem__("seal.json", f["seal.json"].replace(OHASH.encode(), b"1" * 64))),
     [("fail", "seal invalid: seal runHash 111111111111… is not the recomputed run hash {oh12}…")]),
]


@check(AEF_ROWS)
def test_aef_seal(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("aef_seal", kind_params, setup) == fill(expected)


# --- rule 3: pair_link -------------------------------------------------------------------

LINK = P.PairParams()
LINK_ROWS: list[Row] = [
    ("sealed", LINK, Setup(),
     [("pass", "the oracle links to the normal arm: normalRunHash {nhash}, pairId '{pair}', sourceInputsDigest "
       "sha256:12f1ca1b5046…, 40 planned questions in both")]),
    ("unsealed", LINK, Setup(mode="unsealed"),
     [("pass", "the oracle links to the normal arm: normalRunHash null (both explicitly unsealed), pairId "
       "'{pair}', sourceInputsDigest sha256:12f1ca1b5046…, 40 planned questions in both")]),
    ("other-normal-hash", LINK, Setup("other-normal-hash"),
     [("fail", "oracle normalRunHash 2d217b62e511… is not the normal arm's run hash {nh12}…: the oracle points at "
       "another normal run")]),
    ("null-link-to-sealed-normal", LINK, Setup(oracle=field_edit("normalRunHash", "null")),
     [("fail", "oracle normalRunHash is null but the normal arm is sealed with run hash {nhash}")]),
    ("link-to-unsealed-normal", LINK, Setup(mode="unsealed", oracle=field_edit("normalRunHash", f'"{NHASH}"')),
     [("fail", "oracle normalRunHash is {nh12}… but the normal arm is unsealed: with explicitly unsealed evidence "
       "the link is null")]),
    ("pair-id-mismatch", LINK, Setup("pair-id-mismatch"),
     [("fail", 'pairId differs: normal "{pair}", oracle "{pair}-b": the arms belong to different executions')]),
    ("source-digest-mismatch", LINK, Setup("source-digest-mismatch"),
     [("fail", "sourceInputsDigest differs: normal sha256:12f1ca1b5046…, oracle sha256:f4adad555d48…: the arms "
       "ran different source workloads")]),
    ("roster-mismatch", LINK, Setup("roster-mismatch"),
     [("fail", "plannedQuestions differs: normal 40, oracle 39: the arms do not share one selected roster")]),
    ("normal-carries-link", LINK, Setup(mode="unsealed", normal=field_edit("oracleGapPercentagePoints", "32.5")),
     [("fail", "the normal pair record carries oracleGapPercentagePoints 32.5: only the oracle links back to the "
       "normal (absent or null in the normal)")]),
    ("normal-null-link-fields-are-fine", LINK, Setup(mode="unsealed", normal=lambda f: (
        set_field(f, "normalRunHash", "null"), set_field(f, "oracleGapPercentagePoints", "null"))),
     [("pass", "the oracle links to the normal arm: normalRunHash null (both explicitly unsealed), pairId "
       "'{pair}', sourceInputsDigest sha256:12f1ca1b5046…, 40 planned questions in both")]),
    ("tampered-normal-breaks-the-link", LINK, Setup("tampered-normal"),
     [("fail", "oracle normalRunHash {nh12}… is not the normal arm's run hash {tampered_hash}…: the oracle points "
       "at another normal run")]),
]


@check(LINK_ROWS)
def test_pair_link(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_link", kind_params, setup) == fill(expected)


# --- rule 4: pair_roles ------------------------------------------------------------------

ROLES_ROWS: list[Row] = [
    ("ok", LINK, Setup(), [("pass", "normal diagnosticOnly false (it carries the gate); oracle diagnosticOnly true "
                                    "(diagnostic)")]),
    ("oracle-without-diagnostic-only", LINK, Setup("oracle-not-diagnostic"),
     [("fail", "oracle arm diagnosticOnly is missing, expected true: the oracle is a diagnostic and is marked "
       "diagnosticOnly true")]),
    ("oracle-diagnostic-false", LINK, Setup(oracle=field_edit("diagnosticOnly", "false")),
     [("fail", "oracle arm diagnosticOnly is false, expected true: the oracle is a diagnostic and is marked "
       "diagnosticOnly true")]),
    ("normal-diagnostic", LINK, Setup(normal=field_edit("diagnosticOnly", "true")),
     [("fail", "normal arm diagnosticOnly is true, expected false: the normal arm carries the gate and is never "
       "diagnostic-only")]),
    ("diagnostic-only-as-1", LINK, Setup(oracle=field_edit("diagnosticOnly", "1")),
     [("fail", "oracle arm diagnosticOnly is 1, expected true: the oracle is a diagnostic and is marked "
       "diagnosticOnly true")]),
]


@check(ROLES_ROWS)
def test_pair_roles(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_roles", kind_params, setup) == fill(expected)


# --- rule 5: pair_counts -----------------------------------------------------------------

NC = P.CountsParams("report")
OC = P.CountsParams("oracle")
INTERRUPTED_NULLS = "an interrupted arm has null scoredQuestions, totalLlmCalls and accuracyPercent"
COUNTS_ROWS: list[Row] = [
    ("normal-completed", NC, Setup(), [("pass", "normal arm completed: 40 of 40 planned questions observed, 40 "
                                                "scored, 80 LLM calls, accuracy 60.0%")]),
    ("oracle-interrupted-ok", OC, Setup("oracle-interrupted"),
     [("pass", "oracle arm interrupted (run aborted): 13 of 40 planned questions observed; scores, calls and "
       "accuracy null as required")]),
    ("interrupted-with-scores", OC, Setup("interrupted-with-scores"),
     [("fail", f"oracle arm is interrupted (complete false) but scoredQuestions is 13: {INTERRUPTED_NULLS}"),
      ("fail", f"oracle arm is interrupted (complete false) but totalLlmCalls is 26: {INTERRUPTED_NULLS}"),
      ("fail", f"oracle arm is interrupted (complete false) but accuracyPercent is 100.0: {INTERRUPTED_NULLS}")]),
    ("observed-over-planned", NC, Setup(normal=field_edit("observedQuestions", "41")),
     [("fail", "normal arm observedQuestions 41 exceeds plannedQuestions 40")]),
    ("scored-over-observed", NC, Setup(normal=field_edit("scoredQuestions", "41")),
     [("fail", "normal arm scoredQuestions 41 exceeds observedQuestions 40")]),
    ("completed-null-accuracy", NC, Setup(normal=field_edit("accuracyPercent", "null")),
     [("fail", "normal arm completed but accuracyPercent is null: a completed arm reports it")]),
    ("completed-null-calls", NC, Setup(normal=field_edit("totalLlmCalls", "null")),
     [("fail", "normal arm completed but totalLlmCalls is null: a completed arm reports it")]),
    ("accuracy-over-100", NC, Setup(normal=field_edit("accuracyPercent", "100.5")),
     [("fail", "normal arm accuracyPercent 100.5 is outside [0, 100] (a percentage)")]),
    ("accuracy-100-is-fine", NC, Setup(normal=field_edit("accuracyPercent", "100")),
     [("pass", "normal arm completed: 40 of 40 planned questions observed, 40 scored, 80 LLM calls, "
       "accuracy 100%")]),
    ("completed-but-aborted", NC, Setup(normal=lambda f: set_run(f, status="aborted")),
     [("fail", "normal arm is complete but its run.json status is 'aborted' (expected completed)")]),
    ("interrupted-but-completed-run", OC, Setup("oracle-interrupted", oracle=lambda f: set_run(f, status="completed")),
     [("fail", "oracle arm is interrupted (complete false) but its run.json status is 'completed' (expected "
       "aborted)")]),
    ("running", NC, Setup(normal=lambda f: set_run(f, status="running")),
     [("fail", "normal arm is complete but its run.json status is 'running' (expected completed)")]),
    ("unknown-status", NC, Setup(normal=lambda f: set_run(f, status="done")),
     [("fail", 'normal arm run.json status is "done", not running, completed or aborted')]),
]


@check(COUNTS_ROWS)
def test_pair_counts(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_counts", kind_params, setup) == fill(expected)


# --- rule 6: pair_gap --------------------------------------------------------------------


def accuracies(normal: str, oracle: str, gap: str) -> Setup:
    return Setup(mode="unsealed", normal=field_edit("accuracyPercent", normal),
                 oracle=lambda f: (set_field(f, "accuracyPercent", oracle),
                                   set_field(f, "oracleGapPercentagePoints", gap)))


GAP_ROWS: list[Row] = [
    ("exact", LINK, Setup(), [("pass", "oracleGapPercentagePoints 32.5 = oracle 92.5 - normal 60.0 (a diagnostic)")]),
    ("rounded-as-written", LINK, accuracies("66.66666666666667", "70", "3.33"),
     [("pass", "oracleGapPercentagePoints 3.33 = oracle 70 - normal 66.66666666666667 (rounded to 2 places; a "
               "diagnostic)")]),
    ("double-arithmetic", LINK, accuracies("61.2", "78.4", "17.200000000000003"),
     [("pass", "oracleGapPercentagePoints 17.200000000000003 = oracle 78.4 - normal 61.2 (a diagnostic)")]),
    ("whole-points-too-coarse", LINK, accuracies("66.66666666666667", "70", "3"),
     [("fail", "oracleGapPercentagePoints 3 is not oracle 70 - normal 66.66666666666667 = 3.3333: a rounded claim "
               "needs at least 1 place (min_places), or the places its producer rounds to (places)")]),
    ("no-gap-is-never-rounded", LINK, accuracies("66.66666666666667", "66.7", "0.0"),
     [("fail", "oracleGapPercentagePoints 0.0 is not oracle 66.7 - normal 66.66666666666667 = 0.0333: a claim of "
               "0.0 must be exact (rounding never reaches a boundary)")]),
    ("one-rounding-step-off", LINK, accuracies("66.66666666666667", "70", "3.34"),
     [("fail", "oracleGapPercentagePoints 3.34 is not oracle 70 - normal 66.66666666666667 = 3.3333: the exact value "
               "rounds to 3.33 at 2 places")]),
    ("wrong-gap", LINK, Setup("wrong-gap"),
     [("fail", "oracleGapPercentagePoints 34.0 is not oracle 92.5 - normal 60.0 = 32.5")]),
    ("sign-reversed", LINK, accuracies("60", "92.5", "-32.5"),
     [("fail", "oracleGapPercentagePoints -32.5 is not oracle 92.5 - normal 60 = 32.5")]),
    ("null-when-both-completed", LINK, accuracies("60", "92.5", "null"),
     [("fail", "oracleGapPercentagePoints is null but both arms completed: expected oracle 92.5 - normal 60 = 32.5")]),
    ("null-when-oracle-interrupted", LINK, Setup("oracle-interrupted"),
     [("pass", "oracleGapPercentagePoints is null: the oracle arm did not complete")]),
    ("set-when-oracle-interrupted", LINK, Setup("oracle-interrupted", oracle=field_edit("oracleGapPercentagePoints",
                                                                                          "5")),
     [("fail", "oracleGapPercentagePoints is 5 but the oracle arm did not complete: the gap is null unless both "
       "arms completed")]),
    ("gap-is-string", LINK, accuracies("60", "92.5", '"32.5"'),
     [("fail", 'oracle arm oracleGapPercentagePoints must be a number, got string "32.5"')]),
]


@check(GAP_ROWS)
def test_pair_gap(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_gap", kind_params, setup) == fill(expected)


# --- rule 7: pair_verdict ----------------------------------------------------------------

SCORES = "normal accuracy 60.0%; the oracle is a second evaluation, its 92.5% and the gap 32.5 pp are diagnostics only"
VERDICT = P.VerdictParams()


def lane_verdict(verdict: str) -> Callable[[dict[str, bytes]], None]:
    def edit(files: dict[str, bytes]) -> None:
        summary = json.loads(files["summary.json"])
        summary["lanes"][0]["metrics"][0]["verdict"] = verdict
        files["summary.json"] = pairgen.dumps(summary)
    return edit


def add_metric(files: dict[str, bytes], verdict: str) -> None:
    summary = json.loads(files["summary.json"])
    summary["lanes"][0]["metrics"].append({"metric": "latency", "path": "latency", "N": 40, "n": 40,
                                           "value": 812, "verdict": verdict})
    files["summary.json"] = pairgen.dumps(summary)


VERDICT_ROWS: list[Row] = [
    ("normal-passed", VERDICT, Setup(),
     [("pass", f"the normal arm completed and its gates passed (1 metric in 1 gated lane, none failed or "
       f"inconclusive): {SCORES}")]),
    ("failing-normal-better-oracle", VERDICT, Setup("failing-normal-better-oracle"),
     [("fail", "the normal arm's gate failed: lane 'longmemeval' metric 'accuracy' verdict is failed (value 0.25); "
       "the claim follows the normal arm (normal accuracy 25.0%; the oracle is a second evaluation, its 97.5% and "
       "the gap 72.5 pp are diagnostics only)")]),
    ("inconclusive", VERDICT, Setup(mode="unsealed", normal=lane_verdict("inconclusive")),
     [("fail", f"the normal arm's gate failed: lane 'longmemeval' metric 'accuracy' verdict is inconclusive "
       f"(value 0.6); the claim follows the normal arm ({SCORES})")]),
    ("warn-is-not-blocking", VERDICT, Setup(mode="unsealed", normal=lambda f: (add_metric(f, "warn"))),
     [("pass", f"the normal arm completed and its gates passed (2 metrics in 1 gated lane, none failed or "
       f"inconclusive): {SCORES}")]),
    ("nothing-gated", VERDICT, Setup(mode="unsealed", normal=lane_verdict("scored")),
     [("fail", "no metric of the normal arm's gated lanes has a passed verdict (1 metric, none passed): no gate "
       f"was evaluated, so there is nothing to claim ({SCORES})")]),
    ("only-warn", VERDICT, Setup(mode="unsealed", normal=lane_verdict("warn")),
     [("fail", "no metric of the normal arm's gated lanes has a passed verdict (1 metric, none passed): no gate "
       f"was evaluated, so there is nothing to claim ({SCORES})")]),
    ("unknown-verdict", VERDICT, Setup(mode="unsealed", normal=lane_verdict("ok")),
     [("fail", "normal lane 'longmemeval' metric 'accuracy' verdict is \"ok\", not one of passed, failed, warn, "
       f"inconclusive, not_measured, scored ({SCORES})")]),
    ("normal-interrupted", VERDICT, Setup("cancelled-before-first-question"),
     [("fail", "the normal arm did not complete: there is no normal result to claim, and the oracle cannot stand "
       "in for it (normal accuracy null; no oracle arm)")]),
    ("gated-lane-absent", P.VerdictParams(gated_lanes=["longmemeval", "locomo"]), Setup(),
     [("fail", f"gated lane 'locomo' is absent from the normal summary ({SCORES})")]),
    ("ungated-lane-ignored", P.VerdictParams(gated_lanes=["other"]),
     Setup(mode="unsealed", normal=lambda f: (lane_verdict("failed")(f), f.__setitem__("summary.json", f[
         "summary.json"].replace(b'"lane": "longmemeval"', b'"lane": "other-x"')))),
     [("fail", f"gated lane 'other' is absent from the normal summary ({SCORES})")]),
    ("gate-decision-no-ship", VERDICT, Setup(mode="unsealed", normal=lambda f: f.__setitem__(
        "gates.ndjson", b'{"outcome":"no_ship"}\n')),
     [("fail", f"the normal arm's gate decision on gates.ndjson line 1 is \"no_ship\", not ship ({SCORES})")]),
    ("no-lanes", VERDICT, Setup(mode="unsealed", normal=lambda f: f.__setitem__("summary.json", f[
        "summary.json"].replace(b'"lanes": [', b'"lanes": [], "was": ['))),
     [("fail", f"the normal summary has no lanes: no gate was evaluated ({SCORES})")]),
    ("oracle-absent", VERDICT, Setup(drop_oracle=True),
     [("pass", "the normal arm completed and its gates passed (1 metric in 1 gated lane, none failed or "
       "inconclusive): normal accuracy 60.0%; no oracle arm")]),
]


@check(VERDICT_ROWS)
def test_pair_verdict(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_verdict", kind_params, setup) == fill(expected)


def test_verdict_reports_diagnostics_never_combined() -> None:
    (finding,) = run("pair_verdict", VERDICT, Setup().context())
    assert finding.actual == {"normalAccuracyPercent": 60.0, "oracleAccuracyPercent": 92.5,
                              "oracleGapPercentagePoints": 32.5, "oracle": "diagnostic only"}
    (failing,) = run("pair_verdict", VERDICT, Setup("failing-normal-better-oracle").context())
    assert failing.status == "fail"
    assert failing.actual == {"normalAccuracyPercent": 25.0, "oracleAccuracyPercent": 97.5,
                              "oracleGapPercentagePoints": 72.5, "oracle": "diagnostic only"}
    # never a combined figure: neither the mean (61.25) nor the sum (122.5) of the two scores
    assert "61.25" not in failing.message and "122.5" not in failing.message


# --- rule 8: pair_interruption -----------------------------------------------------------

INTERRUPTION_ROWS: list[Row] = [
    ("both-completed", LINK, Setup(), [("pass", "both arms completed: normal 40/40 and oracle 40/40 questions "
                                                "observed")]),
    ("cancelled-before-first-question", LINK, Setup("cancelled-before-first-question"),
     [("fail", "cancelled before the first question: the normal arm is an empty aborted run (0 of 40 planned "
       "questions); there is no result to claim")]),
    ("cancelled-between-arms", LINK, Setup("cancelled-between-arms"),
     [("fail", "cancelled between arms: only the normal evidence exists (no oracle arm); the pair is incomplete")]),
    ("oracle-interrupted", LINK, Setup("oracle-interrupted"),
     [("fail", "the oracle was interrupted after preparation: its run is aborted after 13 of 40 planned questions; "
       "the pair is incomplete")]),
    ("oracle-interrupted-empty", LINK, Setup("oracle-interrupted", oracle=field_edit("observedQuestions", "0")),
     [("fail", "the oracle was interrupted after preparation: its run is aborted and empty after 0 of 40 planned "
       "questions; the pair is incomplete")]),
    ("oracle-after-cancelled-normal", LINK, Setup("oracle-after-cancelled-normal"),
     [("fail", "cancelled before the first question: the normal arm is an empty aborted run (0 of 40 planned "
       "questions); there is no result to claim"),
      ("fail", "an oracle arm is present although the normal arm never completed: the oracle is prepared only "
       "after the normal run, so an arm that never reached preparation must not appear")]),
    ("normal-interrupted-midway", LINK, Setup(drop_oracle=True, normal=lambda f: (
        set_field(f, "complete", "false"), set_field(f, "observedQuestions", "12"))),
     [("fail", "the normal arm was interrupted after 12 of 40 planned questions; there is no result to claim")]),
]


@check(INTERRUPTION_ROWS)
def test_pair_interruption(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_interruption", kind_params, setup) == fill(expected)


# --- rule 9: pair_separate ---------------------------------------------------------------

SEPARATE_ROWS: list[Row] = [
    ("separate", LINK, Setup(),
     [("pass", "the arms are separate runs (normal {nrun}, oracle {orun}) and the oracle has no gate; their scores "
       "are reported side by side, never combined")]),
    ("oracle-gated", LINK, Setup("oracle-gated"),
     [("fail", "the oracle arm carries 1 gate decision(s) in gates.ndjson: the oracle is a diagnostic and has no "
       "gate")]),
    ("same-run-twice", LINK, Setup(extra_docs={"oracle": doc("oracle", dict(BASE.normal or {}))}),
     [("fail", 'both arms have runId "{nrun}": the two arms are two separate runs, never one combined run'),
      ("fail", "both arms are the same files (run hash {nhash}): the oracle must be its own run")]),
]


@check(SEPARATE_ROWS)
def test_pair_separate(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_separate", kind_params, setup) == fill(expected)


def test_every_kind_is_documented_and_registered() -> None:
    from bench_gate.checks import registry
    names = {k.name for k in kinds_of(P.__name__)}
    assert names <= set(registry())
    for found in kinds_of(P.__name__):
        assert len((found.run.__doc__ or "").strip()) > 40, found.name
