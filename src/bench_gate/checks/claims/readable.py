"""Check kind ``claim_readable``: every scanned file is read the way a person sees it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import PurePosixPath

from bench_gate.records import record
from bench_gate.checks.base import kind, FORBID, Context, failed, passed, skipped
from bench_gate.checks.claims.matching import SCAN, scan_docs
from bench_gate.models import Finding


@record
class ReadableParams:
    __pydantic_config__ = FORBID


def _skipped(paths: list[str]) -> Finding:
    kinds = Counter(PurePosixPath(p).suffix.lower() or "(no suffix)" for p in paths)
    by_kind = ", ".join(f"{n} *{k}" if k.startswith(".") else f"{n} {k}" for k, n in sorted(kinds.items()))
    return skipped(f"{len(paths)} file{'s' if len(paths) != 1 else ''} in the scanned folders "
                   f"{'are' if len(paths) != 1 else 'is'} not a document and {'were' if len(paths) != 1 else 'was'} "
                   f"not read ({by_kind}; first: {paths[0]}); name a file to scan it as text", "", paths[0])


@kind("claim_readable", ReadableParams, "every scanned file reads as it renders")
def claim_readable(ctx: Context, p: ReadableParams) -> Iterable[Finding]:
    """Check kind ``claim_readable``: every scanned file is read the way a person sees it.

    The claims scan can only check what it reads. The reader (:mod:`bench_gate.checks.claims.commonmark`)
    reads every line of a file, including comments, tag attributes, footnotes and reference
    definitions, but some text cannot be read the way it renders; each such spot fails at its
    ``file:line:column``:

    * bidirectional control characters (an override U+202D/U+202E anywhere, any other direction
      control in a sentence or cell with a digit): ``recall@5 is U+202E %6.99 U+202C`` renders as
      ``99.6%`` but is written ``%6.99``;
    * Markdown nested deeper than the parser follows (it stops, and the text below loses its
      structure);
    * front matter that is not valid YAML (a site generator would not read it as the scan does).

    Files in a scanned folder that are not documents (images, data, code) are listed in one
    skipped result, so that nothing is left out silently. When every file reads cleanly the rule
    passes with the number of files.
    """
    docs = scan_docs(ctx)
    out: list[Finding] = []
    for doc in docs:
        for problem in doc.problems:
            line, col = doc.where(problem.offset)
            out.append(failed(f"{doc.path}:{line}:{col}: {problem.message}", f"/line/{line}/column/{col}",
                              doc.path, problem.written or None))
    if not out:
        n = len(docs)
        out.append(passed(f"{n} file{'s' if n != 1 else ''} read as {'they render' if n != 1 else 'it renders'}: "
                          "no direction override, nothing nested past the parser", "",
                          docs[0].path if docs else SCAN))
    left_out = [str(x) for x in (ctx.doc(SCAN).data or {}).get("skipped", [])]
    if left_out:
        out.append(_skipped(left_out))
    return out
