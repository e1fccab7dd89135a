"""Adversarial profiles: YAML that would run code, mean more than it shows, or silently change a
threshold is refused before anything is evaluated: exit 2 with ``file:line: path: reason``.

Each row is a user profile written to a temporary file that extends ai-memory (or is broken
on its own), passed as ``--profile PATH`` to the real command line together with the real
fixture report. Nothing may be evaluated: stdout stays empty.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bench_gate.cli.app import main
from golden import ROOT

NOW = "2026-11-29T12:00:00Z"
HEAD = "name: mine\ndescription: mine\nextends: ai-memory\n"


def rule(with_: str, check: str = "metric_thresholds", extra: str = "") -> str:
    return (HEAD + "rules:\n  - id: extra-rule\n    title: t\n    check: " + check + "\n"
            "    with: " + with_ + "\n    why: w\n" + extra)


# (id, profile text, "line: path: reason" after the file name)
ROWS: list[tuple[str, str, str]] = [
    # tags that would construct objects or run code, and custom tags
    ("python-object-apply", HEAD + "params:\n  x: !!python/object/apply:os.system ['echo pwned']\n",
     "5: params.x: tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed (plain data only)"),
    ("python-name", HEAD + "params:\n  x: !!python/name:os.system ''\n",
     "5: params.x: tag 'tag:yaml.org,2002:python/name:os.system' is not allowed (plain data only)"),
    ("custom-tag", HEAD + "params:\n  x: !custom 1\n", "5: params.x: tag '!custom' is not allowed (plain data only)"),
    ("binary", HEAD + "params:\n  x: !!binary aGVsbG8=\n",
     "5: params.x: tag 'tag:yaml.org,2002:binary' is not allowed (plain data only)"),
    ("set", HEAD + "params:\n  x: !!set {a, b}\n", "5: params.x: tag 'tag:yaml.org,2002:set' is not allowed (plain data only)"),
    ("tag-on-mapping", HEAD + "params: !!omap\n  - a: 1\n",
     "4: params: tag 'tag:yaml.org,2002:omap' is not allowed (plain data only)"),
    # aliases and merge keys
    ("alias", HEAD + "params:\n  a: &v 1\n  b: *v\n", "6: params.b: aliases (*name) are not allowed in profiles"),
    ("alias-bomb", HEAD + "params:\n  a: &a [x, x, x, x, x, x, x, x, x]\n  b: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
     "  c: [*b, *b, *b, *b, *b, *b, *b, *b]\n", "6: params.b[0]: aliases (*name) are not allowed in profiles"),
    ("merge-key", HEAD + "params:\n  base: &b {x: 1}\n  m:\n    <<: *b\n", "7: params.m: merge keys (<<) are not allowed"),
    # duplicate keys, at any depth
    ("duplicate-top", HEAD + "description: other\n", "4: description: duplicate key 'description'"),
    ("duplicate-param", HEAD + "params:\n  slice_min_cases: 10\n  slice_min_cases: 0\n",
     "6: params.slice_min_cases: duplicate key 'slice_min_cases'"),
    ("duplicate-threshold", rule('{min: {"recall@5": 0.9, "recall@5": 0.1}}'),
     "8: rules[0].with.min.recall@5: duplicate key 'recall@5'"),
    # YAML 1.1 booleans and numbers that would change a threshold's meaning
    ("bool-yes", HEAD + "params:\n  require_qa: yes\n",
     "5: params.require_qa: 'yes' is a YAML 1.1 boolean; write true or false, or quote it"),
    ("bool-off", HEAD + "params:\n  citable: off\n",
     "5: params.citable: 'off' is a YAML 1.1 boolean; write true or false, or quote it"),
    ("bool-on-in-when", HEAD + "rules:\n  - id: r\n    title: t\n    check: reject\n    with: {message: m}\n"
     "    when: {ref: /x, exists: on}\n    why: w\n",
     "9: rules[0].when.exists: 'on' is a YAML 1.1 boolean; write true or false, or quote it"),
    ("octal", HEAD + "params:\n  slice_min_cases: 010\n",
     "5: params.slice_min_cases: '010' is not a plain decimal integer (octal, hex, sexagesimal and underscores "
     "are not allowed); quote it for a string"),
    ("octal-yaml12", HEAD + "params:\n  slice_min_cases: 0o10\n",
     "5: params.slice_min_cases: '0o10' reads as a number in YAML 1.2 but as a string in YAML 1.1; write a "
     "plain decimal (8, 31), or quote it for a string"),
    # 1e1 is the number 10.0 (as YAML 1.2 and `bench-gate explain` write numbers), not the integer a count needs
    ("exponent-is-a-number-not-an-integer", HEAD + "params:\n  slice_min_cases: 1e1\n",
     "5: params.slice_min_cases: default must be of type integer, got 10.0"),
    ("exponent-beyond-decimal", HEAD + "params:\n  slice_min_cases: 1.0e-99999999999999999999\n",
     "5: params.slice_min_cases: '1.0e-99999999999999999999' has an exponent out of range"),
    ("zero-exponent-beyond-decimal", HEAD + "params:\n  slice_min_cases: 0.0e+99999999999999999999\n",
     "5: params.slice_min_cases: '0.0e+99999999999999999999' has an exponent out of range"),
    ("unused-anchor", HEAD + "params:\n  slice_min_cases: &n 10\n",
     "5: anchors (&n) are not allowed in profiles"),
    ("hex", HEAD + "params:\n  slice_min_cases: 0x1F\n",
     "5: params.slice_min_cases: '0x1F' is not a plain decimal integer (octal, hex, sexagesimal and underscores "
     "are not allowed); quote it for a string"),
    ("sexagesimal", HEAD + "params:\n  slice_min_cases: 1:30\n",
     "5: params.slice_min_cases: '1:30' is not a plain decimal integer (octal, hex, sexagesimal and underscores "
     "are not allowed); quote it for a string"),
    ("underscores", HEAD + "params:\n  slice_min_cases: 1_000\n",
     "5: params.slice_min_cases: '1_000' is not a plain decimal integer (octal, hex, sexagesimal and "
     "underscores are not allowed); quote it for a string"),
    ("inf", rule('{min: {"recall@5": .inf}}'), "8: rules[0].with.min.recall@5: '.inf' is not a plain decimal "
     "number (.inf, .nan and sexagesimal are not allowed); quote it for a string"),
    ("nan", rule('{max: {"latency_p95_ms": .nan}}'), "8: rules[0].with.max.latency_p95_ms: '.nan' is not a plain "
     "decimal number (.inf, .nan and sexagesimal are not allowed); quote it for a string"),
    ("overflow", rule('{min: {"recall@5": 1.0e+999}}'), "8: rules[0].with.min.recall@5: '1.0e+999' overflows to infinity"),
    ("underflow", rule('{min: {"recall@5": 1.0e-999}}'),
     "8: rules[0].with.min.recall@5: '1.0e-999' cannot be held exactly (it would be 0.0); write 0.0, or quote it "
     "for a string"),
    ("more-precise-than-a-float", rule('{min: {"recall@5": 0.94056666666666680001}}'),
     "8: rules[0].with.min.recall@5: '0.94056666666666680001' cannot be held exactly (it would be "
     "0.9405666666666668); write 0.9405666666666668, or quote it for a string"),
    ("huge-integer", rule('{max: {"latency_p95_ms": 1' + "0" * 5000 + "}}"),
     "8: rules[0].with.max.latency_p95_ms: integer 10000000000000000000… has more than 4300 digits"),
    # types and missing units: a threshold is a plain number, a day count an integer
    ("threshold-string", rule('{min: {"recall@5": "0.75"}}'),
     '8: rules[0].with.min.recall@5: expected a number, got "0.75" (check kind metric_thresholds)'),
    ("threshold-percent-sign", rule('{min: {"recall@5": 75%}}'),
     '8: rules[0].with.min.recall@5: expected a number, got "75%" (check kind metric_thresholds)'),
    ("threshold-boolean", rule('{min: {"recall@5": true}}'),
     "8: rules[0].with.min.recall@5: expected a number, got true (check kind metric_thresholds)"),
    ("threshold-null", rule('{min: {"recall@5": null}}'),
     "8: rules[0].with.min.recall@5: expected a number, got null (check kind metric_thresholds)"),
    ("age-with-unit", rule("{at: /generated_at, max_age: 30 days}", "fresh"),
     "8: rules[0].with: max_age '30 days' is not an ISO 8601 duration (P30D, P2W, P1M, P1Y, PT12H) "
     "(check kind fresh)"),
    ("age-number", rule("{at: /generated_at, max_age: 30}", "fresh"),
     "8: rules[0].with.max_age: Input should be a valid string, got 30 (check kind fresh)"),
    ("age-fractional", rule("{at: /generated_at, max_age: P1.5D}", "fresh"),
     "8: rules[0].with: max_age 'P1.5D' is not an ISO 8601 duration (P30D, P2W, P1M, P1Y, PT12H) "
     "(check kind fresh)"),
    ("age-boolean", rule("{at: /generated_at, max_age: true}", "fresh"),
     "8: rules[0].with.max_age: Input should be a valid string, got true (check kind fresh)"),
    ("age-negative", rule("{at: /generated_at, max_age: P-1D}", "fresh"),
     "8: rules[0].with: max_age 'P-1D' is not an ISO 8601 duration (P30D, P2W, P1M, P1Y, PT12H) "
     "(check kind fresh)"),
    ("age-empty", rule("{at: /generated_at, max_age: P}", "fresh"),
     "8: rules[0].with: max_age 'P' is not an ISO 8601 duration (P30D, P2W, P1M, P1Y, PT12H) "
     "(check kind fresh)"),
    ("age-missing", rule("{at: /generated_at}", "fresh"),
     "8: rules[0].with.max_age: required parameter is missing (check kind fresh)"),
    ("param-quoted-number", HEAD + "params:\n  slice_min_cases: '10'\n",
     '5: params.slice_min_cases: default must be of type integer, got "10"'),
    ("param-word", HEAD + "params:\n  slice_min_cases: ten\n",
     '5: params.slice_min_cases: default must be of type integer, got "ten"'),
    # unknown keys anywhere
    ("unknown-top-key", HEAD + "serverity: error\n", "4: serverity: unknown key"),
    ("unknown-rule-key", rule('{min: {"recall@5": 0.5}}', extra="    severty: error\n"),
     "10: rules[0].severty: unknown key; did you mean 'severity'?"),
    ("unknown-parameter", rule('{minimum: {"recall@5": 0.5}}'),
     "8: rules[0].with.minimum: unknown parameter; did you mean 'min'? (check kind metric_thresholds)"),
    ("unknown-parameter-nested", rule('{min: {"recall@5": 0.5}}', "fields").replace(
        '{min: {"recall@5": 0.5}}', "{fields: [{path: /x, patern: commit}]}"),
     "8: rules[0].with.fields[0].patern: unknown parameter; did you mean 'pattern'? (check kind fields)"),
    ("unused-parameter", HEAD + "params:\n  max_baseline_age_dys: 7\n  slice_min_case: 5\n",
     "5: params.max_baseline_age_dys: parameter 'max_baseline_age_dys' is read by no rule, option or condition, "
     "so setting it would change nothing"),
    ("unused-parameter-close-to-a-used-one", HEAD + "params:\n  slice_min_case: 5\n",
     "5: params.slice_min_case: parameter 'slice_min_case' is read by no rule, option or condition, "
     "so setting it would change nothing; did you mean 'slice_min_cases'?"),
    ("unknown-document-key", HEAD + "documents:\n  extra: {option: --extra, formt: json}\n",
     "5: documents.extra.formt: unknown key; did you mean 'format'?"),
    ("unknown-check-kind", rule("{cmd: ls}", "exec"),
     "7: rules[0].check: unknown check kind 'exec' (`bench-gate kinds` lists them)"),
    # structure
    ("empty-file", "", "1: the file is empty"),
    ("top-level-list", "- a\n", "1: the top level must be a mapping"),
    ("non-string-key", HEAD + "params:\n  1: 2\n", "5: params: mapping keys must be strings, got 1"),
    ("null-key", HEAD + "params:\n  ~: 2\n", "5: params: mapping keys must be strings, got None"),
    ("syntax-error", HEAD + "params: [\n", "5: YAML syntax error: expected the node content, but found '<stream end>'"),
    ("tab-indent", HEAD + "params:\n\tx: 1\n", "5: YAML syntax error: found character '\\t' that cannot start any token"),
    ("duplicate-rule-id", rule("{message: m}", "reject").replace("extra-rule", "header-identity"),
     "5: rules[0].id: duplicate rule id 'header-identity' (also at policies/retrieval-provenance.yaml:3)"),
    ("bad-regex", HEAD + "rules:\n  - id: r\n    title: t\n    check: reject\n    with: {message: m}\n"
     "    when: {ref: /x, matches: '('}\n    why: w\n",
     "9: rules[0].when: Value error, matches is not a valid regular expression: missing ), unterminated "
     "subpattern at position 0"),
    ("nesting-deeper-than-64", HEAD + "params:\n  x: " + "[" * 2000 + "]" * 2000 + "\n",
     "5: nesting is deeper than 64 levels"),
    ("undeclared-parameter", rule('{min: {"recall@5": "${nope}"}}'),
     "8: rules[0].with: ${nope} is not a declared parameter"),
]


@pytest.mark.parametrize(("text", "where"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_bad_profile_is_exit_2_with_its_location(text: str, where: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text(text, encoding="utf-8")
    shutil.copy(ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json", tmp_path / "report.json")
    monkeypatch.chdir(tmp_path)
    code = main(["report.json", "--profile", str(profile), "--now", NOW])
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", f"bench-gate: error: profile: {profile}:{where}\n")


def test_extends_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.yaml").write_text("name: a\ndescription: a\nextends: ./b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("name: b\ndescription: b\nextends: ./a.yaml\n", encoding="utf-8")
    shutil.copy(ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json", tmp_path / "report.json")
    monkeypatch.chdir(tmp_path)
    code = main(["report.json", "--profile", "./a.yaml", "--now", NOW])
    out, err = capsys.readouterr()
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    assert (code, out, err) == (2, "", f"bench-gate: error: profile: a.yaml:3: extends: extends cycle: "
                                       f"{a} -> {b} -> {a}\n")


@pytest.mark.parametrize(("text", "code"), [
    (HEAD + "params:\n  x: !!str 010\noptions:\n  --x: {param: x, kind: string}\n", 0),
    (HEAD + "params:\n  qa_schema_version: 2026-06-01\n", 0),
    (HEAD + "params:\n  require_qa: 'yes'\n", 2),
    (rule('{min: {"recall@5": 0.9405666666666668}}'), 0),
    (rule('{min: {"recall@5": 0.94056666666666681}}'), 2),
    (HEAD + "params:\n  x: " + "[" * 62 + "]" * 62 + "\noptions:\n  --x: {param: x, kind: list}\n", 0),
    (HEAD + "params:\n  x: " + "[" * 63 + "]" * 63 + "\n", 2),
], ids=["explicit-str-tag-keeps-text", "date-stays-a-string", "quoted-yes-is-a-string-not-a-boolean",
        "threshold-tie-passes", "threshold-above-by-1e-17-is-refused",
        "nesting-of-64-is-read", "nesting-of-65-is-refused"])
def test_what_plain_yaml_means(text: str, code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p.yaml").write_text(text, encoding="utf-8")
    shutil.copy(ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json", tmp_path / "report.json")
    monkeypatch.chdir(tmp_path)
    result = main(["report.json", "--profile", "./p.yaml", "--now", NOW])
    out, err = capsys.readouterr()
    assert result == code, err
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("bench-gate: error: profile: p.yaml:")
    else:
        assert out.endswith("0 failed, 17 passed, 20 skipped\n") or "0 failed" in out.splitlines()[-1]


@pytest.mark.parametrize("written", ["1e-9", "1e-09", "1.0e-9", "1E-9"])
def test_a_tolerance_written_as_explain_prints_it(written: str, tmp_path: Path) -> None:
    """``bench-gate explain`` and ``kinds`` print a tolerance as 1e-09; YAML 1.1 would read ``1e-9``
    (no dot) as the string "1e-9": it is read as the number it is, exactly."""
    from bench_gate.profile import load_profile
    from bench_gate.profile.binding import bind

    profile = tmp_path / "p.yaml"
    profile.write_text(rule("{tolerance: " + written + "}", check="retrieval_recompute"), encoding="utf-8")
    [found] = [r for r in bind(load_profile(str(profile))).rules if r.id == "extra-rule"]
    assert getattr(found.params, "tolerance") == 1e-9
