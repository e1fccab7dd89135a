"""Reading a large benchmark dataset (a JSON array of question objects) in one streaming pass.

A LongMemEval dataset is a JSON list of 500 entries, and the ``_s`` variant is about 265 MB
(``_m`` several GB) because every entry carries its chat history. The gate needs only its
SHA-256, the number of entries, and each entry's ``question_id`` and ``question_type``.
:func:`scan` reads the file once in chunks: each chunk feeds the hash and an incremental UTF-8
decoder, and entries are decoded one at a time with the strict JSON decoder
(:mod:`bench_gate.loaders.strictjson`: no NaN, no duplicate keys, no lone surrogate, no
exponent beyond exact arithmetic) and dropped as soon as their id and
type are kept. Memory is bounded by the largest single entry (at most
:data:`MAX_ENTRY_CHARS`), not by the file.

The result is a :class:`~bench_gate.models.Doc` with ``data = None`` and the summary in
``extra``:

``answers`` / ``unanswered``
    per entry, its ``answer_session_ids`` (None when absent), and the answer sessions none of
    whose user turns in ``haystack_sessions`` has ``has_answer: true`` (None without a
    haystack): the sessions the LongMemEval retrieval script renames ``noans``;

``haystacks`` / ``evidence_only``
    how many entries carry a list of ``haystack_session_ids``, and how many of those hold only
    answer sessions (``answer_session_ids``): the oracle file's entries do (the reader gets the
    evidence sessions only), an S or M entry has about 50 or 500 sessions;

``entries``
    number of array elements;
``ids`` / ``types``
    per entry, in file order, its ``question_id`` / ``question_type`` (None when it is not a
    non-empty string);
``problems``
    ``(index, reason)`` of the first :data:`MAX_PROBLEMS` entries that are not objects or lack
    a string id or type, and ``problem_count`` for all of them;
``questions`` / ``names``
    per entry that carries a ``qa`` list (a LoCoMo conversation: ``{"sample_id": "conv-26",
    "qa": [{"question", "answer", "evidence", "category"}, ...]}``), the ``(question, category,
    answer)`` of each item as written (None for what is absent; an item that is not an object is
    ``(None, None, None)``), else None; and the entry's ``sample_id`` (or, in an archive, its file
    name), else None.

A file that is not a strict JSON array (a BOM, invalid UTF-8, a trailing comma, data after the
closing bracket) gives a Doc with ``error`` set, like every other unreadable document.

**Archives.** A dataset published as a zip archive of JSON files, one entry per file (LoCoMo's
``locomo10.zip`` holds ``data/multimodal_dialog/locomo10_v2/26.json`` ... ``50.json``, one
conversation each), is read as the array of its ``.json`` members in natural name order (``26``
before ``30`` before ``100``; macOS ``__MACOSX/`` and ``._`` copies left out). Each member is
read with the same strict decoder; the hash is the archive's. An archive with no JSON member, a
member that is encrypted, larger than :data:`MAX_ENTRY_CHARS` or not strict JSON, more than
:data:`MAX_MEMBERS` members or two members of the same name is an error, not a dataset.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import re
import zipfile
from typing import Any, BinaryIO

from bench_gate.records import field, record
from bench_gate.loaders import strictjson
from bench_gate.models import Doc

CHUNK = 1024 * 1024
MAX_MEMBERS = 100_000
"""The most members an archive dataset may have."""
MAX_ARCHIVE_BYTES = 4 * 1024 * 1024 * 1024
"""The most an archive dataset may hold uncompressed, all members together (4 GiB)."""
MAX_ENTRY_CHARS = 256 * 1024 * 1024
"""The largest single entry decoded (256 Mi characters); a larger one is an error."""
MAX_PROBLEMS = 20

_WS = " \t\n\r"
_TAIL = 32  # longest token that a chunk boundary can cut and the decoder reports early


class DatasetError(ValueError):
    """The file is not a strict JSON array; ``str()`` is the reason."""


@record(frozen=False)
class Summary:
    """What one pass over a dataset file found."""

    sha256: str = ""
    size: int = 0
    ids: list[str | None] = field(default_factory=list)
    types: list[str | None] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)
    problem_count: int = 0
    answers: list[tuple[str, ...] | None] = field(default_factory=list)
    unanswered: list[frozenset[str] | None] = field(default_factory=list)
    haystacks: int = 0
    evidence_only: int = 0
    questions: list[tuple[tuple[Any, Any, Any], ...] | None] = field(default_factory=list)
    names: list[str | None] = field(default_factory=list)

    def extra(self) -> dict[str, Any]:
        return {
            "format": "dataset",
            "entries": len(self.ids),
            "ids": tuple(self.ids),
            "types": tuple(self.types),
            "problems": tuple(self.problems),
            "problem_count": self.problem_count,
            "answers": tuple(self.answers),
            "unanswered": tuple(self.unanswered),
            "haystacks": self.haystacks,
            "evidence_only": self.evidence_only,
            "questions": tuple(self.questions),
            "names": tuple(self.names),
        }


class _Stream:
    """Bytes in, hashed and decoded to text; a text window that grows only as needed."""

    def __init__(self, handle: BinaryIO, summary: Summary, chunk: int) -> None:
        self.handle = handle
        self.chunk = chunk
        self.summary = summary
        self.hasher = hashlib.sha256()
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.text = ""
        self.pos = 0
        self.eof = False
        self.first = True

    def more(self, at_least: int = 0) -> bool:
        """Append at least ``at_least`` bytes' worth of text; False at end of file."""
        if self.eof:
            return False
        if self.pos:
            self.text = self.text[self.pos:]
            self.pos = 0
        raw = self.handle.read(max(at_least, self.chunk))
        if raw:
            self.hasher.update(raw)
            self.summary.size += len(raw)
        try:
            self.text += self.decoder.decode(raw, final=not raw)
        except UnicodeDecodeError as exc:
            raise DatasetError(f"is not valid UTF-8 (near byte {self.summary.size - len(raw) + exc.start})") from None
        if self.first and self.text:
            self.first = False
            if self.text.startswith("\ufeff"):
                raise DatasetError("starts with a UTF-8 byte-order mark (BOM); write plain UTF-8")
        if not raw:
            self.eof = True
        return True

    def skip_ws(self) -> str:
        """The next non-blank character ('' at end of file), without consuming it."""
        while True:
            while self.pos < len(self.text) and self.text[self.pos] in _WS:
                self.pos += 1
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.more():
                return ""

    def value(self) -> Any:
        """Decode the next JSON value, reading more text while it is incomplete."""
        while True:
            try:
                value, end = strictjson.raw_decode(self.text, self.pos)
            except strictjson.JsonError as exc:
                raise DatasetError(str(exc)) from None
            except RecursionError:
                raise DatasetError("an entry is nested too deeply to parse") from None
            except json.JSONDecodeError as exc:
                # Incomplete at the end of the window: read more (doubling keeps the re-parsing
                # of a large entry linear overall) and try again; at end of file, or when the
                # error sits well before the end of the window, it is a real error.
                if self.eof or not _incomplete(exc, len(self.text)):
                    raise DatasetError(f"is not valid JSON in entry {len(self.summary.ids) + 1}: "
                                       f"{exc.msg.removesuffix(' starting at')}") from None
                if len(self.text) - self.pos > MAX_ENTRY_CHARS:
                    raise DatasetError(f"entry {len(self.summary.ids) + 1} is larger than "
                                       f"{MAX_ENTRY_CHARS} characters") from None
                self.more(len(self.text) - self.pos)
                continue
            except ValueError as exc:
                raise DatasetError(f"is not valid JSON: {exc}") from None
            if end >= len(self.text) - _TAIL and not self.eof:
                # A bare number near the end of the window may continue in the next chunk.
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    self.more()
                    continue
            try:
                # the same after-decoding checks as every other strict reader (lone surrogates, depth)
                strictjson.checked(value, self.text, self.pos, end)
            except strictjson.JsonError as exc:
                raise DatasetError(f"entry {len(self.summary.ids) + 1} {exc}") from None
            self.pos = end
            return value


_KINDS: dict[type, str] = {list: "an array", str: "a string", int: "a number", float: "a number",
                           bool: "a boolean", type(None): "null"}


def _incomplete(exc: json.JSONDecodeError, length: int) -> bool:
    """Could more text fix this error? An unterminated string, or a failure near the end."""
    return exc.msg.startswith("Unterminated string") or exc.pos >= length - _TAIL


def _answers(entry: dict[str, Any]) -> tuple[tuple[str, ...] | None, frozenset[str] | None]:
    """An entry's ``answer_session_ids``, and those of them no user turn of which has ``has_answer: true``.

    (None, None) when the entry does not carry them as lists of strings (an id/type list); the
    second is None when the haystack is missing or its ids and sessions do not pair up.
    """
    answers = entry.get("answer_session_ids")
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        return None, None
    ids, sessions = entry.get("haystack_session_ids"), entry.get("haystack_sessions")
    if not isinstance(ids, list) or not isinstance(sessions, list) or len(ids) != len(sessions):
        return tuple(answers), None
    wanted = set(answers)
    unanswered = set()
    for sid, turns in zip(ids, sessions):
        if sid in wanted:
            if not isinstance(turns, list):
                return tuple(answers), None
            # as run_retrieval.py decides it: only the user turns' has_answer marks count
            if not any(isinstance(t, dict) and t.get("role") == "user" and t.get("has_answer") is True
                       for t in turns):
                unanswered.add(sid)
    return tuple(answers), frozenset(unanswered)


def _questions(entry: Any) -> tuple[tuple[Any, Any, Any], ...] | None:
    """``(question, category, answer)`` of each item of an entry's ``qa`` list, as written."""
    qa = entry.get("qa") if isinstance(entry, dict) else None
    if not isinstance(qa, list):
        return None
    return tuple((item.get("question"), item.get("category"), item.get("answer")) if isinstance(item, dict)
                 else (None, None, None) for item in qa)


def _note(summary: Summary, index: int, entry: Any, id_field: str, type_field: str, name: str | None = None) -> None:
    summary.questions.append(_questions(entry))
    sample = entry.get("sample_id") if isinstance(entry, dict) else None
    summary.names.append(sample if isinstance(sample, str) and sample else name)
    answers, unanswered = _answers(entry) if isinstance(entry, dict) else (None, None)
    haystack = entry.get("haystack_session_ids") if isinstance(entry, dict) else None
    if isinstance(haystack, list) and haystack:
        summary.haystacks += 1
        summary.evidence_only += int(answers is not None and set(map(str, haystack)) <= set(answers))
    summary.answers.append(answers)
    summary.unanswered.append(unanswered)
    if not isinstance(entry, dict):
        kind = _KINDS.get(type(entry), "not an object")
        summary.ids.append(None)
        summary.types.append(None)
        _problem(summary, index, f"entry {index} is {kind}, not an object")
        return
    qid = entry.get(id_field)
    qtype = entry.get(type_field)
    summary.ids.append(qid if isinstance(qid, str) and qid else None)
    summary.types.append(qtype if isinstance(qtype, str) and qtype else None)
    if not (isinstance(qid, str) and qid):
        _problem(summary, index, f"entry {index} has no {id_field} string")
    elif not (isinstance(qtype, str) and qtype):
        _problem(summary, index, f"entry {index} ({qid}) has no {type_field} string")


def _problem(summary: Summary, index: int, reason: str) -> None:
    summary.problem_count += 1
    if len(summary.problems) < MAX_PROBLEMS:
        summary.problems.append((index, reason))


def scan(handle: BinaryIO, id_field: str = "question_id", type_field: str = "question_type",
         chunk: int = CHUNK) -> Summary:
    """Hash and summarize a JSON array of objects in one pass; DatasetError when it is not one."""
    summary = Summary()
    stream = _Stream(handle, summary, chunk)
    first = stream.skip_ws()
    if first == "":
        raise DatasetError("is empty")
    if first != "[":
        raise DatasetError("top level is not a JSON array")
    stream.pos += 1
    nxt = stream.skip_ws()
    if nxt == "]":
        stream.pos += 1
    else:
        index = 0
        while True:
            if nxt == "":
                raise DatasetError("ends inside the array (truncated file?)")
            entry = stream.value()
            _note(summary, index, entry, id_field, type_field)
            index += 1
            nxt = stream.skip_ws()
            if nxt == ",":
                stream.pos += 1
                nxt = stream.skip_ws()
                if nxt == "]":
                    raise DatasetError(f"has a trailing comma after entry {index}")
                continue
            if nxt == "]":
                stream.pos += 1
                break
            if nxt == "":
                raise DatasetError("ends inside the array (truncated file?)")
            raise DatasetError(f"is not valid JSON: expected ',' or ']' after entry {index}")
    # skip_ws reads to the end of the file, so every byte has been hashed
    if stream.skip_ws() != "":
        raise DatasetError("is not valid JSON: extra data after the array")
    summary.sha256 = stream.hasher.hexdigest()
    return summary


ZIP_MAGIC = b"PK\x03\x04"


def _natural(name: str) -> list[tuple[int, int | str]]:
    """Sort key: runs of ASCII digits by their number (``26.json`` before ``100.json``); any other
    character (a superscript ``²``, an Arabic-Indic digit) as text."""
    parts = re.split(r"([0-9]+)", name)
    # re.split puts the separators (the digit runs) at the odd indices
    return [(0, int(part)) if i % 2 else (1, part) for i, part in enumerate(parts) if part]


def scan_archive(handle: BinaryIO, id_field: str = "question_id", type_field: str = "question_type") -> Summary:
    """Hash and summarize a zip archive of JSON files, one entry per ``.json`` member."""
    hasher, size = hashlib.sha256(), 0
    while chunk := handle.read(CHUNK):
        hasher.update(chunk)
        size += len(chunk)
    handle.seek(0)
    summary = Summary(sha256=hasher.hexdigest(), size=size)
    try:
        archive = zipfile.ZipFile(handle)
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as exc:
        raise DatasetError(f"is not a readable zip archive ({exc})") from None
    if len(members) > MAX_MEMBERS:
        raise DatasetError(f"has {len(members)} members (at most {MAX_MEMBERS})")
    wanted = [m for m in members if not m.is_dir() and m.filename.lower().endswith(".json")
              and not m.filename.startswith("__MACOSX/") and not m.filename.rsplit("/", 1)[-1].startswith("._")]
    names = [m.filename for m in wanted]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise DatasetError(f"holds two members named {twice[0]!r}: which one is the entry is ambiguous")
    if not wanted:
        raise DatasetError("is a zip archive with no .json member")
    total = 0
    for index, member in enumerate(sorted(wanted, key=lambda m: _natural(m.filename))):
        if member.flag_bits & 0x1:
            raise DatasetError(f"member {member.filename!r} is encrypted")
        if member.file_size > MAX_ENTRY_CHARS * 4:
            raise DatasetError(f"member {member.filename!r} is larger than {MAX_ENTRY_CHARS} characters")
        try:
            with archive.open(member) as stream:
                # the sizes an archive declares are not trusted: read at most one byte past the limit
                data = stream.read(min(MAX_ENTRY_CHARS * 4, MAX_ARCHIVE_BYTES - total) + 1)
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError) as exc:
            raise DatasetError(f"member {member.filename!r} cannot be read ({exc})") from None
        total += len(data)
        if total > MAX_ARCHIVE_BYTES or len(data) > MAX_ENTRY_CHARS * 4:
            raise DatasetError(f"holds more than {MAX_ARCHIVE_BYTES} bytes uncompressed")
        try:
            entry = strictjson.loads_text(strictjson.decode_text(data))
        except strictjson.JsonError as exc:
            raise DatasetError(f"member {member.filename!r} {exc}") from None
        _note(summary, index, entry, id_field, type_field, member.filename.rsplit("/", 1)[-1])
    return summary


def load_dataset(role: str, loc: Any, origin: str = "report") -> Doc:
    """Load a dataset document from a located path (see :mod:`bench_gate.loaders.confined`)."""
    from bench_gate.loaders.confined import open_confined

    handle, _ = open_confined(loc, None)
    with handle:
        try:
            archive = handle.read(len(ZIP_MAGIC)) == ZIP_MAGIC
            handle.seek(0)
            summary = scan_archive(handle) if archive else scan(handle)
        except DatasetError as exc:
            return Doc(role, loc.shown, error=str(exc), origin=origin, found=loc.found)
    return Doc(role, loc.shown, summary.sha256, summary.size, origin=origin, extra=summary.extra(),
               found=loc.found)
