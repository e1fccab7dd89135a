"""Loading a document by format: the one table of loaders.

:func:`load` reads one document for a role and records every problem on the returned
:class:`~bench_gate.models.Doc` (``error``) instead of raising. The formats a profile can declare:

* ``json``: one strict JSON value (see :mod:`bench_gate.loaders.strictjson`), by default an
  object;
* ``jsonl``: strict JSON Lines, one value per line, each row at most
  :data:`MAX_JSONL_LINE_BYTES`;
* ``dataset``: a large JSON array streamed in one pass for its hash, count, ids and question
  types (:mod:`bench_gate.loaders.dataset`);
* ``runfolder``: an AEF evidence run folder (:mod:`bench_gate.loaders.runfolder`);
* ``hash``: only the SHA-256 and size, streamed in constant memory.

Every file is read through :mod:`bench_gate.loaders.confined` (confinement, size caps), and the
SHA-256 of every input is computed from the same bytes that are parsed.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from bench_gate.loaders import strictjson
from bench_gate.loaders.confined import DocumentError, hash_file, locate, read_confined, sha256
from bench_gate.models import Doc

MAX_JSONL_LINE_BYTES = 16 * 1024 * 1024
"""The longest single JSON Lines row (16 MiB)."""


def parse(raw: bytes, fmt: str, want_object: bool) -> tuple[Any, tuple[tuple[int, Any], ...] | None]:
    """Parse bytes as ``json`` or ``jsonl``; (data, rows)."""
    if fmt == "jsonl":
        rows = tuple(strictjson.loads_lines(raw, MAX_JSONL_LINE_BYTES))
        for line, row in rows:
            if want_object and not isinstance(row, dict):
                raise strictjson.JsonError(f"line {line} is not a JSON object")
        return None, rows
    return _json_value(strictjson.decode_text(raw), want_object), None


def _json_value(text: str, want_object: bool) -> Any:
    data = strictjson.loads_text(text)
    if want_object and not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(data), "a number")
        raise strictjson.JsonError(f"top level is {kind}, not a JSON object")
    return data


def load(role: str, written: str, root: Path, confine: bool, fmt: str = "json",
         want_object: bool = True, origin: str = "report", by_suffix: bool = False) -> Doc:
    """Load one document; problems are recorded on the Doc (``error``), never raised."""
    shown = written if isinstance(written, str) else repr(written)
    if len(shown) > 200:  # a rejected 4096-character path is not repeated whole in every message
        shown = f"{shown[:120]}…{shown[-60:]}"
    if fmt == "runfolder":
        from bench_gate.loaders.runfolder import load_run_folder

        return load_run_folder(role, written, root, confine, origin=origin)
    try:
        loc = locate(written, root, confine, by_suffix)
        if fmt == "hash":
            digest, size = hash_file(loc)
            return Doc(role, loc.shown, digest, size, origin=origin, found=loc.found)
        if fmt == "dataset":
            from bench_gate.loaders.dataset import load_dataset

            return load_dataset(role, loc, origin)
        raw = read_confined(loc)
    except DocumentError as exc:
        return Doc(role, shown, error=_strip(str(exc), shown), origin=origin)
    digest, size = sha256(raw), len(raw)
    # Parsing allocates a container per JSON object and array and creates no reference cycle:
    # the cycle collector, run again and again over the growing value, would only cost time.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if fmt == "json":
            # Let go of the bytes once they are text: a large report's peak is then the text and
            # the parsed value, not the bytes as well.
            text = strictjson.decode_text(raw)
            del raw
            data, rows = _json_value(text, want_object), None
            del text
        else:
            data, rows = parse(raw, fmt, want_object)
    except strictjson.JsonError as exc:
        return Doc(role, loc.shown, digest, size, error=str(exc), origin=origin, found=loc.found)
    finally:
        if collecting:
            gc.enable()
    return Doc(role, loc.shown, digest, size, data=data, rows=rows, origin=origin, found=loc.found)


def _strip(message: str, shown: str) -> str:
    prefix = f"{shown}: "
    return message[len(prefix):] if message.startswith(prefix) else message
