"""Where a JSON Pointer's value sits in the file: line and column, for editors and code scanning.

A finding names a value by JSON Pointer (``/overall/recall@5``); a reader wants
``report.json:1234:17``. :func:`positions` makes one pass over the same text that was parsed,
following the nesting of objects and arrays, and records the line and column (both 1-based,
columns counted in characters) where the value of each wanted pointer starts. It is run only
for the pointers of findings, after evaluation, so a passing gate never pays for it.

The text has already been accepted by the strict parser, so the scanner does not validate: it
only needs to step over strings (with escapes), numbers, literals and punctuation. A pointer
that names nothing in the file (a missing value) gets the position of its closest existing
ancestor, which is where the missing value belongs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

Position = tuple[int, int]
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]')
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"', re.S)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def positions(text: str, wanted: Iterable[str]) -> dict[str, Position]:
    """(line, column) of each wanted pointer in ``text`` (a JSON document); see the module."""
    want = {p for p in wanted if p == "" or p.startswith("/")}
    if not want:
        return {}
    prefixes = {""}
    for p in want:
        parts = p.split("/")
        prefixes.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    found: dict[str, Position] = {}
    scanner = _Scanner(text)
    scanner.value("", prefixes, found)
    out: dict[str, Position] = {}
    for p in want:
        probe = p
        while probe not in found and probe:
            probe = probe.rsplit("/", 1)[0]
        if probe in found:
            out[p] = found[probe]
    return out


class _Scanner:
    """A cursor over JSON text that knows its line and the offset where the line starts."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.line = 1
        self.line_start = 0

    def _blank(self) -> None:
        text, n = self.text, len(self.text)
        while self.i < n and text[self.i] in " \t\r\n":
            if text[self.i] == "\n":
                self.line += 1
                self.line_start = self.i + 1
            self.i += 1

    def _string(self) -> str:
        m = _STRING.match(self.text, self.i)
        assert m is not None  # the text was parsed already
        raw = m.group(1)
        self.i = m.end()
        if "\\" not in raw:
            return raw
        import json

        return str(json.loads(f'"{raw}"'))

    def value(self, pointer: str, prefixes: set[str], found: dict[str, Position]) -> None:
        """Step over one value, recording positions for the pointers below ``pointer``."""
        self._blank()
        if pointer in prefixes:
            found[pointer] = (self.line, self.i - self.line_start + 1)
        ch = self.text[self.i]
        if ch == "{":
            self.i += 1
            self._blank()
            if self.text[self.i] == "}":
                self.i += 1
                return
            while True:
                self._blank()
                key = self._string()
                self._blank()
                self.i += 1  # ':'
                child = f"{pointer}/{_escape(key)}"
                if child in prefixes:
                    self.value(child, prefixes, found)
                else:
                    self._skip()
                self._blank()
                if self.text[self.i] == ",":
                    self.i += 1
                    continue
                self.i += 1  # '}'
                return
        if ch == "[":
            self.i += 1
            self._blank()
            if self.text[self.i] == "]":
                self.i += 1
                return
            index = 0
            while True:
                child = f"{pointer}/{index}"
                if child in prefixes:
                    self.value(child, prefixes, found)
                else:
                    self._skip()
                self._blank()
                if self.text[self.i] == ",":
                    self.i += 1
                    index += 1
                    continue
                self.i += 1  # ']'
                return
        self._scalar()

    def _skip(self) -> None:
        """Step over one value without recording anything (lines are counted afterwards)."""
        self._blank()
        if self.text[self.i] not in "{[":
            self._scalar()
            return
        start, depth = self.i, 0
        for m in _TOKEN.finditer(self.text, self.i):
            ch = m.group()
            if ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
                if depth == 0:
                    self.i = m.end()
                    break
        # a JSON string holds no raw newline, so every newline skipped is a line break
        newlines = self.text.count("\n", start, self.i)
        if newlines:
            self.line += newlines
            self.line_start = self.text.rindex("\n", start, self.i) + 1

    def _scalar(self) -> None:
        if self.text[self.i] == '"':
            self._string()
            return
        text, n = self.text, len(self.text)
        while self.i < n and text[self.i] not in ",}] \t\r\n":
            self.i += 1


def positions_in_file(path: str, sha256: str, wanted: Iterable[str]) -> dict[str, Position]:
    """:func:`positions` in the file at ``path``, read again; nothing when its bytes are no
    longer the ones that were judged (the SHA-256 differs) or it cannot be read as UTF-8."""
    import hashlib
    from pathlib import Path

    from bench_gate.loaders.confined import DocumentError, Located, read_confined

    try:
        raw = read_confined(Located(path, Path(path)))
    except DocumentError:
        return {}
    if hashlib.sha256(raw).hexdigest() != sha256:
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return {}
    try:
        return positions(text, wanted)
    except (IndexError, ValueError, AssertionError):  # not the JSON that was parsed
        return {}
