"""The ``bench-gate`` command line: argument parsing and output options, nothing else.

:func:`bench_gate.cli.app.main` takes ``argv`` and returns the exit code (0 passed, 1 failed,
2 could not be evaluated); :func:`bench_gate.cli.app.entry` is the console script.
"""
