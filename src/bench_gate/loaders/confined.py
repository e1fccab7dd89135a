"""Reading files safely: confinement to the evidence root, size caps, hashing.

Every file bench-gate reads goes through :func:`read_confined` or :func:`open_confined`:

* a path written inside a report is resolved against the evidence root (``--root``) and must
  stay inside it: ``..`` that climbs out, an absolute path elsewhere, or a symlink whose target
  leaves the root is refused;
* an absolute path written on the machine that produced the report (``/home/ci/zaxy/reports/
  x.jsonl``) that is not a file under the root here is looked up under the root by its trailing
  components, longest first (``home/ci/zaxy/reports/x.jsonl``, ``ci/zaxy/reports/x.jsonl``, ...,
  ``x.jsonl``) when the caller asks for it (``by_suffix``); the first that names a file inside
  the root is read, and :attr:`Located.found` says which, so the verdict can show it. Nothing
  outside the root is ever read;
* only regular files are read: a directory, FIFO, socket or device is refused (a FIFO would
  block the gate forever);
* a file larger than the cap (:data:`MAX_DOCUMENT_BYTES` for documents that are parsed) is
  refused before it is read;
* a NUL byte or a control character in a path is refused.

The SHA-256 of every input is computed from the same bytes that are parsed, so the verdict's
digests describe exactly what was judged. Files that are only hashed (large datasets) are
streamed in fixed-size chunks, in constant memory.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from bench_gate.records import record

MAX_DOCUMENT_BYTES = 512 * 1024 * 1024
"""The largest report or evidence document that is parsed (512 MiB)."""

MAX_PATH_CHARS = 4096
CHUNK = 1024 * 1024


class DocumentError(Exception):
    """A file could not be read as the document it should be; ``str()`` is the reason."""


@record
class Located:
    """A path resolved for reading: what the user wrote and where it really is."""

    shown: str
    real: Path
    found: str = ""
    """How a path from another machine was found under the root ("" when read as written)."""
    root: str | None = None
    """The evidence root a path written inside a report was resolved against (None otherwise)."""


ROOT_HINT = "; --root DIR names the folder these paths are relative to"
"""Said after "no such file in the evidence root '...'" (a ledger replaces it)."""


def locate(written: str, root: Path, confine: bool, by_suffix: bool = False) -> Located:
    """Resolve a path; with ``confine`` it must stay inside ``root`` after following links.

    With ``by_suffix``, an absolute path that is not a file inside ``root`` is looked up under
    ``root`` by its longest trailing part that exists there (see the module docstring).
    """
    if not isinstance(written, str) or written.strip() == "":
        raise DocumentError("path is empty")
    if len(written) > MAX_PATH_CHARS:
        raise DocumentError(f"path is longer than {MAX_PATH_CHARS} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in written):
        raise DocumentError(f"path {written[:80]!r} contains a NUL or control character")
    candidate = Path(written)
    if confine:
        base = root.resolve()
        if candidate.is_absolute():
            if not by_suffix:
                raise DocumentError(f"path {written!r} is absolute; paths in a report are relative to the evidence root")
            return _by_suffix(written, candidate, base, root)
        joined = base / candidate
        through = _missing_before_parent(base, candidate)
        if through is not None:
            raise DocumentError(f"path {written!r} goes through {through!r}, which is not a folder: '..' after it "
                                "names nothing a system can open")
        try:
            real = joined.resolve(strict=False)
        except (OSError, RuntimeError) as exc:
            raise DocumentError(f"path {written!r} cannot be resolved ({exc.__class__.__name__})") from None
        if real != base and base not in real.parents:
            how = "through a symlink" if _has_link(base, candidate) else "with '..'"
            raise DocumentError(f"path {written!r} leaves the evidence root {str(root)!r} {how}")
        return Located(written, real, root=str(root))
    return Located(written, candidate)


def _missing_before_parent(base: Path, candidate: Path) -> str | None:
    """The first part of a relative path that a ``..`` climbs out of but that is not a folder
    (``x`` in ``x/../a.json`` when ``x`` does not exist), or None.

    Resolving such a path on paper (``a.json``) would read a file the system itself refuses to
    open by that name, so the path is refused instead."""
    parts = candidate.parts
    for i, part in enumerate(parts):
        if part == ".." and i > 0 and parts[i - 1] not in ("..", "."):
            prefix = Path(*parts[:i])
            try:
                if not (base / prefix).is_dir():
                    return prefix.as_posix()
            except OSError:
                return prefix.as_posix()
    return None


def _inside(real: Path, base: Path) -> bool:
    return real == base or base in real.parents


def _by_suffix(written: str, candidate: Path, base: Path, root: Path) -> Located:
    """An absolute path: as written when it is inside the root, else its longest trailing part there."""
    try:
        real = candidate.resolve(strict=False)
        if _inside(real, base) and real.exists():
            return Located(written, real)
        parts = candidate.parts[1:]
        for i in range(len(parts)):
            tail = parts[i:]
            if any(part in ("..", ".") for part in tail):
                continue
            found = (base.joinpath(*tail)).resolve(strict=False)
            # a trailing part that resolves (through a link) outside the root is not a match
            if _inside(found, base) and found.exists():
                # shown as a path a reader can open from here: under the root as it was given
                shown = posixpath.join(*tail) if str(root) in ("", ".") else posixpath.join(str(root), *tail)
                return Located(written, found, found=shown)
    except (OSError, RuntimeError, ValueError) as exc:
        raise DocumentError(f"path {written!r} cannot be resolved ({exc.__class__.__name__})") from None
    raise DocumentError(f"path {written!r} is absolute and not under the evidence root {str(root)!r}, "
                        "and no trailing part of it names a file under the root (give --root, or the "
                        "document's own option)")


def _has_link(base: Path, rel: Path) -> bool:
    cur = base
    for part in rel.parts:
        cur = cur / part
        if cur.is_symlink():
            return True
    return False


def open_confined(loc: Located, max_bytes: int | None) -> tuple[BinaryIO, int]:
    """Open a regular file for reading; refuse anything else before blocking on it."""
    try:
        st = os.stat(loc.real)
    except FileNotFoundError:
        where = f" in the evidence root {loc.root!r}{ROOT_HINT}" if loc.root is not None else ""
        raise DocumentError(f"{loc.shown}: no such file{where}") from None
    except NotADirectoryError:
        raise DocumentError(f"{loc.shown}: no such file (a parent is not a directory)") from None
    except OSError as exc:
        raise DocumentError(f"{loc.shown}: cannot be read ({exc.strerror or exc.__class__.__name__})") from None
    if stat.S_ISDIR(st.st_mode):
        raise DocumentError(f"{loc.shown}: is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise DocumentError(f"{loc.shown}: is not a regular file (FIFO, socket or device)")
    if max_bytes is not None and st.st_size > max_bytes:
        raise DocumentError(f"{loc.shown}: is {st.st_size} bytes, over the {max_bytes}-byte limit")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(loc.real, flags)
    except OSError as exc:
        raise DocumentError(f"{loc.shown}: cannot be opened ({exc.strerror or exc.__class__.__name__})") from None
    handle = os.fdopen(fd, "rb")
    st2 = os.fstat(handle.fileno())
    if not stat.S_ISREG(st2.st_mode) or (st2.st_ino, st2.st_dev) != (st.st_ino, st.st_dev):
        handle.close()
        raise DocumentError(f"{loc.shown}: changed while it was opened")
    return handle, st2.st_size


def read_confined(loc: Located, max_bytes: int = MAX_DOCUMENT_BYTES) -> bytes:
    """All bytes of a regular file within the size cap."""
    handle, size = open_confined(loc, max_bytes)
    with handle:
        # One byte more than the file holds, so that a file still growing is noticed; asking
        # for the whole cap at once would have the reader allocate all of it first.
        data = handle.read(min(size, max_bytes) + 1)
        if len(data) > size:
            data += handle.read(max_bytes + 1 - len(data))
    if len(data) > max_bytes:
        raise DocumentError(f"{loc.shown}: grew over the {max_bytes}-byte limit while read")
    return data


def iter_chunks(handle: BinaryIO, size: int = CHUNK) -> Iterator[bytes]:
    buf = bytearray(size)
    view = memoryview(buf)
    while True:
        n = handle.readinto(view)
        if not n:
            return
        yield bytes(view[:n])


def hash_file(loc: Located) -> tuple[str, int]:
    """Streaming SHA-256 and size of a file of any size, in constant memory."""
    handle, _ = open_confined(loc, None)
    with handle:
        digest = hashlib.file_digest(handle, "sha256")
        handle.seek(0, os.SEEK_END)
        return digest.hexdigest(), handle.tell()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
