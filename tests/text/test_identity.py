"""One identity for an id or a name: ids that a reader cannot tell apart are one id in every kind.

A failing case replaced by a copy of a perfect case under an id that *looks* like the perfect
case's (a Cyrillic letter, a digit shaped like a letter, a trailing unassigned, private-use or
default-ignorable code point) is the perfect case counted twice, with its summary rewritten to
match: the gate must fail it in the ai-memory profile, in ``aggregate`` / ``ranking`` rows and in
the official QA files. Names go through the same skeleton: a placeholder approver written in
Cyrillic capitals, or a profile file named like a built-in profile with a digit for a letter.
"""

from __future__ import annotations

import copy
import json
import string
import unicodedata
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench_gate.checks import registry
from bench_gate.checks.recompute.retrieval import score
from bench_gate.cli.app import main
from bench_gate.text import canonical
from bench_gate.text.canonical import collisions, describe, id_key, invisible, shown, skeleton

import kindtest
from repo import ROOT

BASE = json.loads((ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json").read_text(encoding="utf-8"))
NOW = "2026-11-29T12:00:00Z"

# Each disguise turns an id into one a reader cannot tell from it.
DISGUISES: dict[str, Callable[[str], str]] = {
    "cyrillic-e": lambda s: s.replace("e", "\u0435", 1),
    "cyrillic-a": lambda s: s.replace("a", "\u0430", 1),
    "greek-omicron-for-zero": lambda s: s.replace("0", "\u03bf", 1),
    "letter-o-for-zero": lambda s: s.replace("0", "o", 1),
    "small-capital": lambda s: s.replace("e", "\u1d07", 1),
    "trailing-u2065": lambda s: s + "\u2065",
    "trailing-ufff0": lambda s: s + "\ufff0",
    "trailing-ue0080": lambda s: s + "\U000e0080",
    "trailing-private-use": lambda s: s + "\ue000",
    "inner-tag-character": lambda s: s[:2] + "\U000e0041" + s[2:],
    "inner-bell": lambda s: s[:2] + "\x07" + s[2:],
    "mathematical-letters": lambda s: "".join(chr(0x1D41A + ord(c) - 0x61) if "a" <= c <= "z" else c for c in s),
}


# --- the fold itself -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(DISGUISES))
def test_a_disguised_id_has_the_ids_key(name: str) -> None:
    for ident in ("e47be0ca", "gpt4_2655e0a8", "0a99e998_abs"):
        disguised = DISGUISES[name](ident)
        assert disguised != ident
        assert id_key(disguised) == id_key(ident)
        assert describe(ident, disguised).startswith("differ only by ")
        assert all(not invisible(ch) for ch in shown(disguised))


def test_names_and_placeholders_share_the_skeleton() -> None:
    assert skeleton("\u0422\u0412D") == skeleton("TBD") == "tbd"  # Cyrillic Т and В
    assert skeleton("\u0422\u041eD\u041e") == skeleton("todo")  # Cyrillic Т, О, О
    assert skeleton("0fficial-sota") == skeleton("official-sota") == skeleton("OFFICIAL_SOTA")
    assert skeleton("Z\u0430xy Labs") == skeleton("zaxy-labs")
    assert skeleton("ai\u2010memory\u2065") == skeleton("ai-memory")


def test_the_ascii_fast_path_is_the_confusables_table() -> None:
    """The fixed ASCII table reads every ASCII character as the package's table does."""
    for code in range(128):
        ch = chr(code)
        assert canonical.fold(ch) == unicodedata.normalize("NFKC", canonical.reading(ch)), repr(ch)


def test_the_official_ids_stay_distinct() -> None:
    from bench_gate.checks.recompute.question_set import official_question_types

    ids = list(official_question_types())
    assert len({id_key(q) for q in ids}) == len(ids) == 500


SAFE = st.text(alphabet=sorted(set(string.ascii_lowercase + "23456789_-") - set("m")), min_size=1, max_size=24)


@given(SAFE, SAFE)
def test_different_ids_stay_different(a: str, b: str) -> None:
    if a != b:
        assert collisions([(0, a), (1, b)]) == []


@given(SAFE, st.sampled_from(sorted(DISGUISES)))
@settings(max_examples=200, deadline=None)
def test_the_fold_is_stable(ident: str, name: str) -> None:
    key = id_key(DISGUISES[name](ident))
    assert id_key(key) == key


# --- ai-memory: a perfect case copied over a failing one ------------------------------------


def _summary(cases: list[dict[str, Any]], ks: list[int]) -> dict[str, float]:
    out: dict[str, float] = {}
    for k in ks:
        scores = [score(c["answer_session_ids"], c["ranked_session_ids"], k) for c in cases]
        hit = sum((s[0] for s in scores), Fraction(0)) / len(scores)
        out[f"hit@{k}"] = float(hit)
        out[f"legacy_recall@{k}"] = float(hit)
        out[f"recall@{k}"] = float(sum((s[1] for s in scores), Fraction(0)) / len(scores))
        out[f"ndcg@{k}"] = sum(s[2] for s in scores) / len(scores)
    return out


def forged(disguise: Callable[[str], str]) -> dict[str, Any]:
    """The real artifact with its first failing case replaced by a disguised copy of a perfect
    case of the same type, and every summary recomputed to match (the attack, done carefully)."""
    report = copy.deepcopy(BASE)
    cases = report["case_results"]
    perfect = next(c for c in cases if c["recall@5"] == 1 and all(x in c["question_id"] for x in "ea0"))
    i = next(i for i, c in enumerate(cases) if c["recall@5"] < 1 and c["question_type"] == perfect["question_type"])
    cases[i] = dict(copy.deepcopy(perfect), question_id=disguise(perfect["question_id"]))
    ks = report["k_values"]
    report["overall"].update(_summary(cases, ks))
    for qtype in report["per_type"]:
        report["per_type"][qtype].update(_summary([c for c in cases if c["question_type"] == qtype], ks))
    return report


def gate(report: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["report.json", "--profile", "ai-memory", "--now", NOW, "--format", "json"])
    out, err = capsys.readouterr()
    assert err == ""
    return code, json.loads(out)


def test_the_honest_artifact_passes_and_an_honest_forgery_recomputes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict = gate(BASE, tmp_path, monkeypatch, capsys)
    assert code == 0, [r["message"] for r in verdict["results"] if r["status"] == "fail"]
    # the forgery's summaries are consistent: only the identity of the copied case can fail it
    report = forged(DISGUISES["cyrillic-e"])
    assert report["overall"]["recall@5"] > BASE["overall"]["recall@5"]


@pytest.mark.parametrize("name", sorted(DISGUISES))
def test_a_perfect_case_copied_under_a_look_alike_id_fails(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict = gate(forged(DISGUISES[name]), tmp_path, monkeypatch, capsys)
    failing = {r["rule"]: r["message"] for r in verdict["results"] if r["status"] == "fail"}
    assert code == 1
    assert "is the same id as" in failing.get("metrics-consistent", ""), failing
    assert "only as a reader sees it" in failing.get("case-question-types", ""), failing
    assert set(failing) <= {"metrics-consistent", "case-question-types", "case-official-set"}, failing


# --- aggregate and ranking rows -------------------------------------------------------------

KINDS = registry()


def _rows(kind: str, params: dict[str, Any], rows: list[dict[str, Any]], report: Any) -> list[Any]:
    return kindtest.run(kind, params, kindtest.doc("report", report, path="summary.json"),
                        rows=kindtest.doc("rows", path="rows.ndjson", rows=tuple((i + 1, r) for i, r in enumerate(rows))))


@pytest.mark.parametrize("name", sorted(DISGUISES))
def test_an_aggregate_row_repeated_under_a_look_alike_id_fails(name: str) -> None:
    rows = [{"qid": "e47be0ca", "ok": 1}, {"qid": DISGUISES[name]("e47be0ca"), "ok": 1}]
    found = _rows("aggregate", {"rows": "rows", "id": "/qid", "op": "mean", "field": "/ok", "claim": "/acc"},
                  rows, {"acc": 1})
    assert [f.status for f in found] == ["fail"]
    assert "appears twice" in found[0].message and "differ only by" in found[0].message


@pytest.mark.parametrize("name", sorted(DISGUISES))
def test_a_ranking_row_repeated_under_a_look_alike_id_fails(name: str) -> None:
    row = {"question_id": "e47be0ca", "gold": ["answer_a"], "ranked": ["answer_a", "s1"]}
    rows = [row, {**row, "question_id": DISGUISES[name]("e47be0ca")}]
    found = _rows("ranking", {"rows": "rows", "id": "/question_id", "ranked": "/ranked", "gold": "/gold",
                              "names": {"all": "recall_all"}, "claims": {"all@2": 1}}, rows, {})
    assert [f.status for f in found] == ["fail"]
    assert "appears twice" in found[0].message


def test_distinct_rows_still_pass() -> None:
    rows = [{"qid": "e47be0ca", "ok": 1}, {"qid": "e47be0cb", "ok": 0}]
    found = _rows("aggregate", {"rows": "rows", "id": "/qid", "op": "mean", "field": "/ok", "claim": "/acc"},
                  rows, {"acc": 0.5})
    assert [f.status for f in found] == ["pass"]
