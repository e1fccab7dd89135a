"""Names a reader cannot tell apart are one name: placeholders spelt in look-alike letters, and
profile names that read as a built-in profile's, go through the one skeleton of
:mod:`bench_gate.text.canonical`."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_gate import waivers
from bench_gate.gates.ledger_gate import LedgerError, external_names
from bench_gate.profile import load_profile
from bench_gate.profile.plan import ProfileError

# Cyrillic Т, В, О, А; a Latin small capital; Greek capitals; fullwidth; a trailing unassigned code point
PLACEHOLDER_APPROVERS = ["\u0422\u0412D", "\u0422\u0412\u0410", "\u1d1b\u0299\u1d05", "\u03a4\u0392D",
                         "\uff34\uff22\uff24", "TBD\u2065", "n\u2215\u0430"]
PLACEHOLDER_REASONS = ["\u0422\u041eD\u041e", "T\u039fD\u039f", "\u0442\u043ed\u043e", "FIXМЕ",
                       "t\U000e0080odo"]


def _entry(tmp_path: Path, reason: str, approver: str) -> waivers.Waiver:
    body = ("waivers:\n  - rule: r1\n"
            f"    reason: \"{reason}\"\n    approved_by: \"{approver}\"\n    expires: 2026-12-31\n")
    path = tmp_path / "w.yaml"
    path.write_text(body, encoding="utf-8")
    return waivers.load(str(path)).entries[0]


@pytest.mark.parametrize("approver", PLACEHOLDER_APPROVERS)
def test_a_placeholder_approver_in_look_alike_letters_is_a_placeholder(tmp_path: Path, approver: str) -> None:
    problem = _entry(tmp_path, "tracked in EVAL-142", approver).problem
    assert problem is not None and problem.startswith("has approved_by ") and "a placeholder" in problem


@pytest.mark.parametrize("reason", PLACEHOLDER_REASONS)
def test_a_placeholder_reason_in_look_alike_letters_is_a_placeholder(tmp_path: Path, reason: str) -> None:
    problem = _entry(tmp_path, reason, "eval-leads").problem
    assert problem is not None and problem.startswith("has reason ") and "a placeholder" in problem


@pytest.mark.parametrize(("reason", "approver"), [("tracked in EVAL-142", "\u041e\u043b\u0435\u0433"),
                                                  ("\u0437\u0430\u0434\u0430\u0447\u0430 EVAL-142", "eval-leads"),
                                                  ("tracked", "Tomás")])
def test_real_words_in_any_script_are_accepted(tmp_path: Path, reason: str, approver: str) -> None:
    assert _entry(tmp_path, reason, approver).problem is None


PROFILE = """\
name: {name}
description: a test gate
rules:
  - id: r1
    title: always fails
    check: reject
    with: {{message: nope}}
    why: because
"""


@pytest.mark.parametrize(("name", "builtin"), [
    ("0fficial-sota", "official-sota"), ("\u043efficial-sota", "official-sota"), ("officia1-sota", "official-sota"),
    ("ai-mem0ry", "ai-memory"), ("ai-\u217femory", "ai-memory"), ("LEDGER\u2065", "ledger"),
    ("c1aims", "claims"), ("official-s\U000e0041ota", "official-sota"),
])
def test_a_profile_file_named_like_a_builtin_is_refused(tmp_path: Path, name: str, builtin: str) -> None:
    (tmp_path / "p.yaml").write_text(PROFILE.format(name=f'"{name}"'), encoding="utf-8")
    with pytest.raises(ProfileError) as caught:
        load_profile(str(tmp_path / "p.yaml"))
    # a name outside ASCII is refused by the name pattern already; one in ASCII reads as the built-in
    assert (f"reads as {builtin!r}, the name of a built-in profile" in str(caught.value)
            or (not name.isascii() and "must match ^[a-z0-9][a-z0-9._-]*$" in str(caught.value)))


def test_a_profile_file_with_a_name_of_its_own_loads(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(PROFILE.format(name="my-sota-gate"), encoding="utf-8")
    assert load_profile(str(tmp_path / "p.yaml")).name == "my-sota-gate"


@pytest.mark.parametrize("name", ["0fficial-sota", "ai-mem0ry", "ledger", "1edger"])
def test_an_external_profile_named_like_a_builtin_is_refused(name: str) -> None:
    with pytest.raises(LedgerError) as caught:
        external_names([name])
    assert "built-in profile" in str(caught.value)


def test_an_external_profile_of_its_own_name_is_accepted() -> None:
    assert external_names(["product", "product"]) == ["product"]


def test_gate_contract_names_that_read_alike_are_one_name(tmp_path: Path) -> None:
    import copy
    import json

    from golden import run_main
    from golden import case, materialise

    work = materialise(case("ledger/honest"), tmp_path)
    manifest = json.loads((work / "manifest.json").read_text(encoding="utf-8"))
    twin = copy.deepcopy(manifest["gate_contracts"][0])
    twin["name"] = twin["name"].replace("e", "\u0435", 1) + "\u2065"
    manifest["gate_contracts"].append(twin)
    (work / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    code, out, _ = run_main(["ledger", "manifest.json"], "2026-11-29T12:00:00Z", work, "json")
    found = {r["rule"]: r["message"] for r in json.loads(out)["results"] if r["status"] == "fail"}
    assert code == 1
    assert "is also the name of /gate_contracts/0 (differ only by" in found["gate-contracts"]
