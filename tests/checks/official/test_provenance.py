"""Who evaluated and validated an official result: the baseline's evaluator (``same_evaluator``),
the recorded evaluator command (``official_eval_command``) and the validator's independence
(``independent_validator``)."""

from __future__ import annotations

from typing import Any

import pytest

from bench_gate.checks.official.provenance import (
    CommandParams, IndependentParams, SameEvaluatorParams, independent_validator, official_eval_command,
    only_roles, same_evaluator,
)

from kindtest import run as run_kind
from qasetup import MODEL_IDS, baseline, ctx, first, patched


# --- same_evaluator ----------------------------------------------------------------------


@pytest.mark.parametrize(("theirs", "require", "status", "message"), [
    ("gpt-4o", "match", "pass", "baseline evaluator_model gpt-4o (gpt-4o-2024-08-06) is our evaluator gpt-4o "
                                "(gpt-4o-2024-08-06)"),
    ("gpt-4o-2024-08-06", "match", "pass", "baseline evaluator_model gpt-4o-2024-08-06 is our evaluator gpt-4o "
                                           "(gpt-4o-2024-08-06)"),
    ("gpt-4o-mini", "match", "fail", "baseline evaluator_model gpt-4o-mini (gpt-4o-mini-2024-07-18) is not our "
                                     "evaluator gpt-4o (gpt-4o-2024-08-06): the accuracies are not comparable"),
    ("not_disclosed", "match", "skip", 'baseline evaluator_model "not_disclosed" is a placeholder: the baseline\'s '
                                       "evaluator is unknown, so the comparison is not like for like"),
    ("Unknown ", "disclosed", "fail", 'baseline evaluator_model "Unknown " is a placeholder: the baseline\'s '
                                      "evaluator is unknown, so the comparison is not like for like"),
    ("gpt-4o", "disclosed", "pass", 'baseline evaluator_model "gpt-4o" is disclosed'),
    (..., "match", "skip", "baseline evaluator_model is not given; nothing to compare"),
    (4, "match", "fail", "baseline evaluator_model must be a model name, got integer 4"),
], ids=["same-short", "same-full-id", "different", "placeholder-skipped", "placeholder-warns", "disclosed",
        "absent", "not-a-string"])
def test_same_evaluator(theirs: Any, require: str, status: str, message: str) -> None:
    params = SameEvaluatorParams(model_ids=MODEL_IDS, require=require)  # type: ignore[arg-type]
    assert first(same_evaluator, params, ctx(baseline=baseline(evaluator_model=theirs))) == (status, message)


# --- official_eval_command ---------------------------------------------------------------


CMD = "official_qa.official_eval_command"


@pytest.mark.parametrize(("command", "status", "message"), [
    ("python3 evaluate_qa.py gpt-4o /abs/hyp.jsonl ../../data/ds.json", "pass",
     f"{CMD} runs evaluate_qa.py with evaluator gpt-4o on hyp.jsonl against ds.json"),
    ("python3 ./evaluate_qa.py gpt-4o-2024-08-06 'dir with space/hyp.jsonl' ../../data/longmemeval_oracle.json",
     "pass", f"{CMD} runs evaluate_qa.py with evaluator gpt-4o-2024-08-06 on hyp.jsonl against "
             "longmemeval_oracle.json"),
    ("/usr/bin/python3.11 src/evaluation/evaluate_qa.py gpt-4o /abs/hyp.jsonl /data/longmemeval_s_cleaned.json",
     "pass", f"{CMD} runs evaluate_qa.py with evaluator gpt-4o on hyp.jsonl against longmemeval_s_cleaned.json"),
    ("evaluate_qa.py gpt-4o hyp.jsonl ds.json", "pass",
     f"{CMD} runs evaluate_qa.py with evaluator gpt-4o on hyp.jsonl against ds.json"),
    ("cd src/evaluation && python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json", "fail",
     f"{CMD} holds the shell character '&': it is more than the official evaluator command "
     '("cd src/evaluation && python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json")'),
    ("echo evaluate_qa.py gpt-4o hyp.jsonl ds.json", "fail",
     f'{CMD} does not run evaluate_qa.py: "echo evaluate_qa.py gpt-4o hyp.jsonl ds.json"'),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json; rm -rf /", "fail",
     f"{CMD} holds the shell character ';': it is more than the official evaluator command "
     '("python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json; rm -rf /")'),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl $(cat ds.json)", "fail",
     f"{CMD} holds the shell character '$': it is more than the official evaluator command "
     '("python3 evaluate_qa.py gpt-4o hyp.jsonl $(cat ds.json)")'),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json extra", "fail",
     f"{CMD} passes 4 arguments to evaluate_qa.py, expected exactly 3 ([python3] evaluate_qa.py <evaluator model> "
     "<hypotheses file> <reference file>)"),
    ("env OPENAI_API_KEY=x python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json", "fail",
     f'{CMD} does not run evaluate_qa.py: "env OPENAI_API_KEY=x python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json"'),
    ("python3 print_qa_metrics.py log.jsonl ref.json", "fail",
     f'{CMD} does not run evaluate_qa.py: "python3 print_qa_metrics.py log.jsonl ref.json"'),
    ("python3 evaluate_qa.py gpt-4o-mini /abs/hyp.jsonl ds.json", "fail",
     f'{CMD} evaluates with "gpt-4o-mini", but the declared evaluator is "gpt-4o"'),
    ("python3 evaluate_qa.py gpt-4o /abs/other.jsonl ds.json", "fail",
     f'{CMD} evaluates "/abs/other.jsonl", not the hypotheses file "hyp.jsonl"'),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl answers.json", "fail",
     f'{CMD} scores against "answers.json", which is neither the dataset file nor an official LongMemEval file '
     "(ds.json, longmemeval_m.json, longmemeval_m_cleaned.json, longmemeval_oracle.json, longmemeval_s.json, "
     "longmemeval_s_cleaned.json)"),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl", "fail",
     f"{CMD} passes 2 arguments to evaluate_qa.py, expected exactly 3 ([python3] evaluate_qa.py <evaluator "
     "model> <hypotheses file> <reference file>)"),
    ("python3 evaluate_qa.py 'gpt-4o", "fail", f"{CMD} cannot be split into words (No closing quotation)"),
    ("", "fail", f'{CMD} must be a non-empty string, got string ""'),
], ids=["seed-form", "full-id-quoted", "interpreter-path", "no-interpreter", "cd-and", "echo", "chained-rm",
        "substitution", "extra-argument", "env-prefix", "other-script", "other-model", "other-file",
        "other-reference", "no-reference", "bad-quotes", "empty"])
def test_command(command: str, status: str, message: str) -> None:
    report = patched("/official_qa/official_eval_command", command)
    assert first(official_eval_command, CommandParams(model_ids=MODEL_IDS), ctx(report)) == (status, message)


# --- independent_validator ---------------------------------------------------------------


INDEPENDENT = ["independent-third-party", "third-party", "independent"]
REL = "result_provenance.validator.relation"
NAME = "result_provenance.validator.name"


@pytest.mark.parametrize(("relation", "name", "status", "message"), [
    ("independent-third-party", "Independent Validator", "pass",
     'validator "Independent Validator" is "independent-third-party" (independent-third-party) to "Zaxy"'),
    ("Independent Third Party", "V", "pass",
     'validator "V" is "Independent Third Party" (independent-third-party) to "Zaxy"'),
    ("self", "V", "fail", f'{REL} "self" is not an independent relation (accepted: {", ".join(INDEPENDENT)})'),
    ("\u0455elf", "V", "fail",
     f'{REL} "\u0455elf" is not an independent relation (accepted: {", ".join(INDEPENDENT)})'),
    ("employees", "V", "fail", f'{REL} "employees" is not an independent relation (accepted: {", ".join(INDEPENDENT)})'),
    ("independent (we are the owners)", "V", "fail",
     f'{REL} "independent (we are the owners)" is not an independent relation (accepted: {", ".join(INDEPENDENT)})'),
    ("indep\u200bendent", "V", "pass", 'validator "V" is "indep\u200bendent" (independent) to "Zaxy"'),
    ("independent", "ZAXY", "fail", f'{NAME} "ZAXY" reads as the validated system\'s name "Zaxy" (compared as '
                                    "'zaxy' and 'zaxy')"),
    ("independent", "Z\u0430xy", "fail", f'{NAME} "Z\u0430xy" reads as the validated system\'s name "Zaxy" '
                                          "(compared as 'zaxy' and 'zaxy')"),
    ("independent", "ZaxyLabs", "fail", f'{NAME} "ZaxyLabs" reads as the validated system\'s name "Zaxy" '
                                        "(compared as 'zaxylabs' and 'zaxy')"),
    ("independent", "Z.a.x.y Labs", "fail", f'{NAME} "Z.a.x.y Labs" reads as the validated system\'s name "Zaxy" '
                                            "(compared as 'zaxylabs' and 'zaxy')"),
    ("independent", "---", "fail", f'{NAME} "---" has no letters or digits: it names no validator'),
    ("", "V", "fail", f'{REL} must be a non-empty string, got string ""'),
], ids=["independent", "spaced-capitals", "self", "cyrillic-dze-self", "employees", "allow-word-inside",
        "zero-width-inside-allowed", "validator-is-system", "cyrillic-a", "labs-suffix", "dotted-labs",
        "punctuation-name", "blank"])
def test_independent(relation: str, name: str, status: str, message: str) -> None:
    report = patched("/result_provenance/validator/relation", relation)
    report["result_provenance"]["validator"]["name"] = name
    params = IndependentParams(independent=INDEPENDENT)
    assert first(independent_validator, params, ctx(report)) == (status, message)


EXAMPLES = ["Independent Validator", "validator-run-001", "https://validation.openmemory.dev/reviewable-run"]
ROLES = ["independent", "third", "party", "external", "validator", "reviewer", "audit", "team", "lab", "the"]


@pytest.mark.parametrize(("name", "run_id", "url", "messages"), [
    ("Okafor Evaluation Lab", "12019384756", "https://github.com/okafor-eval/reruns/actions/runs/1", []),
    ("Independent Validator", "r1", "https://github.com/v/r", [f'{NAME} "Independent Validator" is the example']),
    ("INDEPENDENT  validator.", "r1", "https://github.com/v/r", [f'{NAME} "INDEPENDENT  validator." is the example']),
    ("Indеpendent Validator", "r1", "https://github.com/v/r", [f'{NAME} "Indеpendent Validator" is the ex']),
    ("V Lab", "validator-run-001", "https://validation.openmemory.dev/reviewable-run/",
     ['result_provenance.validator.run_id "validator-run-001" is the example',
      'result_provenance.validator.evidence_url "https://validation.openmemory.dev/reviewable-run/" is the example']),
    ("Third-party reviewer", "r1", "https://github.com/v/r",
     [f'{NAME} "Third-party reviewer" names a role, not a person or an organisation']),
    ("TheExternalAuditTeam", "r1", "https://github.com/v/r", [f'{NAME} "TheExternalAuditTeam" names a role']),
    ("Thea Okafor", "r1", "https://github.com/v/r", []),
    ("V Lab", "r1", "https://Validation.OpenMemory.dev./reviewable-run?run=7",
     ['result_provenance.validator.evidence_url "https://Validation.OpenMemory.dev./reviewable-run?run=7" is on '
      'validation.openmemory.dev, the host of the validator record\'s documentation example']),
], ids=["named", "example-name", "example-name-spelt-otherwise", "example-name-cyrillic-e", "example-run-id-and-url",
        "role-only", "role-words-run-together", "name-starting-like-a-role", "example-host-other-path"])
def test_validator_is_named_not_a_template(name: str, run_id: str, url: str, messages: list[str]) -> None:
    report = patched("/result_provenance/validator/name", name)
    report["result_provenance"]["validator"].update(run_id=run_id, evidence_url=url, relation="independent")
    found = list(run_kind(independent_validator, IndependentParams(independent=INDEPENDENT, examples=EXAMPLES,
                                                                 role_words=ROLES), ctx(report)))
    if not messages:
        assert [f.status for f in found] == ["pass"]
        return
    assert [f.status for f in found] == ["fail"] * len(messages)
    for finding, start in zip(found, messages):
        assert finding.message.startswith(start)


@pytest.mark.parametrize(("key", "role"), [("", False), ("validator", True), ("thirdpartyvalidator", True),
                                           ("validatorx", False), ("thethe", True), ("okafor", False)])
def test_only_roles(key: str, role: bool) -> None:
    assert only_roles(key, frozenset({"the", "third", "party", "validator"})) is role
