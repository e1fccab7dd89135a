"""Reading AEF run folders (confinement, odd paths, caps) and discovering the two arms."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from bench_gate.loaders import files as documents, runfolder

import pairgen
from repo import DATA

EXAMPLE = DATA / "aef" / "example-run"


@pytest.fixture()
def run(tmp_path: Path) -> Path:
    target = tmp_path / "ev" / "run"
    shutil.copytree(EXAMPLE, target)
    return target


def test_folder_and_summary_path_give_the_same_document(run: Path) -> None:
    by_folder = runfolder.load_run_folder("normal", str(run), Path("."), False)
    by_summary = runfolder.load_run_folder("normal", str(run / "summary.json"), Path("."), False)
    assert by_folder.error is None and by_summary.error is None
    assert (by_folder.path, by_folder.sha256, by_folder.size) == (by_summary.path, by_summary.sha256, by_summary.size)
    assert by_folder.path == str(run)
    assert by_folder.size == 10915
    assert len(by_folder.extra["files"]) == 11 and by_folder.extra["problems"] == ()
    assert by_folder.data["runId"] == "01928f3e-7c1a-7b2e-9a51-3f2c0d4e8a10"


def test_documents_load_dispatches_runfolder(run: Path) -> None:
    doc = documents.load("oracle", "ev/run/summary.json", run.parents[1], confine=True, fmt="runfolder")
    assert (doc.error, doc.path, doc.role) == (None, "ev/run", "oracle")
    assert set(doc.extra["files"]) >= {"run.json", "seal.json", "summary.json"}


def _symlink(run: Path) -> None:
    (run / "link.json").symlink_to("/etc/hostname")


def _space(run: Path) -> None:
    (run / "my notes.txt").write_text("x")


def _unicode(run: Path) -> None:
    (run / "blobs" / "caf\u00e9").write_text("x")


def _fifo(run: Path) -> None:
    os.mkfifo(run / "pipe")


def _dir_link(run: Path) -> None:
    (run / "ext").symlink_to(run.parent)


LOADER_CASES: list[tuple[str, Callable[[Path], None], list[tuple[str, str, str]]]] = [
    ("symlink", _symlink, [("path", "link.json", "link.json: is a symbolic link (never followed in a run folder)")]),
    ("space-in-name", _space, [("path", "my notes.txt", "my notes.txt: path has characters other than ASCII "
                                "letters, digits, '.', '_', '-' and '/'")]),
    ("non-ascii-name", _unicode, [("path", "blobs/caf\\xe9", "blobs/caf\\xe9: path has characters other than "
                                   "ASCII letters, digits, '.', '_', '-' and '/'")]),
    ("fifo", _fifo, [("path", "pipe", "pipe: is not a regular file (FIFO, socket or device)")]),
    ("symlinked-folder", _dir_link, [("path", "ext", "ext: is a symbolic link (never followed in a run folder)")]),
]


@pytest.mark.parametrize(("make", "problems"), [c[1:] for c in LOADER_CASES], ids=[c[0] for c in LOADER_CASES])
def test_odd_entries_are_recorded_not_read(run: Path, make: Callable[[Path], None],
                                           problems: list[tuple[str, str, str]]) -> None:
    make(run)
    doc = runfolder.load_run_folder("normal", str(run), Path("."), False)
    assert doc.error is None
    assert [(p["code"], p["path"], p["message"]) for p in doc.extra["problems"]] == problems
    assert all(not k.startswith(("link", "my", "pipe", "ext")) for k in doc.extra["files"])


def test_file_over_the_cap_is_a_limit_problem(run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runfolder, "MAX_DOCUMENT_BYTES", 2000)
    doc = runfolder.load_run_folder("normal", str(run), Path("."), False)
    assert [(p["code"], p["path"], p["message"]) for p in doc.extra["problems"]] == [
        ("limit", "results.ndjson", "results.ndjson: is 5236 bytes, over the 2000-byte limit"),
        ("limit", "seal.json", "seal.json: is 2702 bytes, over the 2000-byte limit")]
    assert "results.ndjson" not in doc.extra["files"]


ERROR_CASES: list[tuple[str, str, bool, Callable[[Path], None] | None, str]] = [
    ("missing-folder", "ev/none", True, None, "no such file or folder"),
    ("escapes-root", "../outside", True, None, "path '../outside' leaves the evidence root {root!r} with '..'"),
    ("absolute-when-confined", "/etc", True, None,
     "path '/etc' is absolute; paths in a report are relative to the evidence root"),
    ("other-file", "ev/run/run.json", True, None, "is neither a run folder nor a run folder's summary.json"),
    ("no-summary", "ev/run", True, lambda r: (r / "summary.json").unlink(), "has no readable summary.json"),
    ("summary-symlink", "ev/run", True,
     lambda r: ((r / "summary.json").unlink(), (r / "summary.json").symlink_to(r / "run.json")),
     "has no readable summary.json (summary.json: is a symbolic link (never followed in a run folder))"),
    ("summary-not-json", "ev/run", True, lambda r: (r / "summary.json").write_bytes(b"{\"a\": NaN}"),
     "summary.json NaN is not a JSON number (NaN and Infinity are rejected)"),
    ("summary-array", "ev/run", True, lambda r: (r / "summary.json").write_bytes(b"[]"),
     "summary.json top level is not a JSON object"),
]


@pytest.mark.parametrize(("written", "confine", "make", "error"), [c[1:] for c in ERROR_CASES],
                         ids=[c[0] for c in ERROR_CASES])
def test_unusable_folders_are_document_errors(run: Path, written: str, confine: bool,
                                              make: Callable[[Path], None] | None, error: str) -> None:
    root = run.parents[1]
    if make is not None:
        make(run)
    doc = runfolder.load_run_folder("normal", written, root, confine)
    assert doc.error == error.format(root=str(root))


# --- discovery ---------------------------------------------------------------------------


def _pair(tmp: Path, variant: str | None = None, seed: int = 3) -> Path:
    pairgen.write_pair(tmp / "evidence", pairgen.generate(seed, "sealed", variant))
    return tmp / "evidence"


def test_discovery_finds_both_arms(tmp_path: Path) -> None:
    ev = _pair(tmp_path)
    found = runfolder.discover_pair(str(ev))
    assert isinstance(found, runfolder.DiscoveredPair)
    assert (found.normal, found.oracle) == (f"{ev}/normal", f"{ev}/oracle")
    assert found.pair_id == pairgen.generate(3).pair_id


def test_discovery_with_normal_alone_leaves_the_verdict_to_the_rules(tmp_path: Path) -> None:
    ev = _pair(tmp_path, "cancelled-between-arms")
    found = runfolder.discover_pair(str(ev))
    assert isinstance(found, runfolder.DiscoveredPair) and found.oracle is None


def _second_normal(ev: Path) -> None:
    shutil.copytree(ev / "normal", ev / "runs" / "2026" / "normal-again")


def _oracle_only(ev: Path) -> None:
    shutil.rmtree(ev / "normal")


def _other_pair(ev: Path) -> None:
    pairgen.write_folder(ev / "oracle", {})
    shutil.rmtree(ev / "oracle")
    other = pairgen.generate(4)
    assert other.oracle is not None
    pairgen.write_folder(ev / "oracle", other.oracle)


def _no_summary(ev: Path) -> None:
    (ev / "oracle" / "summary.json").unlink()


def _link(ev: Path) -> None:
    (ev / "elsewhere").symlink_to("/tmp")


def _empty(ev: Path) -> None:
    shutil.rmtree(ev / "normal")
    shutil.rmtree(ev / "oracle")


DISCOVERY_CASES: list[tuple[str, Callable[[Path], None], str]] = [
    ("two-normals", _second_normal,
     "{ev}: 2 normal arms ({ev}/normal, {ev}/runs/2026/normal-again); expected exactly one"),
    ("oracle-without-normal", _oracle_only,
     "{ev}: oracle arm {ev}/oracle has no normal arm (the oracle is only prepared after the normal run)"),
    ("different-pair-ids", _other_pair,
     "{ev}: normal arm {ev}/normal has pairId '{normal_id}' but oracle arm {ev}/oracle has pairId "
     "'{other_id}': they are not one pair"),
    ("unreadable-summary", _no_summary,
     "{ev}/oracle: run folder has no summary.json, so its pair record cannot be read"),
    ("symlink", _link, "{ev}/elsewhere: is a symbolic link (not followed when looking for the arms)"),
    ("nothing", _empty,
     "{ev}: no memory-pair arm found (no run folder whose summary.json carries ext[\"agenteval.memoryPair\"])"),
]


@pytest.mark.parametrize(("change", "message"), [c[1:] for c in DISCOVERY_CASES], ids=[c[0] for c in DISCOVERY_CASES])
def test_discovery_failures(tmp_path: Path, change: Callable[[Path], None], message: str) -> None:
    ev = _pair(tmp_path)
    change(ev)
    found = runfolder.discover_pair(str(ev))
    assert found == message.format(ev=ev, normal_id=pairgen.generate(3).pair_id,
                                   other_id=pairgen.generate(4).pair_id)


def test_discovery_of_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    assert runfolder.discover_pair(str(tmp_path / "f")) == f"{tmp_path}/f: is not a folder"


def test_expand_report(tmp_path: Path) -> None:
    ev = _pair(tmp_path)
    assert runfolder.expand_report(str(ev)) == (f"{ev}/normal", f"{ev}/oracle")
    assert runfolder.expand_report(f"{ev}/normal") == (f"{ev}/normal", None)
    assert runfolder.expand_report(f"{ev}/normal/summary.json") == (f"{ev}/normal/summary.json", None)
    shutil.rmtree(ev / "normal")
    with pytest.raises(runfolder.DiscoveryError) as info:
        runfolder.expand_report(str(ev))
    assert str(info.value) == (f"{ev}: oracle arm {ev}/oracle has no normal arm (the oracle is only prepared "
                               "after the normal run)")


def test_a_symlink_in_a_sealed_run_makes_it_invalid(run: Path) -> None:
    from datetime import UTC, datetime

    from bench_gate.checks.pair.run_seal import SealParams
    from kindtest import run as run_kind

    _symlink(run)
    doc = runfolder.load_run_folder("report", str(run), Path("."), False)
    findings = run_kind("aef_seal", SealParams(), doc, now=datetime(2026, 11, 29, tzinfo=UTC))
    assert [(f.status, f.message) for f in findings] == [
        ("fail", "seal invalid: link.json: is a symbolic link (never followed in a run folder)")]
