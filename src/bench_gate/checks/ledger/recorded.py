"""What a command recorded in a ledger runs, and whether its failure would show.

An external artifact manifest records the command its gate ran (``gate_command``) and the
command that re-verifies the archived artifact (``verification_command``); a history summary
records its ``gate_command``. A recorded command is evidence only when it could have failed and
when it runs what the manifest says it ran:

* it is one plain command or a chain joined by ``&&`` (a chain fails when any command fails).
  ``||``, ``;``, ``|``, ``&``, redirections, subshells, command substitution, ``!`` and line
  breaks are refused: ``bench-gate ... || true`` exits 0 whatever the gate says, and a command
  that cannot be read without a shell cannot be checked;
* a **gate command** runs bench-gate (or the practice's ``eval_gate.py``), itself or through a
  runner (``moon run``, ``uv run``, ``env``, ``python -m bench_gate``), with ``--profile``
  equal to the declared gate profile, on a path that is the archived ``artifact_path`` (or ends
  with ``/`` + it), and passes no option that changes what the gate checks (``--set``,
  ``--waivers``, ``--fail-on``, ``--min-metric``...; only options that select output, time,
  documents or add requirements are accepted);
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
from collections.abc import Sequence

GATE_PROGRAMS = ("bench-gate", "eval_gate.py")
"""Programs that are a gate run: bench-gate itself and the practice's own gate script."""

SAFE_GATE_OPTIONS = {
    # option -> whether it takes a value; none of them can make a gate pass that would fail
    "--profile": True, "-p": True, "--now": True, "--format": True, "--output": True, "--output-file": True,
    "--root": True, "--doc": True, "--baseline": True, "--require-accounting": False, "--require-qa": False,
    "--require-runtime": True, "--require-metadata": True, "--citable": False, "--max-metric": True,
    "--strict": False, "--quiet": False, "-q": False, "--color": True, "--no-color": False, "-v": False,
    "--verbose": False, "-vv": False,
}

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
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", token):
            return i, posixpath.basename(token)
    return len(seg), ""


def names_path(token: str, path: str) -> bool:
    """Whether a command-line token is the file ``path`` (itself, or a path ending in ``/path``)."""
    wanted = posixpath.normpath(path.replace("\\", "/"))
    given = posixpath.normpath(token.replace("\\", "/"))
    return given == wanted or given.endswith("/" + wanted)


RUNNERS = {"moon": "run", "uv": "run", "poetry": "run", "pipx": "run", "hatch": "run", "pdm": "run", "rye": "run",
           "pnpm": "exec", "npx": "", "env": ""}
"""Programs that run another program named after them (``moon run bench-gate``), with the
sub-command that does it."""


def _gate_args(seg: Sequence[str]) -> list[str] | None:
    """The arguments of the gate program a segment runs, or None when it runs no gate.

    The gate must be what the segment runs: the program itself, or reached through a runner
    (``moon run``, ``uv run``, ``env``...) or ``python [-m bench_gate | SCRIPT]``; a gate named as
    an argument of another program (``echo bench-gate ...``, ``true bench-gate ...``) is not run.
    """
    i, name = _program(seg)
    while i < len(seg):
        if name in GATE_PROGRAMS:
            return list(seg[i + 1:])
        if re.fullmatch(r"python(3(\.\d+)?)?", name):
            j = i + 1
            while j < len(seg) and seg[j].startswith("-") and seg[j] != "-m":
                j += 1
            if seg[j:j + 2] == ["-m", "bench_gate"]:
                return list(seg[j + 2:])
            i = j
        elif name in RUNNERS:
            j = i + 1
            if RUNNERS[name]:
                if seg[j:j + 1] != [RUNNERS[name]]:
                    return None
                j += 1
            while j < len(seg) and (seg[j].startswith("-") or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", seg[j])):
                j += 1
            i = j
        else:
            return None
        name = posixpath.basename(seg[i]) if i < len(seg) else ""
    return None


def _parse_gate_args(args: Sequence[str]) -> tuple[str | None, list[str], list[str]]:
    """(profile, positionals, refused options) of a gate program's arguments."""
    profile: str | None = None
    positionals: list[str] = []
    refused: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        if token == "--" or not token.startswith("-") or token == "-":
            if token != "--":
                positionals.append(token)
            i += 1
            continue
        name, _, inline = token.partition("=")
        if name not in SAFE_GATE_OPTIONS:
            refused.append(name)
            i += 1
            continue
        value = inline if inline else (args[i + 1] if SAFE_GATE_OPTIONS[name] and i + 1 < len(args) else None)
        if name in ("--profile", "-p"):
            profile = value
        i += 1 if inline or not SAFE_GATE_OPTIONS[name] else 2
    return profile, positionals, refused


def _gate_runs(text: str) -> tuple[list[tuple[str | None, list[str]]], list[str]]:
    """(profile, positionals) of every gate run in a recorded command, and the problems that
    make it no record of a gate run that could fail."""
    chain, why = segments(text)
    if why:
        return [], [f"gate_command {text!r} {why}"]
    runs = [args for args in (_gate_args(seg) for seg in chain) if args is not None]
    if not runs:
        return [], [f"gate_command {text!r} does not run bench-gate: it is not a record of a gate run"]
    out: list[tuple[str | None, list[str]]] = []
    problems: list[str] = []
    for args in runs:
        named, positionals, refused = _parse_gate_args(args)
        if refused:
            problems.append(f"gate_command {text!r} passes {', '.join(refused)}, which can change what the gate "
                            "checks")
        out.append((named, positionals))
    return out, problems


def gate_command_problems(text: object, profile: object, artifact_path: object) -> list[str]:
    """Why a recorded gate command is not a gate run of ``profile`` on ``artifact_path``."""
    if not isinstance(text, str) or not text.strip():
        return [f"gate_command is {text!r}, not a command"]
    runs, problems = _gate_runs(text)
    for named, positionals in runs:
        if isinstance(profile, str) and named != profile:
            problems.append(f"gate_command {text!r} runs profile {named!r}, not the declared gate_profile {profile!r}")
        if isinstance(artifact_path, str) and artifact_path.strip() and \
                not any(names_path(p, artifact_path) for p in positionals):
            problems.append(f"gate_command {text!r} does not gate artifact_path {artifact_path!r}")
    return problems


def history_gate_command_problems(text: object, profile: object) -> list[str]:
    """Why a history summary's gate command is not a gate run that could fail (a summary names
    no artifact path: ``moon run bench-gate`` gates the whole ledger)."""
    if not isinstance(text, str) or not text.strip():
        return []  # the shape check reports a missing command
    runs, problems = _gate_runs(text)
    for named, _ in runs:
        if named is not None and isinstance(profile, str) and named != profile:
            problems.append(f"gate_command {text!r} runs profile {named!r}, not the summary's profile {profile!r}")
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
