"""A small seeded generator of paired normal/oracle AEF evidence for tests and golden cases.

It writes what an honest producer writes: two run folders (``normal/`` and ``oracle/``) with
``run.json``, ``metrics.json``, ``results.ndjson``, ``summary.json`` carrying the pair record,
and, unless unsealed, ``seal.json`` (and ``attestation.dsse.json`` when a signing key is given).
The seal is computed here independently of ``bench_gate.aef.seal`` so that the two implementations
check each other. Each *variant* breaks exactly one rule of the memory-pair format.

    python tests/pairgen.py OUT_DIR [--seed N] [--mode sealed|unsealed|signed] [--variant NAME]
    python tests/pairgen.py golden --golden      # rewrite golden/memory-pair and golden/aef-seal
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PAIR_KEY = "agenteval.memoryPair"
STATEMENT = "https://in-toto.io/Statement/v1"
PREDICATE = "https://agenteval.dev/aef/1/evidence"
PAYLOAD_TYPE = "application/vnd.in-toto+json"

VARIANTS = {
    # rule 1: the pair record
    "question-text": "the normal pair record carries an extra field with question text",
    "runid-mismatch": "the normal summary.json runId differs from run.json",
    "placeholder-ids": "both arms carry the pair id TBD and an all-zero source digest",
    # rule 2: seals
    "mixed-seal": "the normal arm is sealed, the oracle arm is unsealed",
    "tampered-normal": "one byte of the normal results changed after sealing",
    # rule 3: the link
    "other-normal-hash": "the oracle points at another normal run hash",
    "pair-id-mismatch": "the arms carry different pair ids",
    "source-digest-mismatch": "the arms carry different source digests",
    "roster-mismatch": "the arms planned different roster sizes",
    # run.json: times and identity
    "run-in-future": "the normal run.json is dated 2099",
    "run-ends-before-start": "the normal run.json ends an hour before it starts",
    "oracle-other-evaluation": "the oracle run.json names another subject, suite and judge",
    # rule 4: roles
    "oracle-not-diagnostic": "the oracle record has no diagnosticOnly",
    # rule 5: counts
    "interrupted-with-scores": "an interrupted oracle arm still reports scores",
    "normal-beyond-roster": "the normal arm observed and scored more questions than the roster holds",
    # each arm's summary against itself and its rows
    "accuracy-not-from-summary": "the normal pair record says 90.0% while its lane counts a lower accuracy",
    "lane-value-not-sum": "the normal lane's accuracy value is 0.95, not its sum over n",
    "results-all-failed": "every normal result row failed while the summary still reports the original passes",
    # rule 6: the gap
    "wrong-gap": "the oracle gap is not oracle minus normal accuracy",
    # rule 7: the verdict follows the normal arm
    "failing-normal-better-oracle": "the normal gate failed while the oracle scored high",
    # rule 8: interruption outcomes
    "cancelled-before-first-question": "an empty aborted normal run and no oracle",
    "cancelled-between-arms": "completed normal evidence alone",
    "oracle-interrupted": "an aborted oracle run linked to the completed normal",
    "oracle-after-cancelled-normal": "an oracle arm present although the normal was interrupted",
    # rule 9: never combined
    "oracle-gated": "the oracle arm carries a gate decision",
}


def dumps(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def ndjson(rows: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n" for r in rows)


def manifest(files: dict[str, bytes]) -> bytes:
    sealed = [p for p in files if p not in ("seal.json", "attestation.dsse.json") and not p.startswith("overlays/")]
    out = b""
    for path in sorted(sealed, key=lambda s: s.encode("utf-8")):
        out += b"%s  %d  %s\n" % (hashlib.sha256(files[path]).hexdigest().encode(), len(files[path]), path.encode())
    return out


def run_hash(files: dict[str, bytes]) -> str:
    return hashlib.sha256(manifest(files)).hexdigest()


def pae(kind: str, payload: bytes) -> bytes:
    return b"DSSEv1 %d %s %d %s" % (len(kind.encode()), kind.encode(), len(payload), payload)


def keyid(public_key: Any) -> str:
    from cryptography.hazmat.primitives import serialization
    der = public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return "sha256:" + hashlib.sha256(der).hexdigest()


def public_pem(private_key: Any) -> str:
    from cryptography.hazmat.primitives import serialization
    return private_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")


def ed25519_key(seed: int) -> Any:
    """A deterministic Ed25519 test key (never trust it outside tests)."""
    from cryptography.hazmat.primitives.asymmetric import ed25519
    return ed25519.Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"pairgen-test-key-%d" % seed).digest())


def ecdsa_key(seed: int) -> Any:
    from cryptography.hazmat.primitives.asymmetric import ec
    scalar = int.from_bytes(hashlib.sha256(b"pairgen-ecdsa-%d" % seed).digest(), "big") % (2**255) + 1
    return ec.derive_private_key(scalar, ec.SECP256R1())


def sign(private_key: Any, message: bytes) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519
    if isinstance(private_key, ed25519.Ed25519PrivateKey):
        return private_key.sign(message)
    assert isinstance(private_key, ec.EllipticCurvePrivateKey)
    return private_key.sign(message, ec.ECDSA(hashes.SHA256()))


def envelope(seal_bytes: bytes, private_key: Any, with_keyid: bool = True) -> bytes:
    sig = sign(private_key, pae(PAYLOAD_TYPE, seal_bytes))
    entry: dict[str, str] = {"sig": base64.b64encode(sig).decode("ascii")}
    if with_keyid:
        entry = {"keyid": keyid(private_key.public_key()), **entry}
    return dumps({"payloadType": PAYLOAD_TYPE, "payload": base64.b64encode(seal_bytes).decode("ascii"),
                  "signatures": [entry]})


@dataclass
class ArmSpec:
    role: str
    run_id: str
    planned: int
    observed: int
    correct: int
    complete: bool
    status: str
    gate_threshold: float | None
    started: str
    ended: str
    extra_record: dict[str, Any] = field(default_factory=dict)


def _uuid(rng: random.Random) -> str:
    h = "%032x" % rng.getrandbits(128)
    return f"{h[:8]}-{h[8:12]}-7{h[13:16]}-a{h[17:20]}-{h[20:32]}"


def accuracy(correct: int, scored: int) -> float:
    return round(100 * correct / scored, 2)


def build_arm(spec: ArmSpec, pair_id: str, source: str, record_extra: dict[str, Any]) -> dict[str, bytes]:
    """The files of one arm (unsealed)."""
    run: dict[str, Any] = {
        "schemaVersion": "1.0", "runId": spec.run_id, "status": spec.status,
        "producer": {"name": "agenteval", "version": "0.9.0"},
        "subject": {"ref": "model:agent:my-agent", "kind": "agent"},
        "suite": {"ref": "suite:longmemeval/subset", "version": "1"},
        "judges": [{"model": "judge-model"}],
        "startedAt": spec.started, "endedAt": spec.ended,
        "execution": {"targetMode": "live"},
        "contentCapture": "off",
    }
    if spec.status == "aborted":
        run["abortReason"] = "cancelled"
    results = []
    for i in range(spec.observed):
        case = f"q-{i + 1:04d}"
        ok = i < spec.correct
        results.append({"schemaVersion": "1.0", "resultId": "r_" + hashlib.sha256(
            f"{spec.run_id}\x1f{case}\x1faccuracy\x1f".encode()).hexdigest()[:32], "caseId": case,
            "path": "accuracy", "evaluator": {"id": "judge"}, "state": "passed" if ok else "failed",
            "scores": [{"metric": "accuracy", "value": 1 if ok else 0}]})
    metrics = {"schemaVersion": "1.0", "metrics": [
        {"id": "accuracy", "kind": "rate", "direction": "higher_better", "scale": {"min": 0, "max": 1}}]}
    scored = spec.observed if spec.complete else None
    acc = accuracy(spec.correct, spec.observed) if spec.complete and spec.observed else None
    if spec.gate_threshold is None:
        verdict = "scored"
    elif acc is None:
        verdict = "not_measured"
    else:
        verdict = "passed" if acc / 100 >= spec.gate_threshold else "failed"
    lanes = []
    if spec.observed:
        value = spec.correct / spec.observed
        lanes.append({"lane": "longmemeval", "metrics": [{
            "metric": "accuracy", "path": "accuracy", "N": spec.observed, "n": spec.observed, "notMeasured": 0,
            "sum": spec.correct, "value": value, "verdict": verdict}]})
    rec: dict[str, Any] = {
        "schemaVersion": "1.0", "pairId": pair_id, "role": spec.role, "sourceInputsDigest": source,
        "plannedQuestions": spec.planned, "observedQuestions": spec.observed, "scoredQuestions": scored,
        "totalLlmCalls": 2 * spec.observed if spec.complete else None, "complete": spec.complete,
        "diagnosticOnly": spec.role == "oracle", "accuracyPercent": acc,
    }
    rec.update(record_extra)
    summary = {"schemaVersion": "1.0", "runId": spec.run_id, "lanes": lanes, "ext": {PAIR_KEY: rec}}
    return {"run.json": dumps(run), "metrics.json": dumps(metrics), "results.ndjson": ndjson(results),
            "summary.json": dumps(summary)}


def seal_files(files: dict[str, bytes], run_id: str, sealed_at: str) -> dict[str, bytes]:
    """The files plus seal.json."""
    run = json.loads(files["run.json"])
    sealed = sorted((p for p in files if p not in ("seal.json", "attestation.dsse.json")),
                    key=lambda s: s.encode("utf-8"))
    statement = {
        "_type": STATEMENT,
        "subject": [{"name": p, "digest": {"sha256": hashlib.sha256(files[p]).hexdigest()}} for p in sealed],
        "predicateType": PREDICATE,
        "predicate": {"schemaVersion": "1.0", "runId": run_id, "runHash": run_hash(files),
                      "producer": run["producer"], "subject": {"ref": run["subject"]["ref"]}, "deployment": None,
                      "suite": run["suite"], "judges": run["judges"], "closedAt": run["endedAt"],
                      "sealedAt": sealed_at, "sealedBy": "producer"},
    }
    return {**files, "seal.json": dumps(statement)}


@dataclass
class Pair:
    normal: dict[str, bytes] | None
    oracle: dict[str, bytes] | None
    pair_id: str
    normal_hash: str | None
    public_pem: str | None = None


def generate(seed: int = 1, mode: str = "sealed", variant: str | None = None, key: Any = None,
             style: str = "pairgen") -> Pair:
    """An honest pair (``mode``: sealed, unsealed, signed) or one broken by ``variant``.

    ``style: aef`` writes each arm as AgentEval does, in the shape of the real AEF example run
    (``tests/data/aef/example-run``): its own suite definition per arm, the metric named by its
    path (``longmemeval/accuracy``) in the lane ``main``, and percentages computed in doubles
    (``correct / scored * 100``, the gap their difference), never rounded."""
    if variant is not None and variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    rng = random.Random(seed)
    planned = rng.randint(20, 60)
    n_correct = rng.randint(planned // 2, planned - 5)
    o_correct = rng.randint(n_correct + 1, planned)
    pair_id = "pair-" + "%016x" % rng.getrandbits(64)
    source = "sha256:" + hashlib.sha256(b"workload-%d" % seed).hexdigest()
    if variant == "placeholder-ids":
        pair_id, source = "TBD", "sha256:" + "0" * 64
    day = f"2026-11-{rng.randint(10, 20):02d}"
    times = (f"{day}T09:00:00Z", f"{day}T09:40:00Z", f"{day}T09:41:00Z", f"{day}T10:20:00Z", f"{day}T10:21:00Z")
    sealed = mode in ("sealed", "signed")
    threshold = 0.4
    normal = ArmSpec("normal", _uuid(rng), planned, planned, n_correct, True, "completed", threshold,
                     times[0], times[1])
    oracle = ArmSpec("oracle", _uuid(rng), planned, planned, o_correct, True, "completed", None,
                     times[2], times[3])
    n_extra: dict[str, Any] = {}
    o_extra: dict[str, Any] = {}
    has_oracle = True
    seal_normal = seal_oracle = sealed
    if variant == "failing-normal-better-oracle":
        normal.correct = planned // 4
        oracle.correct = planned - 1
    elif variant in ("cancelled-before-first-question", "oracle-after-cancelled-normal"):
        normal.observed, normal.correct, normal.complete, normal.status = 0, 0, False, "aborted"
        has_oracle = variant == "oracle-after-cancelled-normal"
    elif variant == "cancelled-between-arms":
        has_oracle = False
    elif variant == "oracle-interrupted":
        oracle.observed = oracle.correct = planned // 3
        oracle.complete, oracle.status = False, "aborted"
    elif variant == "interrupted-with-scores":
        oracle.observed = oracle.correct = planned // 3
        oracle.complete, oracle.status = False, "aborted"
    elif variant == "mixed-seal":
        seal_oracle = False
    elif variant == "run-in-future":
        normal.started, normal.ended = "2099-" + times[0][5:], "2099-" + times[1][5:]
    elif variant == "run-ends-before-start":
        normal.ended = f"{day}T08:00:00Z"
    if variant == "normal-beyond-roster":
        n_extra.update(observedQuestions=planned + 2, scoredQuestions=planned + 2)
    nfiles = build_arm(normal, pair_id, source, n_extra)
    if style == "aef":
        nfiles = aef_arm(nfiles, normal, AEF_SUITES["normal"])
    if variant == "question-text":
        nfiles = _edit_record(nfiles, {"question": "When did I last visit my dentist?"})
    if variant == "accuracy-not-from-summary":
        nfiles = _edit_record(nfiles, {"accuracyPercent": 90.0})
    if variant == "lane-value-not-sum":
        summary = json.loads(nfiles["summary.json"])
        summary["lanes"][0]["metrics"][0]["value"] = 0.95
        nfiles["summary.json"] = dumps(summary)
    if variant == "results-all-failed":
        rows = [json.loads(line) for line in nfiles["results.ndjson"].splitlines()]
        for row in rows:
            row.update(state="failed", scores=[{"metric": "accuracy", "value": 0}])
        nfiles["results.ndjson"] = ndjson(rows)
    if variant == "runid-mismatch":
        summary = json.loads(nfiles["summary.json"])
        summary["runId"] = _uuid(rng)
        nfiles["summary.json"] = dumps(summary)
    if seal_normal:
        nfiles = seal_files(nfiles, normal.run_id, times[4])
    normal_hash = run_hash(nfiles) if seal_normal else None
    if variant == "tampered-normal":
        data = bytearray(nfiles["results.ndjson"])
        data[data.index(b'"failed"') + 1] = ord("F")
        nfiles["results.ndjson"] = bytes(data)
    if key is not None and seal_normal:
        nfiles["attestation.dsse.json"] = envelope(nfiles["seal.json"], key)
    ofiles = None
    if has_oracle:
        n_acc = json.loads(nfiles["summary.json"])["ext"][PAIR_KEY]["accuracyPercent"]  # as the record says
        o_acc = accuracy(oracle.correct, oracle.observed) if oracle.complete else None
        gap = round(o_acc - n_acc, 2) if (n_acc is not None and o_acc is not None) else None
        if style == "aef" and oracle.complete and n_acc is not None:
            o_acc = oracle.correct / oracle.observed * 100
            gap = o_acc - n_acc  # the double difference, as written by a producer computing in binary
        link = normal_hash if sealed else None
        if variant == "mixed-seal":
            link = normal_hash
        o_extra = {"normalRunHash": link, "oracleGapPercentagePoints": gap}
        if variant == "other-normal-hash":
            o_extra["normalRunHash"] = hashlib.sha256(b"another normal run %d" % seed).hexdigest()
        if variant == "pair-id-mismatch":
            o_extra["pairId"] = pair_id + "-b"
        if variant == "source-digest-mismatch":
            o_extra["sourceInputsDigest"] = "sha256:" + hashlib.sha256(b"other workload").hexdigest()
        if variant == "roster-mismatch":
            o_extra["plannedQuestions"] = planned - 1
        if variant == "wrong-gap":
            o_extra["oracleGapPercentagePoints"] = round((gap or 0) + 1.5, 2)
        if variant == "interrupted-with-scores":
            o_extra.update(scoredQuestions=oracle.observed, totalLlmCalls=2 * oracle.observed,
                           accuracyPercent=100.0)
        if variant == "oracle-after-cancelled-normal":
            o_extra.update(normalRunHash=normal_hash)
        ofiles = build_arm(oracle, pair_id, source, o_extra)
        if style == "aef":
            ofiles = aef_arm(ofiles, oracle, AEF_SUITES["oracle"])
        if variant == "oracle-not-diagnostic":
            rec = json.loads(ofiles["summary.json"])
            del rec["ext"][PAIR_KEY]["diagnosticOnly"]
            ofiles["summary.json"] = dumps(rec)
        if variant == "oracle-other-evaluation":
            run = json.loads(ofiles["run.json"])
            run.update(subject={"ref": "model:agent:other-agent", "kind": "agent"},
                       suite={"ref": "suite:other", "version": "1"}, judges=[{"model": "other-judge"}])
            ofiles["run.json"] = dumps(run)
        if variant == "oracle-gated":
            ofiles["gates.ndjson"] = ndjson([{"schemaVersion": "1.0", "rule": "fail-on", "outcome": "ship",
                                              "exitCode": 0}])
        if seal_oracle:
            ofiles = seal_files(ofiles, oracle.run_id, times[4])
            if key is not None:
                ofiles["attestation.dsse.json"] = envelope(ofiles["seal.json"], key)
    return Pair(nfiles, ofiles, pair_id, normal_hash, public_pem(key) if key is not None else None)


AEF_SUITES = {"normal": "suite:longmemeval/s-subset", "oracle": "suite:longmemeval/s-subset-gold-oracle"}
AEF_METRIC = "longmemeval/accuracy"


def aef_arm(files: dict[str, bytes], spec: ArmSpec, suite: str) -> dict[str, bytes]:
    """An arm rewritten in the shape of the real AEF example run: its run.json with this arm's
    run, subject and own suite definition (the example's import record dropped), the metric
    named by its path, result lines with durations, the summary's lane ``main`` with sumSq, and
    the pair record's accuracy as the double ``correct / scored * 100``."""
    run = json.loads((EXAMPLE_RUN / "run.json").read_bytes())
    run.pop("imported", None)
    run.pop("ext", None)
    mine = json.loads(files["run.json"])
    run.update(runId=spec.run_id, status=spec.status, producer={"name": "agenteval", "version": "0.9.0"},
               subject={"ref": "model:agent:my-agent", "kind": "model"},
               suite={"ref": suite, "version": "1", "executionPolicy": {"trialsPerCase": 1}},
               startedAt=spec.started, endedAt=spec.ended)
    if "abortReason" in mine:
        run["abortReason"] = mine["abortReason"]
    metrics = {"schemaVersion": "1.0", "metrics": [
        {"id": AEF_METRIC, "kind": "rate", "direction": "higher_better", "scale": {"min": 0, "max": 1}}]}
    rows = [json.loads(line) for line in files["results.ndjson"].splitlines()]
    for i, row in enumerate(rows):
        row.update(path=AEF_METRIC, evaluator={"id": "longmemeval/judge"},
                   scores=[{"metric": AEF_METRIC, "value": s["value"]} for s in row["scores"]], durationMs=900 + 7 * i)
    summary = json.loads(files["summary.json"])
    for lane in summary["lanes"]:
        lane["lane"] = "main"
        for entry in lane["metrics"]:
            entry.update(metric=AEF_METRIC, path=AEF_METRIC, sumSq=entry["sum"])
    record = summary["ext"][PAIR_KEY]
    if record.get("accuracyPercent") is not None and spec.observed:
        record["accuracyPercent"] = spec.correct / spec.observed * 100
    return {**files, "run.json": dumps(run), "metrics.json": dumps(metrics), "results.ndjson": ndjson(rows),
            "summary.json": dumps(summary)}


def _edit_record(files: dict[str, bytes], changes: dict[str, Any]) -> dict[str, bytes]:
    summary = json.loads(files["summary.json"])
    summary["ext"][PAIR_KEY].update(changes)
    return {**files, "summary.json": dumps(summary)}


def write_folder(dest: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def write_pair(dest: Path, pair: Pair) -> None:
    """``dest/normal`` and ``dest/oracle`` (when present), replacing what was there."""
    for name, files in (("normal", pair.normal), ("oracle", pair.oracle)):
        target = dest / name
        if target.exists():
            shutil.rmtree(target)
        if files is not None:
            write_folder(target, files)


GOLDEN_SEED = 7
AEF_SEED = 1
GOLDEN_NOW = "2026-11-29T12:00:00Z"
DISCOVER = ["evidence", "--profile", "memory-pair"]


def golden_cases() -> dict[str, tuple[str, list[str], int, Pair, Any]]:
    """name -> (description, args, exit, pair, extra change to the evidence folder)."""
    def pair(variant: str | None = None, mode: str = "sealed") -> Pair:
        key = ed25519_key(GOLDEN_SEED) if mode == "signed" else None
        return generate(GOLDEN_SEED, mode, variant, key)

    def aef_pair(variant: str | None = None, mode: str = "sealed") -> Pair:
        # seed 1: 23/28 and 24/28 correct, so the percentages and the gap are doubles no decimal holds
        return generate(AEF_SEED, mode, variant, style="aef")

    explicit = ["evidence/normal/summary.json", "--profile", "memory-pair", "--doc",
                "oracle=evidence/oracle/summary.json"]
    out: dict[str, tuple[str, list[str], int, Pair, Any]] = {
        "honest-sealed": ("an honest sealed pair, both arms found by their pair records", DISCOVER, 0, pair(), None),
        "honest-sealed-explicit": ("an honest sealed pair, the oracle named with --doc", explicit, 0, pair(), None),
        "honest-unsealed": ("an honest pair written with --aef-unsealed: both unsealed, the link null", DISCOVER, 0,
                            pair(mode="unsealed"), None),
        "honest-signed": ("an honest pair whose seals are signed (Ed25519) by the key given with --trusted-key",
                          DISCOVER + ["--trusted-key", "trusted-key.pem"], 0, pair(mode="signed"), None),
        "signed-untrusted-key": ("a signed pair checked against another key: the signature is not by a trusted "
                                 "key", DISCOVER + ["--trusted-key", "trusted-key.pem"], 1, pair(mode="signed"),
                                 "other-key"),
        "sealed-unsigned-key-required": ("a sealed but unsigned pair when --trusted-key asks for a signature",
                                         DISCOVER + ["--trusted-key", "trusted-key.pem"], 1, pair(), "other-key"),
        "unsealed-but-required": ("explicitly unsealed evidence fails under --require-sealed",
                                  DISCOVER + ["--require-sealed"], 1, pair(mode="unsealed"), None),
        "two-normal-arms": ("an evidence folder with two normal arms cannot be evaluated", DISCOVER, 2, pair(),
                            "second-normal"),
        "oracle-arm-alone": ("an evidence folder with an oracle arm alone cannot be evaluated", DISCOVER, 2,
                                      pair(), "drop-normal"),
        "no-pair-record": ("an evidence folder without pair records cannot be evaluated", DISCOVER, 2, pair(),
                           "drop-records"),
    }
    out["discovery-pair-id-mismatch"] = ("an evidence folder whose two arms carry different pair ids cannot be "
                                         "evaluated", DISCOVER, 2, pair("pair-id-mismatch"), None)
    # as AgentEval writes a pair, in the shape of the real AEF example run (tests/data/aef/example-run)
    out["aef-honest-own-suites"] = (
        "an honest sealed pair as AgentEval writes it: each arm its own run and suite definition "
        "(suite:longmemeval/s-subset, suite:longmemeval/s-subset-gold-oracle), the metric named by its path "
        "longmemeval/accuracy, percentages and the gap computed in doubles", DISCOVER, 0, aef_pair(), None)
    out["aef-other-subject"] = (
        "an AgentEval pair whose oracle run.json names another subject (and suite and judge): only the subject "
        "must match", DISCOVER, 1, aef_pair("oracle-other-evaluation"), None)
    out["aef-pair-id-mismatch"] = (
        "an AgentEval pair whose arms carry different pair ids, the oracle named with --doc", explicit, 1,
        aef_pair("pair-id-mismatch"), None)
    out["aef-two-accuracy-metrics"] = (
        "an unsealed AgentEval pair whose normal summary reports two metrics whose paths end in accuracy: "
        "accuracyPercent cannot be tied to one", DISCOVER, 1, aef_pair(mode="unsealed"), "second-accuracy-metric")
    for variant, description in VARIANTS.items():
        # discovery already refuses arms of different pairs; the rule is exercised with --doc
        args = explicit if variant == "pair-id-mismatch" else DISCOVER
        out[variant] = (description, args, 1, pair(variant), None)
    return out


def second_accuracy_metric(run: Path) -> None:
    """A second metric whose path ends in accuracy (judge/accuracy), declared, scored and summarised honestly."""
    metrics = json.loads((run / "metrics.json").read_bytes())
    metrics["metrics"].append({"id": "judge/accuracy", "kind": "rate", "direction": "higher_better",
                               "scale": {"min": 0, "max": 1}})
    (run / "metrics.json").write_bytes(dumps(metrics))
    rows = [json.loads(line) for line in (run / "results.ndjson").read_bytes().splitlines()]
    extra = [{**row, "resultId": row["resultId"][:-4] + "jdg0", "path": "judge/accuracy",
              "scores": [{"metric": "judge/accuracy", "value": s["value"]} for s in row["scores"]]} for row in rows]
    (run / "results.ndjson").write_bytes(ndjson(rows + extra))
    summary = json.loads((run / "summary.json").read_bytes())
    entry = summary["lanes"][0]["metrics"][0]
    summary["lanes"][0]["metrics"].append({**entry, "metric": "judge/accuracy", "path": "judge/accuracy"})
    (run / "summary.json").write_bytes(dumps(summary))


def write_golden(golden: Path) -> list[str]:
    """(Re)write the evidence and case.yaml of every memory-pair golden case; their names."""
    import yaml

    names = []
    for name, (description, args, code, pair, change) in golden_cases().items():
        case = golden / name
        evidence = case / "evidence"
        if evidence.exists():
            shutil.rmtree(evidence)
        write_pair(evidence, pair)
        if change == "second-normal":
            shutil.copytree(evidence / "normal", evidence / "normal-rerun")
        elif change == "drop-normal":
            shutil.rmtree(evidence / "normal")
        elif change == "second-accuracy-metric":
            second_accuracy_metric(evidence / "normal")
        elif change == "drop-records":
            for arm in ("normal", "oracle"):
                summary = json.loads((evidence / arm / "summary.json").read_bytes())
                del summary["ext"]
                (evidence / arm / "summary.json").write_bytes(dumps(summary))
        if change == "other-key":
            (case / "trusted-key.pem").write_text(public_pem(ed25519_key(GOLDEN_SEED + 1)), encoding="ascii")
        elif pair.public_pem:
            (case / "trusted-key.pem").write_text(pair.public_pem, encoding="ascii")
        spec = {"description": description, "args": args, "now": GOLDEN_NOW, "exit": code}
        (case / "case.yaml").write_text(yaml.safe_dump(spec, sort_keys=False, width=120), encoding="utf-8")
        names.append(name)
    return names


EXAMPLE_RUN = Path(__file__).parent / "data" / "aef" / "example-run"
EXAMPLE_HASH = "8eb0cf7bf9fad78082936cb028024dfb1066b655a2c220f16484b71b7a62144e"


def _edit(path: str, old: bytes, new: bytes) -> Any:
    def apply(run: Path) -> None:
        data = (run / path).read_bytes()
        assert data.count(old) == 1, (path, old)
        (run / path).write_bytes(data.replace(old, new))
    return apply


def _flip(run: Path) -> None:
    data = bytearray((run / "results.ndjson").read_bytes())
    data[100] ^= 0x01
    (run / "results.ndjson").write_bytes(bytes(data))


SEAL_CASES: dict[str, tuple[str, list[str], int, Any]] = {
    "example-run-intact": ("the real AEF example run (CRLF and U+2028 bytes kept) verifies intact", ["run"], 0, None),
    "example-run-by-summary": ("the same run named by its summary.json", ["run/summary.json"], 0, None),
    "one-byte-changed": ("one byte of results.ndjson changed after sealing", ["run"], 1, _flip),
    "file-added": ("a file added after sealing", ["run"], 1,
                   lambda run: (run / "notes.txt").write_bytes(b"added later\n")),
    "file-removed": ("a sealed file removed", ["run"], 1, lambda run: (run / "metrics.json").unlink()),
    "run-hash-edited": ("the seal's runHash edited", ["run"], 1,
                        _edit("seal.json", EXAMPLE_HASH.encode(), b"0" * 64)),
    "run-id-edited": ("the seal's runId edited", ["run"], 1,
                      _edit("seal.json", b'"runId": "01928f3e', b'"runId": "11928f3e')),
    "run-reopened": ("run.json edited to say the run is still running", ["run"], 1,
                     _edit("run.json", b'"status": "completed"', b'"status": "running"')),
}


def write_seal_golden(golden: Path) -> list[str]:
    """(Re)write the aef-seal golden cases from the real example run; their names."""
    import yaml

    for name, (description, args, code, change) in SEAL_CASES.items():
        case = golden / name
        if (case / "run").exists():
            shutil.rmtree(case / "run")
        case.mkdir(parents=True, exist_ok=True)
        shutil.copytree(EXAMPLE_RUN, case / "run")
        if change is not None:
            change(case / "run")
        spec = {"description": description, "args": [*args, "--profile", "aef-seal"], "now": GOLDEN_NOW,
                "exit": code}
        (case / "case.yaml").write_text(yaml.safe_dump(spec, sort_keys=False, width=120), encoding="utf-8")
    return list(SEAL_CASES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=("sealed", "unsealed", "signed"), default="sealed")
    parser.add_argument("--variant", choices=sorted(VARIANTS))
    parser.add_argument("--golden", action="store_true",
                        help="OUT is golden/: (re)write the memory-pair and aef-seal cases")
    args = parser.parse_args(argv)
    if args.golden:
        out = Path(args.out)
        for name in write_golden(out / "memory-pair") + write_seal_golden(out / "aef-seal"):
            print(name)
        return 0
    key = ed25519_key(args.seed) if args.mode == "signed" else None
    pair = generate(args.seed, args.mode, args.variant, key)
    write_pair(Path(args.out), pair)
    if pair.public_pem:
        (Path(args.out) / "trusted-key.pem").write_text(pair.public_pem, encoding="ascii")
    return 0


if __name__ == "__main__":
    sys.exit(main())
