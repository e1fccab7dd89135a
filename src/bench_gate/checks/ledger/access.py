"""Access to a claim ledger and to what ``bench-gate ledger`` loaded for it.

The ledger's kinds are pure: ``bench-gate ledger`` reads every file the manifest names and
gates every citable local artifact *before* the rules run, and hands the result to the kinds
as the ``evidence`` document. These helpers read the manifest and that document; run through
the plain report gate (``bench-gate manifest.json -p ledger``) the kinds fail, saying that the
evidence was not loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bench_gate.checks.base import MISSING, Context, Fail, jsonable, type_name
from bench_gate.models import Doc


EVIDENCE = "evidence"


# --- access to the manifest and the evidence ---------------------------------------------


def evidence(ctx: Context) -> Doc:
    """The evidence ``bench-gate ledger`` loaded; a Fail when the ledger is gated another way."""
    found = ctx.documents.get(EVIDENCE)
    if found is None or not isinstance(found.data, dict):
        raise Fail("the ledger's artifacts were not loaded: gate a ledger with "
                   "`bench-gate ledger MANIFEST`", document="report")
    return found


def manifest(ctx: Context) -> dict[str, Any]:
    data = ctx.doc("report").data
    if not isinstance(data, dict):
        raise Fail(f"the ledger must be a JSON object, got {type_name(data)}")
    return data


def entry_list(ctx: Context, key: str, optional: bool = True) -> list[Any] | None:
    """The list at ``/key`` of the manifest; None when absent and optional."""
    value = manifest(ctx).get(key, MISSING)
    if value is MISSING and optional:
        return None
    if not isinstance(value, list):
        raise Fail(f"/{key} must be a list, got {type_name(value)}", f"/{key}", "report",
                   jsonable(value) if not isinstance(value, dict) else "object", "a list")
    return value


def citable_entries(ctx: Context) -> list[tuple[str, dict[str, Any]]]:
    """(pointer, entry) for every citable entry that is an object."""
    items = entry_list(ctx, "citable", optional=False) or []
    return [(f"/citable/{i}", e) for i, e in enumerate(items) if isinstance(e, dict)]


def label(entry: Mapping[str, Any], pointer: str) -> str:
    """``/citable/0 (longmemeval_a.json)``: the entry and the file it names."""
    name = entry.get("artifact") if isinstance(entry.get("artifact"), str) else \
        entry.get("external_artifact_manifest")
    return f"{pointer} ({name})" if isinstance(name, str) else pointer


def loaded(ev: Doc, pointer: str) -> dict[str, Any] | None:
    """What ``bench-gate ledger`` loaded for the entry at ``pointer`` (None if nothing)."""
    found = ev.data.get("entries", {}).get(pointer)
    return found if isinstance(found, dict) else None


def loaded_doc(ev: Doc, role: str) -> Doc | None:
    docs = ev.extra.get("docs", {})
    return docs.get(role)


def profile_problem(name: str, external: frozenset[str] | set[str], local: bool = False) -> str:
    """Why a gate profile named in a ledger is not acceptable (the name is not built in)."""
    if local and name in external:
        return (f"{name!r} is enforced outside bench-gate (--external-profile); benchmark metrics are citable "
                "only when a built-in profile recomputed them (external profiles serve contracts and receipts)")
    if "/" in name or "\\" in name or name.endswith((".yaml", ".yml")):
        return (f"{name!r} is a file, not a profile name: a ledger names built-in profiles only, so that it "
                "cannot choose a profile that checks less")
    if local:
        return f"{name!r} is not a built-in profile (`bench-gate profiles` lists them)"
    return (f"{name!r} is neither a built-in profile (`bench-gate profiles` lists them) nor declared as enforced "
            f"outside bench-gate (--external-profile {name})")


def citable_by_name(ctx: Context) -> dict[str, tuple[str, dict[str, Any]]]:
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for ptr, entry in citable_entries(ctx):
        if entry.get("status") != "citable":
            continue
        for key in ("artifact", "external_artifact_manifest"):
            if isinstance(entry.get(key), str) and entry[key] not in out:
                out[entry[key]] = (ptr, entry)
    return out


def gate_of(ev: Doc, pointer: str) -> dict[str, Any] | None:
    """The gate summary of a citable local artifact (None for an external entry)."""
    info = loaded(ev, pointer)
    gate = info.get("gate") if info else None
    return gate if isinstance(gate, dict) else None
