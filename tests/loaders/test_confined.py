"""Adversarial paths: a report that points at evidence outside the evidence root, or at
something that is not a regular file, fails the rules that need it; it never reads it, never
blocks, never crashes.

A small user profile extends ai-memory with one document the report names
(``evidence: {from_report: /evidence_path, required: true}``) and one rule that reads it. The
real fixture report gets an ``evidence_path``; the command line runs with ``--root root``.
A bad path written in the report is a failing rule (exit 1) with the exact reason on both the
``document-evidence`` result and the rule that reads the document. The same bad files given on
the command line (``--doc evidence=PATH``) cannot be evaluated: exit 2 with one line.

Reading a confined file: all of it, within the cap, also when it grows after it was measured.
"""

from __future__ import annotations

import json
import os
import signal
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench_gate.cli.app import main
from bench_gate.loaders import confined

from golden import ROOT

NOW = "2026-11-29T12:00:00Z"
BASE = json.loads((ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json").read_text(encoding="utf-8"))
PROFILE = """\
name: evidence-gate
description: ai-memory plus an evidence file that the report names
extends: ai-memory
documents:
  evidence: {from_report: /evidence_path, required: true, description: evidence named by the report}
rules:
  - id: evidence-ok
    title: The evidence file confirms the run
    check: fields
    with: {base: "evidence:", fields: [{path: /ok, type: boolean, one_of: [true]}]}
    why: The report's claim rests on this file.
"""
BIG = 512 * 1024 * 1024 + 1  # one byte over confined.MAX_DOCUMENT_BYTES


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """tmp/{gate.yaml, outside.json, root/{good.json, sub/, links, fifo, big.json}}; cwd = tmp."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (tmp_path / "gate.yaml").write_text(PROFILE, encoding="utf-8")
    (tmp_path / "outside.json").write_text('{"ok": true}\n', encoding="utf-8")
    (root / "good.json").write_text('{"ok": true}\n', encoding="utf-8")
    (root / "out-link.json").symlink_to("../outside.json")
    (root / "in-link.json").symlink_to("good.json")
    (root / "up").symlink_to("..")
    (root / "loop1").symlink_to("loop2")
    (root / "loop2").symlink_to("loop1")
    os.mkfifo(root / "fifo")
    with open(root / "big.json", "wb") as handle:  # sparse: no disk space used
        handle.truncate(BIG)
    monkeypatch.chdir(tmp_path)
    # A FIFO opened for reading blocks until a writer comes; fail the test instead of hanging.
    previous = signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(20)
    yield tmp_path
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _timeout(signum: int, frame: Any) -> None:
    raise TimeoutError("the gate blocked on a path")


def run(tmp: Path, written: Any, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, Any, str]:
    report = dict(BASE)
    if written is not ...:
        report["evidence_path"] = written
    (tmp / "report.json").write_text(json.dumps(report), encoding="utf-8")
    code = main(["report.json", "--profile", "./gate.yaml", "--root", "root", "--now", NOW,
                 "--format", "json", *extra])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def evidence_results(verdict: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(r["rule"], r["status"], r["message"]) for r in verdict["results"]
            if r["rule"] in ("document-evidence", "evidence-ok")]


ROOT_HINT = "; --root DIR names the folder these paths are relative to"
BAD: list[tuple[str, Any, str]] = [
    ("dotdot", "../outside.json", "path '../outside.json' leaves the evidence root 'root' with '..'"),
    ("dotdot-through-subdir", "sub/../../outside.json",
     "path 'sub/../../outside.json' leaves the evidence root 'root' with '..'"),
    ("dotdot-alone", "..", "path '..' leaves the evidence root 'root' with '..'"),
    ("absolute", "/etc/passwd", "path '/etc/passwd' is absolute and not under the evidence root 'root', and no trailing part of it "
     "names a file under the root (give --root, or the document's own option)"),
    ("absolute-device", "/dev/null", "path '/dev/null' is absolute and not under the evidence root 'root', and no trailing part of it "
     "names a file under the root (give --root, or the document's own option)"),
    ("absolute-proc", "/proc/self/environ",
     "path '/proc/self/environ' is absolute and not under the evidence root 'root', and no trailing part of it "
     "names a file under the root (give --root, or the document's own option)"),
    ("symlink-out", "out-link.json", "path 'out-link.json' leaves the evidence root 'root' through a symlink"),
    ("symlinked-parent-out", "up/outside.json",
     "path 'up/outside.json' leaves the evidence root 'root' through a symlink"),
    ("symlink-loop", "loop1", "path 'loop1' cannot be resolved (RuntimeError)"),
    ("fifo", "fifo", "is not a regular file (FIFO, socket or device)"),
    ("directory", "sub", "is a directory, not a file"),
    ("root-itself", ".", "is a directory, not a file"),
    ("nul-byte", "good.json\x00.txt", "path 'good.json\\x00.txt' contains a NUL or control character"),
    ("newline", "good\n.json", "path 'good\\n.json' contains a NUL or control character"),
    ("escape-sequence", "\x1b[32mgood.json", "path '\\x1b[32mgood.json' contains a NUL or control character"),
    ("too-long", "a/" * 2049, "path is longer than 4096 characters"),
    ("over-size-cap", "big.json", f"is {BIG} bytes, over the {BIG - 1}-byte limit"),
    ("missing", "missing.json", f"no such file in the evidence root 'root'{ROOT_HINT}"),
    ("file-as-parent", "good.json/x", "no such file (a parent is not a directory)"),
    ("tilde-is-not-home", "~/x.json", f"no such file in the evidence root 'root'{ROOT_HINT}"),
]


@pytest.mark.parametrize(("written", "reason"), [r[1:] for r in BAD], ids=[r[0] for r in BAD])
def test_bad_path_in_report_fails_the_rules_that_need_it(written: str, reason: str, tree: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict, err = run(tree, written, capsys)
    assert (code, err) == (1, "")
    # a path over 200 characters is shown by its start and end, never whole
    shown = written if len(written) <= 200 else f"{written[:120]}…{written[-60:]}"
    assert evidence_results(verdict) == [
        ("document-evidence", "fail", f"{shown}: {reason}"),
        ("evidence-ok", "fail", f"document 'evidence' ({shown}) {reason}"),
    ]
    assert "internal error" not in json.dumps(verdict)


@pytest.mark.parametrize(("written", "shown"), [
    ("", '""'), ("   ", '"   "'), (5, "5"), (True, "true"), (["good.json"], '["good.json"]'),
    ({"path": "good.json"}, "{object with 1 key}"),
], ids=["empty", "blank", "number", "boolean", "list", "object"])
def test_path_that_is_not_a_string_fails(written: Any, shown: str, tree: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict, _ = run(tree, written, capsys)
    reason = f"report:/evidence_path must be a non-empty path string, got {shown}"
    assert code == 1
    assert evidence_results(verdict) == [
        ("document-evidence", "fail", f"{shown}: {reason}"),
        ("evidence-ok", "fail", f"document 'evidence' ({shown}) {reason}"),
    ]


@pytest.mark.parametrize("written", [..., None], ids=["absent", "null"])
def test_required_evidence_not_named_fails(written: Any, tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict, _ = run(tree, written, capsys)
    assert code == 1
    assert evidence_results(verdict) == [
        ("document-evidence", "fail", "required document 'evidence' was not supplied "
                                      "(give --doc evidence=PATH or set report:/evidence_path)"),
        ("evidence-ok", "fail", "document 'evidence' was not supplied"),
    ]


@pytest.mark.parametrize("written", ["good.json", "in-link.json", "sub/../good.json", "./good.json"],
                         ids=["plain", "symlink-inside", "dotdot-inside", "dot-slash"])
def test_paths_that_stay_inside_the_root_are_read(written: str, tree: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict, _ = run(tree, written, capsys)
    assert code == 0
    assert evidence_results(verdict) == [
        ("document-evidence", "pass", f"read {written} from the report:/evidence_path "
                                      "(13 bytes, sha256 55f66c2c5aeb275f…)"),
        ("evidence-ok", "pass", "evidence: ok=true"),
    ]


def test_device_inside_the_root_is_refused(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        os.mknod(tree / "root" / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError):
        pytest.skip("creating a device node needs privileges")
    code, verdict, _ = run(tree, "null", capsys)
    assert code == 1
    assert evidence_results(verdict)[0] == ("document-evidence", "fail",
                                            "null: is not a regular file (FIFO, socket or device)")


CLI_BAD: list[tuple[str, str, str]] = [
    ("fifo", "root/fifo", "is not a regular file (FIFO, socket or device)"),
    ("device", "/dev/null", "is not a regular file (FIFO, socket or device)"),
    ("directory", "root/sub", "is a directory, not a file"),
    ("nul-byte", "root/good.json\x00", "path 'root/good.json\\x00' contains a NUL or control character"),
    ("too-long", "a/" * 2049, "path is longer than 4096 characters"),
    ("over-size-cap", "root/big.json", f"is {BIG} bytes, over the {BIG - 1}-byte limit"),
    ("missing", "root/missing.json", "no such file"),
    ("symlink-loop", "root/loop1", "cannot be read (Too many levels of symbolic links)"),
]


@pytest.mark.parametrize(("path", "reason"), [r[1:] for r in CLI_BAD], ids=[r[0] for r in CLI_BAD])
def test_bad_file_named_on_the_command_line_is_exit_2(path: str, reason: str, tree: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict, err = run(tree, ..., capsys, "--doc", f"evidence={path}")
    assert (code, verdict) == (2, None)
    # the error line writes a control character as an escape: it stays one line
    shown = path.replace("\x00", "\\x00")
    assert err == f"bench-gate: error: --doc evidence {shown}: {reason}\n"


@pytest.mark.parametrize("path", ["outside.json", "root/out-link.json", "root/../outside.json",
                                  "ABS/outside.json"],
                         ids=["outside-root", "symlink-out", "dotdot", "absolute"])
def test_command_line_paths_are_not_confined(path: str, tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = path.replace("ABS", str(tree))
    code, verdict, _ = run(tree, ..., capsys, "--doc", f"evidence={path}")
    assert code == 0
    assert evidence_results(verdict)[0][:2] == ("document-evidence", "pass")
    assert evidence_results(verdict)[0][2].startswith(f"read {path} from the command line (13 bytes")


@pytest.mark.parametrize(("path", "reason"), [
    ("root/fifo", "is not a regular file (FIFO, socket or device)"),
    ("/dev/null", "is not a regular file (FIFO, socket or device)"),
    ("root/sub", "is a directory, not a file"),
    ("root/big.json", f"is {BIG} bytes, over the {BIG - 1}-byte limit"),
], ids=["fifo", "device", "directory", "over-size-cap"])
def test_bad_report_file_is_exit_2(path: str, reason: str, tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([path, "--profile", "ai-memory", "--now", NOW])
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", f"bench-gate: error: report {path}: {reason}\n")


# --- Reading a confined file: all of it, within the cap, also when it grows after it was measur ------

def _located(path: Path) -> confined.Located:
    return confined.locate(str(path), path.parent, confine=False)


def test_a_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b"x" * 10_000)
    assert confined.read_confined(_located(path)) == b"x" * 10_000


@pytest.mark.parametrize(("cap", "grew_past_cap"), [(100, False), (60, True)])
def test_a_file_that_grew_after_it_was_measured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 cap: int, grew_past_cap: bool) -> None:
    """The size the file had when opened is only where reading starts: what was written since is
    read too, and counts against the cap."""
    path = tmp_path / "r.json"
    path.write_bytes(b"y" * 80)
    opened = confined.open_confined

    def measured_smaller(loc: confined.Located, max_bytes: int | None) -> tuple[object, int]:
        handle, _ = opened(loc, None)  # it was 50 bytes, within any cap, when measured
        return handle, 50  # as if 30 bytes were appended after the size was taken

    monkeypatch.setattr(confined, "open_confined", measured_smaller)
    if grew_past_cap:
        with pytest.raises(confined.DocumentError, match="grew over the 60-byte limit while read"):
            confined.read_confined(_located(path), max_bytes=cap)
    else:
        assert confined.read_confined(_located(path), max_bytes=cap) == b"y" * 80
