"""bench-gate: decide whether a benchmark result may be claimed.

``bench-gate REPORT --profile NAME`` reads a benchmark report and the evidence it points to,
evaluates a profile of declarative rules, and answers pass (exit 0) or fail (exit 1) with one
line per rule; exit 2 means the run could not be evaluated.
"""

__version__ = "0.1.0"
