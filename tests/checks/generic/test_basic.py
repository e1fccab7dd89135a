"""The generic check kinds, one table per kind: pass and fail rows, each pinning the message.

Parameters go through the same strict validation a profile's ``with:`` goes through
(``policy.validate_params``), so every row is a configuration a profile could write.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench_gate.checks.base import kinds_of
from bench_gate.loaders import strictjson
from bench_gate.models import Finding

from kindtest import first, run

HEX40 = "0123456789abcdef0123456789abcdef01234567"
HEX64 = "0123456789abcdef" * 4


def findings(kind: str, params: dict[str, Any], data: Any, **others: Any) -> list[Finding]:
    """Every finding of one kind over a report (and other documents by role)."""
    return run(kind, params, data, **others)


# --- fields ------------------------------------------------------------------------------


def one(spec: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"fields": [spec], **extra}


FIELDS = [
    # presence, alternatives, optional, null
    ("present", one({"path": "/name", "type": "string"}), {"name": "x"}, "pass", 'report: name="x"'),
    ("missing", one({"path": "/name"}), {}, "fail", "/name is missing"),
    ("null", one({"path": "/name", "type": "string"}), {"name": None}, "fail", "/name is null"),
    ("alternative-first-present", one({"path": "/generated_at|/timestamp"}),
     {"generated_at": "a", "timestamp": "b"}, "pass", 'report: generated_at="a"'),
    ("alternative-second-present", one({"path": "/generated_at|/timestamp"}), {"timestamp": "b"},
     "pass", 'report: timestamp="b"'),
    ("alternatives-all-missing", one({"path": "/generated_at|/timestamp"}), {}, "fail",
     "/generated_at (or /timestamp) is missing"),
    ("alternative-checked-for-type", one({"path": "/generated_at|/timestamp", "type": "string"}),
     {"timestamp": 5}, "fail", "/timestamp must be a string, got integer 5"),
    ("optional-absent", one({"path": "/name", "optional": True}), {}, "pass",
     "report: name absent (optional)"),
    ("optional-present-checked", one({"path": "/n", "type": "integer", "optional": True}), {"n": "5"},
     "fail", '/n must be an exact integer, got string "5"'),
    ("optional-null-fails", one({"path": "/n", "optional": True}), {"n": None}, "fail", "/n is null"),
    ("base-pointer", one({"path": "/dims", "type": "integer"}, base="/runtime"),
     {"runtime": {"dims": 1024}}, "pass", "/runtime: dims=1024"),
    ("base-missing", one({"path": "/dims"}, base="/runtime"), {}, "fail", "/runtime is missing"),
    ("base-not-object", one({"path": "/dims"}, base="/runtime"), {"runtime": [1]}, "fail",
     "/runtime must be an object, got array"),
    ("document-not-object", one({"path": "/dims"}), [1], "fail", "the document must be an object, got array"),
    # types
    ("integer-int", one({"path": "/n", "type": "integer"}), {"n": 500}, "pass", "report: n=500"),
    ("integer-integral-float", one({"path": "/n", "type": "integer"}), {"n": 500.0}, "pass", "report: n=500.0"),
    ("integer-fraction", one({"path": "/n", "type": "integer"}), {"n": 1.5}, "fail",
     "/n must be an exact integer, got number 1.5"),
    ("integer-bool", one({"path": "/n", "type": "integer"}), {"n": True}, "fail",
     "/n must be an exact integer, got boolean true"),
    ("integer-written-float", one({"path": "/n", "type": "integer"}),
     strictjson.loads(b'{"n": 499.99999999999999}'), "fail",
     "/n must be an exact integer, got number 499.99999999999999"),
    ("number-string", one({"path": "/n", "type": "number"}), {"n": "0.5"}, "fail",
     '/n must be a number, got string "0.5"'),
    ("number-bool", one({"path": "/n", "type": "number"}), {"n": False}, "fail",
     "/n must be a number, got boolean false"),
    ("number-ok", one({"path": "/n", "type": "number"}), {"n": 0.5}, "pass", "report: n=0.5"),
    ("boolean-int", one({"path": "/f", "type": "boolean"}), {"f": 1}, "fail",
     "/f must be a boolean, got integer 1"),
    ("boolean-false-ok", one({"path": "/f", "type": "boolean"}), {"f": False}, "pass", "report: f=false"),
    ("object-list", one({"path": "/o", "type": "object"}), {"o": []}, "fail",
     "/o must be a object, got array []"),
    ("array-string", one({"path": "/a", "type": "array"}), {"a": "x"}, "fail",
     '/a must be a array, got string "x"'),
    ("string-or-array-list", one({"path": "/c", "type": "string-or-array"}), {"c": ["run", "x"]}, "pass",
     'report: c=["run", "x"]'),
    ("string-or-array-int", one({"path": "/c", "type": "string-or-array"}), {"c": 1}, "fail",
     "/c must be a string-or-array, got integer 1"),
    # emptiness
    ("empty-string", one({"path": "/name"}), {"name": ""}, "fail", "/name is empty"),
    ("blank-string", one({"path": "/name"}), {"name": "  \t"}, "fail", "/name is empty"),
    ("empty-list", one({"path": "/a"}), {"a": []}, "fail", "/a is empty"),
    ("empty-object", one({"path": "/o"}), {"o": {}}, "fail", "/o is empty"),
    ("empty-allowed", one({"path": "/name", "non_empty": False}), {"name": ""}, "pass", 'report: name=""'),
    ("zero-is-not-empty", one({"path": "/n"}), {"n": 0}, "pass", "report: n=0"),
    # one_of / not_one_of
    ("one-of-single-ok", one({"path": "/mode", "one_of": ["hybrid"]}), {"mode": "hybrid"}, "pass",
     'report: mode="hybrid"'),
    ("one-of-single", one({"path": "/mode", "one_of": ["hybrid"]}), {"mode": "raw"}, "fail",
     '/mode is "raw", expected "hybrid"'),
    ("one-of-multiple", one({"path": "/mode", "one_of": ["hybrid", "raw"]}), {"mode": "fast"}, "fail",
     '/mode is "fast", expected one of "hybrid", "raw"'),
    ("one-of-case-sensitive", one({"path": "/mode", "one_of": ["hybrid", "raw"]}), {"mode": "Hybrid"},
     "fail", '/mode is "Hybrid", expected one of "hybrid", "raw"'),
    ("one-of-bool-is-not-1", one({"path": "/x", "one_of": [1]}), {"x": True}, "fail",
     "/x is true, expected 1"),
    ("one-of-1-is-1.0", one({"path": "/x", "one_of": [1]}), {"x": 1.0}, "pass", "report: x=1.0"),
    ("one-of-expect", one({"path": "/mode", "one_of": ["a", "b"], "expect": "a retrieval mode"}),
     {"mode": "c"}, "fail", '/mode is "c", expected a retrieval mode'),
    ("not-one-of-case-insensitive", one({"path": "/p", "not_one_of": ["n/a", "unknown"]}), {"p": " N/A "},
     "fail", '/p is the placeholder " N/A "'),
    ("not-one-of-upper", one({"path": "/p", "not_one_of": ["n/a", "unknown"]}), {"p": "UNKNOWN"}, "fail",
     '/p is the placeholder "UNKNOWN"'),
    ("not-one-of-ok", one({"path": "/p", "not_one_of": ["n/a", "unknown"]}), {"p": "openai"}, "pass",
     'report: p="openai"'),
    ("not-one-of-substring-ok", one({"path": "/p", "not_one_of": ["na"]}), {"p": "nano"}, "pass",
     'report: p="nano"'),
    # ranges (exact)
    ("min-tie", one({"path": "/n", "min": 0}), {"n": 0}, "pass", "report: n=0"),
    ("min-below", one({"path": "/n", "min": 0}), {"n": -1}, "fail", "/n is -1, below the minimum 0"),
    ("min-fraction-below", one({"path": "/n", "min": 0.75}), {"n": 0.7499999}, "fail",
     "/n is 0.7499999, below the minimum 0.75"),
    ("min-written-float-below", one({"path": "/n", "min": 0.75}),
     strictjson.loads(b'{"n": 0.74999999999999999}'), "fail",
     "/n is 0.74999999999999999, below the minimum 0.75"),
    ("max-tie", one({"path": "/n", "max": 1}), {"n": 1.0}, "pass", "report: n=1.0"),
    ("max-above", one({"path": "/n", "max": 1}), {"n": 1.5}, "fail", "/n is 1.5, above the maximum 1"),
    ("exclusive-min-tie", one({"path": "/n", "exclusive_min": 0}), {"n": 0}, "fail", "/n is 0, not above 0"),
    ("exclusive-min-ok", one({"path": "/n", "exclusive_min": 0}), {"n": 0.001}, "pass", "report: n=0.001"),
    ("exclusive-max-tie", one({"path": "/n", "exclusive_max": 1}), {"n": 1}, "fail", "/n is 1, not below 1"),
    ("exclusive-max-ok", one({"path": "/n", "exclusive_max": 1}), {"n": 0.999}, "pass", "report: n=0.999"),
    ("range-on-string", one({"path": "/n", "min": 0}), {"n": "5"}, "fail", '/n must be a number, got string "5"'),
    ("range-on-bool", one({"path": "/n", "min": 0}), {"n": True}, "fail", "/n must be a number, got boolean true"),
    # named patterns
    ("commit-ok", one({"path": "/c", "pattern": "commit"}), {"c": HEX40}, "pass", f'report: c="{HEX40}"'),
    ("commit-uppercase", one({"path": "/c", "pattern": "commit"}), {"c": HEX40.upper()}, "fail",
     f'/c is "{HEX40.upper()}", expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)'),
    ("commit-39", one({"path": "/c", "pattern": "commit"}), {"c": HEX40[:-1]}, "fail",
     f'/c is "{HEX40[:-1]}", expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)'),
    ("commit-trailing-newline", one({"path": "/c", "pattern": "commit"}), {"c": HEX40 + "\n"}, "fail",
     f'/c is "{HEX40}\\n", expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)'),
    ("commit-non-ascii-digit", one({"path": "/c", "pattern": "commit"}), {"c": "\u0661" + HEX40[1:]}, "fail",
     f'/c is "\u0661{HEX40[1:]}", expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)'),
    ("commit-not-string", one({"path": "/c", "pattern": "commit"}), {"c": 1234}, "fail",
     "/c is 1234, expected a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, more commits share its prefix)"),
    ("sha256-ok", one({"path": "/h", "pattern": "sha256"}), {"h": HEX64}, "pass", f'report: h="{HEX64}"'),
    ("sha256-uppercase", one({"path": "/h", "pattern": "sha256"}), {"h": HEX64.upper()}, "fail",
     f'/h is "{HEX64.upper()}", expected a sha256'),
    ("sha256-63", one({"path": "/h", "pattern": "sha256"}), {"h": HEX64[:63]}, "fail",
     f'/h is "{HEX64[:63]}", expected a sha256'),
    ("sha256-trailing-newline", one({"path": "/h", "pattern": "sha256"}), {"h": HEX64 + "\n"}, "fail",
     f'/h is "{HEX64}\\n", expected a sha256'),
    ("sha256-non-ascii-digit", one({"path": "/h", "pattern": "sha256"}), {"h": HEX64[:63] + "\u0969"},
     "fail", f'/h is "{HEX64[:63]}\u0969", expected a sha256'),
    ("sha256-uri-ok", one({"path": "/h", "pattern": "sha256-uri"}), {"h": "sha256:" + HEX64}, "pass",
     f'report: h="sha256:{HEX64}"'),
    ("sha256-uri-bare-hex", one({"path": "/h", "pattern": "sha256-uri"}), {"h": HEX64}, "fail",
     f'/h is "{HEX64}", expected a sha256-uri'),
    ("sha256-uri-uppercase", one({"path": "/h", "pattern": "sha256-uri"}), {"h": "sha256:" + HEX64.upper()},
     "fail", f'/h is "sha256:{HEX64.upper()}", expected a sha256-uri'),
    ("sha256-uri-uppercase-prefix", one({"path": "/h", "pattern": "sha256-uri"}), {"h": "SHA256:" + HEX64},
     "fail", f'/h is "SHA256:{HEX64}", expected a sha256-uri'),
    ("regex-ok", one({"path": "/v", "pattern": "v[0-9]+"}), {"v": "v12"}, "pass", 'report: v="v12"'),
    ("regex-is-full-match", one({"path": "/v", "pattern": "v[0-9]+"}), {"v": "v12-rc"}, "fail",
     '/v is "v12-rc", expected a match of /v[0-9]+/'),
    ("regex-expect", one({"path": "/v", "pattern": "v[0-9]+", "expect": "a release tag"}), {"v": "x"},
     "fail", '/v is "x", expected a release tag'),
    # equals_ref
    ("equals-ref-ok", one({"path": "/a", "equals_ref": "/b"}), {"a": 1, "b": 1.0}, "pass", "report: a=1"),
    ("equals-ref-differs", one({"path": "/a", "equals_ref": "/b"}), {"a": 1, "b": 2}, "fail",
     "/a is 1 but report:/b is 2"),
    ("equals-ref-bool-vs-1", one({"path": "/a", "equals_ref": "/b"}), {"a": True, "b": 1}, "fail",
     "/a is true but report:/b is 1"),
    ("equals-ref-missing", one({"path": "/a", "equals_ref": "/b"}), {"a": 1}, "fail",
     "/a is 1 but report:/b is missing"),
]


@pytest.mark.parametrize(("params", "data", "status", "message"),
                         [row[1:] for row in FIELDS], ids=[row[0] for row in FIELDS])
def test_fields(params: dict[str, Any], data: Any, status: str, message: str) -> None:
    assert first("fields", params, data) == (status, message)


def test_fields_equals_ref_other_document() -> None:
    params = one({"path": "/model", "equals_ref": "baseline:/model"})
    assert first("fields", params, {"model": "m1"}, baseline={"model": "m2"}) == (
        "fail", '/model is "m1" but baseline:/model is "m2"')
    assert first("fields", params, {"model": "m1"}, baseline={"model": "m1"}) == ("pass", 'report: model="m1"')


def test_fields_reports_every_failing_field_with_its_pointer() -> None:
    params = {"base": "/runtime", "fields": [{"path": "/a"}, {"path": "/b", "type": "integer"}]}
    found = findings("fields", params, {"runtime": {"b": "x"}})
    assert [(f.status, f.message, f.pointer) for f in found] == [
        ("fail", "/runtime/a is missing", "/runtime/a"),
        ("fail", '/runtime/b must be an exact integer, got string "x"', "/runtime/b"),
    ]


EACH = [
    ("all-items-ok", {"c": [{"id": "a", "n": 1}, {"id": "b", "n": 2}]}, "pass", "all 2 items of /c have id, n"),
    ("one-item-empty", {"c": [{"id": "a", "n": 1}, {"id": "", "n": 2}]}, "fail", "/c/1/id is empty"),
    ("item-not-object", {"c": [7]}, "fail", "/c/0 must be an object, got integer"),
    ("no-items", {"c": []}, "fail", "/c has 0 items (at least 1 needed)"),
    ("not-a-list", {"c": {"id": "a"}}, "fail", "/c must be a list, got object"),
    ("missing-list", {}, "fail", "/c is missing"),
]


@pytest.mark.parametrize(("data", "status", "message"), [r[1:] for r in EACH], ids=[r[0] for r in EACH])
def test_fields_each(data: Any, status: str, message: str) -> None:
    params = {"base": "/c", "each": True, "fields": [{"path": "/id", "type": "string"},
                                                      {"path": "/n", "type": "integer"}]}
    assert first("fields", params, data) == (status, message)


def test_fields_each_alternatives_named_in_pass_message() -> None:
    params = {"base": "/c", "each": True, "fields": [{"path": "/question_id|/case_id"}]}
    assert first("fields", params, {"c": [{"question_id": "q"}, {"case_id": "c"}]}) == (
        "pass", "all 2 items of /c have question_id or case_id")


# --- equal -------------------------------------------------------------------------------


EQUAL = [
    ("same-string", {"groups": [["/a", "/b"]]}, {"a": "x", "b": "x"}, "pass", "1 group of values agree"),
    ("two-groups", {"groups": [["/a", "/b"], ["/c", "/d"]]}, {"a": 1, "b": 1, "c": [1], "d": [1.0]},
     "pass", "2 groups of values agree"),
    ("one-is-one-point-zero", {"groups": [["/a", "/b"]]}, {"a": 1, "b": 1.0}, "pass", "1 group of values agree"),
    ("bool-is-not-1", {"groups": [["/a", "/b"]]}, {"a": True, "b": 1}, "fail", "report:/b is 1 but report:/a is true"),
    ("string-vs-number", {"groups": [["/a", "/b"]]}, {"a": 500, "b": "500"}, "fail",
     'report:/b is "500" but report:/a is 500'),
    ("differs", {"groups": [["/a", "/b", "/c"]]}, {"a": 1, "b": 1, "c": 2}, "fail",
     "report:/c is 2 but report:/a is 1"),
    ("missing", {"groups": [["/a", "/b"]]}, {"a": 1}, "fail", "report:/b is missing (it must equal /a, /b)"),
    ("optional-missing-skips", {"groups": [["/a", "/b"]], "optional": True}, {"a": 1}, "skip",
     "nothing to compare: the values are absent"),
    ("optional-present-compared", {"groups": [["/a", "/b"]], "optional": True}, {"a": 1, "b": 2}, "fail",
     "report:/b is 2 but report:/a is 1"),
    ("optional-one-group-absent", {"groups": [["/a", "/b"], ["/c", "/d"]], "optional": True},
     {"a": 1, "b": 1}, "pass", "1 group of values agree"),
    ("single-ref-group", {"groups": [["/a"]]}, {"a": 1}, "fail", "an equal group needs at least two refs"),
    ("null-is-not-a-value", {"groups": [["/a", "/b"]]}, {"a": None, "b": None}, "fail",
     "report:/a is null (it must equal /a, /b)"),
    ("null-vs-value", {"groups": [["/a", "/b"]]}, {"a": 1, "b": None}, "fail",
     "report:/b is null (it must equal /a, /b)"),
    ("optional-null-fails", {"groups": [["/a", "/b"]], "optional": True}, {"a": None, "b": None}, "fail",
     "report:/a is null (it must equal /a, /b)"),
]


@pytest.mark.parametrize(("params", "data", "status", "message"), [r[1:] for r in EQUAL], ids=[r[0] for r in EQUAL])
def test_equal(params: dict[str, Any], data: Any, status: str, message: str) -> None:
    assert first("equal", params, data) == (status, message)


def test_equal_across_documents() -> None:
    params = {"groups": [["/system", "baseline:/system"]]}
    assert first("equal", params, {"system": "a"}, baseline={"system": "b"}) == (
        "fail", 'baseline:/system is "b" but report:/system is "a"')


# --- metric_thresholds -------------------------------------------------------------------


MINS = {"recall@5": 0.75, "ndcg@5": 0.7}
THRESHOLDS = [
    ("tie-at-minimum", {"min": MINS}, {"recall@5": 0.75, "ndcg@5": 0.7}, "pass",
     "overall: recall@5 0.75 ≥ 0.75, ndcg@5 0.7 ≥ 0.7"),
    ("just-below", {"min": MINS}, {"recall@5": 0.7499999, "ndcg@5": 0.9}, "fail",
     "overall recall@5 0.7499999 is below the minimum 0.75"),
    ("written-float-below", {"min": MINS}, strictjson.loads(b'{"recall@5": 0.74999999999999999, "ndcg@5": 0.9}'),
     "fail", "overall recall@5 0.74999999999999999 is below the minimum 0.75"),
    ("clearly-below-rounded", {"min": MINS}, {"recall@5": 0.9405666666666668 - 0.3, "ndcg@5": 0.9}, "fail",
     "overall recall@5 0.6406 is below the minimum 0.75"),
    ("missing-metric", {"min": MINS}, {"recall@5": 0.8}, "fail",
     "overall ndcg@5 is missing (threshold >= 0.7)"),
    ("null-metric", {"min": MINS}, {"recall@5": 0.8, "ndcg@5": None}, "fail",
     "overall ndcg@5 is null (threshold >= 0.7)"),
    ("bool-metric", {"min": MINS}, {"recall@5": True, "ndcg@5": 0.8}, "fail",
     "overall recall@5 must be a number, got boolean true"),
    ("string-metric", {"min": MINS}, {"recall@5": "0.9", "ndcg@5": 0.8}, "fail",
     'overall recall@5 must be a number, got string "0.9"'),
    ("extra-min-overrides-min", {"min": MINS, "extra_min": {"recall@5": 0.95}}, {"recall@5": 0.9, "ndcg@5": 0.8},
     "fail", "overall recall@5 0.9 is below the minimum 0.95"),
    ("extra-min-lowers-min", {"min": MINS, "extra_min": {"recall@5": 0.5}}, {"recall@5": 0.6, "ndcg@5": 0.8},
     "pass", "overall: recall@5 0.6 ≥ 0.5, ndcg@5 0.8 ≥ 0.7"),
    ("extra-min-adds", {"min": MINS, "extra_min": {"hit@5": 0.99}}, {"recall@5": 0.8, "ndcg@5": 0.8, "hit@5": 0.98},
     "fail", "overall hit@5 0.98 is below the minimum 0.99"),
    ("extra-max-above", {"min": {}, "extra_max": {"latency_p95_ms": 1000}}, {"latency_p95_ms": 1000.5}, "fail",
     "overall latency_p95_ms 1000.5 is above the maximum 1000"),
    ("extra-max-just-above", {"extra_max": {"latency_p95_ms": 1000}}, {"latency_p95_ms": 1000.00001}, "fail",
     "overall latency_p95_ms 1000.00001 is above the maximum 1000"),
    ("extra-max-tie", {"extra_max": {"latency_p95_ms": 1000}}, {"latency_p95_ms": 1000}, "pass",
     "overall: latency_p95_ms 1000 ≤ 1000"),
    ("max-missing", {"max": {"latency_p95_ms": 1000}}, {}, "fail",
     "overall latency_p95_ms is missing (threshold <= 1000)"),
    ("no-limits", {}, {"recall@5": 0.1}, "skip", "no thresholds configured"),
]


@pytest.mark.parametrize(("params", "overall", "status", "message"),
                         [r[1:] for r in THRESHOLDS], ids=[r[0] for r in THRESHOLDS])
def test_metric_thresholds(params: dict[str, Any], overall: Any, status: str, message: str) -> None:
    assert first("metric_thresholds", params, {"overall": overall}) == (status, message)


def test_metric_thresholds_table_not_object() -> None:
    assert first("metric_thresholds", {"min": MINS}, {"overall": [0.9]}) == (
        "fail", "/overall must be an object of metrics, got array")
    assert first("metric_thresholds", {"min": MINS}, {}) == ("fail", "/overall is missing")


def test_metric_thresholds_pointer_and_expected() -> None:
    (f, *_) = findings("metric_thresholds", {"min": MINS}, {"overall": {"recall@5": 0.7, "ndcg@5": 0.9}})
    assert (f.pointer, f.actual, f.expected) == ("/overall/recall@5", 0.7, ">= 0.75")


# --- slice_thresholds --------------------------------------------------------------------


def cases_of(**counts: int) -> list[dict[str, Any]]:
    return [{"question_type": t} for t, n in counts.items() for _ in range(n)]


SLICE_MIN = {"min": {"recall@5": 0.7}, "min_cases": 10}
SLICES = [
    ("all-slices-ok", {"per_type": {"a": {"recall@5": 0.7}, "b": {"recall@5": 0.9}},
                       "case_results": cases_of(a=10, b=10)}, "pass", "2 slices meet recall@5 >= 0.7"),
    ("slice-below", {"per_type": {"a": {"recall@5": 0.69}, "b": {"recall@5": 0.9}},
                     "case_results": cases_of(a=10, b=10)}, "fail",
     "per_type[a] recall@5 0.69 is below the minimum 0.7"),
    ("slice-just-below-shown-as-written", {"per_type": {"a": {"recall@5": 0.6999999}}, "case_results": cases_of(a=10)},
     "fail", "per_type[a] recall@5 0.6999999 is below the minimum 0.7"),
    ("small-slice-exempt", {"per_type": {"a": {"recall@5": 0.2}, "b": {"recall@5": 0.9}},
                            "case_results": cases_of(a=9, b=10)}, "pass",
     "1 slices meet recall@5 >= 0.7; exempt (fewer than 10 cases): a (9 cases)"),
    ("count-from-diagnostics", {"per_type": {"a": {"recall@5": 0.2}, "b": {"recall@5": 0.9}},
                                "diagnostics": {"question_type_counts": {"a": {"cases": 3}, "b": {"cases": 30}}}},
     "pass", "1 slices meet recall@5 >= 0.7; exempt (fewer than 10 cases): a (3 cases)"),
    ("unknown-count-not-exempt", {"per_type": {"a": {"recall@5": 0.2}}}, "fail",
     "per_type[a] recall@5 0.2 is below the minimum 0.7"),
    ("slice-without-cases-not-exempt", {"per_type": {"a": {"recall@5": 0.2}}, "case_results": cases_of(b=3)},
     "fail", "per_type[a] recall@5 0.2 is below the minimum 0.7"),
    ("unreadable-diagnostic-count-not-exempt",
     {"per_type": {"a": {"recall@5": 0.2}}, "diagnostics": {"question_type_counts": {"a": {"cases": "3"}}}},
     "fail", "per_type[a] recall@5 0.2 is below the minimum 0.7"),
    ("other-summaries-never-exempt", {"per_slice": {"a": {"recall@5": 0.2}}, "case_results": cases_of(a=1)},
     "fail", "per_slice[a] recall@5 0.2 is below the minimum 0.7"),
    ("metric-missing-in-slice", {"per_type": {"a": {"ndcg@5": 0.9}}, "case_results": cases_of(a=10)}, "fail",
     "per_type[a] recall@5 is missing (threshold >= 0.7)"),
    ("slice-not-object", {"per_type": {"a": 0.9}, "case_results": cases_of(a=10)}, "fail",
     "/per_type/a must be an object of metrics, got number"),
    ("summary-not-object", {"per_type": [1]}, "fail", "/per_type must be an object of slices, got array"),
    ("no-slices-at-all", {"overall": {"recall@5": 0.9}}, "fail",
     "no summary slices to check (/per_type, /per_slice, /per_category, /per_task are all absent)"),
]


@pytest.mark.parametrize(("data", "status", "message"), [r[1:] for r in SLICES], ids=[r[0] for r in SLICES])
def test_slice_thresholds(data: Any, status: str, message: str) -> None:
    assert first("slice_thresholds", SLICE_MIN, data) == (status, message)


# --- any_present -------------------------------------------------------------------------


ANY = [
    ("first-present", {"per_type": {"a": {}}}, "pass", "/per_type is present with 1 entries"),
    ("second-present", {"per_type": {}, "per_task": {"a": {}, "b": {}}}, "pass", "/per_task is present with 2 entries"),
    ("all-absent", {}, "fail", "none of the summaries is a non-empty object: /per_type absent, /per_task absent"),
    ("empty-and-wrong-type", {"per_type": {}, "per_task": 3}, "fail",
     "none of the summaries is a non-empty object: /per_type empty, /per_task integer"),
]


@pytest.mark.parametrize(("data", "status", "message"), [r[1:] for r in ANY], ids=[r[0] for r in ANY])
def test_any_present(data: Any, status: str, message: str) -> None:
    assert first("any_present", {"refs": ["/per_type", "/per_task"]}, data) == (status, message)


# --- counts_agree ------------------------------------------------------------------------


COUNTS = [
    ("agree", {"values": ["/total", "/n"]}, {"total": 500, "n": 500}, "pass", "counts agree: /total = 500, /n = 500"),
    ("integral-float", {"values": ["/total", "/n"]}, {"total": 500, "n": 500.0}, "pass",
     "counts agree: /total = 500, /n = 500"),
    ("disagree", {"values": ["/total", "/n"]}, {"total": 500, "n": 499}, "fail",
     "counts disagree: /total = 500, /n = 499"),
    ("fractional", {"values": ["/total", "/n"]}, {"total": 500, "n": 480.4}, "fail",
     "/n must be an exact integer, got 480.4"),
    ("written-float", {"values": ["/total", "/n"]}, strictjson.loads(b'{"total": 500, "n": 499.99999999999999}'),
     "fail", "/n must be an exact integer, got 499.99999999999999"),
    ("bool", {"values": ["/total"]}, {"total": True}, "fail", "/total must be an integer, got boolean true"),
    ("string", {"values": ["/total"]}, {"total": "500"}, "fail", '/total must be an integer, got string "500"'),
    ("missing", {"values": ["/total", "/n"]}, {"total": 500}, "fail", "/n is missing"),
    ("null", {"values": ["/total", "/n"]}, {"total": 500, "n": None}, "fail", "/n is null"),
    ("alternative-second", {"values": ["/total", "/n|/count"]}, {"total": 5, "count": 5}, "pass",
     "counts agree: /total = 5, /count = 5"),
    ("alternative-first-wins", {"values": ["/total", "/n|/count"]}, {"total": 5, "n": 4, "count": 5}, "fail",
     "counts disagree: /total = 5, /n = 4"),
    ("alternatives-missing", {"values": ["/total", "/n|/count"]}, {"total": 5}, "fail", "/n is missing"),
    ("optional-absent", {"values": ["/total", "/n"], "optional": ["/n"]}, {"total": 5}, "pass",
     "counts agree: /total = 5"),
    ("optional-present-checked", {"values": ["/total", "/n"], "optional": ["/n"]}, {"total": 5, "n": 6}, "fail",
     "counts disagree: /total = 5, /n = 6"),
    ("all-optional-absent", {"values": ["/n"], "optional": ["/n"]}, {}, "skip", "no counts present"),
    ("equals-ok", {"values": ["/total"], "equals": 500}, {"total": 500}, "pass", "counts agree: /total = 500"),
    ("equals-differs", {"values": ["/total"], "equals": 500}, {"total": 499}, "fail",
     "/total is 499, expected 500 (/total = 499)"),
    ("length", {"values": ["/total"], "lengths": ["/cases"]}, {"total": 2, "cases": [{}, {}]}, "pass",
     "counts agree: /total = 2, len(/cases) = 2"),
    ("length-differs", {"values": ["/total"], "lengths": ["/cases"]}, {"total": 3, "cases": [{}, {}]}, "fail",
     "counts disagree: /total = 3, len(/cases) = 2"),
    ("length-not-list", {"lengths": ["/cases"]}, {"cases": {}}, "fail", "/cases must be a list, got object"),
]


@pytest.mark.parametrize(("params", "data", "status", "message"), [r[1:] for r in COUNTS], ids=[r[0] for r in COUNTS])
def test_counts_agree(params: dict[str, Any], data: Any, status: str, message: str) -> None:
    assert first("counts_agree", params, data) == (status, message)


# --- sum_equals --------------------------------------------------------------------------


SUMS = [
    ("exact", {"total": "/t", "parts": ["/a", "/b"]}, {"t": 0.3, "a": 0.1, "b": 0.2}, "pass", "/t 0.3 = /a + /b"),
    ("off", {"total": "/t", "parts": ["/a", "/b"]}, {"t": 10, "a": 4, "b": 5}, "fail", "/t is 10 but /a + /b = 9"),
    ("within-tolerance", {"total": "/t", "parts": ["/a", "/b"], "tolerance": 1}, {"t": 10, "a": 4, "b": 5},
     "pass", "/t 10 = /a + /b"),
    ("beyond-tolerance", {"total": "/t", "parts": ["/a", "/b"], "tolerance": 0.5}, {"t": 10, "a": 4, "b": 5},
     "fail", "/t is 10 but /a + /b = 9"),
    ("part-missing", {"total": "/t", "parts": ["/a", "/b"]}, {"t": 10, "a": 4}, "fail", "/b is missing"),
    ("part-bool", {"total": "/t", "parts": ["/a"]}, {"t": 1, "a": True}, "fail",
     "/a must be a number, got boolean true"),
    ("total-string", {"total": "/t", "parts": ["/a"]}, {"t": "1", "a": 1}, "fail",
     '/t must be a number, got string "1"'),
]


@pytest.mark.parametrize(("params", "data", "status", "message"), [r[1:] for r in SUMS], ids=[r[0] for r in SUMS])
def test_sum_equals(params: dict[str, Any], data: Any, status: str, message: str) -> None:
    assert first("sum_equals", params, data) == (status, message)


# --- case_tally --------------------------------------------------------------------------


TALLY = {"list": "/cases", "flag": "/correct", "claimed_count": "/qa/correct", "claimed_total": "/qa/evaluated",
         "claimed_ratio": "/qa/accuracy"}


def tally_data(flags: list[Any], correct: Any, evaluated: Any, accuracy: Any,
               eligible: list[Any] | None = None) -> dict[str, Any]:
    cases = [{"correct": f} for f in flags]
    if eligible is not None:
        for case, ok in zip(cases, eligible):
            case["scored"] = ok
    return {"cases": cases, "qa": {"correct": correct, "evaluated": evaluated, "accuracy": accuracy}}


CASE_TALLY = [
    ("claims-match", TALLY, tally_data([True, False, True, True], 3, 4, 0.75), "pass",
     "3 of 4 evaluated cases are true; the claims match"),
    ("count-off", TALLY, tally_data([True, False, True, True], 4, 4, 0.75), "fail",
     "/qa/correct claims 4, but 3 cases are counted in /cases"),
    ("total-off", TALLY, tally_data([True, False, True, True], 3, 5, 0.75), "fail",
     "/qa/evaluated claims 5, but 4 cases are evaluated in /cases"),
    ("ratio-off", TALLY, tally_data([True, False, True, True], 3, 4, 0.8), "fail",
     "/qa/accuracy claims 0.8, but 3/4 = 0.75 from /cases: a rounded claim needs at least 3 places (min_places), or "
     "the places its producer rounds to (places)"),
    ("ratio-within-default-tolerance", TALLY, tally_data([True, True, False], 2, 3, 0.6666666666666666), "pass",
     "2 of 3 evaluated cases are true; the claims match"),
    ("ratio-rounded-to-its-places", TALLY, tally_data([True, True, False], 2, 3, 0.6667), "pass",
     "2 of 3 evaluated cases are true; the claims match (the ratio rounded to 4 places)"),
    ("ratio-rounded-the-wrong-way", TALLY, tally_data([True, True, False], 2, 3, 0.6666), "fail",
     "/qa/accuracy claims 0.6666, but 2/3 = 0.6667 from /cases: the exact value rounds to 0.6667 at 4 places"),
    ("ratio-rounded-within-wider-tolerance", {**TALLY, "tolerance": 0.0001},
     tally_data([True, True, False], 2, 3, 0.6667), "pass",
     "2 of 3 evaluated cases are true; the claims match (the ratio rounded to 4 places)"),
    ("ratio-one-is-never-rounded", TALLY, tally_data([True] * 1999 + [False], 1999, 2000, 1.0), "fail",
     "/qa/accuracy claims 1.0, but 1999/2000 = 0.9995 from /cases: a claim of 1.0 must be exact (rounding never "
     "reaches a boundary)"),
    ("flag-not-boolean", TALLY, tally_data([True, 1, True, True], 3, 4, 0.75), "fail",
     "/cases/1/correct must be true or false, got 1"),
    ("flag-missing", TALLY, tally_data([True, None], 1, 2, 0.5) | {"cases": [{"correct": True}, {}]}, "fail",
     "/cases/1/correct must be true or false, got missing"),
    ("eligible-filter", {**TALLY, "eligible": "/scored"},
     tally_data([True, False, "n/a", True], 2, 3, 0.6666666666666666, eligible=[True, True, False, True]), "pass",
     "2 of 3 evaluated cases are true; the claims match"),
    ("eligible-not-boolean", {**TALLY, "eligible": "/scored"},
     tally_data([True, False], 1, 2, 0.5, eligible=[True, "yes"]), "fail",
     '/cases/1/scored must be true or false, got "yes"'),
    ("nothing-eligible", {**TALLY, "eligible": "/scored"},
     tally_data([True], 0, 0, 0.0, eligible=[False]), "fail", "/qa/accuracy is 0.0 but no case was evaluated"),
    ("claimed-count-not-integer", TALLY, tally_data([True, False], 1.5, 2, 0.5), "fail",
     "/qa/correct must be an exact integer, got 1.5"),
    ("claimed-ratio-bool", TALLY, tally_data([True, False], 1, 2, True), "fail",
     "/qa/accuracy must be a number, got boolean true"),
    ("empty-list", TALLY, {"cases": [], "qa": {}}, "fail", "/cases must be a non-empty list, got array"),
]


@pytest.mark.parametrize(("params", "data", "status", "message"),
                         [r[1:] for r in CASE_TALLY], ids=[r[0] for r in CASE_TALLY])
def test_case_tally(params: dict[str, Any], data: Any, status: str, message: str) -> None:
    assert first("case_tally", params, data) == (status, message)


# --- kv_equal ----------------------------------------------------------------------------


RUNTIME = {"isolated": True, "cache": False, "workers": 1, "ratio": 0.5, "mode": "hybrid", "flag_str": "true",
           "one_str": "1"}
KV = [
    ("true-matches-boolean", {"isolated": "true"}, "pass", "isolated=true"),
    ("false-matches-boolean", {"cache": "false"}, "pass", "cache=false"),
    ("true-vs-false", {"cache": "true"}, "fail", "/runtime/cache is false, required cache=true"),
    ("true-vs-string-true", {"flag_str": "true"}, "fail", '/runtime/flag_str is "true", required flag_str=true'),
    ("1-matches-number", {"workers": "1"}, "pass", "workers=1"),
    ("1.0-matches-number", {"workers": "1.0"}, "pass", "workers=1.0"),
    ("2-vs-1", {"workers": "2"}, "fail", "/runtime/workers is 1, required workers=2"),
    ("1-vs-true", {"isolated": "1"}, "fail", "/runtime/isolated is true, required isolated=1"),
    ("fraction", {"ratio": "0.5"}, "pass", "ratio=0.5"),
    ("string-1-matches-string", {"one_str": "1"}, "pass", "one_str=1"),
    ("string-exact", {"mode": "hybrid"}, "pass", "mode=hybrid"),
    ("string-case-differs", {"mode": "Hybrid"}, "fail", '/runtime/mode is "hybrid", required mode=Hybrid'),
    ("non-number-vs-number", {"workers": "one"}, "fail", "/runtime/workers is 1, required workers=one"),
    ("exponent-matches-number", {"workers": "1e0"}, "pass", "workers=1e0"),
    ("ratio-is-not-a-number", {"ratio": "1/2"}, "fail", "/runtime/ratio is 0.5, required ratio=1/2"),
    ("underscore-is-not-a-number", {"workers": "0_1"}, "fail", "/runtime/workers is 1, required workers=0_1"),
    ("padded-is-not-a-number", {"workers": " 1"}, "fail", "/runtime/workers is 1, required workers= 1"),
    ("leading-zero-is-not-a-number", {"workers": "01"}, "fail", "/runtime/workers is 1, required workers=01"),
    ("missing-key", {"gpu": "a100"}, "fail", "/runtime/gpu is missing (required gpu=a100)"),
    ("several", {"isolated": "true", "mode": "hybrid"}, "pass", "isolated=true, mode=hybrid"),
    ("nothing-required", {}, "skip", "no requirements given"),
]


@pytest.mark.parametrize(("expected", "status", "message"), [r[1:] for r in KV], ids=[r[0] for r in KV])
def test_kv_equal(expected: dict[str, str], status: str, message: str) -> None:
    assert first("kv_equal", {"base": "/runtime", "expected": expected}, {"runtime": RUNTIME}) == (status, message)


def test_kv_equal_base_not_object() -> None:
    assert first("kv_equal", {"base": "/runtime", "expected": {"a": "1"}}, {"runtime": "x"}) == (
        "fail", "/runtime must be an object, got string")


# --- regression --------------------------------------------------------------------------


def regress(params: dict[str, Any], cand: Any, base: Any) -> tuple[str, str]:
    return first("regression", params, {"overall": cand}, baseline={"overall": base})


REGRESSION = [
    ("higher-no-drop", {"metrics": ["recall@5"]}, {"recall@5": 0.9}, {"recall@5": 0.9}, "pass",
     "recall@5 0.9 vs baseline 0.9: regression 0 (allowed 0)"),
    ("higher-improved", {"metrics": ["recall@5"]}, {"recall@5": 0.95}, {"recall@5": 0.9}, "pass",
     "recall@5 0.95 vs baseline 0.9: regression 0 (allowed 0)"),
    ("higher-dropped", {"metrics": ["recall@5"]}, {"recall@5": 0.89}, {"recall@5": 0.9}, "fail",
     "recall@5 dropped from baseline 0.9 to 0.89, a regression of 0.01 (allowed 0)"),
    ("exactly-at-tolerance", {"metrics": ["recall@5"], "max_regression": {"recall@5": 0.1}},
     {"recall@5": 0.7}, {"recall@5": 0.8}, "pass", "recall@5 0.7 vs baseline 0.8: regression 0.1 (allowed 0.1)"),
    ("beyond-tolerance", {"metrics": ["recall@5"], "max_regression": {"recall@5": 0.1}},
     {"recall@5": 0.69}, {"recall@5": 0.8}, "fail",
     "recall@5 dropped from baseline 0.8 to 0.69, a regression of 0.11 (allowed 0.1)"),
    ("beyond-tolerance-by-a-hair", {"metrics": ["recall@5"], "max_regression": {"recall@5": 0.1}},
     {"recall@5": 0.69999999}, {"recall@5": 0.8}, "fail",
     "recall@5 dropped from baseline 0.8 to 0.69999999, a regression of 0.10000001 (allowed 0.1)"),
    ("lower-rose-by-a-hair", {"metrics": ["latency_p95_ms"]}, {"latency_p95_ms": 1000.0000001},
     {"latency_p95_ms": 1000}, "fail",
     "latency_p95_ms rose from baseline 1000 to 1000.0000001, a regression of 0.0000001 (allowed 0)"),
    ("lower-rose", {"metrics": ["latency_p95_ms"]}, {"latency_p95_ms": 1200}, {"latency_p95_ms": 1000}, "fail",
     "latency_p95_ms rose from baseline 1000 to 1200, a regression of 200 (allowed 0)"),
    ("lower-rose-within", {"metrics": ["latency_p95_ms"], "max_regression": {"latency_p95_ms": 200}},
     {"latency_p95_ms": 1200}, {"latency_p95_ms": 1000}, "pass",
     "latency_p95_ms 1200 vs baseline 1000: regression 200 (allowed 200)"),
    ("lower-fell", {"metrics": ["latency_p95_ms"]}, {"latency_p95_ms": 800}, {"latency_p95_ms": 1000}, "pass",
     "latency_p95_ms 800 vs baseline 1000: regression 0 (allowed 0)"),
    ("unknown-direction", {"metrics": ["f1"]}, {"f1": 0.9}, {"f1": 0.9}, "fail",
     "f1: unknown direction (is higher or lower better?); name it with a known prefix or suffix"),
    ("percent-on-fraction-metric", {"metrics": ["recall@5"]}, {"recall@5": 94.0}, {"recall@5": 0.9}, "fail",
     "recall@5 must be a fraction in [0, 1]: candidate 94, baseline 0.9 (a percent mixed with a fraction?)"),
    ("uncompared-max-regression", {"metrics": ["recall@5"], "max_regression": {"ndcg@5": 0.1}},
     {"recall@5": 0.9}, {"recall@5": 0.9}, "fail",
     "--max-regression ndcg@5 is given but ndcg@5 is not compared (compared: recall@5)"),
    ("default-metrics", {"default_metrics": ["recall@5", "ndcg@5"]}, {"recall@5": 0.9, "ndcg@5": 0.7},
     {"recall@5": 0.9, "ndcg@5": 0.8}, "fail",
     "ndcg@5 dropped from baseline 0.8 to 0.7, a regression of 0.1 (allowed 0)"),
    ("metrics-override-defaults", {"metrics": ["recall@5"], "default_metrics": ["recall@5", "ndcg@5"]},
     {"recall@5": 0.9, "ndcg@5": 0.7}, {"recall@5": 0.9, "ndcg@5": 0.8}, "pass",
     "recall@5 0.9 vs baseline 0.9: regression 0 (allowed 0)"),
    ("no-metrics", {}, {"recall@5": 0.9}, {"recall@5": 0.9}, "fail",
     "no metrics to compare (give --baseline-metric NAME)"),
    ("candidate-missing", {"metrics": ["recall@5"]}, {}, {"recall@5": 0.9}, "fail",
     "report:/overall/recall@5 is missing"),
    ("baseline-bool", {"metrics": ["recall@5"]}, {"recall@5": 0.9}, {"recall@5": True}, "fail",
     "baseline:/overall/recall@5 must be a number, got boolean true"),
]


@pytest.mark.parametrize(("params", "cand", "base", "status", "message"),
                         [r[1:] for r in REGRESSION], ids=[r[0] for r in REGRESSION])
def test_regression(params: dict[str, Any], cand: Any, base: Any, status: str, message: str) -> None:
    assert regress(params, cand, base) == (status, message)


@pytest.mark.parametrize("allowance", [-0.1, -0.01, -1, -1e-300])
def test_negative_allowance_is_refused_when_the_profile_binds(allowance: float) -> None:
    from bench_gate.checks.generic.basic import RegressionParams

    with pytest.raises(ValueError, match="an allowed regression is never negative"):
        RegressionParams(metrics=["recall@5"], max_regression={"recall@5": allowance})
    assert RegressionParams(metrics=["recall@5"], max_regression={"recall@5": 0}).max_regression == {"recall@5": 0}


def test_regression_baseline_not_object() -> None:
    assert regress({"metrics": ["recall@5"]}, {"recall@5": 0.9}, [0.9]) == (
        "fail", "baseline:/overall must be an object of metrics, got array")


# --- embedding_coherence -----------------------------------------------------------------


def runtime(provider: Any, model: Any, dims: Any) -> dict[str, Any]:
    return {"runtime": {"embedding_provider": provider, "embedding_model": model, "embedding_dimensions": dims}}


KNOWN = {"known_dimensions": {"openai/text-embedding-3-small": 1024}}
EMBEDDING = [
    ("none-with-zero", runtime("none", "n/a", 0), "pass", "provider 'none' has no embeddings and dimensions 0"),
    ("none-case-insensitive", runtime(" N/A ", "n/a", 0), "pass",
     "provider ' N/A ' has no embeddings and dimensions 0"),
    ("none-with-dims", runtime("disabled", "x", 384), "fail",
     "/runtime/embedding_dimensions is 384, but provider 'disabled' computes no embeddings (expected 0)"),
    ("positive", runtime("local", "bge-m3", 1024), "pass", "local bge-m3: 1024 dimensions"),
    ("zero-for-real-provider", runtime("local", "bge-m3", 0), "fail",
     "/runtime/embedding_dimensions is 0; embedding provider 'local' needs a positive dimension"),
    ("known-match", runtime("OpenAI", "text-embedding-3-small", 1024), "pass",
     "OpenAI text-embedding-3-small: 1024 dimensions"),
    ("known-mismatch", runtime("openai", "text-embedding-3-small", 1536), "fail",
     "/runtime/embedding_dimensions is 1536, but openai text-embedding-3-small has 1024 dimensions"),
    ("dims-bool", runtime("local", "m", True), "fail",
     "/runtime/embedding_dimensions must be an integer, got boolean true"),
    ("dims-string", runtime("local", "m", "1024"), "fail",
     '/runtime/embedding_dimensions must be an integer, got string "1024"'),
    ("provider-missing", {"runtime": {"embedding_model": "m", "embedding_dimensions": 3}}, "fail",
     "/runtime/embedding_provider is missing"),
    ("provider-not-string", runtime(1, "m", 3), "fail", "/runtime/embedding_provider and the model must be strings"),
]


@pytest.mark.parametrize(("data", "status", "message"), [r[1:] for r in EMBEDDING], ids=[r[0] for r in EMBEDDING])
def test_embedding_coherence(data: Any, status: str, message: str) -> None:
    assert first("embedding_coherence", KNOWN, data) == (status, message)


# --- reject ------------------------------------------------------------------------------


def test_reject_always_fails_with_its_message() -> None:
    assert findings("reject", {"message": "a regression limit needs --baseline"}, {}) == [
        Finding("fail", "a regression limit needs --baseline")]


def test_every_generic_kind_has_a_table() -> None:
    from bench_gate.checks.generic import basic as generic

    covered = {"fields", "equal", "metric_thresholds", "slice_thresholds", "any_present", "counts_agree",
               "sum_equals", "case_tally", "kv_equal", "regression", "embedding_coherence", "reject"}
    assert {k.name for k in kinds_of(generic.__name__)} == covered
