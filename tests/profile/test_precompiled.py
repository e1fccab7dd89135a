"""Precompiled built-in profiles: committed files are current, used only while current."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from bench_gate.profile import precompiled as compiled
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.merge import compile_profile
from bench_gate.profile.sources import builtin_names

NAMES = builtin_names()


@pytest.mark.parametrize("name", NAMES)
def test_committed_precompiled_file_is_current(name: str) -> None:
    committed = (compiled.PRECOMPILED / f"{name}.json").read_text(encoding="utf-8")
    assert committed == compiled.render(name), "run: python -m bench_gate.profile.precompiled"


def test_no_precompiled_file_without_a_profile() -> None:
    assert sorted(p.stem for p in compiled.PRECOMPILED.glob("*.json")) == NAMES


def _without_lines(profile):  # the precompiled form keeps the line numbers of rules only
    rules = tuple(dataclasses.replace(r, lines=None) for r in profile.rules)
    return dataclasses.replace(profile, rules=rules)


@pytest.mark.parametrize("name", NAMES)
def test_precompiled_and_source_profiles_are_the_same(name: str) -> None:
    pre = compiled.load(name)
    assert pre is not None, "the precompiled file is stale: run python -m bench_gate.profile.precompiled"
    source = compile_profile(name)
    assert _without_lines(pre) == _without_lines(source)
    assert pre.kinds == source.kinds
    assert bind(pre).digest == bind(source).digest
    for rule_pre, rule_src in zip(pre.rules, source.rules):
        for path in [rule_src.path + ("with",)] + [rule_src.path + ("with", k) for k in rule_src.spec.with_]:
            assert rule_pre.lines.line(path) == rule_src.lines.line(path)


def test_load_profile_uses_the_precompiled_form() -> None:
    assert load_profile("ai-memory").rules[0].lines is not compile_profile("ai-memory").rules[0].lines
    assert load_profile("ai-memory") == compiled.load("ai-memory")


@pytest.fixture()
def moved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the precompiled ai-memory file that a test may change."""
    target = tmp_path / "precompiled"
    target.mkdir()
    shutil.copy(compiled.PRECOMPILED / "ai-memory.json", target / "ai-memory.json")
    monkeypatch.setattr(compiled, "PRECOMPILED", target)
    return target / "ai-memory.json"


def _edit(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("change", [
    lambda d: d["sources"].update({"policies/regression.yaml": "0" * 64}),
    lambda d: d["sources"].update({"code:policy.py": "0" * 64}),
    lambda d: d["sources"].update({"code:plan.py": "0" * 64}),
    lambda d: d["sources"].update({"code:no-such-module.py": None}),
    lambda d: d["sources"].update({"policies/no-such-policy.yaml": "0" * 64}),
    lambda d: d["sources"].update({"../../etc/passwd": "0" * 64}),
    lambda d: d.update({"sources": {}}),
    lambda d: d.update({"version": "0.0.0"}),
    lambda d: d.update({"format": 0}),
    lambda d: d["kinds"].update({"fields": "bench_gate.checks.recompute.retrieval"}),
    lambda d: d["kinds"].update({"fields": "os"}),
    lambda d: d["profile"]["rules"][0].pop("check"),
], ids=["policy-edited", "code-edited", "plan-edited", "code-recorded-unread", "source-gone", "source-outside", "no-sources", "version", "format",
        "kind-moved", "kind-module-foreign", "damaged"])
def test_a_stale_or_damaged_file_is_not_used(moved: Path, change) -> None:
    assert compiled.load("ai-memory") is not None
    _edit(moved, change)
    assert compiled.load("ai-memory") is None
    # and the profile still loads, from its YAML
    assert bind(load_profile("ai-memory")).digest == bind(compile_profile("ai-memory")).digest


def test_every_module_the_files_depend_on_exists() -> None:
    # a name that is no file would be recorded unread and never retire the files
    assert all((compiled.HERE / name).is_file() for name in compiled.CODE)


def test_not_json_is_not_used(moved: Path) -> None:
    moved.write_text("{")
    assert compiled.load("ai-memory") is None


@pytest.mark.parametrize("name", ["../ai-memory", "/etc/passwd", ".hidden", "", "no-such-profile"])
def test_only_builtin_names_are_looked_up(name: str) -> None:
    assert compiled.load(name) is None
