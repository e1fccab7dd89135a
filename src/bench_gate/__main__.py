"""``python -m bench_gate`` is the ``bench-gate`` command."""

from bench_gate.cli.app import entry

if __name__ == "__main__":
    entry()
