"""The hash and cross-check kinds on an official QA result: an artifact's recorded sha256
(``sha256_matches``), the validator's evidence against the report and the files
(``cross_check``), two copies of one object (``objects_agree``) and command-line values against
the evidence (``cli_conflicts``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bench_gate.checks.generic.integrity import (
    CliConflictsParams, CrossCheckParams, ObjectsAgreeParams, Sha256Params, cli_conflicts, cross_check,
    objects_agree, sha256_matches,
)
from bench_gate.models import Doc

from qasetup import H_HYP, H_LOG, MODEL_IDS, ctx, findings, first, patched


# --- sha256_matches ----------------------------------------------------------------------


@pytest.mark.parametrize(("recorded", "status", "message"), [
    (H_HYP, "pass", "artifacts.hypotheses.sha256 bbbbbbbbbbbb… matches the hypotheses file hypotheses.jsonl "
                    "(100 bytes)"),
    (H_LOG, "fail", "artifacts.hypotheses.sha256 cccccccccccc… does not match the hypotheses file hypotheses.jsonl "
                    "(sha256 bbbbbbbbbbbb…)"),
    (H_HYP.upper(), "fail", 'artifacts.hypotheses.sha256 "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"'
                            " is not 64 lowercase hex characters"),
    ("sha256:" + H_HYP, "fail", 'artifacts.hypotheses.sha256 "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'
                                'bbbbbbbbbbbbbbb" is not 64 lowercase hex characters'),
    (12, "fail", "artifacts.hypotheses.sha256 must be a 64-hex string, got integer 12"),
    (None, "fail", "/artifacts/hypotheses/sha256 is null"),
], ids=["match", "other-hash", "uppercase", "prefixed", "number", "null"])
def test_sha256(recorded: Any, status: str, message: str) -> None:
    report = patched("/artifacts/hypotheses/sha256", recorded)
    params = Sha256Params(document="hypotheses", recorded="/artifacts/hypotheses/sha256")
    assert first(sha256_matches, params, ctx(report)) == (status, message)


# --- validator ----------------------------------------------------------------------------

VALIDATOR = {
    "validated_system": {"name": "Zaxy"},
    "artifacts": {"hypotheses_sha256": H_HYP},
    "official_evaluation": {"evaluator_model": "gpt-4o-2024-08-06", "correct_count": 2, "accuracy": 0.5000004},
    "validator": {"name": "Independent Validator", "run_id": "r1", "relation": "", "evidence_url": None},
}
CROSS = CrossCheckParams(
    fields={"name": ["validator:/validated_system/name", "/result_provenance/validated_system/name"],
            "model": ["validator:/official_evaluation/evaluator_model", "/official_qa/evaluator_model"],
            "correct": ["validator:/official_evaluation/correct_count", "/official_qa/correct_count"],
            "accuracy": ["validator:/official_evaluation/accuracy", "/official_qa/accuracy"]},
    hashes={"hypotheses": ["validator:/artifacts/hypotheses_sha256", "hypotheses"]},
    tolerances={"accuracy": 0.000001}, models=["model"], model_ids=MODEL_IDS)


def validator_doc(section: str = "", **changes: Any) -> Doc:
    data = copy.deepcopy(VALIDATOR)
    if section:
        data[section].update(changes)
    return Doc("validator", "v.json", data=data)


def test_cross_check_agrees() -> None:
    assert first(cross_check, CROSS, ctx(validator=validator_doc())) == (
        "pass", "all 5 validator evidence checks agree with the report and the files (4 fields, 1 file hashes)")


def test_cross_check_lists_every_mismatch() -> None:
    doc = validator_doc("official_evaluation", correct_count=3, accuracy=0.51, evaluator_model="gpt-4o-mini")
    doc.data["artifacts"]["hypotheses_sha256"] = H_LOG
    found = findings(cross_check, CROSS, ctx(validator=doc))
    assert [f.message for f in found] == [
        '4 of 5 validator evidence checks disagree with the report and the files: model "gpt-4o-mini" vs "gpt-4o"; '
        "correct 3 vs 2; accuracy 0.51 vs 0.5; hypotheses cccccccccccc… vs bbbbbbbbbbbb…",
        'model: validator official_evaluation.evaluator_model is "gpt-4o-mini" but official_qa.evaluator_model is '
        '"gpt-4o"',
        "correct: validator official_evaluation.correct_count is 3 but official_qa.correct_count is 2",
        "accuracy: validator official_evaluation.accuracy is 0.51 but official_qa.accuracy is 0.5 (tolerance 1e-06)",
        "hypotheses: validator artifacts.hypotheses_sha256 cccccccccccc… does not match the hypotheses file "
        "hypotheses.jsonl (sha256 bbbbbbbbbbbb…)",
    ]


@pytest.mark.parametrize(("section", "changes", "message"), [
    ("official_evaluation", {"correct_count": None},
     "1 of 5 validator evidence checks disagree with the report and the files: correct null vs 2"),
    ("official_evaluation", {"correct_count": "2"},
     '1 of 5 validator evidence checks disagree with the report and the files: correct "2" vs 2'),
    ("official_evaluation", {"accuracy": 0.500002},
     "1 of 5 validator evidence checks disagree with the report and the files: accuracy 0.500002 vs 0.5"),
    ("validated_system", {"name": " "},
     '1 of 5 validator evidence checks disagree with the report and the files: name blank vs "Zaxy"'),
    ("artifacts", {"hypotheses_sha256": ""},
     "1 of 5 validator evidence checks disagree with the report and the files: hypotheses blank vs bbbbbbbbbbbb…"),
], ids=["null-count", "string-count", "accuracy-beyond-tolerance", "blank-name", "blank-hash"])
def test_cross_check_fail_closed(section: str, changes: dict[str, Any], message: str) -> None:
    assert first(cross_check, CROSS, ctx(validator=validator_doc(section, **changes))) == ("fail", message)


def test_cross_check_without_the_file() -> None:
    assert first(cross_check, CROSS, ctx()) == ("fail", "document 'validator' was not supplied")


@pytest.mark.parametrize(("left", "right", "status", "message"), [
    ({"system": "S", "accuracy": 0.6}, {"system": "S", "accuracy": 0.6}, "pass",
     "sota_baseline and the baseline file agree on all 2 fields"),
    ({"system": "S", "accuracy": 0.6}, {"system": "S", "accuracy": 0.60}, "pass",
     "sota_baseline and the baseline file agree on all 2 fields"),
    ({"system": "S", "accuracy": 0.6}, {"system": "S", "accuracy": 0.5, "notes": "n"}, "fail",
     "sota_baseline and the baseline file differ in 2 fields: accuracy, notes"),
    (None, {"system": "S"}, "skip", "sota_baseline is null; nothing to compare"),
    ("S", {"system": "S"}, "fail", "sota_baseline must be an object, got string"),
], ids=["same", "same-number", "differ", "absent", "not-object"])
def test_objects_agree(left: Any, right: Any, status: str, message: str) -> None:
    report = patched("/sota_baseline", left)
    context = ctx(report, baseline=Doc("baseline", "b.json", data=right))
    assert first(objects_agree, ObjectsAgreeParams(left="/sota_baseline", right="baseline:"), context) == (
        status, message)


AGAINST = {"--validator-name": ["validator:/validator/name", "/result_provenance/validator/name"],
           "--validator-relation": ["validator:/validator/relation", "/result_provenance/validator/relation"],
           "--validator-evidence-url": ["validator:/validator/evidence_url"]}


@pytest.mark.parametrize(("given", "status", "message"), [
    ({}, "pass", "no validator fields were given on the command line; nothing can conflict"),
    ({"--validator-name": "Independent Validator"}, "pass",
     "1 command-line value (--validator-name) agrees with 2 non-blank evidence values"),
    ({"--validator-name": "Someone"}, "fail",
     '--validator-name "Someone" conflicts with validator validator.name "Independent Validator"; a command-line '
     "value never overrides the evidence"),
    ({"--validator-relation": "self"}, "fail",
     '--validator-relation "self" conflicts with result_provenance.validator.relation "independent-third-party"; a '
     "command-line value never overrides the evidence"),
    ({"--validator-evidence-url": "https://a.org/run"}, "pass",
     "1 command-line value (--validator-evidence-url) agrees with 0 non-blank evidence values"),
    ({"--validator-name": "  "}, "pass", "no validator fields were given on the command line; nothing can conflict"),
], ids=["none", "same", "conflict-file", "conflict-report-blank-file", "file-null", "blank-given"])
def test_cli_conflicts(given: dict[str, Any], status: str, message: str) -> None:
    full = {"--validator-name": None, "--validator-relation": None, "--validator-evidence-url": None, **given}
    context = ctx(validator=validator_doc())
    assert first(cli_conflicts, CliConflictsParams(given=full, against=AGAINST), context) == (status, message)
