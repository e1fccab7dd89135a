"""Compiling profiles and policies: every error names the file, the line and the path in the YAML.

Each row writes user YAML files into a temporary directory, compiles the entry file
(``load_profile`` then ``bind``) and pins ``str(ProfileError)`` exactly; ``<d>`` in an
expected message stands for that directory.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench_gate.engine import evaluate
from bench_gate.models import Doc
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.plan import Plan, ProfileError
from repo import ROOT

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)

# Line numbers in the rows below refer to this text (extra lines are appended from line 9).
BASE = """\
name: mine
description: a test gate
rules:
  - id: r1
    title: always fails
    check: reject
    with: {message: nope}
    why: because
"""


def rule_with(check: str, with_: str) -> str:
    """BASE with another check kind on line 6 and its parameters from line 7."""
    return BASE.replace("check: reject\n    with: {message: nope}\n", f"check: {check}\n    with:{with_}\n")


def policy(description: str, rule_id: str) -> str:
    return (f"description: {description}\nrules:\n  - id: {rule_id}\n    title: t\n    check: reject\n"
            "    with: {message: x}\n    why: w\n")


def compile_files(tmp_path: Path, files: dict[str, str], entry: str = "p.yaml",
                  overrides: dict[str, object] | None = None) -> Plan:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return bind(load_profile(str(tmp_path / entry)), overrides)


ERRORS = [
    # kinds and their parameters
    ("unknown-check-kind", {"p.yaml": BASE.replace("check: reject", "check: nope")},
     "<d>/p.yaml:6: rules[0].check: unknown check kind 'nope' (`bench-gate kinds` lists them)"),
    ("mistyped-check-kind", {"p.yaml": BASE.replace("check: reject", "check: rejct")},
     "<d>/p.yaml:6: rules[0].check: unknown check kind 'rejct'; did you mean 'reject'? (`bench-gate kinds` lists them)"),
    ("unknown-parameter", {"p.yaml": BASE.replace("{message: nope}", "{message: nope, extra: 1}")},
     "<d>/p.yaml:7: rules[0].with.extra: unknown parameter (check kind reject takes message)"),
    ("mistyped-parameter", {"p.yaml": rule_with("metric_thresholds", " {min: {}, extr_min: {}}")},
     "<d>/p.yaml:7: rules[0].with.extr_min: unknown parameter; did you mean 'extra_min'? (check kind "
     "metric_thresholds)"),
    ("longer-parameter-name", {"p.yaml": rule_with("metric_thresholds", " {minimum: {}}")},
     "<d>/p.yaml:7: rules[0].with.minimum: unknown parameter; did you mean 'min'? (check kind metric_thresholds)"),
    ("missing-parameter", {"p.yaml": BASE.replace("{message: nope}", "{}")},
     "<d>/p.yaml:7: rules[0].with.message: required parameter is missing (check kind reject)"),
    ("string-for-integer", {"p.yaml": rule_with("slice_thresholds", ' {min_cases: "30"}')},
     '<d>/p.yaml:7: rules[0].with.min_cases: Input should be a valid integer, got "30" '
     "(check kind slice_thresholds)"),
    ("true-for-number", {"p.yaml": rule_with("metric_thresholds", "\n      min: {recall@5: true}")},
     "<d>/p.yaml:8: rules[0].with.min.recall@5: expected a number, got true (check kind metric_thresholds)"),
    ("string-for-number", {"p.yaml": rule_with("sum_equals", ' {total: /t, parts: [/a], tolerance: "0.1"}')},
     '<d>/p.yaml:7: rules[0].with.tolerance: expected a number, got "0.1" (check kind sum_equals)'),
    ("number-for-string", {"p.yaml": BASE.replace("{message: nope}", "{message: 5}")},
     "<d>/p.yaml:7: rules[0].with.message: Input should be a valid string, got 5 (check kind reject)"),
    ("bad-field-type", {"p.yaml": rule_with("fields", "\n      fields:\n        - {path: /a, type: float}")},
     "<d>/p.yaml:8: rules[0].with: type must be one of string, integer, number, boolean, object, array, "
     "string-or-array, any (check kind fields)"),
    # the profile's own keys
    ("unknown-top-level-key", {"p.yaml": BASE + "serverity: error\n"}, "<d>/p.yaml:9: serverity: unknown key"),
    ("unknown-rule-key", {"p.yaml": BASE + "    serverity: error\n"},
     "<d>/p.yaml:9: rules[0].serverity: unknown key; did you mean 'severity'?"),
    ("unknown-rule-key-far-from-any", {"p.yaml": BASE + "    colour: red\n"}, "<d>/p.yaml:9: rules[0].colour: unknown key"),
    ("unused-parameter", {"p.yaml": BASE.replace("{message: nope}", '{message: "nope ${max_age_days}"}')
                          + "params:\n  max_age_days: 7\n  max_age_dys: 3\n"},
     "<d>/p.yaml:11: params.max_age_dys: parameter 'max_age_dys' is read by no rule, option or condition, "
     "so setting it would change nothing; did you mean 'max_age_days'?"),
    ("unused-parameter-far-from-any", {"p.yaml": BASE + "params:\n  colour: red\n"},
     "<d>/p.yaml:10: params.colour: parameter 'colour' is read by no rule, option or condition, "
     "so setting it would change nothing"),
    ("builtin-name", {"p.yaml": BASE.replace("name: mine", "name: ai-memory") + "extends: ai-memory\n"},
     "<d>/p.yaml:1: name: 'ai-memory' is the name of a built-in profile; a profile file needs a name of its own "
     "(it may extend ai-memory), or its verdicts would read as the built-in's"),
    ("builtin-lookalike-name", {"p.yaml": BASE.replace("name: mine", "name: official_sota")},
     "<d>/p.yaml:1: name: 'official_sota' reads as 'official-sota', the name of a built-in profile; a profile "
     "file needs a name of its own (it may extend official-sota), or its verdicts would read as the built-in's"),
    ("mistyped-disable", {"p.yaml": BASE + "disable: [R1]\n"},
     "<d>/p.yaml:9: disable[0]: no rule 'R1' to disable; did you mean 'r1'?"),
    ("unknown-disable", {"p.yaml": BASE + "disable: [zz]\n"}, "<d>/p.yaml:9: disable[0]: no rule 'zz' to disable"),
    ("mistyped-extends", {"p.yaml": BASE + "extends: ai-memroy\n"},
     "<d>/p.yaml:9: extends: unknown profile 'ai-memroy'; did you mean 'ai-memory'? (built-in profiles: "
     "aef-seal, ai-memory, claims, ledger, locomo-qa, longmemeval-qa, longmemeval-retrieval, memory-pair, official-full, "
     "official-sota; or give a path to a profile YAML file)"),
    ("bad-severity", {"p.yaml": BASE + "    severity: fatal\n"},
     "<d>/p.yaml:9: rules[0].severity: Input should be 'error', 'warning' or 'info'"),
    ("bad-rule-id", {"p.yaml": BASE.replace("id: r1", "id: R 1")},
     "<d>/p.yaml:4: rules[0].id: Value error, rule id 'R 1' must match ^[a-z0-9][a-z0-9._-]*$"),
    ("zero-rules-all-disabled", {"p.yaml": BASE + "disable: [r1]\n"}, "<d>/p.yaml:9: disable: the profile would run zero rules"),
    ("zero-rules-none-declared", {"p.yaml": "name: p\ndescription: d\n"}, "<d>/p.yaml:1: the profile would run zero rules"),
    ("disable-unknown-id", {"p.yaml": BASE + "disable: [r2]\n"}, "<d>/p.yaml:9: disable[0]: no rule 'r2' to disable"),
    ("undeclared-param", {"p.yaml": BASE.replace("{message: nope}", '{message: "${nope}"}')},
     "<d>/p.yaml:7: rules[0].with: ${nope} is not a declared parameter"),
    ("undeclared-param-in-text", {"p.yaml": BASE.replace("{message: nope}", '{message: "over ${nope} days"}')},
     "<d>/p.yaml:7: rules[0].with: ${nope} is not a declared parameter"),
    ("undeclared-document-role", {"p.yaml": rule_with("any_present", ' {refs: [/per_type, "baseline:/overall"]}')},
     "<d>/p.yaml:7: rules[0].with.refs[1]: document role 'baseline' is not declared by the profile"),
    ("bad-pointer-in-ref", {"p.yaml": rule_with("any_present", ' {refs: ["baseline:/a~2b"]}')
                            + "documents:\n  baseline: {format: json}\n"},
     "<d>/p.yaml:7: rules[0].with.refs[0]: 'baseline:/a~2b' is not a JSON Pointer (~ must be followed by 0 or 1)"),
    ("when-two-forms", {"p.yaml": BASE + "    when: {param: a, document: b}\n"},
     "<d>/p.yaml:9: rules[0].when: Value error, a condition has exactly one of: param, document, ref, any, all, not"),
    ("when-ref-without-test", {"p.yaml": BASE + "    when: {ref: /x}\n"},
     "<d>/p.yaml:9: rules[0].when: Value error, a ref condition has exactly one of: exists, equals, in, matches"),
    ("when-ref-two-tests", {"p.yaml": BASE + "    when: {ref: /x, exists: true, equals: 1}\n"},
     "<d>/p.yaml:9: rules[0].when: Value error, a ref condition has exactly one of: exists, equals, in, matches"),
    ("option-undeclared-param", {"p.yaml": BASE + "options:\n  --strict: {param: strict, kind: flag}\n"},
     "<d>/p.yaml:10: options.--strict.param: option --strict sets undeclared parameter 'strict'"),
    ("null-default-without-type", {"p.yaml": BASE + "params:\n  limit: null\n"},
     "<d>/p.yaml:10: params.limit: a null default needs an explicit type"),
    ("default-of-wrong-type", {"p.yaml": BASE + "params:\n  limit: {default: 1, type: string}\n"},
     "<d>/p.yaml:10: params.limit: default must be of type string, got 1"),
    ("document-role-report", {"p.yaml": BASE + "documents:\n  report: {format: json}\n"},
     "<d>/p.yaml:10: documents.report: a document role is lowercase letters, digits, _ and -, and not 'report'"),
    ("from-report-not-pointer", {"p.yaml": BASE + "documents:\n  base: {from_report: x/y}\n"},
     "<d>/p.yaml:10: documents.base.from_report: not a JSON Pointer"),
    ("missing-policy-file", {"p.yaml": BASE + "use: [./nope.yaml]\n"}, "<d>/nope.yaml: policy './nope.yaml' does not exist"),
    ("empty-policy", {"p.yaml": "name: p\ndescription: d\nuse: [./pol.yaml]\n", "pol.yaml": "description: x\nrules: []\n"},
     "<d>/pol.yaml:2: rules: List should have at least 1 item after validation, not 0"),
    ("unknown-kind-in-policy", {"p.yaml": "name: p\ndescription: d\nuse: [./pol.yaml]\n",
                                "pol.yaml": policy("x", "p1").replace("check: reject", "check: nope")},
     "<d>/pol.yaml:5: rules[0].check: unknown check kind 'nope' (`bench-gate kinds` lists them)"),
    # several files
    ("duplicate-id-across-policies", {"p.yaml": "name: p\ndescription: d\nuse: [./one.yaml, ./two.yaml]\n",
                                      "one.yaml": policy("one", "same"), "two.yaml": policy("two", "same")},
     "<d>/two.yaml:3: rules[0].id: duplicate rule id 'same' (also at <d>/one.yaml:3)"),
    ("duplicate-id-policy-and-inline", {"p.yaml": "name: p\ndescription: d\nuse: [./one.yaml]\nrules:\n"
                                                  "  - {id: same, title: t, check: reject, with: {message: x}, why: w}\n",
                                        "one.yaml": policy("one", "same")},
     "<d>/p.yaml:5: rules[0].id: duplicate rule id 'same' (also at <d>/one.yaml:3)"),
    ("extends-cycle", {"p.yaml": "name: a\ndescription: d\nextends: ./b.yaml\nuse: [./one.yaml]\n",
                       "b.yaml": "name: b\ndescription: d\nextends: ./p.yaml\nuse: [./one.yaml]\n",
                       "one.yaml": policy("one", "r1")},
     "<d>/p.yaml:3: extends: extends cycle: <d>/p.yaml -> <d>/b.yaml -> <d>/p.yaml"),
    ("extends-itself", {"p.yaml": "name: a\ndescription: d\nextends: ./p.yaml\nuse: [./one.yaml]\n",
                        "one.yaml": policy("one", "r1")},
     "<d>/p.yaml:3: extends: extends cycle: <d>/p.yaml -> <d>/p.yaml"),
    ("extends-missing-file", {"p.yaml": BASE + "extends: ./gone.yaml\n"}, "<d>/gone.yaml: profile './gone.yaml' does not exist"),
    ("param-type-conflicts-with-parent", {"parent.yaml": BASE + "params:\n  limit: 30\n",
                                          "p.yaml": "name: child\ndescription: d\nextends: ./parent.yaml\n"
                                                    "params:\n  limit: thirty\n"},
     '<d>/p.yaml:5: params.limit: default must be of type integer, got "thirty"'),
    ("param-declared-type-conflicts-with-parent", {"parent.yaml": BASE + "params:\n  limit: 30\n",
                                                   "p.yaml": "name: child\ndescription: d\nextends: ./parent.yaml\n"
                                                             "params:\n  limit: {default: thirty, type: string}\n"},
     "<d>/p.yaml:5: params.limit: type string conflicts with inherited type integer"),
    # YAML that means more (or less) than it shows
    ("yaml-syntax-error", {"p.yaml": BASE.replace("{message: nope}", "{message: nope")},
     "<d>/p.yaml:8: YAML syntax error: expected ',' or '}', but got ':'"),
    ("yaml11-yes", {"p.yaml": BASE + "params:\n  strict: yes\n"},
     "<d>/p.yaml:10: params.strict: 'yes' is a YAML 1.1 boolean; write true or false, or quote it"),
    ("yaml11-on", {"p.yaml": BASE + "params:\n  strict: on\n"},
     "<d>/p.yaml:10: params.strict: 'on' is a YAML 1.1 boolean; write true or false, or quote it"),
    ("yaml11-no-in-with", {"p.yaml": BASE.replace("{message: nope}", "{message: no}")},
     "<d>/p.yaml:7: rules[0].with.message: 'no' is a YAML 1.1 boolean; write true or false, or quote it"),
    ("octal", {"p.yaml": BASE + "params:\n  n: 010\n"},
     "<d>/p.yaml:10: params.n: '010' is not a plain decimal integer (octal, hex, sexagesimal and underscores "
     "are not allowed); quote it for a string"),
    ("hex", {"p.yaml": BASE + "params:\n  n: 0x1F\n"},
     "<d>/p.yaml:10: params.n: '0x1F' is not a plain decimal integer (octal, hex, sexagesimal and underscores "
     "are not allowed); quote it for a string"),
    ("sexagesimal", {"p.yaml": BASE + "params:\n  t: 1:30\n"},
     "<d>/p.yaml:10: params.t: '1:30' is not a plain decimal integer (octal, hex, sexagesimal and underscores "
     "are not allowed); quote it for a string"),
    ("underscores", {"p.yaml": BASE + "params:\n  n: 1_000\n"},
     "<d>/p.yaml:10: params.n: '1_000' is not a plain decimal integer (octal, hex, sexagesimal and underscores "
     "are not allowed); quote it for a string"),
    ("inf", {"p.yaml": BASE + "params:\n  x: .inf\n"},
     "<d>/p.yaml:10: params.x: '.inf' is not a plain decimal number (.inf, .nan and sexagesimal are not "
     "allowed); quote it for a string"),
    ("nan", {"p.yaml": BASE + "params:\n  x: .NaN\n"},
     "<d>/p.yaml:10: params.x: '.NaN' is not a plain decimal number (.inf, .nan and sexagesimal are not "
     "allowed); quote it for a string"),
    ("alias", {"p.yaml": BASE + "params:\n  a: &x [1]\n  b: *x\n"},
     "<d>/p.yaml:11: params.b: aliases (*name) are not allowed in profiles"),
    ("merge-key", {"p.yaml": BASE + "params:\n  a: {<<: {b: 1}}\n"},
     "<d>/p.yaml:10: params.a: merge keys (<<) are not allowed"),
    ("python-object-tag", {"p.yaml": BASE + "params:\n  a: !!python/object:os.system x\n"},
     "<d>/p.yaml:10: params.a: tag 'tag:yaml.org,2002:python/object:os.system' is not allowed (plain data only)"),
    ("custom-tag", {"p.yaml": BASE + "params:\n  a: !custom x\n"},
     "<d>/p.yaml:10: params.a: tag '!custom' is not allowed (plain data only)"),
    ("duplicate-key", {"p.yaml": BASE + "description: again\n"}, "<d>/p.yaml:9: description: duplicate key 'description'"),
    ("duplicate-key-in-rule", {"p.yaml": BASE + "    why: again\n"}, "<d>/p.yaml:9: rules[0].why: duplicate key 'why'"),
    ("top-level-list", {"p.yaml": "- name: mine\n"}, "<d>/p.yaml:1: the top level must be a mapping"),
    ("top-level-scalar", {"p.yaml": "mine\n"}, "<d>/p.yaml:1: the top level must be a mapping"),
    ("empty-file", {"p.yaml": ""}, "<d>/p.yaml:1: the file is empty"),
    ("comments-only", {"p.yaml": "# nothing here\n"}, "<d>/p.yaml:1: the file is empty"),
]


@pytest.mark.parametrize(("files", "message"), [r[1:] for r in ERRORS], ids=[r[0] for r in ERRORS])
def test_profile_errors(tmp_path: Path, files: dict[str, str], message: str) -> None:
    with pytest.raises(ProfileError) as caught:
        compile_files(tmp_path, files)
    assert str(caught.value) == message.replace("<d>", str(tmp_path))


def test_profile_errors_expose_their_parts(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as caught:
        compile_files(tmp_path, {"p.yaml": BASE.replace("check: reject", "check: nope")})
    err = caught.value
    assert (err.file, err.line, err.path, err.message) == (
        str(tmp_path / "p.yaml"), 6, "rules[0].check", "unknown check kind 'nope' (`bench-gate kinds` lists them)")


def reading(names: str) -> str:
    """BASE whose rule reads the parameters ``names`` (a parameter nothing reads is an error)."""
    return BASE.replace("{message: nope}", "{message: \"nope" + "".join(f" ${{{n}}}" for n in names.split()) + "\"}")


ACCEPTED = [
    ("base", BASE, {}),
    ("quoted-yes-is-a-string", reading("word") + "params:\n  word: 'yes'\n", {"word": "yes"}),
    ("date-stays-a-string", reading("day") + "params:\n  day: 2026-06-01\n", {"day": "2026-06-01"}),
    ("quoted-octal-is-a-string", reading("code") + 'params:\n  code: "010"\n', {"code": "010"}),
    ("plain-numbers", reading("n x m") + "params:\n  n: 10\n  x: 0.5\n  m: -2.5e-3\n",
     {"n": 10, "x": 0.5, "m": -0.0025}),
    ("true-false", reading("a b") + "params:\n  a: true\n  b: false\n", {"a": True, "b": False}),
]


@pytest.mark.parametrize("url", ["https://huggingface.co/datasets/x", "file:///srv/data.json"])
def test_a_url_in_with_is_not_a_document_ref(tmp_path: Path, url: str) -> None:
    text = rule_with("fields", f'\n      fields:\n        - {{path: /url, one_of: ["{url}"]}}')
    plan = compile_files(tmp_path, {"p.yaml": text})
    assert plan.rules[0].params.fields[0].one_of == [url]


@pytest.mark.parametrize(("text", "values"), [r[1:] for r in ACCEPTED], ids=[r[0] for r in ACCEPTED])
def test_plain_yaml_is_accepted(tmp_path: Path, text: str, values: dict[str, object]) -> None:
    plan = compile_files(tmp_path, {"p.yaml": text})
    assert plan.values == values
    assert [r.id for r in plan.rules] == ["r1"]


# --- extends -----------------------------------------------------------------------------

PARENT = """\
name: parent
description: the parent gate
params:
  limit: 30
rules:
  - id: within-limit
    title: n is within the limit
    check: fields
    with:
      fields:
        - {path: /n, type: integer, max: "${limit}"}
    why: the limit is the gate
  - id: never
    title: always fails
    check: reject
    with: {message: rejected by the parent}
    why: the parent is strict
"""
CHILD = """\
name: child
description: a stricter gate without the parent's veto
extends: ./parent.yaml
params:
  limit: 10
disable: [never]
"""


def test_extends_merges_params_and_rules(tmp_path: Path) -> None:
    parent = compile_files(tmp_path, {"parent.yaml": PARENT}, entry="parent.yaml")
    child = compile_files(tmp_path, {"child.yaml": CHILD}, entry="child.yaml")
    assert (parent.values, child.values) == ({"limit": 30}, {"limit": 10})
    assert child.profile.chain == ("parent", "child")
    assert [(r.id, r.source, r.disabled_by) for r in child.rules] == [
        ("within-limit", f"{tmp_path}/parent.yaml:6", None),
        ("never", f"{tmp_path}/parent.yaml:13", "child"),
    ]
    assert child.rules[0].params.fields[0].max == 10
    assert child.profile.params["limit"].source == f"{tmp_path}/child.yaml:5"


@pytest.mark.parametrize(("entry", "n", "expected"), [
    ("parent.yaml", 20, [("within-limit", "pass", "report: n=20"), ("never", "fail", "rejected by the parent")]),
    ("child.yaml", 20, [("within-limit", "fail", "/n is 20, above the maximum 10"),
                        ("never", "skip", "disabled by profile child")]),
    ("child.yaml", 10, [("within-limit", "pass", "report: n=10"), ("never", "skip", "disabled by profile child")]),
], ids=["parent", "child-override-fails", "child-override-tie-passes"])
def test_extends_evaluates_with_child_values(tmp_path: Path, entry: str, n: int,
                                             expected: list[tuple[str, str, str]]) -> None:
    plan = compile_files(tmp_path, {"parent.yaml": PARENT, "child.yaml": CHILD}, entry=entry)
    verdict = evaluate(plan, {"report": Doc("report", "r.json", data={"n": n})}, NOW)
    assert [(r.rule, r.status, r.message) for r in verdict.results] == expected


def test_override_is_validated_where_it_is_used(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as caught:
        compile_files(tmp_path, {"parent.yaml": PARENT}, entry="parent.yaml", overrides={"limit": "10"})
    assert str(caught.value) == (f"{tmp_path}/parent.yaml:11: rules[0].with.fields[0].max: expected a number, "
                                 'got "10" (check kind fields)')


# --- the plan digest ---------------------------------------------------------------------


def digest(tmp_path: Path, text: str, overrides: dict[str, object] | None = None) -> str:
    return compile_files(tmp_path, {"parent.yaml": text}, entry="parent.yaml", overrides=overrides).digest


DIGEST_SAME = [
    ("recompiled", PARENT, None),
    ("comment-added", "# a comment\n" + PARENT, None),
    ("flow-style", PARENT.replace("    with: {message: rejected by the parent}\n",
                                  "    with:\n      message: rejected by the parent\n"), None),
    ("override-equal-to-default", PARENT, {"limit": 30}),
]
DIGEST_CHANGED = [
    ("override", PARENT, {"limit": 31}),
    ("default-changed", PARENT.replace("limit: 30", "limit: 31"), None),
    ("severity-changed", PARENT.replace("    why: the parent is strict", "    why: the parent is strict\n"
                                        "    severity: warning"), None),
    ("message-changed", PARENT.replace("rejected by the parent", "rejected"), None),
    ("rule-disabled", PARENT.replace("  - id: never", "  - id: never2") + "disable: [never2]\n", None),
]


def test_digest_has_the_sha256_form(tmp_path: Path) -> None:
    value = digest(tmp_path, PARENT)
    assert value.startswith("sha256:") and len(value) == 71


@pytest.mark.parametrize(("text", "overrides"), [r[1:] for r in DIGEST_SAME], ids=[r[0] for r in DIGEST_SAME])
def test_digest_is_stable(tmp_path: Path, text: str, overrides: dict[str, object] | None) -> None:
    assert digest(tmp_path, text, overrides) == digest(tmp_path, PARENT)


@pytest.mark.parametrize(("text", "overrides"), [r[1:] for r in DIGEST_CHANGED], ids=[r[0] for r in DIGEST_CHANGED])
def test_digest_changes(tmp_path: Path, text: str, overrides: dict[str, object] | None) -> None:
    assert digest(tmp_path, text, overrides) != digest(tmp_path, PARENT)


def test_every_parameter_the_code_reads_counts_as_read() -> None:
    """A parameter read from the plan by bench-gate itself (not by a rule) is never "unused"."""
    import re

    from bench_gate.profile.params import READ_BY_BENCH_GATE

    src = ROOT / "src" / "bench_gate"
    read = set()
    for path in src.rglob("*.py"):
        read |= set(re.findall(r"""values\.get\(["']([a-z_]+)["']""", path.read_text(encoding="utf-8")))
    assert read and read <= set(READ_BY_BENCH_GATE)


def test_a_profile_file_may_be_named_like_a_builtin_if_its_name_is_its_own(tmp_path: Path) -> None:
    """Only the ``name`` a verdict shows matters: ai-memory.yaml declaring ``name: mine`` is fine."""
    plan = compile_files(tmp_path, {"ai-memory.yaml": BASE +
                                    "extends: ai-memory\n"}, entry="ai-memory.yaml")
    assert plan.name == "mine" and plan.profile.chain == ("ai-memory", "mine")
