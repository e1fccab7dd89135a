"""The CI formats end to end, through the real command line.

* The bundled example report (as is, with an inflated recall@5, both in one call, and with a
  waiver that holds and one that expired) is pinned byte for byte in every CI format under
  ``tests/data/formats/``.
* ``--output-file FORMAT=PATH`` writes the same bytes as ``--format FORMAT`` in the same run.
* Every golden case of every profile, rendered as SARIF, is valid against the official SARIF
  2.1.0 schema; as JUnit it parses and has one testcase per result; as GitHub commands every line
  is a command or a summary; as Markdown it has one table row per result.
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
from golden import Case, cases, materialise

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
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


EVALUATED = [c for c in cases() if c.exit != 2]


@pytest.mark.parametrize("case", EVALUATED, ids=[c.id for c in EVALUATED])
def test_every_golden_case_in_every_ci_format(case: Case, tmp_path: Path) -> None:
    work = materialise(case, tmp_path / "case")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    files = {fmt: out_dir / f"verdict.{ext}" for fmt, ext in FORMATS.items()}
    extra = [f"--output-file={fmt}={path}" for fmt, path in files.items()]
    code, out, err = gate(work, *case.args, "--now", case.now, "--format", "json", *extra)
    assert code in (0, 1), err  # the exact code is test_golden's business; here: evaluated
    verdict = json.loads(out)
    verdicts = verdict["verdicts"] if "verdicts" in verdict else [verdict]
    results = [r for v in verdicts for r in v["results"]]
    failing = [r for r in results if r["status"] in ("fail", "waived")]
    text = {fmt: path.read_text(encoding="utf-8") for fmt, path in files.items()}

    log = json.loads(text["sarif"])
    assert [f"{e.absolute_path}: {e.message}" for e in SARIF.iter_errors(log)] == []
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == [r["rule"] for r in failing]

    root = ET.fromstring(text["junit"].encode("utf-8"))
    assert [c.get("name") for c in root.iter("testcase")] == [r["rule"] for r in results]
    assert int(root.get("failures", "-1")) == sum(r["status"] == "fail" for r in results)

    lines = text["github"].splitlines()
    assert len([line for line in lines if line.startswith("::")]) == len(failing)
    assert all(line.startswith(("::", "bench-gate ")) for line in lines)

    rows = [line for line in text["markdown"].splitlines() if line.startswith("| `")]
    assert len(rows) == len(results)
