"""The suite's own layout: test folders mirror the package, test modules have names of their own
(pytest imports each by its file name) and share helpers, never each other."""

from __future__ import annotations

import re
from collections import Counter

from repo import ROOT

TESTS = ROOT / "tests"
PACKAGE = ROOT / "src" / "bench_gate"


def test_module_names_are_unique() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [name for name, n in names.items() if n > 1] == []


def test_no_test_module_imports_another() -> None:
    found = [f"{p.relative_to(TESTS)}: {m.group(0)}" for p in sorted(TESTS.rglob("*.py"))
             for m in re.finditer(r"^(from|import) (tests\.|test_)\S*", p.read_text(encoding="utf-8"), re.M)]
    assert found == []


def test_check_folders_are_the_check_families() -> None:
    families = {p.name for p in (PACKAGE / "checks").iterdir() if (p / "__init__.py").exists()}
    folders = {p.name for p in (TESTS / "checks").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == families


def test_package_folders_have_test_folders() -> None:
    """Every subpackage of bench_gate with code of its own has its tests in the folder of its name."""
    packages = {p.parent.name for p in PACKAGE.glob("*/*.py")
                if p.name != "__init__.py" and p.parent.name not in ("data", "__pycache__")}
    assert {name for name in packages if not (TESTS / name).is_dir()} == set()
