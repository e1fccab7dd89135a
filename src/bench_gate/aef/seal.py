"""Evidence-seal verification for AEF run folders (pure: bytes in, outcome out).

A sealed run folder carries ``seal.json``, an in-toto Statement over every other file of the
run. This module recomputes the seal exactly as AEF 1.0 defines it and compares:

* **sealed files** are every file in the folder except ``seal.json``, ``attestation.dsse.json``
  and everything under ``overlays/``;
* the **manifest** has one line per sealed file, ordered by the UTF-8 bytes of its relative
  path: ``<sha256 hex>  <size in bytes>  <path>\\n`` (two spaces between fields, LF after every
  line, the last included);
* the **run hash** is the SHA-256 hex of the manifest bytes.

The **outcome** is ``intact`` (the seal matches every file, its ``runHash`` and ``runId``),
``unsealed`` (no ``seal.json``; neither verified nor failed) or ``invalid``, with every problem
as a code and a path, ordered by path and then code:

==================  =================================================================
``path``            a symlink, device, odd path character or escape in the folder
``limit``           a file or the folder over the reading limits
``unreadable``      a file that could not be read
``schema``          ``run.json`` missing, not strict JSON, or without ``runId``/``status``
``seal-invalid``    ``seal.json`` is not a valid in-toto Statement (verification stops)
``duplicate-subject``  a subject listed twice
``subject-path``    a subject naming ``seal.json``, ``attestation.dsse.json`` or ``overlays/``
``digest``          a sealed file whose bytes changed
``missing``         a sealed file that is gone
``not-sealed``      a file present but not in the seal
``run-hash``        every file matches, but the recomputed run hash is not ``runHash``
``run-id``          ``predicate.runId`` is not ``run.json``'s ``runId``
``run-open``        ``run.json`` says ``running``: an open run is never valid evidence
==================  =================================================================

An intact seal proves internal consistency only (anyone can edit and re-seal); it is reported
as "intact (unsigned)" unless a trusted signature is verified as well (``signatures``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from bench_gate.records import record
from bench_gate.text.digests import is_sha256_hex
from bench_gate.loaders import strictjson

SEAL_FILE = "seal.json"
ATTESTATION_FILE = "attestation.dsse.json"
OVERLAYS = "overlays/"
STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PREDICATE_TYPE = "https://agenteval.dev/aef/1/evidence"
RUN_STATUSES = ("running", "completed", "aborted")

Outcome = Literal["intact", "unsealed", "invalid"]



@record
class SealProblem:
    """One reason a run folder does not verify."""

    code: str
    path: str
    message: str
    actual: Any = None
    expected: Any = None


@record
class SealReport:
    """The verification of one run folder."""

    outcome: Outcome
    run_hash: str
    """The run hash recomputed from the files (whatever the seal says)."""
    sealed_files: int
    problems: tuple[SealProblem, ...]
    claimed_run_hash: str | None = None
    run_id: str | None = None
    status: str | None = None


def is_sealed_path(path: str) -> bool:
    """True for a file the seal covers."""
    return path not in (SEAL_FILE, ATTESTATION_FILE) and not path.startswith(OVERLAYS)


def _order(path: str) -> bytes:
    return path.encode("utf-8")


def manifest(files: Mapping[str, bytes]) -> bytes:
    """The manifest bytes over the sealed files of ``files`` (relative path -> bytes)."""
    lines = []
    for path in sorted((p for p in files if is_sealed_path(p)), key=_order):
        data = files[path]
        lines.append(f"{hashlib.sha256(data).hexdigest()}  {len(data)}  {path}\n")
    return "".join(lines).encode("utf-8")


def run_hash(files: Mapping[str, bytes]) -> str:
    """SHA-256 hex of :func:`manifest`."""
    return hashlib.sha256(manifest(files)).hexdigest()


def short(digest: str) -> str:
    """The first 12 hex characters of a digest, for messages (the full value is in actual)."""
    return digest[:12] + "…" if len(digest) > 12 else digest


def _run_header(files: Mapping[str, bytes]) -> tuple[str | None, str | None, list[SealProblem]]:
    """(runId, status, problems) from run.json."""
    raw = files.get("run.json")
    if raw is None:
        return None, None, [SealProblem("schema", "run.json", "run.json is missing: a run folder always has one")]
    try:
        data = strictjson.loads(raw)
    except strictjson.JsonError as exc:
        return None, None, [SealProblem("schema", "run.json", f"run.json {exc}")]
    if not isinstance(data, dict):
        return None, None, [SealProblem("schema", "run.json", "run.json is not a JSON object")]
    problems: list[SealProblem] = []
    run_id = data.get("runId")
    if not isinstance(run_id, str) or run_id == "":
        problems.append(SealProblem("schema", "run.json", "run.json has no string runId", _j(run_id), "a string"))
        run_id = None
    status = data.get("status")
    if status not in RUN_STATUSES:
        problems.append(SealProblem(
            "schema", "run.json",
            f"run.json status {_show(status)} is not one of running, completed, aborted",
            _j(status), list(RUN_STATUSES)))
        status = None
    elif status == "running":
        problems.append(SealProblem(
            "run-open", "run.json",
            "run.json status is 'running': the run is still open (only a closed run is evidence)",
            "running", "completed or aborted"))
    return run_id, status, problems


def _j(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(type(value).__name__)


def _show(value: Any) -> str:
    if value is None:
        return "missing"
    if isinstance(value, str):
        return repr(value)
    return type(value).__name__


def _parse_seal(raw: bytes) -> tuple[dict[str, Any] | None, str]:
    """(statement, "") or (None, reason it is not a valid seal)."""
    try:
        data = strictjson.loads(raw)
    except strictjson.JsonError as exc:
        return None, f"seal.json {exc}"
    if not isinstance(data, dict):
        return None, "seal.json is not a JSON object"
    if data.get("_type") != STATEMENT_TYPE:
        return None, f"seal.json _type is {_show(data.get('_type'))}, not {STATEMENT_TYPE!r}"
    if data.get("predicateType") != PREDICATE_TYPE:
        return None, f"seal.json predicateType is {_show(data.get('predicateType'))}, not {PREDICATE_TYPE!r}"
    subject = data.get("subject")
    if not isinstance(subject, list) or not subject:
        return None, "seal.json subject is not a non-empty array"
    for index, entry in enumerate(subject):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            return None, f"seal.json subject[{index}] has no string name"
        digest = entry.get("digest")
        if not isinstance(digest, dict) or not isinstance(digest.get("sha256"), str) \
                or not is_sha256_hex(digest["sha256"]):
            return None, f"seal.json subject[{index}] ({entry['name']}) has no lowercase hex digest.sha256"
    predicate = data.get("predicate")
    if not isinstance(predicate, dict):
        return None, "seal.json predicate is not an object"
    claimed = predicate.get("runHash")
    if not is_sha256_hex(claimed):
        return None, "seal.json predicate.runHash is not 64 lowercase hex characters"
    if not isinstance(predicate.get("runId"), str):
        return None, "seal.json predicate.runId is not a string"
    return data, ""


def verify(files: Mapping[str, bytes], folder_problems: Iterable[Mapping[str, Any]] = ()) -> SealReport:
    """Verify the seal of a run folder given as ``{relative path: bytes}``.

    ``folder_problems`` are what reading the folder found (``{"code", "path", "message"}``):
    any of them makes the run invalid, sealed or not.
    """
    problems: list[SealProblem] = [
        SealProblem(str(p["code"]), str(p["path"]), str(p["message"])) for p in folder_problems
    ]
    recomputed = run_hash(files)
    sealed = sorted((p for p in files if is_sealed_path(p)), key=_order)
    run_id, status, header = _run_header(files)
    problems.extend(header)
    raw_seal = files.get(SEAL_FILE)
    if raw_seal is None:
        return _report("unsealed", recomputed, len(sealed), problems, None, run_id, status)

    statement, reason = _parse_seal(raw_seal)
    if statement is None:
        problems.append(SealProblem("seal-invalid", SEAL_FILE, reason))
        return _report("invalid", recomputed, len(sealed), problems, None, run_id, status)

    claimed: str = statement["predicate"]["runHash"]
    subjects: dict[str, str] = {}
    file_problems = 0
    for entry in statement["subject"]:
        name, digest = entry["name"], entry["digest"]["sha256"]
        if name in subjects:
            problems.append(SealProblem("duplicate-subject", name, f"{name} is listed twice in the seal subject"))
            file_problems += 1
            continue
        subjects[name] = digest
        if not is_sealed_path(name):
            problems.append(SealProblem(
                "subject-path", name,
                f"the seal lists {name}, which is never sealed (seal.json, attestation.dsse.json and overlays/ are not)"))
            file_problems += 1
            continue
        data = files.get(name)
        if data is None:
            problems.append(SealProblem("missing", name, f"{name} is sealed but missing from the run folder",
                                        None, digest))
            file_problems += 1
            continue
        actual = hashlib.sha256(data).hexdigest()
        if actual != digest:
            problems.append(SealProblem(
                "digest", name,
                f"{name} changed after sealing: sha256 {short(actual)} (sealed {short(digest)})",
                actual, digest))
            file_problems += 1
    for path in sealed:
        if path not in subjects:
            problems.append(SealProblem("not-sealed", path, f"{path} is in the run folder but not in the seal"))
            file_problems += 1
    if file_problems == 0 and claimed != recomputed:
        problems.append(SealProblem(
            "run-hash", SEAL_FILE,
            f"seal runHash {short(claimed)} is not the recomputed run hash {short(recomputed)}",
            claimed, recomputed))
    sealed_id = statement["predicate"]["runId"]
    if run_id is not None and sealed_id != run_id:
        problems.append(SealProblem(
            "run-id", SEAL_FILE, f"seal runId {sealed_id!r} is not run.json runId {run_id!r}", sealed_id, run_id))
    outcome: Outcome = "invalid" if problems else "intact"
    return _report(outcome, recomputed, len(sealed), problems, claimed, run_id, status)


def _report(outcome: Outcome, recomputed: str, count: int, problems: list[SealProblem],
            claimed: str | None, run_id: str | None, status: str | None) -> SealReport:
    if problems:
        outcome = "invalid"
    ordered = tuple(sorted(problems, key=lambda p: (_order(p.path), p.code)))
    return SealReport(outcome, recomputed, count, ordered, claimed, run_id, status)
