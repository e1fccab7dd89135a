"""The escaping every format shares: exact whether or not the text needs a pattern."""

from __future__ import annotations

import re

from bench_gate.report._common import UNSAFE, _encodable, json_text, no_command_lines, printable


def _unsafe_code_points() -> list[str]:
    unsafe = re.compile(f"[{UNSAFE}]")
    return [chr(c) for c in range(0x110000) if unsafe.fullmatch(chr(c))]


def test_no_unsafe_code_point_is_printable_so_printable_text_needs_no_escaping() -> None:
    unsafe = _unsafe_code_points()
    assert len(unsafe) == 2129  # C0, DEL, C1, bidi marks and isolates, separators, surrogates, U+FFFE/F
    assert [hex(ord(ch)) for ch in unsafe if ch.isprintable()] == []


def test_printable_text_comes_back_as_it_is_and_unsafe_text_is_escaped() -> None:
    assert printable("recall@5 0.9406 — naïve ✓") == "recall@5 0.9406 — naïve ✓"
    assert printable("a\r\nb\nc") == "a b c"
    assert printable("x\u202ey\x1b[2Jz\ud800") == "x\\u202ey\\x1b[2Jz\\ud800"
    assert printable("tab\there\x85") == "tab\\x09here\\x85"


def test_json_text_escapes_what_json_leaves_raw() -> None:
    assert json_text({"a": "plain ascii"}) == '{"a": "plain ascii"}'
    assert json_text({"a": "del\x7f"}) == '{"a": "del\\u007f"}'
    assert json_text({"a": "x\u2028y\u202e", "b": "é"}) == '{"a": "x\\u2028y\\u202e", "b": "é"}'
    assert json_text({"a": "\x01"}) == '{"a": "\\u0001"}'


def test_encodable_escapes_only_what_no_format_carries() -> None:
    assert _encodable("plain") == "plain"
    assert _encodable("é\u202e") == "é\u202e"
    assert _encodable("a\ud800b\uffff") == "a\\ud800b\\uffff"


def test_no_line_starts_a_workflow_command() -> None:
    assert no_command_lines("a::b\n", "\\") == "a::b\n"
    assert no_command_lines("ok\n  ::add-mask::x\n::stop\n", "\\") == "ok\n  \\:add-mask::x\n\\:stop\n"
