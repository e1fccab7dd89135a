"""The streamed dataset reader: one pass, exact hash, ids and types, strict JSON at every chunk size."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest

from bench_gate.loaders import files as documents
from bench_gate.loaders.dataset import DatasetError, scan
from repo import ROOT

EXAMPLE = ROOT / "examples" / "official" / "data" / "longmemeval_s_question_types.json"
CHUNKS = [1, 2, 3, 7, 64, 1 << 20]


@pytest.mark.parametrize("chunk", CHUNKS, ids=[f"chunk-{c}" for c in CHUNKS])
def test_real_question_types(chunk: int) -> None:
    raw = EXAMPLE.read_bytes()
    summary = scan(io.BytesIO(raw), chunk=chunk)
    assert summary.sha256 == hashlib.sha256(raw).hexdigest()
    assert summary.size == len(raw)
    assert len(summary.ids) == 500 and len(set(summary.ids)) == 500
    counts: dict[str, int] = {}
    for t in summary.types:
        assert t is not None
        counts[t] = counts.get(t, 0) + 1
    assert counts == {"single-session-user": 70, "single-session-assistant": 56, "single-session-preference": 30,
                      "multi-session": 133, "knowledge-update": 78, "temporal-reasoning": 133}
    assert sum(1 for i in summary.ids if i and i.endswith("_abs")) == 30
    assert summary.problem_count == 0


@pytest.mark.parametrize(("raw", "message"), [
    (b"", "is empty"),
    (b"  \n", "is empty"),
    (b"{}", "top level is not a JSON array"),
    (b"\xef\xbb\xbf[]", "starts with a UTF-8 byte-order mark (BOM); write plain UTF-8"),
    (b"[1,]", "has a trailing comma after entry 1"),
    (b"[1 2]", "is not valid JSON: expected ',' or ']' after entry 1"),
    (b'[{"question_id":"a"}] x', "is not valid JSON: extra data after the array"),
    (b'[{"question_id":"a"}][]', "is not valid JSON: extra data after the array"),
    (b'[{"a":1,"a":2}]', 'duplicate key "a" in one object'),
    (b'[{"a":NaN}]', "NaN is not a JSON number (NaN and Infinity are rejected)"),
    (b'[{"a":1e999}]', "number 1e999 overflows to infinity"),
    (b'[{"q": "\xff"}]', "is not valid UTF-8 (near byte 8)"),
    (b'[{"x":1}', "ends inside the array (truncated file?)"),
    (b'[{"x": "unterminated', "is not valid JSON in entry 1: Unterminated string"),
    (b'[{"x": tru}]', "is not valid JSON in entry 1: Expecting value"),
], ids=["empty", "blank", "object", "bom", "trailing-comma", "missing-comma", "extra-data", "two-arrays",
        "duplicate-key", "nan", "overflow", "bad-utf8", "truncated", "unterminated-string", "bad-literal"])
def test_refused(raw: bytes, message: str) -> None:
    for chunk in CHUNKS:
        with pytest.raises(DatasetError) as err:
            scan(io.BytesIO(raw), chunk=chunk)
        assert str(err.value) == message, chunk


def test_entries_that_are_not_questions_are_counted_as_problems() -> None:
    raw = json.dumps([1, None, {"question_id": "q1"}, {"question_id": "q2", "question_type": "t"},
                      {"question_type": "t"}, [2]]).encode()
    for chunk in CHUNKS:
        summary = scan(io.BytesIO(raw), chunk=chunk)
        assert summary.ids == [None, None, "q1", "q2", None, None]
        assert summary.types == [None, None, None, "t", "t", None]
        assert summary.problems == [(0, "entry 0 is a number, not an object"), (1, "entry 1 is null, not an object"),
                                    (2, "entry 2 (q1) has no question_type string"),
                                    (4, "entry 4 has no question_id string"), (5, "entry 5 is an array, not an object")]


def test_numbers_cut_by_a_chunk_boundary() -> None:
    raw = b"[12345, 2.5e3, -0.125]"
    for chunk in CHUNKS:
        assert scan(io.BytesIO(raw), chunk=chunk).problems[2] == (2, "entry 2 is a number, not an object")


def test_load_as_a_document(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "ds.json").write_bytes(EXAMPLE.read_bytes())
    doc = documents.load("dataset", "data/ds.json", tmp_path, confine=True, fmt="dataset", want_object=False)
    assert doc.error is None
    assert (doc.sha256, doc.size) == (hashlib.sha256(EXAMPLE.read_bytes()).hexdigest(), EXAMPLE.stat().st_size)
    assert doc.extra["entries"] == 500 and doc.data is None
    outside = documents.load("dataset", "../ds.json", tmp_path / "data", confine=True, fmt="dataset")
    assert outside.error == "path '../ds.json' leaves the evidence root '" + str(tmp_path / "data") + "' with '..'"
    (tmp_path / "bad.json").write_bytes(b"[1,]")
    bad = documents.load("dataset", "bad.json", tmp_path, confine=True, fmt="dataset")
    assert bad.error == "has a trailing comma after entry 1"
