"""Shared test options: ``--update-golden`` rewrites the golden files and ``--update-docs`` the
output shown in the documentation's console examples (neither runs under CI).

The tests mirror the package (``tests/checks/<family>/``, ``tests/cli/``, ``tests/profile/``...);
``tests/profiles/`` holds the built-in profiles' own tests, ``tests/docs/`` the documentation's,
``tests/e2e/`` whole runs (golden cases, the console script, the Action, property tests). The
helper modules they share live in ``tests/`` (``golden``, ``inprocess``, ``repo``...) and
``tests/checks/`` (``kindtest``, ``pairsetup``, ``qasetup``, ``claimscan``), both importable
from every test; a test module never imports another test module.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for helpers in (HERE, HERE / "checks"):
    if str(helpers) not in sys.path:
        sys.path.insert(0, str(helpers))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden expected files from the current output")
    parser.addoption("--update-docs", action="store_true", default=False,
                     help="rewrite the output shown in README.md and docs/*.md console examples")


def pytest_configure(config: pytest.Config) -> None:
    for option in ("--update-golden", "--update-docs"):
        if config.getoption(option) and os.environ.get("CI"):
            raise pytest.UsageError(f"{option} refuses to run under CI (CI is set)")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def update_docs(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-docs"))
