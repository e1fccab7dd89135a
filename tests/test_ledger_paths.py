"""Where ``bench-gate ledger`` reads a ledger's files from, and which profile names it accepts.

The repository root is ``--root``, else the current folder when the ledger lies below it, else
the nearest folder above the ledger holding ``.git``, else the ledger's folder; artifacts are
relative to the ledger's folder, ``history.directory`` to the root, and nothing leaves the root.
"""

from __future__ import annotations

import json
from contextlib import chdir as cwd
from pathlib import Path

import pytest

from bench_gate.gates.ledger_gate import LedgerError, external_names, read, repository_root




def tree(tmp_path: Path) -> Path:
    """repo/.git, repo/bench/ledger/manifest.json, repo/bench/ledger/a.json, repo/history/h.json."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "bench" / "ledger").mkdir(parents=True)
    (repo / "bench" / "ledger" / "manifest.json").write_text("{}", encoding="utf-8")
    (repo / "bench" / "ledger" / "a.json").write_text('{"x": 1}', encoding="utf-8")
    (repo / "history").mkdir()
    (tmp_path / "outside.json").write_text('{"x": 2}', encoding="utf-8")
    return repo


def test_root_is_the_current_folder_when_the_ledger_is_below_it(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    with cwd(repo / "bench"):
        found = repository_root(Path("ledger/manifest.json"), None)
    assert (found.root, found.folder, found.shown) == ((repo / "bench").resolve(), "ledger", Path("ledger"))


def test_root_is_the_nearest_git_folder_when_run_from_elsewhere(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with cwd(elsewhere):
        found = repository_root(repo / "bench" / "ledger" / "manifest.json", None)
    assert (found.root, found.folder) == (repo.resolve(), "bench/ledger")


def test_root_is_the_ledger_folder_without_git(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "manifest.json").write_text("{}", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with cwd(elsewhere):
        found = repository_root(folder / "manifest.json", None)
    assert (found.root, found.folder) == (folder.resolve(), "")


def test_root_option_wins_and_a_ledger_outside_it_is_exit_2(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    with cwd(tmp_path):
        found = repository_root(Path("repo/bench/ledger/manifest.json"), "repo")
        assert (found.root, found.folder) == (repo.resolve(), "bench/ledger")
        with pytest.raises(LedgerError) as exc:
            repository_root(Path("repo/bench/ledger/manifest.json"), "repo/history")
    assert str(exc.value) == "ledger repo/bench/ledger/manifest.json: not inside the repository root repo/history"


def test_read_is_relative_to_the_ledger_folder_and_confined_to_the_root(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    with cwd(repo):
        where = repository_root(Path("bench/ledger/manifest.json"), None)
        ok = read(where, "citable/0", "a.json")
        up = read(where, "citable/1", "../../history")
        out = read(where, "citable/2", "../../../outside.json")
        absolute = read(where, "citable/3", str(tmp_path / "outside.json"))
    assert (ok.error, ok.data, ok.path) == (None, {"x": 1}, "bench/ledger/a.json")
    assert up.error == "is a directory, not a file"
    assert out.error == "path '../../../outside.json' leaves the repository root '.' with '..'"
    assert absolute.error == (f"path {str(tmp_path / 'outside.json')!r} is absolute; paths in a ledger are "
                              "relative to its folder")


def test_read_refuses_a_symlink_out_of_the_repository(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    (repo / "bench" / "ledger" / "link.json").symlink_to(tmp_path / "outside.json")
    with cwd(repo):
        doc = read(repository_root(Path("bench/ledger/manifest.json"), None), "citable/0", "link.json")
    assert doc.error == "path 'link.json' leaves the repository root '.' through a symlink"


def test_history_is_read_from_the_repository_root(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from bench_gate.gates.ledger_gate import load_evidence

    repo = tree(tmp_path)
    (repo / "history" / "h.json").write_text('{"baseline_key": "k"}', encoding="utf-8")
    with cwd(repo):
        where = repository_root(Path("bench/ledger/manifest.json"), None)
        ev, _ = load_evidence({"history": {"directory": "history"}}, where, datetime(2026, 7, 4, tzinfo=UTC))
        docs = ev.extra["docs"]
        assert ev.data["history"] == {"files": [{"role": "history/h.json", "path": "history/h.json"}]}
        assert (docs["history/h.json"].path, docs["history/h.json"].data) == ("history/h.json", {"baseline_key": "k"})
        ev, _ = load_evidence({"history": {"directory": "../history"}}, where, datetime(2026, 7, 4, tzinfo=UTC))
    assert ev.data["history"]["error"] == "path '../history' leaves the repository root '.' with '..'"


@pytest.mark.parametrize("names,error", [
    (["product"], None),
    (["product", "product", "vendor.gates"], None),
    (["../lax.yaml"], "--external-profile '../lax.yaml': a profile name is lowercase letters, digits, '.', '_' and "
                      "'-' (not a path)"),
    (["Product"], "--external-profile 'Product': a profile name is lowercase letters, digits, '.', '_' and '-' "
                  "(not a path)"),
    (["ai-memory"], "--external-profile ai-memory: ai-memory is a built-in profile, enforced here"),
])
def test_external_profile_names(names: list[str], error: str | None) -> None:
    if error is None:
        assert external_names(names) == list(dict.fromkeys(names))
    else:
        with pytest.raises(LedgerError) as exc:
            external_names(names)
        assert str(exc.value) == error


def run_cli(args: list[str], where: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from bench_gate.cli.app import main

    with cwd(where):
        code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_external_profile_and_root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The options as a user types them: exit codes and the one-line errors."""
    manifest = {"schema_version": "x-ledger-v1", "updated_at": "2026-07-03", "release_scope": "r",
                "artifact_policy": "p", "citable": [{"artifact": "missing.json", "status": "citable",
                                                     "gate_profile": "ai-memory"}],
                "gate_contracts": [{"name": "g", "status": "planned", "blocking": False, "profile": "product",
                                    "metric_contracts": [{"metric": "m", "mode": "threshold", "direction": "higher",
                                                          "threshold": 1}]}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    now = ["--now", "2026-07-04T00:00:00Z", "--format", "json"]
    code, out, err = run_cli(["ledger", "manifest.json", *now], tmp_path, capsys)
    doc = json.loads(out)
    contracts = next(r for r in doc["results"] if r["rule"] == "gate-contracts")
    assert (code, contracts["status"]) == (1, "fail")
    assert "nor declared as enforced outside bench-gate (--external-profile product)" in contracts["message"]
    code, out, err = run_cli(["ledger", "manifest.json", "--external-profile", "product", *now], tmp_path, capsys)
    contracts = next(r for r in json.loads(out)["results"] if r["rule"] == "gate-contracts")
    assert (contracts["status"], contracts["message"]) == ("pass", (
        "1 gate contract: names unique, blocking matches status, profiles known (product enforced outside "
        "bench-gate), metric contracts complete"))
    code, out, err = run_cli(["ledger", "manifest.json", "--external-profile", "x/y", *now], tmp_path, capsys)
    assert (code, out, err) == (2, "", "bench-gate: error: --external-profile 'x/y': a profile name is lowercase "
                                       "letters, digits, '.', '_' and '-' (not a path)\n")
    (tmp_path / "sub").mkdir()
    code, out, err = run_cli(["ledger", "manifest.json", "--root", "sub", *now], tmp_path, capsys)
    assert (code, out, err) == (2, "", "bench-gate: error: ledger manifest.json: not inside the repository root sub\n")


def test_a_missing_history_folder_says_where_it_was_looked_for(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from bench_gate.gates.ledger_gate import load_evidence

    repo = tree(tmp_path)
    with cwd(tmp_path):  # the ledger lies below the current folder, which becomes the root
        where = repository_root(Path("repo/bench/ledger/manifest.json"), None)
        ev, _ = load_evidence({"history": {"directory": "history"}}, where, datetime(2026, 7, 4, tzinfo=UTC))
    assert where.root == tmp_path.resolve() and repo.is_dir()
    assert ev.data["history"]["error"] == ("no such folder under the repository root '.' (history.directory is "
                                           "relative to the repository root: run from it or give --root)")


def test_a_user_profile_can_declare_external_profiles(tmp_path: Path) -> None:
    """``extends: ledger`` with ``external_profiles``: the same as --external-profile, reviewed once."""
    from datetime import UTC, datetime

    from bench_gate.gates.ledger_gate import gate_ledger

    manifest = {"schema_version": "x-ledger-v1", "updated_at": "2026-07-03", "release_scope": "r",
                "artifact_policy": "p", "citable": [{"artifact": "missing.json", "status": "citable",
                                                     "gate_profile": "ai-memory"}],
                "gate_contracts": [{"name": "g", "status": "planned", "blocking": False, "profile": "product",
                                    "metric_contracts": [{"metric": "m", "mode": "threshold", "direction": "higher",
                                                          "threshold": 1}]}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (tmp_path / "my-ledger.yaml").write_text("name: my-ledger\ndescription: ledger with product gates\n"
                                             "extends: ledger\nparams:\n  external_profiles: [product]\n",
                                             encoding="utf-8")
    with cwd(tmp_path):
        verdict = gate_ledger("manifest.json", datetime(2026, 7, 4, tzinfo=UTC), profile="my-ledger.yaml")
    contracts = next(r for r in verdict.results if r.rule == "gate-contracts")
    assert (contracts.status, contracts.message) == ("pass", (
        "1 gate contract: names unique, blocking matches status, profiles known (product enforced outside "
        "bench-gate), metric contracts complete"))
