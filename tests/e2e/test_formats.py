"""The CI formats end to end, through the real command line.

* The bundled example report (as is, with an inflated recall@5, both in one call, and with a
  waiver that holds and one that expired) is pinned byte for byte in every CI format under
  ``tests/data/formats/``.
* ``--output-file FORMAT=PATH`` writes the same bytes as ``--format FORMAT`` in the same run.

(Every golden case renders every CI format from its one verdict: ``golden.check_renderings``.)
"""

from __future__ import annotations

import io
import json
import os
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import jsonschema
import pytest

from bench_gate.cli.app import main
from repo import DATA, ROOT

PINNED = DATA / "formats"
EXAMPLE = ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json"
NOW = "2026-06-20T00:00:00Z"
FORMATS = {"junit": "xml", "sarif": "sarif", "github": "txt", "markdown": "md"}
SARIF = jsonschema.Draft4Validator(
    json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
)


@contextmanager
def _cwd(path: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def gate(workdir: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with _cwd(workdir), redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "reports").mkdir()
    shutil.copyfile(EXAMPLE, tmp_path / "reports" / "good.json")
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["overall"]["recall@5"] = 0.99
    (tmp_path / "reports" / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "waivers.yaml").write_text(WAIVERS, encoding="utf-8")
    return tmp_path


# One waiver that holds and one that expired before --now.
WAIVERS = """\
waivers:
  - rule: metrics-consistent
    reason: "recall@5 is re-labelled upstream; tracked in EVAL-142"
    approved_by: eval-leads
    expires: 2026-12-31
  - rule: metrics-recompute
    reason: "summary regenerated after the fix"
    approved_by: eval-leads
    expires: 2026-05-31
"""

PINNED_CASES = {
    "example-pass": (0, ["reports/good.json"]),
    "example-fail": (1, ["reports/bad.json"]),
    "example-batch": (1, ["reports/bad.json", "reports/good.json"]),
    "example-waived": (1, ["reports/bad.json", "--waivers", "waivers.yaml"]),
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", PINNED_CASES)
def test_pinned_output(
    case: str, fmt: str, workspace: Path, request: pytest.FixtureRequest
) -> None:
    exit_code, reports = PINNED_CASES[case]
    code, out, err = gate(workspace, *reports, "--profile", "ai-memory", "--now", NOW,
                          "--format", fmt)
    assert (code, err) == (exit_code, "")
    path = PINNED / f"{case}.{FORMATS[fmt]}"
    if request.config.getoption("--update-golden", default=False):
        if os.environ.get("CI"):
            pytest.fail("--update-golden refuses to run under CI")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(out, encoding="utf-8", newline="")
    assert out == path.read_bytes().decode("utf-8")
    if fmt == "sarif":
        assert [e.message for e in SARIF.iter_errors(json.loads(out))] == []
    if fmt == "junit":
        ET.fromstring(out.encode("utf-8"))


def test_output_files_match_single_format_runs(workspace: Path) -> None:
    base = ["reports/bad.json", "--profile", "ai-memory", "--now", NOW]
    extra = [f"--output-file={fmt}=out/{fmt}.{ext}" for fmt, ext in FORMATS.items()]
    (workspace / "out").mkdir()
    code, text, err = gate(workspace, *base, "--no-color", *extra)
    assert (code, err) == (1, "")
    assert text == gate(workspace, *base, "--no-color", "--format", "text")[1]
    for fmt, ext in FORMATS.items():
        written = (workspace / "out" / f"{fmt}.{ext}").read_text(encoding="utf-8")
        assert written == gate(workspace, *base, "--format", fmt)[1], fmt
