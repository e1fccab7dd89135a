"""Waivers: parsing, expiry at the boundary, location scoping, and every way a waiver fails."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench_gate import waivers
from bench_gate.models import Detail, RuleResult, Verdict


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-29", datetime(2026, 11, 30, tzinfo=UTC)),
        ("2026-11-29T12:00:00Z", datetime(2026, 11, 29, 12, tzinfo=UTC)),
        ("2026-11-29T12:00:00+02:00", datetime(2026, 11, 29, 10, tzinfo=UTC)),
        ("2026-11-29T12:00:00", None),
        ("2026-02-30", None),
        ("29/11/2026", None),
        ("next week", None),
        ("", None),
    ],
    ids=["date-through-end-of-day", "utc", "offset", "no-zone", "impossible-date", "ambiguous", "words", "empty"],
)
def test_parse_expiry(text: str, expected: datetime | None) -> None:
    assert waivers.parse_expiry(text) == expected


def _file(tmp_path: Path, body: str) -> waivers.WaiverFile:
    path = tmp_path / "w.yaml"
    path.write_text(body, encoding="utf-8")
    return waivers.load(str(path))


BASE = "rule: r1\nreason: tracked\napproved_by: leads\nexpires: 2026-12-31\n"


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (BASE, None),
        ("rule: r1\napproved_by: leads\nexpires: 2026-12-31\n", "has no reason"),
        ("rule: r1\nreason: '  '\napproved_by: leads\nexpires: 2026-12-31\n",
         "has a reason that is not a non-empty string"),
        ("rule: r1\nreason: x\nexpires: 2026-12-31\n", "has no approved_by"),
        ("rule: r1\nreason: x\napproved_by: leads\n", "has no expires"),
        ("rule: r1\nreason: tracked\napproved_by: leads\nexpires: soon\n",
         "has expires 'soon', which is not a date (YYYY-MM-DD) or an RFC 3339 timestamp"),
        (BASE + "scope: all\n", "has unknown key 'scope'"),
        (BASE + "rulle: r2\n", "has unknown key 'rulle'; did you mean 'rule'?"),
        (BASE + "Pointer: /a\n", "has unknown key 'Pointer'; did you mean 'pointer'?"),
        (BASE + "pointer: 5\n", "has a pointer that is not a non-empty string"),
        ("rule: r1\nreason: tracked in EVAL-142\napproved_by: eval-leads\nexpires: 2026-12-31\n", None),
        ("rule: r1\nreason: Ok\napproved_by: QA\nexpires: 2026-12-31\n", None),
        ("rule: r1\nreason: '.'\napproved_by: leads\nexpires: 2026-12-31\n",
         "has reason '.', a placeholder (a waiver says why the failure is acceptable)"),
        ("rule: r1\nreason: x\napproved_by: leads\nexpires: 2026-12-31\n",
         "has reason 'x', a placeholder (a waiver says why the failure is acceptable)"),
        ("rule: r1\nreason: N/A\napproved_by: leads\nexpires: 2026-12-31\n",
         "has reason 'N/A', a placeholder (a waiver says why the failure is acceptable)"),
        ("rule: r1\nreason: tracked\napproved_by: TBD\nexpires: 2026-12-31\n",
         "has approved_by 'TBD', a placeholder (a waiver says who reviewed it)"),
        ("rule: r1\nreason: tracked\napproved_by: '-'\nexpires: 2026-12-31\n",
         "has approved_by '-', a placeholder (a waiver says who reviewed it)"),
        ("rule: r1\nreason: tracked\napproved_by: \"t\\u200bo\\u200bd\\u200bo\"\nexpires: 2026-12-31\n",
         "has approved_by 't\\u200bo\\u200bd\\u200bo', a placeholder (a waiver says who reviewed it)"),
    ],
    ids=["valid", "no-reason", "blank-reason", "no-approver", "no-expiry", "bad-expiry", "unknown-key",
         "unknown-key-close-to-rule", "unknown-key-case", "pointer-not-string", "real-reason-and-approver",
         "short-but-real", "placeholder-dot-reason", "one-letter-reason", "na-reason", "tbd-approver",
         "dash-approver", "zero-width-todo-approver"],
)
def test_entry_problems(tmp_path: Path, entry: str, problem: str | None) -> None:
    body = "waivers:\n" + "".join(("  - " if i == 0 else "    ") + ln + "\n"
                                  for i, ln in enumerate(entry.strip().splitlines()))
    loaded = _file(tmp_path, body)
    assert loaded.entries[0].problem == problem


def test_a_problem_points_at_its_key(tmp_path: Path) -> None:
    body = ("waivers:\n  - " + BASE.replace("\n", "\n    ").rstrip() + "\n"
            "  - rule: r1\n    reason: tracked\n    approved_by: leads\n    expires: 2026-12-31\n    rulle: r2\n")
    out = waivers.apply(_verdict(_result("/a")), _file(tmp_path, body))
    bad = out.results[-1]
    assert (bad.rule, bad.pointer, bad.source) == ("waiver-2", "/waivers/1/rulle", f"{tmp_path}/w.yaml:6")
    assert bad.message == f"waiver 2 at {tmp_path}/w.yaml:10 waives nothing: it has unknown key 'rulle'; did you mean 'rule'?"
    # the text, GitHub and SARIF outputs show file:line:column through the verdict's positions
    assert out.positions[("waivers", "/waivers/1/rulle")] == (10, 5)
    assert out.positions[("waivers", "/waivers/0")] == (2, 5)
    assert out.located["waivers"] == f"{tmp_path}/w.yaml"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[]", "expected a mapping with one key, 'waivers', holding a list"),
        ("waivers: {}", "expected a mapping with one key, 'waivers', holding a list"),
        ("waivers: [", "YAML syntax error"),
    ],
    ids=["list", "mapping", "syntax"],
)
def test_unusable_files(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(waivers.WaiverFileError) as err:
        _file(tmp_path, body)
    assert message in str(err.value)


def _result(pointer: str, details: tuple[Detail, ...] = (), omitted: int = 0) -> RuleResult:
    more = f" (and {len(details) + omitted} more)" if details or omitted else ""
    return RuleResult(rule="r1", title="t", status="fail", severity="error", message=f"bad at {pointer}{more}",
                      document="report", pointer=pointer, source="p.yaml:1", check="fields", details=details,
                      omitted_details=omitted)


def _verdict(*results: RuleResult, now: datetime = datetime(2026, 11, 29, 12, tzinfo=UTC)) -> Verdict:
    return Verdict("p", "sha256:" + "0" * 64, now, (), results, report_path="r.json")


def _apply(tmp_path: Path, verdict: Verdict, extra: str = "") -> Verdict:
    body = "waivers:\n  - " + BASE.replace("\n", "\n    ").rstrip() + ("\n    " + extra if extra else "") + "\n"
    return waivers.apply(verdict, _file(tmp_path, body))


def test_whole_rule_waived(tmp_path: Path) -> None:
    out = _apply(tmp_path, _verdict(_result("/a")))
    assert [r.status for r in out.results] == ["waived"]
    assert out.results[0].waiver == {"reason": "tracked", "approved_by": "leads", "expires": "2026-12-31",
                                     "source": f"{tmp_path}/w.yaml:2"}
    assert out.passed
    assert out.inputs[-1].role == "waivers"


def test_scoped_waiver_leaves_other_locations_failing(tmp_path: Path) -> None:
    result = _result("/a", (Detail("bad at /b", "report", "/b"),))
    out = _apply(tmp_path, _verdict(result), "pointer: /a")
    assert out.results[0].status == "fail"
    assert out.results[0].pointer == "/b"
    assert out.results[0].message == "bad at /b; 1 location waived by waiver 1"
    assert not out.passed


def test_scoped_waiver_cannot_cover_unlisted_failures(tmp_path: Path) -> None:
    out = _apply(tmp_path, _verdict(_result("/a", omitted=3)), "pointer: /a")
    assert out.results[0].status == "fail"
    assert "3 more failures were not listed" in out.results[0].message


def test_expired_waiver_waives_nothing_and_fails(tmp_path: Path) -> None:
    out = _apply(tmp_path, _verdict(_result("/a"), now=datetime(2027, 1, 1, tzinfo=UTC)))
    assert [r.status for r in out.results] == ["fail", "fail"]
    assert out.results[1].rule == "waiver-1"
    assert out.results[1].message == (f"waiver 1 at {tmp_path}/w.yaml:2 for rule r1 expired at 2026-12-31 "
                                      "(now 2027-01-01T00:00:00Z); it waives nothing")


def test_last_second_of_expiry_day_still_applies(tmp_path: Path) -> None:
    out = _apply(tmp_path, _verdict(_result("/a"), now=datetime(2026, 12, 31, 23, 59, 59, tzinfo=UTC)))
    assert [r.status for r in out.results] == ["waived"]


def test_unused_waiver_fails(tmp_path: Path) -> None:
    passing = RuleResult(rule="r1", title="t", status="pass", severity="error", message="ok", document="report",
                         pointer="", source="p.yaml:1", check="fields")
    out = _apply(tmp_path, _verdict(passing))
    assert out.results[1].message == f"waiver 1 at {tmp_path}/w.yaml:2 for rule r1 matched no failing result; remove it"
    assert not out.passed


@pytest.mark.parametrize(("rule", "message"), [
    ("r1", None),
    ("r11", "waiver 1 for rule 'r11' at <w>:2 waives nothing: profile p has no such rule (`bench-gate explain p` "
            "lists them); did you mean 'r1'?"),
    ("slice-thresholds", "waiver 1 for rule 'slice-thresholds' at <w>:2 waives nothing: profile p has no such "
                         "rule (`bench-gate explain p` lists them)"),
], ids=["existing-rule", "mistyped-rule", "rule-of-another-profile"])
def test_waiver_for_a_rule_the_profile_does_not_have(tmp_path: Path, rule: str, message: str | None) -> None:
    """A waiver for a rule id the profile lacks fails the gate (exit 1, like every waiver problem)
    and says so, instead of the "matched no failing result" of a stale waiver."""
    passing = RuleResult(rule="r1", title="t", status="pass", severity="error", message="ok", document="report",
                         pointer="", source="p.yaml:1", check="fields")
    body = "waivers:\n  - " + BASE.replace("r1", rule).replace("\n", "\n    ").rstrip() + "\n"
    out = waivers.apply(_verdict(passing), _file(tmp_path, body))
    if message is None:
        assert out.results[1].message == f"waiver 1 at {tmp_path}/w.yaml:2 for rule r1 matched no failing result; remove it"
    else:
        assert [r.status for r in out.results] == ["pass", "fail"]
        assert out.results[1].message == message.replace("<w>", f"{tmp_path}/w.yaml")
    assert not out.passed


def test_report_scope(tmp_path: Path) -> None:
    out = _apply(tmp_path, _verdict(_result("/a")), "report: other/*.json")
    assert [r.status for r in out.results] == ["fail"]


def _expiring(tmp_path: Path, expires: str, max_waiver: str = waivers.MAX_WAIVER,
              now: datetime = datetime(2026, 11, 29, 12, tzinfo=UTC)) -> Verdict:
    body = "waivers:\n  - " + BASE.replace("2026-12-31", expires).replace("\n", "\n    ").rstrip() + "\n"
    return waivers.apply(_verdict(_result("/a"), now=now), _file(tmp_path, body), max_waiver)


@pytest.mark.parametrize("expires", ["9998-12-31", "2027-11-30", "2027-11-29T12:00:01Z"],
                         ids=["far-future", "one-day-over", "one-second-over"])
def test_waiver_longer_than_the_maximum_waives_nothing(tmp_path: Path, expires: str) -> None:
    out = _expiring(tmp_path, expires)
    assert [r.status for r in out.results] == ["fail", "fail"]
    assert out.results[1].rule == "waiver-1"
    assert out.results[1].message == (
        f"waiver 1 at {tmp_path}/w.yaml:2 for rule r1 expires {expires}, more than 1 year (P1Y) after 2026-11-29 (the longest this "
        "profile allows, max_waiver); a waiver is a short, reviewed exception; it waives nothing")
    assert not out.passed


def test_waiver_of_exactly_the_maximum_applies(tmp_path: Path) -> None:
    out = _expiring(tmp_path, "2027-11-29T12:00:00Z")
    assert [r.status for r in out.results] == ["waived"]


def test_profile_sets_the_maximum(tmp_path: Path) -> None:
    assert [r.status for r in _expiring(tmp_path, "2026-12-31", max_waiver="P7D").results] == ["fail", "fail"]
    assert [r.status for r in _expiring(tmp_path, "2026-12-31", max_waiver="P40D").results] == ["waived"]
    # one calendar month from 2026-11-29T12:00Z ends on 2026-12-29T12:00Z
    assert [r.status for r in _expiring(tmp_path, "2026-12-29T12:00:00Z", max_waiver="P1M").results] == ["waived"]
    assert [r.status for r in _expiring(tmp_path, "2026-12-29T12:00:01Z", max_waiver="P1M").results] == [
        "fail", "fail"]
    # a limit beyond the calendar limits nothing, and is no internal error
    assert [r.status for r in _expiring(tmp_path, "9998-12-31", max_waiver="P100000Y").results] == ["waived"]


@pytest.mark.parametrize("tagged", ["rule: !!str r1", "reason: !!str tracked", "expires: !!str 2026-12-31",
                                    "rule: !!python/str r1"], ids=["rule", "reason", "expires", "python-tag"])
def test_explicit_tags_make_the_file_unusable(tmp_path: Path, tagged: str) -> None:
    key = tagged.split(":")[0]
    body = BASE.replace(next(ln for ln in BASE.splitlines() if ln.startswith(key + ":")), tagged)
    with pytest.raises(waivers.WaiverFileError) as err:
        _file(tmp_path, "waivers:\n  - " + body.replace("\n", "\n    ").rstrip() + "\n")
    assert "tag" in str(err.value) and "not allowed" in str(err.value)


def _claim(pointer: str, document: str = "README.md") -> RuleResult:
    return RuleResult(rule="r1", title="t", status="fail", severity="error", message=f"{document}: 99.6% unmatched",
                      document=document, pointer=pointer, source="claims.yaml:1", check="claim_numbers")


@pytest.mark.parametrize(("extra", "missing"), [("", "document and pointer"), ("document: README.md", "pointer"),
                                                 ("pointer: /line/3/column/5", "document")],
                         ids=["whole-rule", "file-only", "place-only"])
def test_claim_waiver_must_name_file_and_place(tmp_path: Path, extra: str, missing: str) -> None:
    out = _apply(tmp_path, _verdict(_claim("/line/3/column/5"), _claim("/line/9/column/1")), extra)
    assert [r.status for r in out.results] == ["fail", "fail", "fail"]
    assert out.results[2].rule == "waiver-1"
    assert out.results[2].message == (
        f"waiver 1 at {tmp_path}/w.yaml:2 for rule r1 names no {missing}: a waiver of a claim in a document must name the file (document) "
        "and the claim's place (pointer /line/L/column/C), e.g. document: README.md, pointer: /line/3/column/5; a "
        "waiver of the whole rule would waive every claim it finds, including those written later; it waives nothing")
    assert not out.passed


def test_claim_waiver_at_its_place_waives_that_claim_only(tmp_path: Path) -> None:
    out = _apply(tmp_path, _verdict(_claim("/line/3/column/5"), _claim("/line/9/column/1")),
                 "document: README.md\n    pointer: /line/3/column/5")
    assert [r.status for r in out.results] == ["waived", "fail"]
