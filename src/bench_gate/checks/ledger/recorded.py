"""What a command recorded in a ledger runs, and whether its failure would show.

An external artifact manifest records the command its gate ran (``gate_command``) and the
command that re-verifies the archived artifact (``verification_command``); a history summary
records its ``gate_command``. A recorded command is evidence only when it could have failed and
when it runs what the manifest says it ran:

* it is one plain command or a chain joined by ``&&`` (a chain fails when any command fails).
  ``||``, ``;``, ``|``, ``&``, redirections, subshells, command substitution, ``!`` and line
  breaks are refused: ``bench-gate ... || true`` exits 0 whatever the gate says, and a command
  that cannot be read without a shell cannot be checked;
* a **gate command** is one or more gate runs and nothing else (a command before the gate, such
  as ``export PYTHONPATH=...``, can change what the gate runs). A gate run is the installed
  ``bench-gate`` itself, ``python -m bench_gate``, or either through a project runner
  (``moon run``, ``uv run``, ``poetry run``, ``hatch run``, ``pdm run``, ``rye run``) with no
  option in between. Refused: an environment assignment before the program
  (``PYTHONPATH=/tmp/evil bench-gate ...``: the environment decides which code runs), a program
  named by a path (``./bench-gate`` is a file of the working folder, not bench-gate), runners
  that fetch a package of that name from elsewhere (``npx``, ``pnpm exec``, ``pipx run``,
  ``uvx``), ``env``, interpreter or runner options, and other programs;
* its arguments are read by **bench-gate's own command line** (the ledger gate is handed the
  command line's parser and records what it reads; :func:`read_runs`): the run must be one
  bench-gate would run as the gate (a usage error such as ``--profile`` given twice is no
  run), of the declared profile, on ``artifact_path``, with no option that changes what the
  gate checks (``--set``, ``--waivers``, ``--fail-on``, ``--min-metric``...) and no output file
  written over the artifact it gates;
* a **verification command** downloads the recorded run (``gh run download RUN_ID --repo
  REPO`` for GitHub Actions) and hashes ``artifact_path`` with SHA-256 (``sha256sum PATH``,
  ``shasum -a 256 PATH`` or ``openssl dgst -sha256 PATH``).

The functions return problems as sentences (empty when the command is acceptable); they never
run anything.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any

GATE_PROGRAM = "bench-gate"
"""The installed program (``python -m bench_gate`` runs the same)."""

RUNNERS = {"moon": "run", "uv": "run", "poetry": "run", "hatch": "run", "pdm": "run", "rye": "run"}
"""Project runners that run a program of the project's own environment (``uv run bench-gate``),
with the sub-command that does it. ``moon run bench-gate`` runs the project's task of that name."""

FOREIGN_RUNNERS = {
    "npx": "fetches and runs a package of that name from the npm registry",
    "pnpm": "runs a package of that name from the node packages",
    "pipx": "fetches and runs a package of that name from a package index",
    "uvx": "fetches and runs a package of that name from a package index",
    "env": "runs the program with a changed environment",
}
"""Programs that would run something else than the project's bench-gate under its name."""

SAFE_GATE_PARAMETERS = frozenset({
    # what a gate run may set without changing what the gate checks: output, time, documents,
    # and requirements a profile adds (--require-qa, --citable, --max-metric, --strict)
    "reports", "profile", "now", "fmt", "output", "output_file", "root", "doc", "quiet", "color", "no_color",
    "verbose", "strict", "opt__require_qa", "opt__require_accounting", "opt__require_runtime",
    "opt__require_metadata", "opt__citable", "opt__max_metric", "doc__baseline",
})

SAFE_LEDGER_PARAMETERS = frozenset({
    "manifest", "profile", "root", "external_profile", "now", "fmt", "output", "output_file", "color", "no_color",
    "verbose", "strict",
})
"""The same for a run of ``bench-gate ledger`` (which gates each artifact with its own profile)."""

READER_MISSING = ("was not read by bench-gate's command line (gate the ledger with `bench-gate ledger`, which "
                  "reads every recorded command the way it would read it)")

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_OPERATOR = re.compile(r"^[();<>|&]+$")


def segments(text: str) -> tuple[list[list[str]], str | None]:
    """The commands of a ``&&`` chain as token lists; (``[]``, why) when it is anything else."""
    if "\n" in text or "\r" in text:
        return [], "spans several lines (each line is a command of its own, whose failure does not stop the rest)"
    if "`" in text or "$(" in text:
        return [], "uses command substitution, which cannot be checked without running it"
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError as exc:
        return [], f"cannot be read as a shell command ({exc})"
    out: list[list[str]] = [[]]
    for token in tokens:
        if token == "&&":
            out.append([])
        elif _OPERATOR.match(token):
            why = {"||": "runs another command when it fails, so the chain succeeds whatever it reports",
                   ";": "runs the next command whatever this one reports",
                   "|": "pipes its output on, so the exit status is the last command's, not the gate's",
                   "&": "runs in the background, so its exit status is lost"}
            return [], f"uses {token!r}: it {why.get(token, 'redirects or groups commands, which hides what runs')}"
        else:
            out[-1].append(token)
    if any(not seg for seg in out):
        return [], "has an empty command in its && chain"
    for seg in out:
        if seg[0] == "!":
            return [], "negates a command's exit status with '!'"
    return out, None


def _program(seg: Sequence[str]) -> tuple[int, str]:
    """Index and name of the command a segment runs, after ``NAME=value`` assignments."""
    for i, token in enumerate(seg):
        if not _ASSIGNMENT.match(token):
            return i, posixpath.basename(token)
    return len(seg), ""


def names_path(token: str, path: str) -> bool:
    """Whether a command-line token is the file ``path`` (itself, or a path ending in ``/path``)."""
    wanted = posixpath.normpath(path.replace("\\", "/"))
    given = posixpath.normpath(token.replace("\\", "/"))
    return given == wanted or given.endswith("/" + wanted)


def gate_argv(seg: Sequence[str]) -> tuple[list[str] | None, str | None]:
    """(the arguments bench-gate receives, None) when a segment is a gate run; (None, why) when
    it tries to be one in a way that may run something else; (None, None) when it runs another
    program altogether."""
    if seg and _ASSIGNMENT.match(seg[0]):
        name = seg[0].split("=", 1)[0]
        return None, (f"sets {name} in the environment of the command: the environment decides which code runs "
                      "(PYTHONPATH, PATH...), so it is not the project's bench-gate that is recorded")
    i = 0
    while i < len(seg):
        token = seg[i]
        name = posixpath.basename(token)
        if name in (GATE_PROGRAM, "bench_gate") or re.fullmatch(r"python(3(\.\d+)?)?", name) or name in RUNNERS \
                or name in FOREIGN_RUNNERS:
            if "/" in token or "\\" in token:
                return None, (f"runs {token!r}, a file named by its path, not the installed bench-gate")
        if name == GATE_PROGRAM:
            return list(seg[i + 1:]), None
        if name in FOREIGN_RUNNERS:
            rest = " ".join(seg[i:i + 3])
            runs_gate = any(posixpath.basename(t) in (GATE_PROGRAM, "bench_gate") for t in seg[i + 1:])
            return (None, f"runs {rest!r}: {name} {FOREIGN_RUNNERS[name]}, not the project's bench-gate") \
                if runs_gate else (None, None)
        if re.fullmatch(r"python(3(\.\d+)?)?", name):
            if seg[i + 1:i + 3] == ["-m", "bench_gate"]:
                return list(seg[i + 3:]), None
            if any(t == "bench_gate" or posixpath.basename(t) == GATE_PROGRAM for t in seg[i + 1:]):
                return None, f"runs {' '.join(seg[i:i + 4])!r}: python runs bench-gate as `python -m bench_gate`, " \
                             "with no interpreter option before it"
            return None, None
        if name in RUNNERS:
            sub = RUNNERS[name]
            if seg[i + 1:i + 2] != [sub] or i + 2 >= len(seg) or seg[i + 2].startswith("-"):
                if any(posixpath.basename(t) in (GATE_PROGRAM, "bench_gate") for t in seg[i + 1:]):
                    return None, (f"runs {' '.join(seg[i:i + 4])!r}: a runner reaches the gate as `{name} {sub} "
                                  f"bench-gate`, with no option in between (an option of the runner can change the "
                                  "environment the gate runs in)")
                return None, None
            if name == "moon":
                # moon run TASK [-- ARGS]: the task named bench-gate, its arguments after --
                task = seg[i + 2].rsplit(":", 1)[-1]
                if task != GATE_PROGRAM:
                    return None, None
                rest = list(seg[i + 3:])
                if rest and rest[0] != "--":
                    return None, (f"passes {rest[0]!r} to moon, not to the task (moon hands a task the arguments "
                                  "after --)")
                return rest[1:], None
            i += 2
            continue
        return None, None
    return None, None


def read_runs(text: str, reader: Callable[[list[str]], dict[str, Any]]) -> dict[str, Any]:
    """What a recorded gate command runs, as bench-gate's own command line reads it: the ledger
    gate calls this with the command line's parser and hands the result to the check kinds.

    ``{"problem": why}`` when the command is not a chain of gate runs; else ``{"runs": [...]}``,
    one reading per gate run: what ``reader`` returns for its arguments (``{"command": "gate",
    "given": {parameter: {"option": ..., "value": ...}}}`` or ``{"error": why}``)."""
    chain, why = segments(text)
    if why:
        return {"problem": why}
    runs: list[dict[str, Any]] = []
    others: list[str] = []
    for seg in chain:
        argv, why = gate_argv(seg)
        if why:
            return {"problem": why}
        if argv is None:
            others.append(" ".join(seg))
            continue
        if any(a in ("-h", "--help", "--version", "--install-completion", "--show-completion") for a in argv):
            return {"problem": "asks for help or the version: it runs no gate"}
        runs.append({"argv": argv, **(reader(argv) if argv else {"command": "task"})})
    if not runs:
        return {"problem": "does not run bench-gate: it is not a record of a gate run"}
    if others:
        return {"problem": f"also runs {others[0]!r}: a command chained with the gate can change what the gate runs "
                           "or reads"}
    return {"runs": runs}


def _reading(text: str, readings: Mapping[str, Any] | None) -> dict[str, Any]:
    found = readings.get(text) if readings is not None else None
    return found if isinstance(found, dict) else {"problem": READER_MISSING}


def _run_problems(run: Mapping[str, Any], text: str) -> list[str]:
    """Problems that make one read gate run no run of the gate that could fail."""
    if run.get("error"):
        return [f"gate_command {text!r} is not a run bench-gate would make: {run['error']}"]
    given = run.get("given") if isinstance(run.get("given"), dict) else {}
    safe = SAFE_LEDGER_PARAMETERS if run.get("command") == "ledger" else SAFE_GATE_PARAMETERS
    refused = [g.get("option", name) for name, g in given.items() if name not in safe]
    if refused:
        return [f"gate_command {text!r} passes {', '.join(refused)}, which can change what the gate checks"]
    return []


def _written_over(run: Mapping[str, Any], path: str) -> list[str]:
    """Output files of a run that name ``path`` (a verdict written over the artifact it gates)."""
    given = run.get("given") if isinstance(run.get("given"), dict) else {}
    out: list[str] = []
    for name in ("output", "output_file"):
        value = given.get(name, {}).get("value")
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                target = item.split("=", 1)[1] if name == "output_file" and "=" in item else item
                if names_path(target, path):
                    out.append(f"{given[name].get('option', name)} {item}")
    return out


def gate_command_problems(text: object, profile: object, artifact_path: object,
                          readings: Mapping[str, Any] | None = None) -> list[str]:
    """Why a recorded gate command is not a gate run of ``profile`` on ``artifact_path``;
    ``readings`` maps each recorded command to :func:`read_runs` of it (what the ledger gate read)."""
    if not isinstance(text, str) or not text.strip():
        return [f"gate_command is {text!r}, not a command"]
    read = _reading(text, readings)
    if "problem" in read:
        return [f"gate_command {text!r} {read['problem']}"]
    problems: list[str] = []
    for run in read.get("runs", []):
        found = _run_problems(run, text)
        if found:
            problems.extend(found)
            continue
        if run.get("command") != "gate":
            what = "runs a moon task, whose arguments are not recorded" if run.get("command") == "task" else \
                f"runs `bench-gate {run.get('command')}`, not the gate"
            problems.append(f"gate_command {text!r} {what}: it is not a gate run of artifact_path {artifact_path!r}")
            continue
        given = run.get("given") or {}
        named = given.get("profile", {}).get("value")
        if named is None:
            problems.append(f"gate_command {text!r} names no --profile: bench-gate refuses a gate run without one")
        elif isinstance(profile, str) and named != profile:
            problems.append(f"gate_command {text!r} runs profile {named!r}, not the declared gate_profile {profile!r}")
        reports = given.get("reports", {}).get("value") or []
        if isinstance(artifact_path, str) and artifact_path.strip():
            if not any(names_path(p, artifact_path) for p in reports if isinstance(p, str)):
                problems.append(f"gate_command {text!r} does not gate artifact_path {artifact_path!r}")
            for written in _written_over(run, artifact_path):
                problems.append(f"gate_command {text!r} writes its verdict over artifact_path ({written}): the "
                                "archived file would be the verdict, not the artifact")
    return problems


def history_gate_command_problems(text: object, profile: object, readings: Mapping[str, Any] | None = None
                                  ) -> list[str]:
    """Why a history summary's gate command is not a gate run that could fail (a summary names
    no artifact path: ``moon run bench-gate`` or ``bench-gate ledger MANIFEST`` gates the whole
    ledger)."""
    if not isinstance(text, str) or not text.strip():
        return []  # the shape check reports a missing command
    read = _reading(text, readings)
    if "problem" in read:
        return [f"gate_command {text!r} {read['problem']}"]
    problems: list[str] = []
    for run in read.get("runs", []):
        found = _run_problems(run, text)
        if found:
            problems.extend(found)
            continue
        given = run.get("given") or {}
        named = given.get("profile", {}).get("value")
        if run.get("command") == "ledger":
            if named not in (None, "ledger"):
                problems.append(f"gate_command {text!r} gates the ledger with profile {named!r}, not the built-in "
                                "ledger profile that gates each artifact with its own")
        elif run.get("command") == "gate":
            if named is None:
                problems.append(f"gate_command {text!r} names no --profile: bench-gate refuses a gate run without one")
            elif isinstance(profile, str) and named != profile:
                problems.append(f"gate_command {text!r} runs profile {named!r}, not the summary's profile {profile!r}")
        elif run.get("command") != "task":
            problems.append(f"gate_command {text!r} runs `bench-gate {run.get('command')}`, which gates nothing")
    return problems


def _hashes(seg: Sequence[str], artifact_path: str) -> bool:
    """Whether a segment computes the SHA-256 of ``artifact_path``."""
    at, program = _program(seg)
    args = list(seg[at + 1:])
    sha256 = program == "sha256sum" or (program == "shasum" and any(
        a in ("-a256", "--algorithm=256") or (a in ("-a", "--algorithm") and args[i + 1:i + 2] == ["256"])
        for i, a in enumerate(args))) or (program == "openssl" and args[:1] == ["dgst"] and "-sha256" in args)
    return sha256 and any(names_path(a, artifact_path) for a in args if not a.startswith("-"))


def _downloads(seg: Sequence[str], run_id: str, repo: str) -> bool:
    """Whether a segment is ``gh run download RUN_ID --repo REPO``."""
    at, program = _program(seg)
    args = list(seg[at + 1:])
    if program != "gh" or args[:2] != ["run", "download"]:
        return False
    repos = {args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--repo", "-R")}
    repos |= {a.split("=", 1)[1] for a in args if a.startswith("--repo=")}
    return run_id in args[2:] and repo in repos


def verification_command_problems(text: object, artifact_path: object, provider: object, run_id: object,
                                  repo: object) -> list[str]:
    """Why a recorded verification command does not re-verify the archived artifact."""
    if not isinstance(text, str) or not text.strip():
        return [f"verification_command is {text!r}, not a command"]
    chain, why = segments(text)
    if why:
        return [f"verification_command {text!r} {why}"]
    problems: list[str] = []
    if isinstance(artifact_path, str) and artifact_path.strip() and \
            not any(_hashes(seg, artifact_path) for seg in chain):
        problems.append(f"verification_command {text!r} does not compute the SHA-256 of artifact_path "
                        f"{artifact_path!r} (sha256sum, shasum -a 256 or openssl dgst -sha256)")
    if provider == "github-actions" and isinstance(repo, str) and isinstance(run_id, (str, int)) \
            and not isinstance(run_id, bool) and not any(_downloads(seg, str(run_id), repo) for seg in chain):
        problems.append(f"verification_command {text!r} does not download run {run_id} of {repo} "
                        f"(gh run download {run_id} --repo {repo})")
    return problems
