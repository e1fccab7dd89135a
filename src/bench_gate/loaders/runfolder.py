"""Reading AEF evidence run folders, and finding the two arms of a memory pair.

A run folder document (format ``runfolder``) is named by the folder or by its ``summary.json``;
both give the same document. Every file in the folder is read as bytes with the confinement and
strictness of every other document (:mod:`bench_gate.loaders.files`):

* nothing is followed: a symbolic link, FIFO, socket or device inside the folder is recorded as
  a ``path`` problem and never opened (a link can point outside the run, a FIFO would block);
* every path uses only ASCII letters, digits, ``.``, ``_``, ``-`` and ``/``; any other
  character, or a ``.``/``..`` segment, is a ``path`` problem and the file is not read;
* each file is capped at :data:`~bench_gate.loaders.confined.MAX_DOCUMENT_BYTES`, the folder at
  :data:`MAX_FOLDER_BYTES` and :data:`MAX_FOLDER_FILES` files (``limit`` problems).

Problems are recorded, not raised: the seal verification (:mod:`bench_gate.aef.seal`) reports them
and they make the run invalid. The document's ``data`` is the strictly parsed ``summary.json``
(a missing or invalid one is the document's error); ``extra`` holds ``files`` (relative path ->
bytes) and ``problems`` (``{"code", "path", "message"}``). The document digest is the SHA-256 of
the AEF manifest over *every* file read (sealed or not), so the verdict pins exactly what was
judged; ``size`` is the total of their bytes.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bench_gate.records import record
from bench_gate.loaders import strictjson
from bench_gate.loaders.confined import (
    MAX_DOCUMENT_BYTES,
    DocumentError,
    Located,
    locate,
    read_confined,
)
from bench_gate.models import Doc

MAX_FOLDER_BYTES = 1024 * 1024 * 1024
"""The most bytes read from one run folder (1 GiB)."""

MAX_FOLDER_FILES = 100_000
"""The most entries read from one run folder."""

MAX_DEPTH = 32

SUMMARY = "summary.json"
PAIR_KEY = "agenteval.memoryPair"

_SEGMENT = re.compile(r"^[A-Za-z0-9._-]+$")


def path_problem(rel: str) -> str | None:
    """Why a relative path is not a valid run-folder path, or None."""
    segments = rel.split("/")
    for segment in segments:
        if segment in ("", ".", ".."):
            return f"{_printable(rel)}: path has an empty, '.' or '..' segment"
        if not _SEGMENT.match(segment):
            return (f"{_printable(rel)}: path has characters other than ASCII letters, digits, "
                    "'.', '_', '-' and '/'")
    return None


def _printable(rel: str) -> str:
    text = rel.encode("ascii", "backslashreplace").decode("ascii")
    return "".join(c if 32 <= ord(c) < 127 else f"\\x{ord(c):02x}" for c in text)


@record(frozen=False)
class _Walk:
    folder: Path
    shown: str
    files: dict[str, bytes]
    problems: list[dict[str, str]]
    total: int = 0
    entries: int = 0
    stopped: bool = False

    def problem(self, code: str, path: str, message: str) -> None:
        self.problems.append({"code": code, "path": path, "message": message})

    def walk(self, directory: Path, prefix: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            self.problem("limit", prefix.rstrip("/") or ".", f"{prefix}: folders nested deeper than {MAX_DEPTH}")
            return
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name.encode("utf-8", "surrogateescape"))
        except OSError as exc:
            self.problem("unreadable", prefix.rstrip("/") or ".",
                         f"{prefix or '.'}: folder cannot be listed ({exc.strerror or exc.__class__.__name__})")
            return
        for entry in entries:
            if self.stopped:
                return
            self.entries += 1
            rel = prefix + entry.name
            shown = _printable(rel)
            if self.entries > MAX_FOLDER_FILES:
                self.problem("limit", ".", f"the run folder has more than {MAX_FOLDER_FILES} entries; reading stopped")
                self.stopped = True
                return
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                self.problem("unreadable", shown, f"{shown}: cannot be examined ({exc.strerror or 'error'})")
                continue
            if stat.S_ISLNK(st.st_mode):
                self.problem("path", shown, f"{shown}: is a symbolic link (never followed in a run folder)")
                continue
            if stat.S_ISDIR(st.st_mode):
                bad = path_problem(rel)
                if bad is not None:
                    self.problem("path", shown, bad)
                    continue
                self.walk(Path(entry.path), rel + "/", depth + 1)
                continue
            if not stat.S_ISREG(st.st_mode):
                self.problem("path", shown, f"{shown}: is not a regular file (FIFO, socket or device)")
                continue
            bad = path_problem(rel)
            if bad is not None:
                self.problem("path", shown, bad)
                continue
            if self.total + st.st_size > MAX_FOLDER_BYTES:
                self.problem("limit", shown,
                             f"{shown}: reading it would take the run folder over {MAX_FOLDER_BYTES} bytes")
                continue
            try:
                data = read_confined(Located(f"{self.shown}/{rel}", Path(entry.path)), MAX_DOCUMENT_BYTES)
            except DocumentError as exc:
                code = "limit" if "limit" in str(exc) else "unreadable"
                self.problem(code, shown, f"{shown}: {_after(str(exc), self.shown + '/' + rel)}")
                continue
            self.total += len(data)
            self.files[rel] = data


def _after(message: str, shown: str) -> str:
    prefix = f"{shown}: "
    return message[len(prefix):] if message.startswith(prefix) else message


def _folder_of(loc: Located) -> tuple[Path, str]:
    """The run folder a located path names: the folder itself or the parent of its summary.json."""
    try:
        st = os.stat(loc.real)
    except FileNotFoundError:
        raise DocumentError(f"{loc.shown}: no such file or folder") from None
    except OSError as exc:
        raise DocumentError(f"{loc.shown}: cannot be read ({exc.strerror or exc.__class__.__name__})") from None
    if stat.S_ISDIR(st.st_mode):
        return loc.real, loc.shown.rstrip("/") or "/"
    if loc.real.name != SUMMARY:
        raise DocumentError(f"{loc.shown}: is neither a run folder nor a run folder's {SUMMARY}")
    shown_parent = str(Path(loc.shown).parent)
    return loc.real.parent, shown_parent


def load_run_folder(role: str, written: str, root: Path, confine: bool, origin: str = "report") -> Doc:
    """Load an AEF run folder as a document; problems are recorded, never raised."""
    shown = written if isinstance(written, str) else repr(written)
    try:
        loc = locate(written, root, confine)
        folder, folder_shown = _folder_of(loc)
    except DocumentError as exc:
        return Doc(role, shown, error=_after(str(exc), shown), origin=origin)
    walk = _Walk(folder, folder_shown, {}, [])
    walk.walk(folder, "", 0)
    files = walk.files
    digest = hashlib.sha256(_manifest_all(files)).hexdigest()
    size = sum(len(b) for b in files.values())
    extra: dict[str, Any] = {
        "files": MappingProxyType(files),
        "problems": tuple(MappingProxyType(p) for p in walk.problems),
        "folder": folder_shown,
    }
    summary = files.get(SUMMARY)
    error: str | None = None
    data: Any = None
    if summary is None:
        reason = next((p["message"] for p in walk.problems if p["path"] == SUMMARY), None)
        error = f"has no readable {SUMMARY}" + (f" ({reason})" if reason else "")
    else:
        try:
            data, _ = _parse_object(summary)
        except strictjson.JsonError as exc:
            error = f"{SUMMARY} {exc}"
    return Doc(role, folder_shown, digest, size, data=data, error=error, origin=origin,
               extra=MappingProxyType(extra))


def _parse_object(raw: bytes) -> tuple[Any, None]:
    data = strictjson.loads(raw)
    if not isinstance(data, dict):
        raise strictjson.JsonError("top level is not a JSON object")
    return data, None


def _manifest_all(files: dict[str, bytes]) -> bytes:
    lines = [f"{hashlib.sha256(files[p]).hexdigest()}  {len(files[p])}  {p}\n"
             for p in sorted(files, key=lambda s: s.encode("utf-8"))]
    return "".join(lines).encode("utf-8")


# --- discovery of a pair in an evidence folder ----------------------------------------------


@record
class DiscoveredPair:
    """The two arms found in an evidence folder (``oracle`` is None when only the normal exists)."""

    normal: str
    oracle: str | None
    pair_id: str


MAX_DISCOVERY_DEPTH = 6


def discover_pair(root_dir: str) -> DiscoveredPair | str:
    """Find the normal and oracle arms under ``root_dir`` by their pair records.

    A run is a folder holding ``run.json`` (its subfolders belong to it); its ``summary.json``
    carries ``ext["agenteval.memoryPair"]`` with ``role`` and ``pairId``. The folder must hold
    exactly one normal arm and at most one oracle arm with the same ``pairId``. A lone normal arm
    is returned with ``oracle=None`` (the gate then reports the incomplete pair); anything else
    (no arm, two normals, two oracles, an oracle without its normal, different pair ids, an
    unreadable summary, a symlink) is a message saying so.
    """
    base = Path(root_dir)
    if not base.is_dir() or base.is_symlink():
        return f"{root_dir}: is not a folder"
    arms: list[tuple[str, str, str]] = []  # (role, pairId, path)
    problems: list[str] = []
    _discover(base, root_dir.rstrip("/") or "/", 0, arms, problems)
    if problems:
        return problems[0]
    normals = [a for a in arms if a[0] == "normal"]
    oracles = [a for a in arms if a[0] == "oracle"]
    where = root_dir.rstrip("/") or "/"
    if not arms:
        return (f"{where}: no memory-pair arm found (no run folder whose summary.json carries "
                f"ext[\"{PAIR_KEY}\"])")
    if len(normals) > 1:
        return f"{where}: {len(normals)} normal arms ({', '.join(a[2] for a in normals)}); expected exactly one"
    if len(oracles) > 1:
        return f"{where}: {len(oracles)} oracle arms ({', '.join(a[2] for a in oracles)}); expected at most one"
    if not normals:
        return (f"{where}: oracle arm {oracles[0][2]} has no normal arm (the oracle is only prepared "
                "after the normal run)")
    normal = normals[0]
    if oracles and oracles[0][1] != normal[1]:
        return (f"{where}: normal arm {normal[2]} has pairId {normal[1]!r} but oracle arm {oracles[0][2]} "
                f"has pairId {oracles[0][1]!r}: they are not one pair")
    return DiscoveredPair(normal[2], oracles[0][2] if oracles else None, normal[1])


class DiscoveryError(ValueError):
    """An evidence folder given as REPORT does not hold one pair; ``str()`` says why (exit 2)."""


def expand_report(path: str) -> tuple[str, str | None]:
    """(normal arm path, oracle arm path or None) for a REPORT given on the command line.

    A run folder or a ``summary.json`` is the normal arm itself (the oracle comes from
    ``--doc oracle=``). A folder that is not a run (no ``run.json``) is an evidence folder:
    both arms are found by their pair records (:func:`discover_pair`).
    """
    candidate = Path(path)
    if not candidate.is_dir() or (candidate / "run.json").exists():
        return path, None
    found = discover_pair(path)
    if isinstance(found, str):
        raise DiscoveryError(found)
    return found.normal, found.oracle


def _discover(folder: Path, shown: str, depth: int, arms: list[tuple[str, str, str]], problems: list[str]) -> None:
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        problems.append(f"{shown}: folder cannot be listed ({exc.strerror or exc.__class__.__name__})")
        return
    names = {e.name for e in entries}
    if "run.json" in names:
        _arm(folder, shown, arms, problems)
        return
    if depth >= MAX_DISCOVERY_DEPTH:
        return
    for entry in entries:
        path = f"{shown}/{entry.name}"
        if entry.is_symlink():
            problems.append(f"{path}: is a symbolic link (not followed when looking for the arms)")
            continue
        if entry.is_dir(follow_symlinks=False):
            _discover(Path(entry.path), path, depth + 1, arms, problems)


def _arm(folder: Path, shown: str, arms: list[tuple[str, str, str]], problems: list[str]) -> None:
    try:
        raw = read_confined(Located(f"{shown}/{SUMMARY}", folder / SUMMARY), MAX_DOCUMENT_BYTES)
        summary = strictjson.loads(raw)
    except DocumentError as exc:
        if str(exc).endswith("no such file"):
            problems.append(f"{shown}: run folder has no {SUMMARY}, so its pair record cannot be read")
        else:
            problems.append(str(exc))
        return
    except strictjson.JsonError as exc:
        problems.append(f"{shown}/{SUMMARY} {exc}")
        return
    ext = summary.get("ext") if isinstance(summary, dict) else None
    record = ext.get(PAIR_KEY) if isinstance(ext, dict) else None
    if record is None:
        return  # a run that is not an arm of a pair
    if not isinstance(record, dict) or not isinstance(record.get("pairId"), str) \
            or record.get("role") not in ("normal", "oracle"):
        problems.append(f"{shown}/{SUMMARY}: pair record has no string pairId or no role normal/oracle")
        return
    arms.append((record["role"], record["pairId"], shown))
