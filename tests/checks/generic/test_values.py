"""The kinds on values at refs (``equal``, ``any_present``, ``kv_equal``, ``embedding_coherence``,
``reject``), one table per kind: pass and fail rows, each pinning the message.

Parameters go through the same strict validation a profile's ``with:`` goes through
(``policy.validate_params``), so every row is a configuration a profile could write.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench_gate.checks.base import kinds_of
from bench_gate.models import Finding

from kindtest import first, run


def findings(kind: str, params: dict[str, Any], data: Any, **others: Any) -> list[Finding]:
    """Every finding of one kind over a report (and other documents by role)."""
    return run(kind, params, data, **others)


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


def test_every_values_kind_has_a_table() -> None:
    from bench_gate.checks.generic import values

    covered = {"equal", "any_present", "kv_equal", "embedding_coherence", "reject"}
    assert {k.name for k in kinds_of(values.__name__)} == covered
