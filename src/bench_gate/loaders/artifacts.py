"""Hashing the files that artifact tables list, so that checks can compare them without I/O.

An artifact table is an object of entries ``{path, sha256, bytes?}`` keyed by any name: a
report's own ``/artifacts`` block, or the ``artifacts`` of a LongMemEval audit file
(``zaxy.longmembench-audit.v1``, whose entries also carry ``resolved_path`` and ``exists``).
A profile names the tables it trusts in its ``artifact_tables`` parameter (refs such as
``/artifacts`` or ``audit:/artifacts``). Before the rules run, every entry with a ``path`` is
located like any other path written in a report (confined to the evidence root; an absolute
path from the producing machine is looked up under the root by its trailing components; an
audit entry's ``resolved_path`` is tried when its ``path`` is not found) and hashed in
constant memory.

The results travel to the ``artifact_hashes`` check as one synthetic document, role
:data:`ROLE`, whose ``extra`` maps ``"<table ref>/<entry name>"`` to a :class:`Hashed`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bench_gate.records import record
from bench_gate.loaders import confined as files
from bench_gate.models import ARTIFACT_FILES as ROLE
from bench_gate.models import Doc


@record
class Hashed:
    """One listed file as found here: its path as written, where it was found, its digest."""

    written: str
    found: str = ""
    sha256: str = ""
    size: int = 0
    error: str | None = None


def _pointer_tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")] if pointer else []


def _at(data: Any, pointer: str) -> Any:
    cur = data
    for tok in _pointer_tokens(pointer):
        if not isinstance(cur, dict) or tok not in cur:
            return None
        cur = cur[tok]
    return cur


def _hash_one(item: Mapping[str, Any], root: Path) -> Hashed | None:
    written = item.get("path")
    if not isinstance(written, str) or not written.strip():
        return None
    tried: list[str] = []
    error = ""
    for candidate in (written, item.get("resolved_path")):
        if not isinstance(candidate, str) or not candidate.strip() or candidate in tried:
            continue
        tried.append(candidate)
        try:
            loc = files.locate(candidate, root, confine=True, by_suffix=True)
            digest, size = files.hash_file(loc)
        except files.DocumentError as exc:
            error = str(exc)
            continue
        found = loc.found or (candidate if candidate != written else "")
        return Hashed(written, found, digest, size)
    return Hashed(written, error=error)


def hash_tables(refs: Sequence[str], documents: Mapping[str, Doc], root: Path) -> Doc:
    """The synthetic document holding the hash of every file the named tables list."""
    found: dict[str, Hashed] = {}
    for ref in refs:
        role, _, pointer = ref.partition(":") if ":" in ref and not ref.startswith("/") else ("report", "", ref)
        doc = documents.get(role)
        if doc is None or doc.error is not None or not isinstance(doc.data, dict):
            continue
        table = _at(doc.data, pointer)
        if not isinstance(table, dict):
            continue
        for name, item in table.items():
            if isinstance(item, dict) and item.get("exists") is not False:
                hashed = _hash_one(item, root)
                if hashed is not None:
                    found[f"{ref}/{name}"] = hashed
    return Doc(ROLE, "", origin="artifacts", extra=found)
