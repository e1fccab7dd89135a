"""A ledger field of any wrong type is a rule failure with its location, never an internal error.

Every field of the practice's real ledger, at any depth, and every field of the files it names
(the external artifact manifest, a history summary, a receipt) is replaced by a value of another
JSON type, and the ledger is gated: it yields a verdict whose failures say where, never an
exception. The base is the real ledger without its two 2026-05-13 entries, which passes as of
2026-07-04, so a replaced field of the manifest must make it fail: the shipped schema
(``ledger-v2``, rule ``ledger-header``) or a rule that reads the field says so.

Where ``bench-gate ledger`` reads a ledger's files from, and which profile names it accepts.

The repository root is ``--root``, else the current folder when the ledger lies below it, else
the nearest folder above the ledger holding ``.git``, else the ledger's folder; artifacts are
relative to the ledger's folder, ``history.directory`` to the root, and nothing leaves the root.

Ledger findings point to a line and column in the file they are about: the manifest itself,
or the artifact a citable entry names, whichever directory the ledger is gated from.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import chdir as cwd
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bench_gate.cli.commands import read_command
from bench_gate.gates.ledger_gate import LedgerError, external_names, gate_ledger, read, repository_root

from ledger_cache import gate_artifacts_once
from repo import ROOT

REPO = ROOT / "examples" / "sibyl-repo"
AI = "benchmarks/results/ai-memory"
LEDGER = f"{AI}/manifest.json"
NOW = datetime(2026, 7, 4, tzinfo=UTC)
# One value of each JSON type; a field is replaced by one whose type differs from its own.
VALUES: list[Any] = [None, True, 1.5, 7, "x", [], [1], {}, {"k": 1}]
FILES = {
    "manifest": LEDGER,
    "external": f"{AI}/external/longmemeval_sibyl_live_full_26304777971.json",
    "history": f"{AI}/history/2026-07-03-live-hybrid.json",
    "receipt": f"{AI}/write-path-integrity-receipt.json",
}


def passing_ledger() -> dict[str, Any]:
    """The real ledger without the two 2026-05-13 entries and their pair (it passes)."""
    doc = json.loads((REPO / LEDGER).read_text(encoding="utf-8"))
    del doc["citable"][0:2]
    del doc["no_regression"][0]
    return doc


REAL = {name: passing_ledger() if name == "manifest" else json.loads((REPO / path).read_text(encoding="utf-8"))
        for name, path in FILES.items()}


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key / index path into ``doc`` at any depth (the first three items of a long list)."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc[:3]) if isinstance(doc, list) else []
    for key, value in items:
        yield (*prefix, key)
        yield from paths(value, (*prefix, key))


PATHS = {name: list(paths(doc)) for name, doc in REAL.items()}


def value_at(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(doc)
    value_at(out, path[:-1])[path[-1]] = value
    return out


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("ledger-types") / "repo"
    shutil.copytree(REPO, where)
    (where / LEDGER).write_text(json.dumps(REAL["manifest"]), encoding="utf-8")
    return where


@pytest.fixture(scope="module")
def fast_gates() -> Iterator[None]:
    """The citable artifacts' own gates, evaluated once per input (``ledger_cache``): a 500-case
    recomputation per example would make the property tests too slow to run often."""
    with gate_artifacts_once():
        yield


def gate(repo: Path) -> Any:
    return gate_ledger(str(repo / LEDGER), NOW, root=str(repo), external_profiles=["product"], read_command=read_command)


def test_the_base_ledger_passes(repo: Path, fast_gates: None) -> None:
    verdict = gate(repo)
    assert verdict.passed, [r.message for r in verdict.results if r.status == "fail"]


def mutate(repo: Path, name: str, path: tuple[Any, ...], value: Any) -> Any:
    """Gate the ledger with one field of one file replaced; the file is restored afterwards."""
    target = repo / FILES[name]
    original = target.read_bytes()
    target.write_text(json.dumps(replaced(REAL[name], path, value)), encoding="utf-8")
    try:
        return gate(repo)
    finally:
        target.write_bytes(original)


def json_type(value: Any) -> str:
    # 7 and 0.005 are both JSON numbers: another magnitude is not another type.
    if isinstance(value, bool) or value is None:
        return repr(value) if value is None else "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def other_type(node: Any, value: Any) -> bool:
    return json_type(node) != json_type(value)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(PATHS["manifest"]), st.sampled_from(VALUES))
def test_a_manifest_field_of_another_type_fails_with_its_location(repo: Path, fast_gates: None,
                                                                  path: tuple[Any, ...], value: Any) -> None:
    if not other_type(value_at(REAL["manifest"], path), value):
        return
    verdict = mutate(repo, "manifest", path, value)
    failures = [r for r in verdict.results if r.status == "fail"]
    assert all("internal error" not in r.message for r in verdict.results)
    assert failures, f"/{'/'.join(map(str, path))} = {value!r} passed"
    assert all(r.pointer or r.document != "report" for r in failures), [r.message for r in failures]


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([(name, p) for name in ("external", "history", "receipt") for p in PATHS[name]]),
       st.sampled_from(VALUES))
def test_a_field_of_another_type_in_a_named_file_is_never_an_internal_error(
        repo: Path, fast_gates: None, where: tuple[str, tuple[Any, ...]], value: Any) -> None:
    name, path = where
    if not other_type(value_at(REAL[name], path), value):
        return
    verdict = mutate(repo, name, path, value)
    assert verdict.results and all("internal error" not in r.message for r in verdict.results)


def test_the_schema_finding_names_the_field(repo: Path, fast_gates: None) -> None:
    verdict = mutate(repo, "manifest", ("gate_contracts", 0, "metric_contracts", 0, "threshold"), "0")
    header = [r for r in verdict.results if r.rule == "ledger-header"]
    assert [(r.status, r.pointer) for r in header] == [("fail", "/gate_contracts/0/metric_contracts/0/threshold")]
    assert header[0].message == ("the ledger is not valid under schema ledger-v2: gate_contracts.0.metric_contracts.0."
                                 "threshold: '0' is not of type 'number'")


@pytest.mark.parametrize("value", [1.5, True])
def test_metric_contracts_of_a_non_list_type_is_a_finding(repo: Path, fast_gates: None, value: Any) -> None:
    verdict = mutate(repo, "manifest", ("gate_contracts", 0, "metric_contracts"), value)
    messages = {r.rule: r.message for r in verdict.results if r.status == "fail"}
    shown = "true" if value is True else "1.5"
    assert messages["gate-contracts"] == f"/gate_contracts/0/metric_contracts must be a non-empty list, got {shown}"


# --- Where ``bench-gate ledger`` reads a ledger's files from, and which profile names it accept ------

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


# --- Ledger findings point to a line and column in the file they are about: the manifest itself ------

MANIFEST = "benchmarks/results/ai-memory/manifest.json"
RAW = "benchmarks/results/ai-memory/longmemeval_sibyl_raw_20260513.json"


def line_col(path: Path, needle: str) -> tuple[int, int]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + len(needle) + 1
    raise AssertionError(needle)


@pytest.mark.parametrize("where", ["repository", "elsewhere"])
def test_artifact_and_manifest_findings_have_positions(where: str, tmp_path: Path) -> None:
    cwd = os.getcwd()
    os.chdir(REPO if where == "repository" else ROOT)
    try:
        manifest = MANIFEST if where == "repository" else str(Path("examples/sibyl-repo") / MANIFEST)
        verdict = gate_ledger(manifest, NOW, external_profiles=["product"], read_command=read_command)
        raw = Path(verdict.located["citable/0"])
        assert raw.resolve() == (REPO / RAW).resolve()
        assert json.loads(raw.read_text(encoding="utf-8"))["overall"]["recall@5"] == 0.966
        assert verdict.positions[("citable/0", "/overall/recall@5")] == line_col(raw, '"recall@5": ')
        assert ("report", "/no_regression/0") in verdict.positions
    finally:
        os.chdir(cwd)
