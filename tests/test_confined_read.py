"""Reading a confined file: all of it, within the cap, also when it grows after it was measured."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_gate.loaders import confined


def _located(path: Path) -> confined.Located:
    return confined.locate(str(path), path.parent, confine=False)


def test_a_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b"x" * 10_000)
    assert confined.read_confined(_located(path)) == b"x" * 10_000


@pytest.mark.parametrize(("cap", "grew_past_cap"), [(100, False), (60, True)])
def test_a_file_that_grew_after_it_was_measured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 cap: int, grew_past_cap: bool) -> None:
    """The size the file had when opened is only where reading starts: what was written since is
    read too, and counts against the cap."""
    path = tmp_path / "r.json"
    path.write_bytes(b"y" * 80)
    opened = confined.open_confined

    def measured_smaller(loc: confined.Located, max_bytes: int | None) -> tuple[object, int]:
        handle, _ = opened(loc, None)  # it was 50 bytes, within any cap, when measured
        return handle, 50  # as if 30 bytes were appended after the size was taken

    monkeypatch.setattr(confined, "open_confined", measured_smaller)
    if grew_past_cap:
        with pytest.raises(confined.DocumentError, match="grew over the 60-byte limit while read"):
            confined.read_confined(_located(path), max_bytes=cap)
    else:
        assert confined.read_confined(_located(path), max_bytes=cap) == b"y" * 80
