"""What a person sees: failures first and alone by default, positions in the file, one line per pass."""

from __future__ import annotations

import io
import json
import os
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from bench_gate.cli.app import main
from bench_gate.loaders.positions import positions
from repo import ROOT

EXAMPLE = ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json"
SIBYL = ROOT / "examples" / "sibyl-repo" / "benchmarks" / "results" / "ai-memory"
NOW = ["--now", "2026-11-29T12:00:00Z", "--no-color"]


def run(args: list[str], cwd: Path | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(args)
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


# --- positions -------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "pointer", "expected"), [
    ('{"a": 1}', "/a", (1, 7)),
    ('{\n  "a": {\n    "b": [10, 20]\n  }\n}', "/a/b/1", (3, 15)),
    ('{"x": "a\\"}", "y": 2}', "/y", (1, 20)),
    ('{"a/b": {"~": 3}}', "/a~1b/~0", (1, 15)),
    ('{"é": "ü", "k": 1}', "/k", (1, 17)),
    ('{"a": {"b": 1}}', "/a/missing", (1, 7)),
    ('{"a": [1, 2]}', "/a/7", (1, 7)),
    ('[{"a": 1}, {"a": 2}]', "/1/a", (1, 18)),
    ('{"a": 1}', "", (1, 1)),
], ids=["top", "nested", "escaped-quote", "escaped-tokens", "unicode-columns", "missing-key",
        "missing-index", "array-root", "whole"])
def test_positions(text: str, pointer: str, expected: tuple[int, int]) -> None:
    assert positions(text, [pointer]) == {pointer: expected}


def test_positions_in_the_bundled_report() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    found = positions(text, ["/overall/recall@5", "/case_results/499/recall@5"])
    lines = text.split("\n")
    for pointer, (line, column) in found.items():
        key = pointer.rsplit("/", 1)[1]
        assert lines[line - 1][:column - 1].rstrip().endswith(f'"{key}":')
    assert found["/case_results/499/recall@5"][0] > found["/overall/recall@5"][0]


# --- the text output -------------------------------------------------------------------------


def test_a_pass_is_one_line_with_the_recomputed_figures() -> None:
    code, out, err = run([str(EXAMPLE), "-p", "ai-memory", *NOW])
    assert (code, err) == (0, "")
    assert out == (f"bench-gate: PASS  {EXAMPLE}  profile ai-memory: 0 failed, 23 passed, 25 skipped; "
                   "recomputed from 500 cases, all claims match: hit@5 0.98, recall@5 0.9406, "
                   "ndcg@5 0.9107, hit@10 0.992, recall@10 0.9717, ndcg@10 0.924\n")


def test_verbose_adds_passes_and_very_verbose_adds_skips() -> None:
    plain = run([str(EXAMPLE), "-p", "ai-memory", *NOW])[1]
    one = run([str(EXAMPLE), "-p", "ai-memory", *NOW, "-v"])[1]
    two = run([str(EXAMPLE), "-p", "ai-memory", *NOW, "-vv"])[1]
    labels = [[line.split()[0] for line in out.splitlines() if not line.startswith((" ", "bench-gate"))]
              for out in (plain, one, two)]
    assert labels == [[], ["PASS"] * 23, ["PASS"] * 23 + ["SKIP"] * 25]
    assert one.splitlines()[-1] == two.splitlines()[-1] == plain.strip()
    assert "       not applicable: --citable not given" in two


def test_the_overclaiming_artifact_leads_with_the_recompute_mismatch() -> None:
    code, out, _ = run(["longmemeval_sibyl_hybrid_20260513.json", "-p", "ai-memory", *NOW], cwd=SIBYL)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == ("bench-gate: evidence root: the current directory (paths written inside a "
                        "report are read from there; --root DIR changes it)")
    assert lines[1] == "FAIL   metrics-recompute   longmemeval_sibyl_hybrid_20260513.json:38:17 /overall/recall@5"
    assert lines[2].startswith("       claimed 0.98, recomputed strict recall@5 from 500 cases is 0.9406 "
                               "(hit@5 is 0.98: the value looks like hit@5 labelled as recall@5)")
    assert lines[3] == ("       - longmemeval_sibyl_hybrid_20260513.json:37:14 /overall/hit@5: hit@5 is "
                        "not reported (recomputed 0.98 from 500 cases)")
    assert not any(line.startswith(("PASS", "SKIP")) for line in lines)
    assert lines[-1] == ("bench-gate: FAIL  longmemeval_sibyl_hybrid_20260513.json  profile ai-memory: "
                         "2 failed, 21 passed, 25 skipped")


def test_a_batch_ends_with_each_failing_report_and_its_rules() -> None:
    reports = ["longmemeval_sibyl_hybrid_rc1_20260610.json", "longmemeval_sibyl_raw_20260513.json",
               "longmemeval_sibyl_hybrid_20260513.json"]
    code, out, _ = run([*reports, "-p", "ai-memory", *NOW], cwd=SIBYL)
    assert code == 1
    assert out.splitlines()[-3:] == [
        "bench-gate: 3 reports, 2 failed, 1 passed",
        "  FAIL  longmemeval_sibyl_raw_20260513.json: metrics-recompute, metrics-consistent",
        "  FAIL  longmemeval_sibyl_hybrid_20260513.json: metrics-recompute, metrics-consistent",
    ]


def test_missing_evidence_names_the_evidence_root(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "official" / "longmembench-report.json", tmp_path / "report.json")
    code, out, _ = run(["report.json", "-p", "official-full", *NOW], cwd=tmp_path)
    assert code == 1
    assert out.startswith("bench-gate: evidence root: the current directory")
    assert ("path '/home/ci/LongMemEval/data/longmemeval_s_question_types.json' is absolute and not "
            "under the evidence root '.', and no trailing part of it names a file under the root "
            "(give --root, or the document's own option)\n") in out
    (tmp_path / "report.json").write_text((tmp_path / "report.json").read_text(encoding="utf-8").replace(
        "/home/ci/LongMemEval/data/longmemeval_s_question_types.json", "data/types.json"), encoding="utf-8")
    out = run(["report.json", "-p", "official-full", *NOW], cwd=tmp_path)[1]
    assert ("       data/types.json: no such file in the evidence root '.'; "
            "--root DIR names the folder these paths are relative to\n") in out
    code, out, _ = run(["report.json", "-p", "official-full", "--root", "elsewhere", *NOW], cwd=tmp_path)
    assert code == 2  # --root must exist


# --- positions in the CI formats -------------------------------------------------------------


def test_sarif_and_github_put_a_finding_on_its_line() -> None:
    args = ["longmemeval_sibyl_hybrid_20260513.json", "-p", "ai-memory", *NOW]
    log = json.loads(run([*args, "--format", "sarif"], cwd=SIBYL)[1])
    result = log["runs"][0]["results"][0]
    assert result["ruleId"] == "metrics-recompute"
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 38, "startColumn": 17}
    assert result["message"]["text"].endswith("(report:/overall/recall@5)")
    assert log["runs"][0]["tool"]["driver"]["rules"][0]["help"]["text"]
    annotations = run([*args, "--format", "github"], cwd=SIBYL)[1].splitlines()
    assert annotations[0].startswith(
        "::error file=longmemeval_sibyl_hybrid_20260513.json,line=38,col=17,title=metrics-recompute::")


def test_the_json_verdict_does_not_carry_positions() -> None:
    doc = json.loads(run(["longmemeval_sibyl_hybrid_20260513.json", "-p", "ai-memory", *NOW,
                          "--format", "json"], cwd=SIBYL)[1])
    assert "positions" not in doc and all("line" not in r for r in doc["results"])
