"""A path whose ``..`` climbs out of a folder that does not exist (``x/../a.json``) names nothing
the system can open: wherever a ledger or a report writes one, it is a finding of that entry or
document, never an internal error, and never a read of the file it would name on paper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from golden import case, materialise, run_main



def honest(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    work = materialise(case("ledger/honest"), tmp_path)
    return work, json.loads((work / "manifest.json").read_text(encoding="utf-8"))


def gate(work: Path, manifest: dict[str, Any], spec_now: str = "2026-11-29T12:00:00Z") -> tuple[int, dict[str, Any], str]:
    (work / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    code, out, err = run_main(["ledger", "manifest.json"], spec_now, work, "json")
    return code, (json.loads(out) if out else {}), err


def failing(verdict: dict[str, Any]) -> dict[str, str]:
    return {r["rule"]: r["message"] for r in verdict["results"] if r["status"] == "fail"}


def test_the_honest_ledger_passes(tmp_path: Path) -> None:
    work, manifest = honest(tmp_path)
    code, verdict, err = gate(work, manifest)
    assert (code, err) == (0, ""), failing(verdict)


@pytest.mark.parametrize("missing", ["x", "x/y", "nowhere/deeper"])
def test_a_local_artifact_through_a_missing_folder(tmp_path: Path, missing: str) -> None:
    work, manifest = honest(tmp_path)
    written = f"{missing}/{'../' * (missing.count('/') + 1)}longmemeval_hybrid_20260610.json"
    manifest["citable"][0]["artifact"] = written
    code, verdict, err = gate(work, manifest)
    assert (code, err) == (1, "")
    found = failing(verdict)
    assert f"/citable/0/artifact \"{written}\": path '{written}' goes through '{missing}', which is not a folder" \
        in found["citable-sources"]


def test_an_external_manifest_through_a_missing_folder(tmp_path: Path) -> None:
    work, manifest = honest(tmp_path)
    manifest["citable"][2]["external_artifact_manifest"] = "x/../external/live_full_123.json"
    code, verdict, err = gate(work, manifest)
    assert (code, err) == (1, "")
    assert "goes through 'x', which is not a folder" in failing(verdict)["citable-sources"]


def test_a_receipt_through_a_missing_folder(tmp_path: Path) -> None:
    work, manifest = honest(tmp_path)
    contract = manifest["gate_contracts"][0]["metric_contracts"][2]
    contract["required_receipt"] = "gone/../receipts/eval-regression-gate.json"
    code, verdict, err = gate(work, manifest)
    assert (code, err) == (1, "")
    assert "goes through 'gone', which is not a folder" in failing(verdict)["contract-receipts"]


def test_a_history_directory_through_a_missing_folder(tmp_path: Path) -> None:
    work, manifest = honest(tmp_path)
    manifest["history"]["directory"] = "x/../history"
    code, verdict, err = gate(work, manifest)
    assert (code, err) == (1, "")
    assert "goes through 'x', which is not a folder" in failing(verdict)["history-summaries"]


def test_a_path_through_a_folder_that_exists_is_read(tmp_path: Path) -> None:
    work, manifest = honest(tmp_path)
    manifest["citable"][0]["artifact"] = "history/../longmemeval_hybrid_20260610.json"
    manifest["no_regression"][0]["baseline"] = "history/../longmemeval_hybrid_20260610.json"
    code, verdict, err = gate(work, manifest)
    assert (code, err) == (0, ""), failing(verdict)


@pytest.mark.parametrize(("written", "through"), [("x/../a.json", "x"), ("sub/x/../../a.json", "sub/x"),
                                                ("a.json/../a.json", "a.json"), ("./x/../a.json", "x")])
def test_the_confined_loader_refuses_dot_dot_after_what_is_not_a_folder(tmp_path: Path, written: str,
                                                                        through: str) -> None:
    """The loader every report, ledger and claims document goes through refuses such a path."""
    from bench_gate.loaders.confined import DocumentError, locate

    (tmp_path / "sub").mkdir()
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    with pytest.raises(DocumentError, match=f"goes through '{through}', which is not a folder"):
        locate(written, tmp_path, confine=True)
    assert locate("sub/../a.json", tmp_path, confine=True).real == (tmp_path / "a.json").resolve()
