"""Seal verification: the real AEF example run, and tampered copies of it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest

from bench_gate.aef import seal
from repo import DATA

EXAMPLE = DATA / "aef" / "example-run"
EXAMPLE_HASH = "8eb0cf7bf9fad78082936cb028024dfb1066b655a2c220f16484b71b7a62144e"
RUN_ID = "01928f3e-7c1a-7b2e-9a51-3f2c0d4e8a10"


def example() -> dict[str, bytes]:
    return {p.relative_to(EXAMPLE).as_posix(): p.read_bytes() for p in EXAMPLE.rglob("*") if p.is_file()}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_example_run_bytes_are_untouched() -> None:
    files = example()
    blob = files["blobs/sha256/63/635221c9c64f48e2843e4186b0a1b66f07a1492c14dcb866bb83dba6a5e5fef5"]
    assert b"\r\n" in blob and sha(blob).startswith("635221c9c64f48e2")
    assert sha(files["seal.json"]).startswith("b1273339c70ab4ac")


def test_example_run_recomputes_to_its_known_hash() -> None:
    files = example()
    assert seal.run_hash(files) == EXAMPLE_HASH
    report = seal.verify(files)
    assert (report.outcome, report.run_hash, report.claimed_run_hash, report.sealed_files, report.problems) == (
        "intact", EXAMPLE_HASH, EXAMPLE_HASH, 10, ())
    assert (report.run_id, report.status) == (RUN_ID, "completed")


def test_manifest_lines_and_order() -> None:
    files = {"ext/a/b": b"1", "ext/a.b": b"22", "ext/Z": b"", "ext/a-b": b"x", "seal.json": b"{}",
             "attestation.dsse.json": b"{}", "overlays/events.ndjson": b"{}\n"}
    expected = (f"{sha(b'')}  0  ext/Z\n{sha(b'x')}  1  ext/a-b\n{sha(b'22')}  2  ext/a.b\n"
                f"{sha(b'1')}  1  ext/a/b\n").encode()
    assert seal.manifest(files) == expected
    assert seal.run_hash(files) == sha(expected)


def _replace(path: str, old: bytes, new: bytes) -> Callable[[dict[str, bytes]], None]:
    def edit(files: dict[str, bytes]) -> None:
        assert files[path].count(old) == 1
        files[path] = files[path].replace(old, new)
    return edit


def _set(path: str, data: bytes | None) -> Callable[[dict[str, bytes]], None]:
    def edit(files: dict[str, bytes]) -> None:
        if data is None:
            del files[path]
        else:
            files[path] = data
    return edit


def _flip_byte(files: dict[str, bytes]) -> None:
    data = bytearray(files["results.ndjson"])
    data[100] ^= 0x01
    files["results.ndjson"] = bytes(data)


TAMPERED_RESULTS = None  # computed in the test from the flipped bytes
OTHER_HASH = "0" * 64
SUBJECT_RUN = b'''{
      "name": "run.json",'''

CASES: list[tuple[str, Callable[[dict[str, bytes]], None], str, list[tuple[str, str, str]]]] = [
    ("one-byte-changed", _flip_byte, "invalid",
     [("digest", "results.ndjson", "results.ndjson changed after sealing: sha256 {results}… (sealed fb934b2cca18…)")]),
    ("file-added", _set("notes.txt", b"hello\n"), "invalid",
     [("not-sealed", "notes.txt", "notes.txt is in the run folder but not in the seal")]),
    ("file-removed", _set("metrics.json", None), "invalid",
     [("missing", "metrics.json", "metrics.json is sealed but missing from the run folder")]),
    ("run-hash-edited", _replace("seal.json", EXAMPLE_HASH.encode(), OTHER_HASH.encode()), "invalid",
     [("run-hash", "seal.json", "seal runHash 000000000000… is not the recomputed run hash 8eb0cf7bf9fa…")]),
    ("run-id-edited-in-seal", _replace("seal.json", b'"runId": "01928f3e', b'"runId": "11928f3e'), "invalid",
     [("run-id", "seal.json",
       "seal runId '11928f3e-7c1a-7b2e-9a51-3f2c0d4e8a10' is not run.json runId '01928f3e-7c1a-7b2e-9a51-3f2c0d4e8a10'")]),
    ("run-id-edited-in-run-json", _replace("run.json", b'"runId": "01928f3e', b'"runId": "21928f3e'), "invalid",
     [("digest", "run.json", "run.json changed after sealing: sha256 {run}… (sealed bef0946b16c3…)"),
      ("run-id", "seal.json",
       "seal runId '01928f3e-7c1a-7b2e-9a51-3f2c0d4e8a10' is not run.json runId '21928f3e-7c1a-7b2e-9a51-3f2c0d4e8a10'")]),
    ("run-still-open", _replace("run.json", b'"status": "completed"', b'"status": "running"'), "invalid",
     [("digest", "run.json", "run.json changed after sealing: sha256 {run}… (sealed bef0946b16c3…)"),
      ("run-open", "run.json",
       "run.json status is 'running': the run is still open (only a closed run is evidence)")]),
    ("seal-not-json", _set("seal.json", b"{"), "invalid",
     [("seal-invalid", "seal.json", "seal.json is not valid JSON: Expecting property name enclosed in double quotes "
       "at line 1 column 2")]),
    ("seal-wrong-type", _replace("seal.json", b"in-toto.io/Statement/v1", b"in-toto.io/Statement/v0"), "invalid",
     [("seal-invalid", "seal.json",
       "seal.json _type is 'https://in-toto.io/Statement/v0', not 'https://in-toto.io/Statement/v1'")]),
    ("duplicate-subject", _replace("seal.json", SUBJECT_RUN, b'''{
      "name": "metrics.json",'''), "invalid",
     [("duplicate-subject", "metrics.json", "metrics.json is listed twice in the seal subject"),
      ("not-sealed", "run.json", "run.json is in the run folder but not in the seal")]),
    ("subject-names-overlay", _replace("seal.json", SUBJECT_RUN, b'''{
      "name": "overlays/run.json",'''), "invalid",
     [("subject-path", "overlays/run.json", "the seal lists overlays/run.json, which is never sealed "
       "(seal.json, attestation.dsse.json and overlays/ are not)"),
      ("not-sealed", "run.json", "run.json is in the run folder but not in the seal")]),
    ("overlays-and-attestation-are-not-sealed",
     lambda f: f.update({"overlays/events.ndjson": b"{}\n", "attestation.dsse.json": b"{}"}), "intact", []),
    ("unsealed", _set("seal.json", None), "unsealed", []),
    ("unsealed-but-running", lambda f: (f.pop("seal.json"), _replace("run.json", b'"status": "completed"',
                                                                      b'"status": "running"')(f)), "invalid",
     [("run-open", "run.json", "run.json status is 'running': the run is still open (only a closed run is evidence)")]),
    ("run-json-missing", lambda f: (f.pop("seal.json"), f.pop("run.json")), "invalid",
     [("schema", "run.json", "run.json is missing: a run folder always has one")]),
]


@pytest.mark.parametrize(("edit", "outcome", "problems"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_tampered_example(edit: Callable[[dict[str, bytes]], None], outcome: str,
                          problems: list[tuple[str, str, str]]) -> None:
    files = example()
    edit(files)
    report = seal.verify(files)
    shorts = {"results": sha(files.get("results.ndjson", b""))[:12], "run": sha(files.get("run.json", b""))[:12]}
    assert report.outcome == outcome
    assert [(p.code, p.path, p.message) for p in report.problems] == [
        (c, p, m.format(**shorts)) for c, p, m in problems]
    assert report.run_hash == seal.run_hash(files)


def test_folder_problems_make_the_run_invalid() -> None:
    report = seal.verify(example(), [{"code": "path", "path": "link", "message": "link: is a symbolic link"}])
    assert report.outcome == "invalid"
    assert [(p.code, p.message) for p in report.problems] == [("path", "link: is a symbolic link")]


def test_digest_problem_carries_full_values() -> None:
    files = example()
    _flip_byte(files)
    (problem,) = seal.verify(files).problems
    assert (problem.actual, problem.expected) == (
        sha(files["results.ndjson"]), "fb934b2cca18138f90ce0e2adc2b543dc8131d33c20bfc800c64d0c34ca7a508")
