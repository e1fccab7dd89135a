"""Each check kind is documented once, in its docstring; the guide and the info commands use that text."""

from __future__ import annotations


import pytest

from bench_gate.checks import registry
from bench_gate.profile.kinddocs import kind_doc, kind_entry, params_of, render_guide, rule_entry, rule_text
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.sources import builtin_names
from repo import ROOT


GUIDE = ROOT / "docs" / "profiles.md"


def test_the_profile_guide_reference_is_generated_from_the_docstrings() -> None:
    # The checkout's guide, whether bench-gate is installed from it editable or not.
    current = GUIDE.read_text(encoding="utf-8")
    assert render_guide(current) == current, "run: python -m bench_gate.profile.kinddocs"


@pytest.mark.parametrize("name", sorted(registry()))
def test_every_kind_has_its_documentation(name: str) -> None:
    kind = registry()[name]
    doc = kind_doc(kind)
    assert len(doc) >= 40, f"{name}: document it in the docstring of {kind.run.__module__}.{kind.run.__name__}"
    entry = kind_entry(name)
    assert entry.startswith(f"{name}  ({kind.run.__module__})\n    {kind.summary}\n")
    assert doc in entry
    assert all(f"    {p['name']}: {p['type']} = " in entry for p in params_of(kind))


def test_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(KeyError) as exc:
        kind_entry("freshh")
    assert "no check kind 'freshh'; did you mean 'fresh'? (known: " in str(exc.value) and "fresh, " in str(exc.value)
    with pytest.raises(KeyError) as exc:
        kind_entry("zzzz")
    assert "no check kind 'zzzz' (known: " in str(exc.value)


def test_one_rule_with_its_effective_parameters_and_no_nulls() -> None:
    plan = bind(load_profile("official-sota"), {"max_baseline_age": "P14D"})
    entry = rule_entry(plan, "sota-baseline-fresh")
    assert entry == {"id": "sota-baseline-fresh", "title": "The baseline was checked at most max_baseline_age ago",
                     "severity": "error", "check": "fresh",
                     "params": {"at": "baseline:/checked_at", "max_age": "P14D", "optional": False},
                     "why": "A stale baseline lets an old leaderboard number pass as the current best.",
                     "source": "policies/official-freshness.yaml:3"}
    assert rule_text(entry) == (
        "sota-baseline-fresh  [error, fresh]  policies/official-freshness.yaml:3\n"
        "    The baseline was checked at most max_baseline_age ago\n"
        "    why: A stale baseline lets an old leaderboard number pass as the current best.\n"
        '    with: {"at": "baseline:/checked_at", "max_age": "P14D", "optional": false}\n')


@pytest.mark.parametrize("name", builtin_names())
def test_every_rule_of_every_profile_can_be_explained(name: str) -> None:
    plan = bind(load_profile(name))
    for rule in plan.rules:
        entry = rule_entry(plan, rule.id)
        text = repr(entry["params"])
        assert "None" not in text, (rule.id, text)
        assert rule_text(entry).startswith(f"{rule.id}  [{rule.severity}, {rule.check}]")
    with pytest.raises(KeyError, match=f"profile {name} has no rule 'no-such-rule'"):
        rule_entry(plan, "no-such-rule")


def test_kinds_name_and_explain_rule_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    from bench_gate.cli.app import main

    assert main(["kinds", "json_schema"]) == 0
    assert capsys.readouterr().out == kind_entry("json_schema")
    assert main(["explain", "official-sota", "sota-baseline-fresh", "--set", "max_baseline_age=P14D"]) == 0
    assert capsys.readouterr().out.endswith('    with: {"at": "baseline:/checked_at", "max_age": "P14D", '
                                             '"optional": false}\n')
    assert main(["explain", "official-sota", "nope"]) == 2
    assert capsys.readouterr().err == ("bench-gate: error: profile official-sota has no rule 'nope' "
                                       "(`bench-gate explain official-sota` lists them)\n")
    assert main(["kinds", "freshh"]) == 2
    assert "bench-gate: error: no check kind 'freshh'; did you mean 'fresh'? (known: " in capsys.readouterr().err
    assert main(["explain", "official-sota", "--set", "max_baseline_age=30"]) == 2
    assert capsys.readouterr().err == ("bench-gate: error: --set max_baseline_age: must be an ISO 8601 duration "
                                       "(P30D, P1M, P1Y), got 30\n")


def test_explain_leaves_out_null_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from bench_gate.cli.app import main

    assert main(["explain", "official-sota", "--format", "json"]) == 0
    rules = json.loads(capsys.readouterr().out)["rules"]
    assert rules and all("None" not in repr(r["params"]) and "null" not in json.dumps(r["params"]) for r in rules)
