"""The claims scan: reading Markdown, numbers at the precision written, the check kinds."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest

from bench_gate.checks.claims import (
    LedgerParams,
    NumbersParams,
    PhraseParams,
    matches,
    run_ledger,
    run_numbers,
    run_phrase,
    sentences,
)
from bench_gate.checks.base import Context
from bench_gate.models import Doc

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
VALUES = [
    {"metric": "recall@5", "value": 0.9405666666666668, "entry": "/citable/0", "artifact": "a.json",
     "scope": "LongMemEval-style offline longmemeval_s_cleaned"},
    {"metric": "hit@5", "value": 0.98, "entry": "/citable/0", "artifact": "a.json",
     "scope": "LongMemEval-style offline longmemeval_s_cleaned"},
    {"metric": "ndcg@5", "value": 0.910665795901335, "entry": "/citable/0", "artifact": "a.json",
     "scope": "LongMemEval-style offline longmemeval_s_cleaned"},
    {"metric": "recall@10", "value": 0.9717, "entry": "/citable/0", "artifact": "a.json",
     "scope": "LongMemEval-style offline longmemeval_s_cleaned"},
]


def ctx(text: str, values: list[dict[str, Any]] | None = None, verdict: Any = None,
        include_code: bool = False, ledger: dict[str, Any] | None = None) -> Context:
    return Context(now=NOW, documents={
        "scan": Doc("scan", "README.md", data={"files": [{"path": "README.md", "text": text}],
                                                "include_code": include_code}),
        "citable": Doc("citable", "m.json", data={"values": VALUES if values is None else values,
                                                   "verdict": verdict, "ledger": ledger})})


# --- precision ---------------------------------------------------------------------------

PRECISION = [
    ("96.6%-low", "0.966", "0.001", "0.9660", True),
    ("96.6%-high-truncated", "0.966", "0.001", "0.9669", True),
    ("96.6%-rounded-up", "0.966", "0.001", "0.9655", True),
    ("96.6%-too-low", "0.966", "0.001", "0.9654", False),
    ("96.6%-too-high", "0.966", "0.001", "0.967", False),
    ("0.97-low", "0.97", "0.01", "0.965", True),
    ("0.97-high", "0.97", "0.01", "0.975", True),
    ("0.97-below", "0.97", "0.01", "0.9649", False),
    ("0.94-truncated", "0.94", "0.01", "0.9499", True),
    ("exact", "0.9406", "0.0001", "0.94056666", True),
]


@pytest.mark.parametrize("written,unit,value,ok", [r[1:] for r in PRECISION], ids=[r[0] for r in PRECISION])
def test_precision(written: str, unit: str, value: str, ok: bool) -> None:
    assert matches(Fraction(value), Fraction(written), Fraction(unit)) is ok


# --- reading Markdown --------------------------------------------------------------------

READING = [
    ("two-sentences", "One 0.9. Two here.", [("One 0.9.", 1, 1), ("Two here.", 1, 10)]),
    ("wrapped", "A long\n  sentence here.", [("A long sentence here.", 1, 1)]),
    ("abbreviation", "See e.g. this one. Next.", [("See e.g. this one.", 1, 1), ("Next.", 1, 20)]),
    ("fence", "Before.\n```\ncode 0.5\n```\nAfter.", [("Before.", 1, 1), ("After.", 5, 1)]),
    ("front-matter", "---\ntitle: x\n---\nBody.", [("Body.", 4, 1)]),
    ("comment", "<!-- hidden -->\nShown.", [("Shown.", 2, 1)]),
    ("list-items", "- one\n- two", [("- one", 1, 1), ("- two", 2, 1)]),
    ("heading", "# Title\nText.", [("# Title", 1, 1), ("Text.", 2, 1)]),
]


@pytest.mark.parametrize("text,expected", [r[1:] for r in READING], ids=[r[0] for r in READING])
def test_reading(text: str, expected: list[tuple[str, int, int]]) -> None:
    got = [(s.text, *s.where(0)) for s in sentences(text, False)]
    assert got == expected


def test_position_inside_a_wrapped_sentence() -> None:
    s = sentences("First line then\n    recall@5 is 0.94.", False)[0]
    assert s.where(s.text.index("0.94")) == (2, 17)


def test_include_code_reads_fences() -> None:
    assert [s.text for s in sentences("```\ncode 0.5\n```", True)] == ["code 0.5"]


# --- claim_numbers -----------------------------------------------------------------------

NUMBERS = [
    ("matched-percent", "Strict recall@5 is 94.1%.", "unmatched", [
        ("pass", 'README.md:1:20: recall@5 94.1% matches citable recall@5 0.9406 (94.06%) of /citable/0 (a.json) '
                 'in "Strict recall@5 is 94.1%."')]),
    ("unmatched-with-nearest", "recall@5 of 96.6% on LongMemEval.", "unmatched", [
        ("fail", "README.md:1:13: recall@5 96.6% matches no citable value at the precision written; nearest "
                 'citable recall@5 on LongMemEval is 0.9406 (94.06%) (/citable/0, a.json) in "recall@5 of 96.6% on '
                 'LongMemEval."')]),
    ("metric-not-cited", "QA accuracy is 61%.", "unmatched", [
        ("fail", "README.md:1:16: qa_accuracy 61% matches no citable value at the precision written; the ledger "
                 'cites no qa_accuracy in "QA accuracy is 61%."')]),
    ("benchmark-only", "LongMemEval score 0.98.", "unmatched", [
        ("pass", "README.md:1:19: LongMemEval 0.98 matches citable hit@5 0.98 (98%) of /citable/0 (a.json) in "
                 '"LongMemEval score 0.98."')]),
    ("percent-word", "Strict recall@5 is 94.1 percent.", "unmatched", [
        ("pass", 'README.md:1:20: recall@5 94.1 percent matches citable recall@5 0.9406 (94.06%) of /citable/0 '
                 '(a.json) in "Strict recall@5 is 94.1 percent."')]),
    ("other-benchmark", "LoCoMo recall@5 is 94.1%.", "unmatched", [
        ("fail", "README.md:1:20: recall@5 94.1% matches no citable value at the precision written; the ledger "
                 'cites no recall@5 on LoCoMo in "LoCoMo recall@5 is 94.1%."')]),
    ("no-metric-no-claim", "Version 0.5 ships 500 questions.", "unmatched", [
        ("pass", "no benchmark number found in 1 file")]),
    ("integer-is-not-a-claim", "recall@5 over 500 questions.", "unmatched", [
        ("pass", "no benchmark number found in 1 file")]),
    ("percentage-points", "recall@5 fell 1.0 percentage point.", "unmatched", [
        ("pass", "no benchmark number found in 1 file")]),
    ("inline-code-example", "Scored `0.5` on strict recall.", "unmatched", [
        ("pass", "no benchmark number found in 1 file")]),
    ("disclaimer", 'Not "100% recall."', "unmatched", [("pass", "no benchmark number found in 1 file")]),
    ("hit-called-recall", "Recall@5 reaches 98%.", "hit_as_recall", [
        ("fail", "README.md:1:18: 98% is called 'Recall@5' but it is the hit@5 value 0.98 (98%) of /citable/0, "
                 'not strict recall in "Recall@5 reaches 98%."')]),
    ("hit-called-recall-is-not-also-unmatched", "Recall@5 reaches 98%.", "unmatched", [
        ("pass", "1 benchmark number in 1 file, none unmatched")]),
    ("no-hit-called-recall", "Strict recall@5 is 94.1%.", "hit_as_recall", [
        ("pass", "no hit@k value called recall among 1 benchmark number in 1 file")]),
    ("retrieval-called-qa", "QA accuracy: 91%.", "retrieval_as_qa", [
        ("fail", "README.md:1:14: 91% is called 'QA accuracy' but it is the retrieval metric ndcg@5 0.9107 "
                 '(91.07%) of /citable/0, not QA accuracy in "QA accuracy: 91%."')]),
]


@pytest.mark.parametrize("text,report,expected", [r[1:] for r in NUMBERS], ids=[r[0] for r in NUMBERS])
def test_numbers(text: str, report: str, expected: list[tuple[str, str]]) -> None:
    got = [(f.status, f.message) for f in run_numbers(ctx(text), NumbersParams(report=report))]
    assert got == expected


def test_number_location_is_a_pointer_into_the_file() -> None:
    f = list(run_numbers(ctx("Intro.\n\nSee recall@5 of 96.6%."), NumbersParams()))[0]
    assert (f.document, f.pointer, f.actual, f.expected) == ("README.md", "/line/3/column/17", "96.6%",
                                                            0.9405666666666668)


# --- claim_phrase ------------------------------------------------------------------------

SOTA = PhraseParams(patterns=[r"\bstate[- ]of[- ]the[- ]art\b", r"\bSOTA\b"],
                    reason="a state-of-the-art claim needs a passing official-sota verdict",
                    unless_verdict="official-sota")
ZERO = PhraseParams(patterns=[r"\bzero[- ]API\b"], reason="the retrieval path calls the embedding API")
PASSING = {"path": "v.json", "data": {"schema_version": "bench-gate.verdict.v1", "profile": {"name": "official-sota"},
                                      "passed": True, "evaluated_at": "2026-11-28T10:00:00Z"}}

PHRASES = [
    ("zero-api", "It needs zero API calls.", ZERO, None, [
        ("fail", 'README.md:1:10: "zero API": the retrieval path calls the embedding API in "It needs zero API '
                 'calls."')]),
    ("disclaimed", 'It is not "zero API."', ZERO, None, [("pass", "no such claim in 1 file")]),
    ("sota-no-verdict", "Sibyl is SOTA.", SOTA, None, [
        ("fail", 'README.md:1:10: "SOTA": a state-of-the-art claim needs a passing official-sota verdict; no '
                 '--verdict was given in "Sibyl is SOTA."')]),
    ("sota-backed", "Sibyl is state-of-the-art.", SOTA, PASSING, [
        ("pass", 'README.md:1:10: "state-of-the-art" is backed by the passing official-sota verdict v.json '
                 '(2026-11-28T10:00:00Z) in "Sibyl is state-of-the-art."')]),
    ("sota-failed-verdict", "Sibyl is SOTA.", SOTA, {"path": "v.json", "data": {**PASSING["data"], "passed": False}}, [
        ("fail", 'README.md:1:10: "SOTA": a state-of-the-art claim needs a passing official-sota verdict; '
                 '--verdict v.json (official-sota, 2026-11-28T10:00:00Z) did not pass in "Sibyl is SOTA."')]),
    ("sota-not-a-verdict", "Sibyl is SOTA.", SOTA, {"path": "v.json", "data": {"passed": True}}, [
        ("fail", 'README.md:1:10: "SOTA": a state-of-the-art claim needs a passing official-sota verdict; '
                 '--verdict v.json is not a bench-gate verdict JSON (bench-gate.verdict.v1) in "Sibyl is SOTA."')]),
]


@pytest.mark.parametrize("text,params,verdict,expected", [r[1:] for r in PHRASES], ids=[r[0] for r in PHRASES])
def test_phrases(text: str, params: PhraseParams, verdict: Any, expected: list[tuple[str, str]]) -> None:
    got = [(f.status, f.message) for f in run_phrase(ctx(text, verdict=verdict), params)]
    assert got == expected


def test_phrase_in_code_block_only_with_include_code() -> None:
    text = "```\nzero API\n```"
    assert [f.status for f in run_phrase(ctx(text), ZERO)] == ["pass"]
    assert [f.pointer for f in run_phrase(ctx(text, include_code=True), ZERO)] == ["/line/2/column/1"]


# --- claim_ledger ------------------------------------------------------------------------

LEDGERS = [
    ("passes", {"path": "m.json", "passed": True, "summary": "0 failed, 10 passed, 0 skipped", "values": 4},
     "pass", "ledger m.json passes its gate (0 failed, 10 passed, 0 skipped); 4 citable values"),
    ("fails", {"path": "m.json", "passed": False, "summary": "1 failed, 9 passed, 0 skipped",
               "failed": ["citable-echo: drift", "citable-gates: x"]},
     "fail", "ledger m.json fails its gate (1 failed, 9 passed, 0 skipped): citable-echo: drift; also failing: "
             "citable-gates; no number it lists is citable until it passes"),
]


@pytest.mark.parametrize("ledger,status,message", [r[1:] for r in LEDGERS], ids=[r[0] for r in LEDGERS])
def test_ledger(ledger: dict[str, Any], status: str, message: str) -> None:
    f = list(run_ledger(ctx("", ledger=ledger), LedgerParams()))[0]
    assert (f.status, f.message) == (status, message)


# --- command line: what cannot be evaluated is exit 2 with the reason ---------------------

USAGE = [
    ("no-ledger-option", ["claims", "doc.md"], "bench-gate: error: --ledger MANIFEST is required"),
    ("ledger-missing", ["claims", "doc.md", "--ledger", "nosuch.json"],
     "bench-gate: error: --ledger nosuch.json: no such file"),
    ("doc-missing", ["claims", "nosuch.md", "--ledger", "m.json"],
     "bench-gate: error: nosuch.md: no such file or folder"),
    ("no-doc-in-folder", ["claims", "empty", "--ledger", "m.json"],
     "bench-gate: error: no Markdown or text file (*.md, *.markdown, *.mdx, *.txt) in empty"),
    ("not-utf8", ["claims", "bad.md", "--ledger", "m.json"], "bench-gate: error: bad.md: not UTF-8 text (byte 0)"),
    ("verdict-not-json", ["claims", "doc.md", "--ledger", "m.json", "--verdict", "doc.md"],
     "bench-gate: error: --verdict doc.md: is not valid JSON: Expecting value at line 1 column 1"),
    ("ledger-not-json", ["ledger", "doc.md"], "bench-gate: error: ledger doc.md: is not valid JSON: Expecting value "
                                              "at line 1 column 1"),
    ("ledger-format", ["ledger", "m.json", "--format", "xml"],
     "bench-gate: error: --format 'xml': choose one of text, json, junit, sarif, github, markdown"),
]


@pytest.mark.parametrize("args,message", [r[1:] for r in USAGE], ids=[r[0] for r in USAGE])
def test_cannot_evaluate(args: list[str], message: str, tmp_path: Any, monkeypatch: Any,
                         capsys: Any) -> None:
    from bench_gate.cli.app import main

    (tmp_path / "doc.md").write_text("recall@5 0.94\n")
    (tmp_path / "bad.md").write_bytes(b"\xff\xfe")
    (tmp_path / "empty").mkdir()
    (tmp_path / "m.json").write_text('{"citable": []}')
    monkeypatch.chdir(tmp_path)
    assert main([*args, "--now", "2026-11-29T12:00:00Z"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == message
