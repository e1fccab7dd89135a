"""Two memory-pair arms built from the seeded generator (``pairgen``), edited per test row:
the setup the pair kinds' tests share (``tests/checks/pair/``, ``tests/aef/test_signatures.py``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import pytest

import pairgen
from bench_gate.checks.base import Context
from bench_gate.loaders import strictjson
from bench_gate.models import Doc
from kindtest import context, run

SEED = 7
BASE = pairgen.generate(SEED, "sealed")
NRUN = json.loads(BASE.normal["run.json"])["runId"]  # type: ignore[index]
ORUN = json.loads(BASE.oracle["run.json"])["runId"]  # type: ignore[index]
PAIR = BASE.pair_id
NHASH = pairgen.run_hash(BASE.normal)  # type: ignore[arg-type]
OHASH = pairgen.run_hash(BASE.oracle)  # type: ignore[arg-type]
TAMPERED = pairgen.generate(SEED, "sealed", "tampered-normal").normal or {}
SUBST = {"nrun": NRUN, "orun": ORUN, "pair": PAIR, "nhash": NHASH, "ohash": OHASH,
         "nh12": NHASH[:12], "oh12": OHASH[:12],
         "tampered": hashlib.sha256(TAMPERED["results.ndjson"]).hexdigest()[:12],
         "sealed": json.loads(TAMPERED["seal.json"])["subject"][1]["digest"]["sha256"][:12],
         "tampered_hash": pairgen.run_hash(TAMPERED)[:12]}


def set_field(files: dict[str, bytes], name: str, literal: str | None) -> None:
    """Set (or with None, remove) a pair-record field to a JSON literal written as given."""
    summary = json.loads(files["summary.json"])
    rec = summary["ext"][pairgen.PAIR_KEY]
    if literal is None:
        rec.pop(name, None)
        files["summary.json"] = pairgen.dumps(summary)
        return
    rec[name] = "@@LITERAL@@"
    files["summary.json"] = pairgen.dumps(summary).replace(b'"@@LITERAL@@"', literal.encode())


def set_run(files: dict[str, bytes], **changes: Any) -> None:
    run = json.loads(files["run.json"])
    run.update(changes)
    files["run.json"] = pairgen.dumps(run)


def doc(role: str, files: dict[str, bytes]) -> Doc:
    data = strictjson.loads(files["summary.json"])
    return Doc(role, f"evidence/{role}", "0" * 64, 1, data=data,
               extra=MappingProxyType({"files": MappingProxyType(dict(files)), "problems": ()}))


@dataclass
class Setup:
    """How to build the two arms of one row."""

    variant: str | None = None
    mode: str = "sealed"
    normal: Callable[[dict[str, bytes]], None] | None = None
    oracle: Callable[[dict[str, bytes]], None] | None = None
    drop_oracle: bool = False
    extra_docs: dict[str, Doc] = field(default_factory=dict)

    def context(self) -> Context:
        pair = pairgen.generate(SEED, self.mode, self.variant)
        docs: dict[str, Doc] = {}
        assert pair.normal is not None
        nfiles = dict(pair.normal)
        if self.normal:
            self.normal(nfiles)
        docs["report"] = doc("report", nfiles)
        if pair.oracle is not None and not self.drop_oracle:
            ofiles = dict(pair.oracle)
            if self.oracle:
                self.oracle(ofiles)
            docs["oracle"] = doc("oracle", ofiles)
        docs.update(self.extra_docs)
        return context(**docs)


def run_kind(kind: str, params: Any, setup: Setup) -> list[tuple[str, str]]:
    """(status, message) of every finding of the kind on the setup's arms."""
    return [(f.status, f.message) for f in run(kind, params, setup.context())]


def fill(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(s, m.format(**SUBST)) for s, m in rows]


def field_edit(name: str, literal: str | None) -> Callable[[dict[str, bytes]], None]:
    return lambda files: set_field(files, name, literal)


Row = tuple[str, Any, Setup, list[tuple[str, str]]]


def check(rows: list[Row]) -> Any:
    return pytest.mark.parametrize(("kind_params", "setup", "expected"), [(r[1], r[2], r[3]) for r in rows],
                                   ids=[r[0] for r in rows])
