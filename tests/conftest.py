"""Shared test options: ``--update-golden`` rewrites the golden files (never under CI)."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden expected files from the current output")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--update-golden") and os.environ.get("CI"):
        raise pytest.UsageError("--update-golden refuses to run under CI (CI is set)")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
