"""Real-shape official reports and the classes of wrong PASS closed around them.

Unit tests of the kinds in ``bench_gate.checks.official.evidence``, of the skeleton used for
validator independence, of the lookup of paths from another machine, and end-to-end runs of
the real command line on the bundled example with numbers whose exponent overflows decimal.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from bench_gate.checks.base import Context
from bench_gate.checks.generic.integrity import ArtifactParams, artifact_hashes
from bench_gate.checks.official.evidence import (
    DEFAULT_LEVELS, FileCountsParams, ImporterKeysParams, KnownDatasetParams, ProducerClaimParams,
    SamePathParams, ScoredParams, dataset_file_counts, importer_keys, known_dataset, official_question_types,
    producer_claim, qa_hypotheses_scored, same_file, same_path,
)
from bench_gate.text.canonical import skeleton, visible
from bench_gate.cli.app import main
from bench_gate.loaders import confined as files, dataset, strictjson
from bench_gate.loaders.artifacts import ROLE, Hashed, hash_tables
from bench_gate.models import Doc

import kindtest
from kindtest import run as run_kind
from repo import ROOT

EXAMPLE = ROOT / "examples" / "official"
NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
METRICS = {"official_longmemeval_task_averaged_accuracy": "task_averaged",
           "official_longmemeval_overall_accuracy": "overall"}
IDS = ["q1", "q2", "q3", "q4"]
TYPES = ["A", "A", "A", "B"]
LABELS = [True, False, False, True]  # overall 1/2; task-averaged (1/3 + 1) / 2 = 2/3


def jsonl(role: str, rows: list[Any], sha: str = "") -> Doc:
    return Doc(role, f"/home/ci/run/{role}.jsonl", sha, 10, rows=tuple((i + 1, r) for i, r in enumerate(rows)))


def streamed(ids: list[str] = IDS, sha: str = "d" * 64, path: str = "/home/ci/LongMemEval/data/ds.json") -> Doc:
    return Doc("dataset", path, sha, 10, extra={"format": "dataset", "entries": len(ids), "ids": tuple(ids),
                                                "types": tuple(TYPES[: len(ids)]), "problems": (),
                                                "problem_count": 0})


def log(texts: list[str] | None = None) -> Doc:
    texts = texts or ["h"] * 4
    return jsonl("eval_log", [{"question_id": q, "hypothesis": t, "autoeval_label": {"model": "m", "label": v}}
                              for q, t, v in zip(IDS, texts, LABELS)], "c" * 64)


def hyps(texts: list[str] | None = None) -> Doc:
    texts = texts or ["h"] * 4
    return jsonl("hypotheses", [{"question_id": q, "hypothesis": t} for q, t in zip(IDS, texts)], "b" * 64)


def ctx(report: dict[str, Any], **docs: Doc) -> Context:
    documents = {"report": Doc("report", "r.json", "e" * 64, data=report), "eval_log": log(),
                 "hypotheses": hyps(), "dataset": streamed()}
    documents.update(docs)
    return kindtest.context(**documents)


def first(fn: Any, params: Any, context: Context) -> tuple[str, str]:
    return kindtest.first(fn, params, context)


# --- dataset_file_counts -------------------------------------------------------------------

DC = "external_suite.dataset_counts"


@pytest.mark.parametrize(("counts", "status", "message"), [
    ({"longmemeval_oracle.json": None, "ds.json": 4, "longmemeval_m_cleaned.json": None}, "pass",
     f"{DC}: longmemeval_oracle.json unknown, ds.json 4, longmemeval_m_cleaned.json unknown; the dataset file ds.json "
     "counts 4 entries, as listed"),
    ({"ds.json": 4.0}, "pass", f"{DC}: ds.json 4.0; the dataset file ds.json counts 4 entries, as listed"),
    ({"ds.json": None}, "pass", f"{DC}: ds.json unknown; the count of the dataset file ds.json is not known (null)"),
    ({"longmemeval_s_cleaned.json": 500}, "pass",
     f"{DC}: longmemeval_s_cleaned.json 500; the dataset file ds.json is not listed"),
    ({"knowledge-update": 78, "multi-session": 133}, "pass",
     f"{DC}: knowledge-update 78, multi-session 133; the dataset file ds.json is not listed"),
    ({"ds.json": 3}, "fail", f"{DC}.ds.json is 3, but the dataset file /home/ci/LongMemEval/data/ds.json has 4 entries"),
    ({"ds.json": "4"}, "fail", f'{DC}.ds.json must be an entry count or null, got string "4"'),
    ({"ds.json": True}, "fail", f"{DC}.ds.json must be an entry count or null, got boolean true"),
    ({"other.json": 2.5}, "fail", f"{DC}.other.json must be an exact integer, got 2.5"),
    ({"other.json": -1}, "fail", f"{DC}.other.json is -1, not a count"),
    ([4], "fail", f"{DC} must be an object of entry counts by dataset file name, got array"),
    (None, "skip", f"{DC} is not given"),
], ids=["real-shape", "float-count", "null-is-unknown", "not-listed", "per-type-legacy", "wrong-count", "string",
        "boolean", "fraction", "negative", "array", "absent"])
def test_dataset_file_counts(counts: Any, status: str, message: str) -> None:
    report = {"external_suite": {"dataset_counts": counts}}
    assert first(dataset_file_counts, FileCountsParams(), ctx(report)) == (status, message)


# --- producer_claim ------------------------------------------------------------------------

CA = "sota_claim.claim_allowed"
FULL, SOTA = DEFAULT_LEVELS[2], DEFAULT_LEVELS[3]


def baseline(accuracy: Any, metric: str = "official_longmemeval_task_averaged_accuracy") -> Doc:
    return Doc("baseline", "b.json", "f" * 64, data={"accuracy": accuracy, "metric": metric})


@pytest.mark.parametrize(("claim", "params", "docs", "status", "message"), [
    (FULL, {}, {}, "pass", f'{CA} "{FULL}": recomputed from the evidence'),
    (DEFAULT_LEVELS[1], {}, {}, "pass", f"{CA} \"{DEFAULT_LEVELS[1]}\": the evidence supports '{FULL}'"),
    (SOTA, {}, {}, "fail", f'{CA} "{SOTA}" claims more than the evidence supports: this profile does not compare '
                           f"with a baseline (gate a SOTA claim with official-sota); at most '{FULL}'"),
    (FULL, {"expected": 5}, {}, "fail", f'{CA} "{FULL}" claims more than the evidence supports: 4 evaluated rows '
                                        f"over 4 dataset entries is not the full 5; at most '{DEFAULT_LEVELS[1]}'"),
    (SOTA, {"baseline": "baseline", "require": SOTA}, {"baseline": baseline(0.6)}, "pass",
     f'{CA} "{SOTA}": recomputed from the evidence'),
    (SOTA, {"baseline": "baseline", "require": SOTA},
     {"baseline": baseline(0.5, "official_longmemeval_overall_accuracy")}, "fail",
     f'{CA} "{SOTA}" claims more than the evidence supports: the recomputed overall accuracy 0.5 is not greater '
     f"than the baseline 0.5; at most '{FULL}'"),
    (SOTA, {"baseline": "baseline", "require": SOTA},
     {"baseline": baseline(0.6, "official_longmemeval_overall_accuracy")}, "fail",
     f'{CA} "{SOTA}" claims more than the evidence supports: the recomputed overall accuracy 0.5 is not greater '
     f"than the baseline 0.6; at most '{FULL}'"),
    (SOTA, {"baseline": "baseline", "require": SOTA}, {"baseline": baseline(0.5, "recall@5")}, "fail",
     f'{CA} "{SOTA}" claims more than the evidence supports: the baseline metric "recall@5" is not an official QA '
     f"accuracy; at most '{FULL}'"),
    (FULL, {"baseline": "baseline", "require": SOTA}, {"baseline": baseline(0.1)}, "fail",
     f"{CA} is \"{FULL}\": the report itself does not claim '{SOTA}'"),
    (False, {"require": SOTA}, {}, "fail", f"{CA} is boolean false: the report states no claim level (expected one "
                                           f"of {', '.join(repr(x) for x in DEFAULT_LEVELS)})"),
    (True, {}, {}, "fail", f"{CA} is boolean true: the report states no claim level (expected one of "
                           f"{', '.join(repr(x) for x in DEFAULT_LEVELS)})"),
    (..., {"require": SOTA}, {}, "fail", f"{CA} is missing: the report states no claim level (expected one of "
                                         f"{', '.join(repr(x) for x in DEFAULT_LEVELS)})"),
    ("official SOTA", {}, {}, "fail", f'{CA} "official SOTA" is not a claim level the producer writes (expected one '
                                      f"of {', '.join(repr(x) for x in DEFAULT_LEVELS)})"),
], ids=["full-supported", "weaker-claim", "sota-beyond-full-profile", "full-on-partial", "sota-supported",
        "sota-tie", "sota-same-kind", "sota-retrieval-metric", "sota-profile-needs-sota-claim", "false", "true",
        "absent", "unknown-level"])
def test_producer_claim(claim: Any, params: dict[str, Any], docs: dict[str, Doc], status: str,
                        message: str) -> None:
    report: dict[str, Any] = {"sota_claim": {} if claim is ... else {"claim_allowed": claim}}
    p = ProducerClaimParams(**{"expected": 4, "metrics": METRICS, **params})
    assert first(producer_claim, p, ctx(report, **docs)) == (status, message)


def test_producer_claim_params() -> None:
    with pytest.raises(ValueError, match="levels lists the 4 claim levels"):
        ProducerClaimParams(expected=500, levels=["a", "b"])
    with pytest.raises(ValueError, match="require must be one of the levels"):
        ProducerClaimParams(expected=500, require="SOTA")


# --- qa_hypotheses_scored ------------------------------------------------------------------


@pytest.mark.parametrize(("hyp_texts", "log_texts", "status", "message"), [
    (None, None, "pass", "all 4 hypothesis texts the eval_log scored are the hypotheses file's"),
    (["x"] * 4, None, "fail", '4 of 4 eval_log rows scored another hypothesis than the hypotheses file holds; first: '
                              'q1: scored "h" but the hypotheses file has "x"; q2: scored "h" but the hypotheses file '
                              'has "x"; q3: scored "h" but the hypotheses file has "x"'),
    (["h", "h", "h", "h "], None, "fail", '1 of 4 eval_log rows scored another hypothesis than the hypotheses file '
                                          'holds; first: q4: scored "h" but the hypotheses file has "h "'),
], ids=["same", "all-replaced", "trailing-space"])
def test_hypotheses_scored(hyp_texts: Any, log_texts: Any, status: str, message: str) -> None:
    context = ctx({}, hypotheses=hyps(hyp_texts), eval_log=log(log_texts))
    assert first(qa_hypotheses_scored, ScoredParams(), context) == (status, message)


def test_hypotheses_scored_needs_the_text_in_the_log() -> None:
    rows = [{"question_id": q, "autoeval_label": True} for q in IDS]
    status, message = first(qa_hypotheses_scored, ScoredParams(), ctx({}, eval_log=jsonl("eval_log", rows)))
    assert (status, message) == ("fail", "4 of 4 eval_log rows scored another hypothesis than the hypotheses file "
                                         "holds; first: q1 (eval_log line 1): the log carries missing as hypothesis; "
                                         "q2 (eval_log line 2): the log carries missing as hypothesis; q3 (eval_log "
                                         "line 3): the log carries missing as hypothesis")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=20), min_size=4, max_size=4), st.integers(0, 3), st.text(min_size=1, max_size=5))
def test_any_changed_hypothesis_is_found(texts: list[str], index: int, suffix: str) -> None:
    changed = list(texts)
    changed[index] = texts[index] + suffix
    context = ctx({}, hypotheses=hyps(changed), eval_log=log(texts))
    assert first(qa_hypotheses_scored, ScoredParams(), context)[0] == "fail"
    assert first(qa_hypotheses_scored, ScoredParams(), ctx({}, hypotheses=hyps(texts), eval_log=log(texts)))[0] == "pass"


# --- known_dataset -------------------------------------------------------------------------


def test_known_dataset() -> None:
    accepted = {"longmemeval_s_cleaned.json": ["d" * 64]}
    assert first(known_dataset, KnownDatasetParams(accepted=accepted), ctx({})) == (
        "pass", "the dataset file /home/ci/LongMemEval/data/ds.json (sha256 dddddddddddd…) is the official "
                "longmemeval_s_cleaned.json: its question types are the benchmark's")
    unknown = streamed(sha="a" * 64)
    assert first(known_dataset, KnownDatasetParams(accepted=accepted), ctx({}, dataset=unknown)) == (
        "fail", "the dataset file /home/ci/LongMemEval/data/ds.json (sha256 aaaaaaaaaaaa…) is not a known official "
                "LongMemEval file and 4 entries of 4 are not an official LongMemEval-S id (first: 'q1' (entry 0), "
                "'q2' (entry 1), 'q3' (entry 2)): their question types, and the task-averaged accuracy computed "
                "from them, are unverified (accepted: longmemeval_s_cleaned.json dddddddddddd…)")
    consistent = KnownDatasetParams(accepted=accepted, require="consistent")
    assert first(known_dataset, consistent, ctx({}, dataset=unknown)) == (
        "pass", "the dataset file /home/ci/LongMemEval/data/ds.json: no official LongMemEval-S question is "
                "relabelled (0 official ids with their types); 4 entries of 4 are not an official LongMemEval-S id "
                "(first: 'q1' (entry 0), 'q2' (entry 1), 'q3' (entry 2)): their types are unverified")


OFFICIAL = official_question_types()
REAL = list(OFFICIAL.items())  # in the benchmark's order


def official_doc(pairs: list[tuple[str, str]], sha: str = "a" * 64) -> Doc:
    return Doc("dataset", "/data/longmemeval_s_cleaned.json", sha, 10,
               extra={"format": "dataset", "entries": len(pairs), "ids": tuple(q for q, _ in pairs),
                      "types": tuple(t for _, t in pairs), "problems": (), "problem_count": 0})


def test_bundled_question_types_are_longmemeval_s() -> None:
    # the public distribution: 500 questions, 30 of them abstention (_abs) questions
    assert len(OFFICIAL) == 500
    assert sum(qid.endswith("_abs") for qid in OFFICIAL) == 30
    assert Counter(OFFICIAL.values()) == {"single-session-user": 70, "single-session-assistant": 56,
                                          "single-session-preference": 30, "multi-session": 133,
                                          "knowledge-update": 78, "temporal-reasoning": 133}


def test_official_ids_and_types_verify_by_content() -> None:
    context = ctx({}, dataset=official_doc(REAL))
    assert first(known_dataset, KnownDatasetParams(accepted={}), context) == (
        "pass", "the dataset file /data/longmemeval_s_cleaned.json: all 500 entries are official LongMemEval-S ids "
                "with their official question types (verified by content)")


def test_a_relabelled_official_id_fails_even_with_an_accepted_hash() -> None:
    pairs = list(REAL)
    qid, _ = pairs[0]
    pairs[0] = (qid, "single-session-preference")
    for require in ("verified", "consistent"):
        status, message = first(known_dataset,
                                KnownDatasetParams(accepted={"x.json": ["a" * 64]}, require=require),
                                ctx({}, dataset=official_doc(pairs)))
        assert (status, message) == (
            "fail", f"the dataset file /data/longmemeval_s_cleaned.json: 1 official LongMemEval-S question carries "
                    f"another question type (first: {qid} (entry 0) is \"single-session-preference\", officially "
                    "single-session-user): relabelled question types change the task-averaged accuracy without "
                    "changing a label")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 499), st.sampled_from(["\u200b", " ", "\u00a0", "\u00ad", "UPPER", "FULLWIDTH"]))
def test_an_id_that_only_looks_official_fails(index: int, how: str) -> None:
    qid, qtype = REAL[index]
    if how == "UPPER":
        changed = qid.upper()
    elif how == "FULLWIDTH":
        changed = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in qid)
    else:
        changed = qid + how
    if changed == qid:  # an id of digits only has no upper case
        return
    pairs = list(REAL)
    pairs[index] = (changed, qtype)
    status, message = first(known_dataset, KnownDatasetParams(accepted={}, require="consistent"),
                            ctx({}, dataset=official_doc(pairs)))
    assert status == "fail"
    assert f"and the official id {qid} differ only by" in message


def test_a_duplicated_official_id_with_another_type_fails() -> None:
    # the first entry of an id decides its type elsewhere; every entry is compared here
    qid, _ = REAL[5]
    pairs = [*REAL, (qid, "temporal-reasoning")]
    status, message = first(known_dataset, KnownDatasetParams(accepted={}), ctx({}, dataset=official_doc(pairs)))
    assert (status, message.split(" (first:")[0]) == (
        "fail", "the dataset file /data/longmemeval_s_cleaned.json: 1 official LongMemEval-S question carries another "
                "question type")


# --- importer_keys -------------------------------------------------------------------------

KEYS = ImporterKeysParams(blocks={"/official_qa": ["accuracy", "correct_count"], "/sota_claim": ["claim_allowed"]})


def test_importer_keys() -> None:
    honest = {"official_qa": {"accuracy": 0.608, "correct_count": 304}, "sota_claim": {"claim_allowed": "x"}}
    assert first(importer_keys, KEYS, ctx(honest)) == (
        "pass", "2 blocks hold only the keys the importer writes")
    added = {"official_qa": {"accuracy": 0.608, "correct_count": 304, "task_averaged_accuracy": 0.99},
             "sota_claim": {"claim_allowed": "x", "per_type": {"temporal-reasoning": 0.99}}}
    found = list(run_kind(importer_keys, KEYS, ctx(added)))
    assert [(f.status, f.message, f.pointer) for f in found] == [
        ("fail", "official_qa has 1 key the importer does not write: task_averaged_accuracy (0.99); no rule "
                 "recomputes it, so a number there would read as gated", "/official_qa/task_averaged_accuracy"),
        ("fail", "sota_claim has 1 key the importer does not write: per_type ({object with 1 key}); no "
                 "rule recomputes it, so a number there would read as gated", "/sota_claim/per_type")]
    assert first(importer_keys, KEYS, ctx({"official_qa": None})) == ("skip", "no importer block is present")


# --- same_path -----------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "same"), [
    ("/home/ci/run/hyp.jsonl", "/home/ci/run/hyp.jsonl", True),
    ("/home/ci/run/hyp.jsonl", "run/hyp.jsonl", True),
    ("./run/hyp.jsonl", "/home/ci/run/hyp.jsonl", True),
    ("/home/ci/LongMemEval/data/x.json", "../../data/x.json", True),
    ("/home/ci/run/hyp.jsonl", "other/hyp.jsonl", False),
    ("/home/ci/run/hyp.jsonl", "/home/ci/run/hyp-v6.jsonl", False),
    ("run/hyp.jsonl", "hyp.jsonl", False),
    ("/a/hyp.jsonl", "..", False),
], ids=["equal", "absolute-ends-with-relative", "dot-relative", "dotdot-relative", "other-folder", "other-file",
        "two-relatives", "only-dotdot"])
def test_same_file(a: str, b: str, same: bool) -> None:
    assert same_file(a, b) is same
    assert same_file(b, a) is same


def test_same_path_kind() -> None:
    report = {"p": {"a": "/home/ci/run/hyp.jsonl"}, "q": {"a": "hyp.jsonl", "b": None}}
    ok = SamePathParams(groups=[["/p/a", "/q/a"], ["/p/a", "/q/b"]], optional=True)
    assert first(same_path, ok, ctx(report)) == ("pass", "1 pair of paths name the same files")
    strict = SamePathParams(groups=[["/p/a", "/q/b"]])
    assert first(same_path, strict, ctx(report))[0] == "fail"


# --- artifact_hashes -----------------------------------------------------------------------


def hashed(**entries: Hashed) -> Doc:
    return Doc(ROLE, "", origin="artifacts", extra=entries)


def test_artifacts_any_name_and_judged_roles() -> None:
    report = {"artifacts": {"hypotheses": {"path": "/home/ci/run/h.jsonl", "sha256": "b" * 64, "bytes": 10},
                            "notes": {"path": "n.md", "sha256": "1" * 63 + "2"}}}
    files_ = hashed(**{"/artifacts/hypotheses": Hashed("/home/ci/run/h.jsonl", "h.jsonl", "b" * 64, 10),
                       "/artifacts/notes": Hashed("n.md", "", "1" * 63 + "2", 3)})
    params = ArtifactParams(tables=["/artifacts", "audit:/artifacts"], roles={"hypotheses": "hypotheses"})
    assert first(artifact_hashes, params, ctx(report, **{ROLE: files_})) == (
        "pass", "2 listed artifacts in artifacts match their files: hypotheses at h.jsonl, notes")
    copy = hashed(**{"/artifacts/hypotheses": Hashed("/home/ci/run/h.jsonl", "", "a" * 64, 10),
                     "/artifacts/notes": Hashed("n.md", "", "1" * 63 + "2", 3)})
    report["artifacts"]["hypotheses"]["sha256"] = "a" * 64
    assert first(artifact_hashes, params, ctx(report, **{ROLE: copy})) == (
        "fail", "artifacts.hypotheses (/home/ci/run/h.jsonl, sha256 aaaaaaaaaaaa…) is not the hypotheses file "
                "judged here (/home/ci/run/hypotheses.jsonl, sha256 bbbbbbbbbbbb…)")


def test_artifacts_audit_entry_not_present_and_no_tables() -> None:
    audit = Doc("audit", "a.json", "9" * 64, data={"artifacts": {"diagnostic_report": {
        "path": "d.json", "resolved_path": "/x/d.json", "exists": False}}})
    params = ArtifactParams(tables=["/artifacts", "audit:/artifacts"])
    assert first(artifact_hashes, params, ctx({}, audit=audit, **{ROLE: hashed()})) == (
        "pass", "1 listed artifact in audit artifacts match their files: diagnostic_report (not present when the "
                "audit ran)")
    assert first(artifact_hashes, params, ctx({})) == (
        "skip", "no artifact table is given (/artifacts, audit:/artifacts)")


def test_hash_tables_finds_producer_paths_under_the_root(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "h.jsonl").write_bytes(b"abc\n")
    report = Doc("report", "r.json", data={"artifacts": {
        "hypotheses": {"path": "/home/ci/zaxy/run/h.jsonl", "sha256": "x"},
        "outside": {"path": "/etc/hostname", "sha256": "x"},
        "not-an-entry": "text"}})
    doc = hash_tables(["/artifacts"], {"report": report}, tmp_path)
    found = doc.extra["/artifacts/hypotheses"]
    assert (found.found, found.size, found.error) == (f"{tmp_path}/run/h.jsonl", 4, None)
    assert doc.extra["/artifacts/outside"].error is not None
    assert "/artifacts/not-an-entry" not in doc.extra


# --- paths from another machine ------------------------------------------------------------


@pytest.fixture
def root(tmp_path: Path) -> Path:
    base = tmp_path / "root"
    (base / "reports" / "run").mkdir(parents=True)
    (base / "reports" / "run" / "h.jsonl").write_text("x\n")
    (base / "h.jsonl").write_text("shorter suffix\n")
    (tmp_path / "secret.json").write_text("{}\n")
    (base / "link").symlink_to(tmp_path)
    return base


@pytest.mark.parametrize(("written", "found"), [
    ("/home/ci/zaxy/reports/run/h.jsonl", "reports/run/h.jsonl"),
    ("/other/machine/h.jsonl", "h.jsonl"),
    ("ci/zaxy/reports/run/h.jsonl", ""),
], ids=["longest-suffix-wins", "file-name-only", "relative-is-not-looked-up"])
def test_absolute_path_found_by_suffix(root: Path, written: str, found: str) -> None:
    loc = files.locate(written, root, confine=True, by_suffix=True)
    if not found:  # a relative path is resolved against the root as written, never by its tail
        assert (loc.found, loc.real) == ("", (root / written).resolve())
        return
    # shown as the path of the file from here: the root as given, then the trailing part
    assert (loc.found, loc.real) == (f"{root}/{found}", (root / found).resolve())


def test_found_path_under_the_current_directory_root(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(root)
    assert files.locate("/x/reports/run/h.jsonl", Path("."), confine=True, by_suffix=True).found == \
        "reports/run/h.jsonl"


def test_absolute_path_inside_root_is_read_as_written(root: Path) -> None:
    written = str((root / "reports" / "run" / "h.jsonl").resolve())
    assert files.locate(written, root, confine=True, by_suffix=True).found == ""


@pytest.mark.parametrize("written", ["/home/ci/link/secret.json", "/etc/passwd", "/home/ci/zaxy/../../secret.json"],
                         ids=["suffix-through-symlink-out", "system-file", "dotdot-tail"])
def test_suffix_lookup_never_leaves_the_root(root: Path, written: str) -> None:
    with pytest.raises(files.DocumentError, match="no trailing part of it names a file under the root"):
        files.locate(written, root, confine=True, by_suffix=True)


def test_without_suffix_lookup_absolute_is_refused(root: Path) -> None:
    with pytest.raises(files.DocumentError, match="is absolute; paths in a report are relative"):
        files.locate("/home/ci/zaxy/reports/run/h.jsonl", root, confine=True)


# --- skeleton ------------------------------------------------------------------------------

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u00ad", "\u2060", "\ufeff", " ", ".", "-", "_", "\u200e"]
LOOKALIKE = {"a": ["\u0430", "\uff41", "\u0251"], "x": ["\u0445", "\uff58"], "y": ["\u0443", "\uff59"],
             "z": ["\uff5a", "\u1d22"], "s": ["\u0455", "\uff53"], "e": ["\u0435", "\uff45"], "l": ["\uff4c"],
             "f": ["\uff46"]}


@st.composite
def disguised(draw: st.DrawFn, word: str) -> str:
    out = []
    for ch in word:
        options = [ch, ch.upper(), *LOOKALIKE.get(ch, [])]
        out.append(draw(st.sampled_from(options)))
        out.append(draw(st.sampled_from(["", *INVISIBLE])))
    return "".join(out)


@settings(max_examples=200, deadline=None)
@given(disguised("zaxy"), st.sampled_from(["", "Labs", " Research", "-team"]))
def test_disguised_system_name_reads_as_the_system(name: str, suffix: str) -> None:
    assert "zaxy" in skeleton(name + suffix)


@settings(max_examples=200, deadline=None)
@given(disguised("self"))
def test_disguised_self_is_not_an_independent_relation(relation: str) -> None:
    assert skeleton(relation) == "self"


@pytest.mark.parametrize(("text", "shown"), [("\u200b", ""), ("\u00a0 \u2060", ""), ("-", "-"), ("a\u200bb", "ab")],
                         ids=["zero-width", "nbsp-word-joiner", "dash", "inner"])
def test_visible(text: str, shown: str) -> None:
    assert visible(text) == shown


# --- numbers beyond decimal and lone surrogates --------------------------------------------

HUGE = ["1e-99999999999999999999", "0E+99999999999999999999", "-2.5e-99999999999999999999999", "0.0e+9999999999999999999999"]


@pytest.mark.parametrize("literal", HUGE)
def test_huge_exponent_is_a_json_error(literal: str) -> None:
    with pytest.raises(strictjson.JsonError, match=re.escape(f"number {literal[:40]} has an exponent out of range")):
        strictjson.loads_text(f'{{"a": [{literal}]}}')


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 9), st.sampled_from(["e", "E"]), st.sampled_from(["", "+", "-"]),
       st.one_of(st.integers(0, 500), st.integers(10**18, 10**40)))
def test_any_exponent_is_its_value_or_a_json_error_naming_it(mantissa: int, e: str, sign: str, exponent: int) -> None:
    """A number is read as the float it writes, or refused with its own text and why: beyond the
    largest float it overflows, below 1e-400 it is too close to zero; nothing else is refused."""
    text = f"{mantissa}{e}{sign}{exponent}"
    overflows = sign != "-" and float(text) == float("inf")
    tiny = sign == "-" and exponent > 400
    try:
        value = strictjson.loads_text(text)
    except strictjson.JsonError as exc:
        message = str(exc)
        assert message.startswith(f"number {text[:40]} "), message
        if overflows:
            assert message.endswith("overflows to infinity"), message
        else:
            assert tiny and ("too close to zero" in message or "exponent out of range" in message), message
    else:
        assert not overflows and not tiny, value
        assert isinstance(value, float) and value == float(text)


@pytest.mark.parametrize("raw", [
    b'[{"question_id": "\\ud800", "question_type": "t"}]',
    b'[{"question_id": "q", "question_type": "t", "answer": ["\\udfff"]}]',
    b'[{"question_id": "q", "question_type": "t"}, {"\\ud83d": 1, "question_id": "r", "question_type": "t"}]',
], ids=["in-id", "deep-in-entry", "in-key-of-second-entry"])
def test_streamed_dataset_refuses_lone_surrogates(raw: bytes) -> None:
    with pytest.raises(dataset.DatasetError, match=r"contains a lone UTF-16 surrogate escape"):
        dataset.scan(io.BytesIO(raw), chunk=16)


def test_streamed_dataset_keeps_surrogate_pairs() -> None:
    raw = b'[{"question_id": "q\\ud83d\\ude00", "question_type": "t"}]'
    assert dataset.scan(io.BytesIO(raw), chunk=8).ids == ["q\U0001F600"]


def test_streamed_dataset_refuses_huge_exponent() -> None:
    with pytest.raises(dataset.DatasetError, match="has an exponent out of range"):
        dataset.scan(io.BytesIO(b'[{"question_id": "q", "question_type": "t", "n": 1e-99999999999999999999}]'))


@pytest.fixture
def bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dst = tmp_path / "official"
    shutil.copytree(EXAMPLE, dst, symlinks=False)
    monkeypatch.chdir(dst)
    monkeypatch.setenv("NO_COLOR", "1")
    return dst


def gate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any] | None, str]:
    code = main(list(args) + ["--now", "2026-11-29T12:00:00Z", "--format", "json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def _insert(path: Path, text_before: str, literal: str) -> None:
    data = path.read_text()
    assert text_before in data
    path.write_text(data.replace(text_before, text_before + literal + ", ", 1))


@pytest.mark.parametrize(("file", "anchor", "rule"), [
    ("sota-baseline-comparison.json", '"question_count": ', "document-baseline"),
    ("validator-evidence.json", '"question_count": [', "document-validator"),
    ("zaxy-hypotheses-500-temporal-evidence-program-v7.jsonl.eval-results-gpt-4o.jsonl", '"label": ',
     "document-eval_log"),
    ("data/longmemeval_s_question_types.json", '"question_type": ', "document-dataset"),
], ids=["baseline", "validator", "log-row", "dataset"])
def test_huge_exponent_in_evidence_fails_its_document(bundle: Path, capsys: pytest.CaptureFixture[str], file: str,
                                                      anchor: str, rule: str) -> None:
    path = bundle / file
    data = path.read_text()
    if file.endswith(".jsonl") or file.startswith("data/"):
        key = '"question_id": '
        path.write_text(data.replace(key, '"n": 1e-99999999999999999999, ' + key, 1))
    else:
        path.write_text(data.replace("{", '{"n": 0E+99999999999999999999, ', 1))
    code, verdict, err = gate(capsys, "longmembench-report-sota.json", "-p", "official-sota")
    assert (code, err) == (1, "")
    assert verdict is not None
    result = next(r for r in verdict["results"] if r["rule"] == rule)
    assert result["status"] == "fail"
    assert "has an exponent out of range" in result["message"]
    assert not any("internal error" in r["message"] for r in verdict["results"])


def test_huge_exponent_in_the_report_is_exit_2(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = bundle / "longmembench-report.json"
    path.write_text(path.read_text().replace('"accuracy": 0.608', '"accuracy": 1e-99999999999999999999', 1))
    code, verdict, err = gate(capsys, "longmembench-report.json", "-p", "official-full")
    assert (code, verdict) == (2, None)
    assert err == ("bench-gate: error: report longmembench-report.json: number 1e-99999999999999999999 has an "
                   "exponent out of range\n")


def test_huge_exponent_in_set_is_exit_2(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, verdict, err = gate(capsys, "longmembench-report-sota.json", "-p", "official-sota",
                              "--set", "min_accuracy=0E+99999999999999999999")
    assert (code, verdict) == (2, None)
    assert "internal error" not in err and err.startswith("bench-gate: error: --set min_accuracy")


def test_lone_surrogate_in_the_dataset_fails_its_document(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = bundle / "data" / "longmemeval_s_question_types.json"
    path.write_text(path.read_text().replace('"question_id": "', '"question_id": "\\ud800', 1))
    code, verdict, err = gate(capsys, "longmembench-report.json", "-p", "official-full")
    assert (code, err) == (1, "")
    assert verdict is not None
    result = next(r for r in verdict["results"] if r["rule"] == "document-dataset")
    assert result["message"].endswith("entry 1 contains a lone UTF-16 surrogate escape (\\ud800-\\udfff)")
    # the text output of the same verdict encodes cleanly
    code = main(["longmembench-report.json", "-p", "official-full", "--now", "2026-11-29T12:00:00Z"])
    out, err = capsys.readouterr()
    assert code == 1 and err == "" and out.encode("utf-8")
