"""Documentation matches behaviour: every rule of a built-in profile is documented."""

from __future__ import annotations


import pytest

from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.sources import builtin_names
from repo import ROOT



# A profile without a page of its own is documented on the page of the profile it belongs with.
PAGE = {"aef-seal": "memory-pair"}


@pytest.mark.parametrize("name", builtin_names())
def test_every_rule_is_documented(name: str) -> None:
    page = ROOT / "docs" / f"{PAGE.get(name, name)}.md"
    assert page.exists(), f"profile {name} has no page: write docs/{name}.md or map it in PAGE"
    doc = page.read_text(encoding="utf-8")
    plan = bind(load_profile(name))
    missing = [r.id for r in plan.rules if f"`{r.id}`" not in doc]
    assert missing == [], f"rules of {name} not in docs/{name}.md: {missing}"


def test_ai_memory_is_documented() -> None:
    assert (ROOT / "docs" / "ai-memory.md").exists()


def test_readme_quick_start_is_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("\n", 1)[1] for b in section.split("```")[1::2]]  # without the info string
    assert len(blocks) == 2
    assert all(len([ln for ln in b.strip().splitlines() if ln.strip()]) == 1 for b in blocks)
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert blocks[1].strip() in run


def test_every_check_kind_is_listed_in_the_profile_guide() -> None:
    from bench_gate.checks import registry

    guide = (ROOT / "docs" / "profiles.md").read_text(encoding="utf-8")
    missing = [name for name in registry() if f"`{name}`" not in guide]
    assert missing == []
