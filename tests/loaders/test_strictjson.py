"""Adversarial JSON: every malformed report is exit 2 with one exact line, never a traceback.

Each row is written as ``r.json`` and judged by the real command line against the ai-memory
profile. Strict JSON refuses what ``json.loads`` would quietly accept or reinterpret: NaN and
Infinity in every position, numbers that overflow, duplicate keys at any depth, lone
surrogates, a byte-order mark, non-UTF-8 bytes, deep nesting, a non-object top level.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_gate.loaders import strictjson
from bench_gate.cli.app import main

NOW = "2026-11-29T12:00:00Z"
PREFIX = "bench-gate: error: report r.json: "
NAN = "NaN is not a JSON number (NaN and Infinity are rejected)"
INF = "Infinity is not a JSON number (NaN and Infinity are rejected)"
NINF = "-Infinity is not a JSON number (NaN and Infinity are rejected)"
DEEP = "is nested deeper than 128 levels"
SURROGATE = "contains a lone UTF-16 surrogate escape (\\ud800-\\udfff)"

CASES: list[tuple[str, bytes, str]] = [
    # NaN / Infinity in every position
    ("nan-value", b'{"a": NaN}', NAN),
    ("nan-top-level", b"NaN", NAN),
    ("nan-in-array", b'{"a": [1, NaN]}', NAN),
    ("nan-deep", b'{"a": {"b": [{"c": NaN}]}}', NAN),
    ("nan-first-key-of-object", b'{"overall": {"recall@5": NaN, "ndcg@5": 0.9}}', NAN),
    ("infinity-value", b'{"a": Infinity}', INF),
    ("infinity-in-array", b'{"a": [Infinity]}', INF),
    ("minus-infinity", b'{"a": {"b": -Infinity}}', NINF),
    ("minus-infinity-top-level", b"-Infinity", NINF),
    ("nan-lowercase", b'{"a": nan}', "is not valid JSON: Expecting value at line 1 column 7"),
    ("infinity-lowercase", b'{"a": infinity}', "is not valid JSON: Expecting value at line 1 column 7"),
    ("nan-with-trailing-space", b'NaN ', NAN),
    ("inf-short", b'{"a": inf}', "is not valid JSON: Expecting value at line 1 column 7"),
    # numbers that overflow to infinity, or are too long / too small to compute exactly
    ("overflow", b'{"a": 1e999}', "number 1e999 overflows to infinity"),
    ("overflow-negative", b'{"a": -1e999}', "number -1e999 overflows to infinity"),
    ("overflow-fraction", b'{"a": 1.5E+309}', "number 1.5E+309 overflows to infinity"),
    ("overflow-in-array", b'{"a": [0.5, 2e308]}', "number 2e308 overflows to infinity"),
    ("underflow-huge-negative-exponent", b'{"a": 1e-999999999}',
     "number 1e-999999999 is too close to zero (exponent below -400)"),
    ("underflow-just-below-limit", b'{"a": 1e-401}', "number 1e-401 is too close to zero (exponent below -400)"),
    ("huge-integer-4301-digits", b'{"a": ' + b"9" * 4301 + b"}",
     "number 99999999999999999999… is 4301 characters long (limit 4300)"),
    ("huge-integer-100000-digits", b'{"a": ' + b"1" * 100000 + b"}",
     "number 11111111111111111111… is 100000 characters long (limit 4300)"),
    ("huge-negative-integer", b'{"a": -' + b"7" * 5000 + b"}",
     "number -7777777777777777777… is 5001 characters long (limit 4300)"),
    ("huge-decimal", b'{"a": 0.' + b"3" * 5000 + b"}",
     "number 0.333333333333333333… is 5002 characters long (limit 4300)"),
    # duplicate keys at any depth
    ("duplicate-top", b'{"a": 1, "a": 2}', 'duplicate key "a" in one object'),
    ("duplicate-same-value", b'{"a": 1, "a": 1}', 'duplicate key "a" in one object'),
    ("duplicate-deep", b'{"x": [{"y": {"recall@5": 0.5, "recall@5": 0.9}}]}',
     'duplicate key "recall@5" in one object'),
    ("duplicate-escaped-spelling", b'{"a": 1, "\\u0061": 2}', 'duplicate key "a" in one object'),
    ("duplicate-empty-key", b'{"": 1, "": 2}', 'duplicate key "" in one object'),
    # deep nesting
    ("deep-arrays-100000", b"[" * 100000 + b"]" * 100000, DEEP),
    ("deep-objects-100000", b'{"a":' * 100000 + b"1" + b"}" * 100000, DEEP),
    ("deep-129", b'{"a":' * 129 + b"1" + b"}" * 129, DEEP),
    ("deep-unclosed", b"[" * 100000, DEEP),
    # encodings
    ("invalid-utf8", b'{"a": "\xff"}', "is not valid UTF-8 (byte offset 7)"),
    ("overlong-utf8", b'{"a": "\xc0\xaf"}', "is not valid UTF-8 (byte offset 7)"),
    ("truncated-utf8", b'{"a": "\xe2\x82"}', "is not valid UTF-8 (byte offset 7)"),
    ("encoded-surrogate-utf8", b'{"a": "\xed\xa0\x80"}', "is not valid UTF-8 (byte offset 7)"),
    ("bom", b"\xef\xbb\xbf{}", "starts with a UTF-8 byte-order mark (BOM); write plain UTF-8"),
    ("utf16-le-bom", b"\xff\xfe" + "{}".encode("utf-16-le"), "is UTF-16 encoded; write UTF-8"),
    ("utf16-be-bom", b"\xfe\xff" + "{}".encode("utf-16-be"), "is UTF-16 encoded; write UTF-8"),
    ("utf16-without-bom", '{"a": 1}'.encode("utf-16-be"),
     "starts with NUL bytes (UTF-16 or UTF-32 without a byte-order mark?); write UTF-8"),
    ("utf32", "{}".encode("utf-32"), "is UTF-32 encoded; write UTF-8"),
    ("lone-high-surrogate", b'{"a": "\\ud800"}', SURROGATE),
    ("lone-low-surrogate-key", b'{"\\udfff": 1}', SURROGATE),
    ("reversed-surrogate-pair", b'{"a": ["\\ude00\\ud83d"]}', SURROGATE),
    ("raw-control-character", b'{"a": "\x01"}', "is not valid JSON: Invalid control character at line 1 column 8"),
    ("raw-newline-in-string", b'{"a": "x\ny"}', "is not valid JSON: Invalid control character at line 1 column 9"),
    # not an object at the top level, or nothing at all
    ("top-array", b"[]", "top level is an array, not a JSON object"),
    ("top-string", b'""', "top level is a string, not a JSON object"),
    ("top-number", b"1", "top level is a number, not a JSON object"),
    ("top-float", b"0.9406", "top level is a number, not a JSON object"),
    ("top-null", b"null", "top level is null, not a JSON object"),
    ("top-true", b"true", "top level is a boolean, not a JSON object"),
    ("empty-file", b"", "is empty"),
    ("whitespace-only", b" \n\t\r ", "is empty"),
    # trailing garbage and near-JSON
    ("trailing-garbage", b"{} x", "is not valid JSON: extra data after the value at line 1"),
    ("two-objects", b"{}\n{}", "is not valid JSON: extra data after the value at line 2"),
    ("trailing-nul", b'{"a":1}\x00', "is not valid JSON: extra data after the value at line 1"),
    ("trailing-comment", b'{"a":1} // ok', "is not valid JSON: extra data after the value at line 1"),
    ("trailing-comma", b'{"a":1,}', "is not valid JSON: Expecting property name enclosed in double quotes "
                                     "at line 1 column 8"),
    ("single-quotes", b"{'a':1}", "is not valid JSON: Expecting property name enclosed in double quotes "
                                   "at line 1 column 2"),
    ("hex-number", b'{"a":0x10}', "is not valid JSON: Expecting ',' delimiter at line 1 column 7"),
    ("leading-zero", b'{"a":01}', "is not valid JSON: Expecting ',' delimiter at line 1 column 7"),
    ("plus-sign", b'{"a":+1}', "is not valid JSON: Expecting value at line 1 column 6"),
    ("bare-dot", b'{"a":.5}', "is not valid JSON: Expecting value at line 1 column 6"),
    ("unterminated", b'{"a": 1', "is not valid JSON: Expecting ',' delimiter at line 1 column 8"),
]


def judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: bytes) -> int:
    (tmp_path / "r.json").write_bytes(raw)
    monkeypatch.chdir(tmp_path)
    return main(["r.json", "--profile", "ai-memory", "--now", NOW])


@pytest.mark.parametrize(("raw", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_report_is_exit_2_with_one_exact_line(raw: bytes, message: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code = judge(tmp_path, monkeypatch, raw)
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", PREFIX + message + "\n")


def nested(depth: int) -> object:
    """``[[...[{}]...]]``: ``depth`` levels counting the innermost object."""
    value: object = {}
    for _ in range(depth - 1):
        value = [value]
    return value


# (id, raw bytes, the exact parsed document)
ACCEPTED: list[tuple[str, bytes, object]] = [
    ("surrogate-pair-is-one-character", b'{"a": "\\ud83d\\ude00"}', {"a": "\U0001F600"}),
    ("exponent-at-limit", b'{"a": 1e-400}', {"a": 0.0}),
    ("zero-with-huge-exponent", b'{"a": 0e-999999999}', {"a": 0.0}),
    ("integer-4300-digits", b'{"a": ' + b"9" * 4300 + b"}", {"a": int("9" * 4300)}),
    ("depth-128", b"[" * 127 + b"{}" + b"]" * 127, nested(128)),
    ("carriage-return-whitespace", b'{"a": 1}\r\n', {"a": 1}),
]


@pytest.mark.parametrize(("raw", "document"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_limits_accept_what_is_just_inside(raw: bytes, document: object) -> None:
    assert strictjson.loads(raw) == document


@pytest.mark.parametrize(("raw", "message"), [
    (b'{"a": 1}\n{"a": NaN}\n', "line 2 NaN is not a JSON number (NaN and Infinity are rejected)"),
    (b'{"a": 1}\n\n{"a": 2}\n', "line 2 is blank (every line must hold one JSON value)"),
    (b'{"a": 1, "a": 2}\n', 'line 1 duplicate key "a" in one object'),
    (b'\xef\xbb\xbf{"a": 1}\n', "starts with a UTF-8 byte-order mark (BOM); write plain UTF-8"),
    (b'{"a": "\xff"}\n', "is not valid UTF-8 (byte offset 7)"),
    (b"", "is empty"),
    # 509 characters but 1009 UTF-8 bytes: the limit counts bytes
    (b'{"a": "' + "é".encode() * 500 + b'"}\n', "line 1 is longer than 1000 bytes"),
    (b'[' * 200 + b']' * 200 + b"\n", "line 1 is nested deeper than 128 levels"),
], ids=["nan-row", "blank-row", "duplicate-key-row", "bom", "invalid-utf8", "empty", "row-too-long-in-bytes",
        "row-too-deep"])
def test_json_lines_rows(raw: bytes, message: str) -> None:
    with pytest.raises(strictjson.JsonError) as exc:
        strictjson.loads_lines(raw, 1000)
    assert str(exc.value) == message


def test_json_lines_row_count_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strictjson, "MAX_JSONL_ROWS", 3)
    assert len(strictjson.loads_lines(b"{}\n{}\n{}\n", 100)) == 3
    with pytest.raises(strictjson.JsonError) as exc:
        strictjson.loads_lines(b"{}\n{}\n{}\n{}\n", 100)
    assert str(exc.value) == "has 4 lines, over the 3-row limit"


def test_repeated_number_literals_are_read_as_each_is_written() -> None:
    """Number literals are remembered within one parse: a repeated literal, shortest or not,
    comes back as the first one did, and the memo is empty once the parse is over."""
    doc = strictjson.loads(b'[1.0, 1.00, 1.0, 1.00, 0.9400, 0.94, 0.9400, 7, 7, 1e2, 1e2]')
    assert doc == [1.0, 1.0, 1.0, 1.0, 0.94, 0.94, 0.94, 7, 7, 100.0, 100.0]
    kinds = [(type(v).__name__, getattr(v, "literal", None)) for v in doc]
    assert kinds == [("float", None), ("WrittenFloat", "1.00"), ("float", None), ("WrittenFloat", "1.00"),
                     ("WrittenFloat", "0.9400"), ("float", None), ("WrittenFloat", "0.9400"),
                     ("int", None), ("int", None), ("WrittenFloat", "1e2"), ("WrittenFloat", "1e2")]
    assert (len(strictjson._FLOATS), len(strictjson._INTS)) == (0, 0)


@pytest.mark.parametrize(("raw", "message"), [
    (b'[1.00, 1.00, 1e999, 1.00]', "number 1e999 overflows to infinity"),
    (b'[1e999]', "number 1e999 overflows to infinity"),
    (b'[1.0, 1e-401]', "number 1e-401 is too close to zero (exponent below -400)"),
    (b'[5, 5, ' + b"9" * 4301 + b']', "number 99999999999999999999… is 4301 characters long (limit 4300)"),
], ids=["overflow-after-memoised", "overflow-alone", "tiny-after-memoised", "long-int-after-memoised"])
def test_a_refused_literal_after_remembered_ones_is_refused_the_same(raw: bytes, message: str) -> None:
    for _ in range(2):  # and again: a refused literal is never remembered, nor is the memo kept
        with pytest.raises(strictjson.JsonError) as exc:
            strictjson.loads(raw)
        assert str(exc.value) == message
        assert (len(strictjson._FLOATS), len(strictjson._INTS)) == (0, 0)
    assert strictjson.loads(b'[1.00, 5]') == [1.0, 5]


@pytest.mark.parametrize("escapes", [0, 1, 63, 64, 65, 500])
def test_a_lone_surrogate_after_many_other_escapes_is_refused(escapes: int) -> None:
    """Surrogate escapes are looked for at each backslash, then by a search of the rest: a lone
    one is found after any number of other escapes, a proper pair is accepted."""
    before = b'"\\\\ \\" \\u00e9", ' * escapes
    with pytest.raises(strictjson.JsonError) as exc:
        strictjson.loads(b"[" + before + b'"\\ud800"]')
    assert str(exc.value) == SURROGATE
    assert strictjson.loads(b"[" + before + b'"\\ud83d\\ude00"]')[-1] == "\U0001F600"
    assert strictjson.loads(b"[" + before + b'"\\\\ud800"]')[-1] == "\\ud800"


SHARED = (b'{"cases": [{"id": "q1", "type": "multi", "ranked": ["s1", "s2", "s1"], "mixed": [1, 1.0, true, "s1"]},'
          b' {"id": "q2", "type": "multi", "ranked": ["s2", "s1"], "answers": [], "n": null}], "type": "multi"}')


def test_a_large_document_shares_its_equal_strings(monkeypatch: pytest.MonkeyPatch) -> None:
    """From SHARE_STRINGS_FROM characters on, equal strings of objects' values and lists of
    strings are one object; the document reads the same, and nothing is kept after the parse."""
    plain = strictjson.loads(SHARED)
    monkeypatch.setattr(strictjson, "SHARE_STRINGS_FROM", len(SHARED))
    shared = strictjson.loads(SHARED)
    assert shared == plain
    first, second = shared["cases"]
    assert first["ranked"][0] is first["ranked"][2] is second["ranked"][1]
    assert first["type"] is second["type"]
    # a list that is not only strings is left as it is: 1, 1.0 and true stay three values
    assert [type(v) for v in first["mixed"]] == [int, float, bool, str]
    assert (len(strictjson._STRINGS), len(strictjson._FLOATS)) == (0, 0)
    monkeypatch.setattr(strictjson, "SHARE_STRINGS_FROM", len(SHARED) + 1)  # one character short: no sharing
    first, second = strictjson.loads(SHARED)["cases"]
    assert first["ranked"][0] == second["ranked"][1] and first["ranked"][0] is not second["ranked"][1]


def test_a_large_document_with_a_duplicate_key_is_still_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strictjson, "SHARE_STRINGS_FROM", 0)
    with pytest.raises(strictjson.JsonError) as exc:
        strictjson.loads(b'{"a": ["x"], "b": {"c": "x", "c": "y"}}')
    assert str(exc.value) == 'duplicate key "c" in one object'
    assert len(strictjson._STRINGS) == 0


def test_the_number_memo_is_bounded_and_literals_past_it_are_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strictjson, "MEMO_SIZE", 3)
    remembered: list[int] = []
    original = strictjson._Literals.__missing__

    def watched(self: Any, text: str) -> float:
        value = original(self, text)
        remembered.append(len(self))
        return value

    monkeypatch.setattr(strictjson._Literals, "__missing__", watched)
    doc = strictjson.loads(b'[0.1, 0.2, 0.3, 0.4, 0.50, 0.4, 0.50, 0.1]')
    assert doc == [0.1, 0.2, 0.3, 0.4, 0.5, 0.4, 0.5, 0.1]
    assert [getattr(v, "literal", None) for v in doc] == [None, None, None, None, "0.50", None, "0.50", None]
    assert remembered == [1, 2, 3, 3, 3, 3, 3]  # 0.4 and 0.50 are read again each time, never stored
    assert len(strictjson._FLOATS) == 0
