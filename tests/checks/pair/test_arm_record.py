"""Each arm's pair record (``pair_arm``, ``pair_counts``): one table per kind, pass and fail rows,
exact messages."""

from __future__ import annotations

from typing import Any

import pairgen
from bench_gate.checks.base import kinds_of
from bench_gate.checks.pair.arm_record import ArmParams, CountsParams
from bench_gate.models import Doc
from pairsetup import NRUN, Row, Setup, check, field_edit, fill, run_kind, set_field, set_run

# --- rule 1: pair_arm --------------------------------------------------------------------

NORMAL_ARM = ArmParams("report", "normal")
ORACLE_ARM = ArmParams("oracle", "oracle")
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


# --- rule 5: pair_counts -----------------------------------------------------------------

NC = CountsParams("report")
OC = CountsParams("oracle")
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


def test_every_kind_is_documented_and_registered() -> None:
    from bench_gate.checks import registry
    from bench_gate.checks.pair import arm_record

    names = {k.name for k in kinds_of(arm_record.__name__)}
    assert names <= set(registry())
    for found in kinds_of(arm_record.__name__):
        assert len((found.run.__doc__ or "").strip()) > 40, found.name
