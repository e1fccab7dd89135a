"""Shared test options: ``--update-golden`` rewrites the golden files and ``--update-docs`` the
output shown in the documentation's console examples (neither runs under CI)."""

from __future__ import annotations

import os

import pytest


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
