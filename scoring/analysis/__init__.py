"""Diagnostics of outputs and references beyond corpus scores.

Each submodule is public (mtdash imports them by name): per-token n-gram
matches for highlighting, compare-mt style bucketed analyses, two outputs
side by side (MT-ComparEval's confirmed / improving / worsening n-grams),
and per-reference diagnostics. Token lists in, frozen dataclasses out.
"""
