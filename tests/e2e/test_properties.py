"""Property tests: no mutation of an honest report talks the gate into PASS, and no input at all
makes it crash.

The examples are judged in-process by the gate below the command line (``inprocess.Bound``: the
plan the real command line bound once, the same loader, engine and JSON rendering); a few CLI
runs at the end check that the command line says the same.

* From each honest golden report (the ai-memory and official-sota cases that pass), a random
  mutation that breaks a rule the profile enforces (drop a required field, change a value's
  type, perturb a metric, insert a duplicate key into the JSON text, shift a date across a
  freshness boundary) must never give exit 0.
* Random bytes and random JSON values as the report give exit 1 or 2, with a one-line message
  for exit 2; never a traceback, never an internal error.
* Random YAML profiles give a compiled plan (exit 0 or 1) or exit 2 with a one-line message
  that names the profile file (and its line when there is one).

Example counts are kept small so that the whole module runs in well under a minute.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench_gate.cli.app import main
from golden import ROOT, Case, case, materialise
from inprocess import Bound, Judged, bound_from_cli

NOW = "2026-11-29T12:00:00Z"
SETTINGS = settings(max_examples=30, deadline=None, derandomize=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
AI_MEMORY_HONEST = ["fixture-passes", "qa-honest-passes", "seed-qa-gate-passes", "citable-live-passes"]
HONEST = [f"ai-memory/{n}" for n in AI_MEMORY_HONEST] + ["official-sota/honest-sota-passes"]


def run(workdir: Path, args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The whole command line, in-process (the smoke runs and the random profiles)."""
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        code = main([*args, "--now", NOW, "--format", "json"])
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean(judged: Judged) -> None:
    """Exit 1 with a verdict that did not pass, or exit 2 with a one-line reason; never a crash
    (an exception would fail the test) or an internal error."""
    assert judged.code in (1, 2), judged
    if judged.code == 2:
        assert judged.verdict is None
        assert judged.reason and "\n" not in judged.reason and "internal error" not in judged.reason, judged.reason
    else:
        assert judged.verdict is not None and judged.verdict["passed"] is False
        assert not [r for r in judged.verdict["results"] if "internal error" in r["message"]]


class Honest:
    """An honest golden case materialised once: its folder, report data, arguments, and the plan
    its command line binds."""

    def __init__(self, case: Case, into: Path) -> None:
        self.case = case
        self.work = materialise(case, into)
        self.report_name = case.args[0]
        self.text = (self.work / self.report_name).read_text(encoding="utf-8")
        self.args = [("mutated.json" if a == self.report_name else a) for a in case.args]
        self.gate: Bound = bound_from_cli(case.args, NOW, self.work)

    def data(self) -> Any:
        return json.loads(self.text)

    def judge(self, text: str) -> Judged:
        (self.work / "mutated.json").write_text(text, encoding="utf-8")
        return self.gate.judge("mutated.json")


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Honest]:
    return {cid: Honest(case(cid), tmp_path_factory.mktemp(cid.replace("/", "-"))) for cid in HONEST}


def test_honest_cases_pass_unmutated(honest: dict[str, Honest]) -> None:
    for h in honest.values():
        judged = h.judge(h.text)
        assert judged.code == 0, (h.case.id, judged.reason)
        assert judged.verdict is not None and judged.verdict["counts"]["fail"] == 0


# --- pointers the ai-memory gate enforces ------------------------------------------------

Kinds = frozenset[str]
STRING, NUMBER, ARRAY, OBJECT = frozenset({"string"}), frozenset({"number"}), frozenset({"array"}), frozenset({"object"})
RUNTIME_STRINGS = ["runtime_mode", "graph_engine", "store", "retrieval_mode", "embedding_provider",
                   "embedding_model", "tokenizer_estimate_method"]
METRICS = ["hit@5", "recall@5", "ndcg@5", "hit@10", "recall@10", "ndcg@10"]
TYPES = ["single-session-user", "multi-session", "single-session-preference", "temporal-reasoning",
         "knowledge-update", "single-session-assistant"]

# (pointer, JSON kinds that are acceptable there); every one is required by the plain ai-memory plan
REQUIRED: list[tuple[str, Kinds]] = [
    ("/schema_version", STRING), ("/suite", STRING), ("/sibyl_commit", STRING), ("/generated_at", STRING),
    ("/command", frozenset({"string", "array"})), ("/mode", STRING), ("/dataset", OBJECT),
    ("/dataset/name", STRING), ("/dataset/corpus_hash", STRING), ("/runtime", OBJECT),
    *[(f"/runtime/{k}", STRING) for k in RUNTIME_STRINGS], ("/runtime/embedding_dimensions", NUMBER),
    ("/repeat_count", NUMBER), ("/auth_manifest_id", STRING), ("/total_questions", NUMBER),
    ("/overall", OBJECT), *[(f"/overall/{m}", NUMBER) for m in METRICS], ("/per_type", OBJECT),
    ("/case_results", ARRAY), ("/k_values", ARRAY),
]
PER_CASE: list[tuple[str, Kinds]] = [("question_id", STRING), ("answer_session_ids", ARRAY),
                                     ("ranked_session_ids", ARRAY), *[(m, NUMBER) for m in METRICS]]
# dropping /mode or /k_values is allowed (mode is optional; k defaults to 5 and 10)
DROPPABLE = [p for p, _ in REQUIRED if p not in ("/mode", "/k_values")]


def tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")] if pointer else []


def parent_of(doc: Any, pointer: str) -> tuple[Any, str | int]:
    toks = tokens(pointer)
    cur = doc
    for t in toks[:-1]:
        cur = cur[int(t)] if isinstance(cur, list) else cur[t]
    last = toks[-1]
    return cur, (int(last) if isinstance(cur, list) else last)


def kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.integers(-10**400, 10**400),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
                    st.sampled_from(["500", "0.9406", "true", "null", "", " ", "NaN", "1e999"]))
json_values = st.recursive(scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c,
                                                                                        max_size=4), max_leaves=12)


def pointer_choice(draw: Callable[..., Any]) -> tuple[str, Kinds]:
    if draw(st.booleans()):
        return draw(st.sampled_from(REQUIRED))
    i = draw(st.integers(0, 499))
    field, kinds = draw(st.sampled_from(PER_CASE))
    return f"/case_results/{i}/{field}", kinds


@st.composite
def ai_memory_mutation(draw: Callable[..., Any]) -> tuple[str, Callable[[Any], str]]:
    """(description, function from report data to mutated JSON text)."""
    how = draw(st.sampled_from(["drop", "retype", "perturb", "duplicate"]))
    if how == "drop":
        if draw(st.booleans()):
            pointer = draw(st.sampled_from(DROPPABLE))
        else:
            i = draw(st.integers(0, 499))
            pointer = f"/case_results/{i}/" + draw(st.sampled_from(["question_id", "answer_session_ids",
                                                                     "ranked_session_ids"]))

        def drop(doc: Any) -> str:
            parent, key = parent_of(doc, pointer)
            del parent[key]
            return json.dumps(doc)
        return f"drop {pointer}", drop
    if how == "retype":
        pointer, kinds = pointer_choice(draw)
        value = draw(json_values.filter(lambda v: kind_of(v) not in kinds))

        def retype(doc: Any) -> str:
            parent, key = parent_of(doc, pointer)
            parent[key] = value
            return json.dumps(doc)
        return f"retype {pointer} = {value!r}", retype
    if how == "perturb":
        where = draw(st.sampled_from(["overall", "slice", "case"]))
        metric = draw(st.sampled_from(METRICS + ["legacy_recall@5", "legacy_recall@10"]))
        if where == "overall":
            pointer = f"/overall/{metric}"
        elif where == "slice":
            pointer = f"/per_type/{draw(st.sampled_from(TYPES))}/{metric}"
        else:
            pointer = f"/case_results/{draw(st.integers(0, 499))}/{metric}"
        delta = draw(st.floats(1e-6, 1.0)) * draw(st.sampled_from([-1, 1]))

        def perturb(doc: Any) -> str:
            parent, key = parent_of(doc, pointer)
            parent[key] = parent[key] + delta
            return json.dumps(doc)
        return f"perturb {pointer} by {delta!r}", perturb
    target = draw(st.sampled_from(["", "/overall", "/runtime", "/dataset", "/per_type", "case", "slice"]))
    if target == "case":
        target = f"/case_results/{draw(st.integers(0, 499))}"
    elif target == "slice":
        target = f"/per_type/{draw(st.sampled_from(TYPES))}"
    pick = draw(st.integers(0, 100))
    extra = draw(json_values)
    return f"duplicate a key of {target or '/'}", lambda doc: duplicate_key(doc, target, pick, extra)


MARK = "\u0000duplicate"


def duplicate_key(doc: Any, pointer: str, pick: int, value: Any) -> str:
    """JSON text in which the object at ``pointer`` holds one of its keys twice."""
    obj = doc
    for t in tokens(pointer):
        obj = obj[int(t)] if isinstance(obj, list) else obj[t]
    keys = list(obj)
    key = keys[pick % len(keys)]
    obj[key + MARK] = value
    text = json.dumps(doc)
    marked = json.dumps(key + MARK)
    assert text.count(marked) == 1
    return text.replace(marked, json.dumps(key))


@pytest.mark.parametrize("name", AI_MEMORY_HONEST)
@SETTINGS
@given(mutation=ai_memory_mutation())
def test_ai_memory_mutations_never_pass(name: str, mutation: tuple[str, Callable[[Any], str]],
                                        honest: dict[str, Honest]) -> None:
    h = honest[f"ai-memory/{name}"]
    what, mutate = mutation
    judged = h.judge(mutate(h.data()))
    assert judged.code != 0, what
    assert_clean(judged)
    if what.startswith("duplicate"):
        assert judged.code == 2 and "duplicate key" in judged.reason, what


# --- official-sota: dates moved across a boundary -----------------------------------------

TODAY = date(2026, 11, 29)


@st.composite
def sota_date_mutation(draw: Callable[..., Any]) -> tuple[str, str, str, str]:
    """(description, file, pointer, new value) that must fail the official-sota gate."""
    which = draw(st.sampled_from(["checked-stale", "checked-future", "evidence-future", "expired",
                                  "generated-future"]))
    if which == "checked-stale":
        day = TODAY - timedelta(days=draw(st.integers(31, 5000)))
        return which, "sota-baseline-comparison.json", "checked_at", day.isoformat()
    if which == "checked-future":
        day = TODAY + timedelta(days=draw(st.integers(1, 5000)))
        return which, "sota-baseline-comparison.json", "checked_at", day.isoformat()
    if which == "evidence-future":
        day = TODAY + timedelta(days=draw(st.integers(1, 5000)))
        return which, "sota-baseline-comparison.json", "evidence_date", day.isoformat()
    if which == "expired":
        day = TODAY - timedelta(days=draw(st.integers(1, 5000)))
        return which, "sota-baseline-comparison.json", "expires_at", day.isoformat()
    moved = datetime(2026, 11, 29, 12, 0, 0) + timedelta(seconds=draw(st.integers(1, 10**8)))
    return which, "report", "generated_at", moved.strftime("%Y-%m-%dT%H:%M:%SZ")


@SETTINGS
@given(mutation=sota_date_mutation())
def test_sota_dates_across_the_boundary_never_pass(mutation: tuple[str, str, str, str],
                                                   honest: dict[str, Honest]) -> None:
    h = honest["official-sota/honest-sota-passes"]
    what, file, key, value = mutation
    baseline_path = h.work / "sota-baseline-comparison.json"
    original = baseline_path.read_text(encoding="utf-8")
    report = h.data()
    try:
        if file == "report":
            report[key] = value
        else:
            baseline = json.loads(original)
            baseline[key] = value
            baseline_path.write_text(json.dumps(baseline), encoding="utf-8")
        judged = h.judge(json.dumps(report))
    finally:
        baseline_path.write_text(original, encoding="utf-8")
    assert judged.code == 1, (what, value, judged.reason)
    assert_clean(judged)


# --- random input as the report -----------------------------------------------------------


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scratch")


@pytest.fixture(scope="module")
def plain(honest: dict[str, Honest], scratch: Path) -> Bound:
    """The plain ai-memory gate (no profile option), judging files in ``scratch``."""
    gate = honest["ai-memory/fixture-passes"].gate
    return Bound(gate.plan, gate.cli_docs, gate.root, gate.now, gate.version, scratch)


@SETTINGS
@given(raw=st.binary(max_size=300))
def test_random_bytes_as_report(raw: bytes, scratch: Path, plain: Bound) -> None:
    (scratch / "r.json").write_bytes(raw)
    assert_clean(plain.judge("r.json"))


@SETTINGS
@given(value=json_values)
def test_random_json_as_report(value: Any, scratch: Path, plain: Bound) -> None:
    (scratch / "r.json").write_text(json.dumps(value), encoding="utf-8")
    assert_clean(plain.judge("r.json"))


@SETTINGS
@given(pointer=st.sampled_from([p for p, _ in REQUIRED]), value=json_values)
def test_random_values_in_the_fixture_never_crash(pointer: str, value: Any, honest: dict[str, Honest]) -> None:
    h = honest["ai-memory/fixture-passes"]
    doc = h.data()
    parent, key = parent_of(doc, pointer)
    parent[key] = value
    judged = h.judge(json.dumps(doc))
    if judged.code == 2:
        assert "\n" not in judged.reason and "internal error" not in judged.reason, judged.reason
    else:
        assert judged.verdict is not None
        assert not [r for r in judged.verdict["results"] if "internal error" in r["message"]]


# --- the command line says the same -------------------------------------------------------------


SMOKE = [
    ("drop", lambda doc: doc["overall"].pop("recall@5"), 1, ""),
    ("retype", lambda doc: doc["runtime"].__setitem__("embedding_dimensions", "384"), 1, ""),
    ("perturb", lambda doc: doc["case_results"][7].__setitem__("ndcg@5", doc["case_results"][7]["ndcg@5"] + 1e-6),
     1, ""),
    ("not-json", None, 2, "is not valid JSON"),
]


@pytest.mark.parametrize("what,mutate,code,reason", SMOKE, ids=[s[0] for s in SMOKE])
def test_the_command_line_agrees(what: str, mutate: Callable[[Any], Any] | None, code: int, reason: str,
                                 honest: dict[str, Honest], capsys: pytest.CaptureFixture[str]) -> None:
    """A few mutations through the whole command line: the same exit code and verdict (or the
    same one-line reason) as the in-process gate."""
    h = honest["ai-memory/fixture-passes"]
    if mutate is None:
        text = h.text[: len(h.text) // 2]
    else:
        doc = h.data()
        mutate(doc)
        text = json.dumps(doc)
    judged = h.judge(text)
    cli_code, out, err = run(h.work, h.args, capsys)
    assert (judged.code, cli_code) == (code, code), err
    if code == 2:
        assert out == "" and err == f"bench-gate: error: {judged.reason}\n" and reason in err
    else:
        assert json.loads(out) == judged.verdict


# --- random profiles ----------------------------------------------------------------------

profile_keys = st.sampled_from(["name", "description", "extends", "params", "documents", "options", "use",
                                "rules", "disable", "serverity"])
rule_values = st.fixed_dictionaries({"id": st.sampled_from(["r", "header-identity", "R!"]),
                                     "title": st.sampled_from(["t", ""]),
                                     "check": st.sampled_from(["fields", "fresh", "reject", "metric_thresholds",
                                                               "public_url", "nope"]),
                                     "with": st.dictionaries(st.sampled_from(["at", "message", "min", "fields",
                                                                              "max_age", "x"]),
                                                             json_values, max_size=3),
                                     "why": st.sampled_from(["w", ""])})
profiles = st.dictionaries(profile_keys, st.one_of(json_values, st.lists(rule_values, max_size=2),
                                                   st.just("ai-memory")), max_size=6)


@SETTINGS
@given(data=profiles, garble=st.one_of(st.none(), st.text(max_size=20)))
def test_random_profiles_compile_or_fail_with_a_location(data: dict[str, Any], garble: str | None,
                                                         scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = yaml.safe_dump(data, allow_unicode=True)
    if garble is not None:
        text = text[: len(text) // 2] + garble + text[len(text) // 2:]
    (scratch / "p.yaml").write_text(text, encoding="utf-8")
    shutil.copy(ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json", scratch / "report.json")
    code, out, err = run(scratch, ["report.json", "--profile", "./p.yaml"], capsys)
    assert code in (0, 1, 2), err
    assert "Traceback" not in err and "internal error" not in err, err
    if code == 2:
        assert err.count("\n") == 1, err
        # the location is the file (and line) of the profile or of the built-in file it extends
        assert re.match(r"^bench-gate: error: profile: (p\.yaml|\./p\.yaml|[a-z-]+|profiles/[a-z-]+\.yaml)"
                        r"(:[0-9]+)?: ", err), err
