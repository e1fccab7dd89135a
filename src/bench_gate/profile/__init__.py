"""Profiles and policies: YAML -> validated models -> a compiled plan of bound rules.

Compilation happens in two steps, both before anything is evaluated:

1. :func:`load_profile` reads a profile (a built-in name or a path), follows ``extends:``,
   merges parameters, documents, options, policies and inline rules (parents first), and checks
   that every rule id is unique and every check kind exists (:mod:`~bench_gate.profile.merge`).
2. :func:`~bench_gate.profile.binding.bind` substitutes parameter values (defaults, ``--set``,
   profile options) into each rule's ``with:`` and validates the result against the check
   kind's parameter class (:mod:`~bench_gate.profile.kindparams`).

Every problem is a :class:`~bench_gate.profile.plan.ProfileError` carrying the file, the line
and the path inside the YAML, and never reaches evaluation. A profile whose plan would run zero
rules is an error too.

The modules, in the order compilation uses them:

* :mod:`~bench_gate.profile.yamlsafe`: unambiguous YAML with line numbers;
* :mod:`~bench_gate.profile.schema`: the pydantic models of profile and policy files (the
  schema), used only while YAML is compiled and for ``bench-gate schema``;
* :mod:`~bench_gate.profile.sources`: reading built-in and user YAML files;
* :mod:`~bench_gate.profile.merge`: ``extends``, merging, whole-profile checks;
* :mod:`~bench_gate.profile.params`: profile parameters and ``${name}`` substitution;
* :mod:`~bench_gate.profile.kindparams`: validating ``with:`` against a kind's parameters;
* :mod:`~bench_gate.profile.binding`: the compiled :class:`~bench_gate.profile.plan.Plan`;
* :mod:`~bench_gate.profile.plan`: the compiled objects, frozen records;
* :mod:`~bench_gate.profile.precompiled`: the built-in profiles shipped compiled, used only
  while the sha256 of every source they came from still matches.
"""

from __future__ import annotations

from bench_gate.profile.plan import Profile
from bench_gate.profile.sources import looks_like_path


def load_profile(ref: str) -> Profile:
    """Load a profile by built-in name or path, following ``extends``.

    A built-in profile is read from its precompiled form when that is current (every source
    file it was compiled from has the recorded sha256); otherwise, and for every path, the
    YAML is compiled.
    """
    if not looks_like_path(ref):
        from bench_gate.profile import precompiled as compiled

        found = compiled.load(ref)
        if found is not None:
            return found
    from bench_gate.profile.merge import compile_profile

    return compile_profile(ref)
