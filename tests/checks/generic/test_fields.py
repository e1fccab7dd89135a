"""The ``fields`` kind, one table per form (one object, every item of a list): pass and fail rows,
each pinning the message.

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


EACH_TEXT = [
    ("all-items-ok", [{"id": "q1", "s": ["a"]}, {"id": "q2", "s": ["b", "c"]}], "pass", "all 2 items of /c have id or case, s"),
    ("visible-non-ascii-id", [{"id": "q1", "s": ["a"]}, {"id": "é", "s": ["b"]}], "pass",
     "all 2 items of /c have id or case, s"),
    ("second-alternative", [{"id": "q1", "s": ["a"]}, {"case": "q2", "s": ["b"]}], "pass",
     "all 2 items of /c have id or case, s"),
    ("empty-id", [{"id": "q1", "s": ["a"]}, {"id": "", "s": ["b"]}], "fail", "/c/1/id is empty"),
    ("blank-id", [{"id": "q1", "s": ["a"]}, {"id": " ", "s": ["b"]}], "fail", "/c/1/id is empty"),
    ("invisible-id", [{"id": "q1", "s": ["a"]}, {"id": "\u200b", "s": ["b"]}], "fail", "/c/1/id is empty"),
    ("empty-array", [{"id": "q1", "s": []}, {"id": "q2", "s": ["b"]}], "fail", "/c/0/s is empty"),
    ("array-for-string", [{"id": ["q1"], "s": ["a"]}], "fail", '/c/0/id must be a string, got array ["q1"]'),
    ("item-not-object", [{"id": "q1", "s": ["a"]}, "q2"], "fail", "/c/1 must be an object, got string"),
]


@pytest.mark.parametrize(("items", "status", "message"), [r[1:] for r in EACH_TEXT], ids=[r[0] for r in EACH_TEXT])
def test_fields_each_of_strings_and_arrays(items: list[Any], status: str, message: str) -> None:
    """String and array fields of every item, which are first looked at all items at once: an
    item that is not plainly fine is still found and worded on its own."""
    params = {"base": "/c", "each": True, "fields": [{"path": "/id|/case", "type": "string"},
                                                      {"path": "/s", "type": "array"}]}
    assert first("fields", params, {"c": items}) == (status, message)


def test_fields_each_alternatives_named_in_pass_message() -> None:
    params = {"base": "/c", "each": True, "fields": [{"path": "/question_id|/case_id"}]}
    assert first("fields", params, {"c": [{"question_id": "q"}, {"case_id": "c"}]}) == (
        "pass", "all 2 items of /c have question_id or case_id")


def test_every_fields_kind_has_a_table() -> None:
    from bench_gate.checks.generic import fields

    covered = {"fields"}
    assert {k.name for k in kinds_of(fields.__name__)} == covered
