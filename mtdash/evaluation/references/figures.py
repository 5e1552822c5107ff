"""Plotly figures of the references page, as plain dicts (see figures.py)."""

from __future__ import annotations

from mtdash.common.exports import chart_text
from mtdash.evaluation.references.diagnostics import ReferenceDiagnostics


def closest_reference_figure(diagnostics: ReferenceDiagnostics) -> dict | None:
    """Bars: in how many sentences each reference is the closest to the
    others (ties counted apart, as a grey bar)."""
    if diagnostics.state != "ready" or not diagnostics.closest_counts:
        return None
    labels = [
        chart_text(f"Reference {label}") for label, _ in diagnostics.closest_counts
    ]
    counts = [count for _, count in diagnostics.closest_counts]
    colours = ["#3b6ea8"] * len(counts)
    if diagnostics.closest_ties:
        labels.append("tie")
        counts.append(diagnostics.closest_ties)
        colours.append("#9aa3b0")
    total = max(diagnostics.n_segments, 1)
    metric = chart_text(diagnostics.agreement_metric)
    return {
        "data": [
            {
                "type": "bar",
                "x": labels,
                "y": counts,
                "text": [f"{count} ({100 * count / total:.1f}%)" for count in counts],
                "textposition": "auto",
                "hovertemplate": "%{x}: %{y} sentences<extra></extra>",
                "marker": {"color": colours},
            }
        ],
        "layout": {
            # Left-aligned: Plotly's mode bar sits on the top right.
            "title": {
                "text": f"Closest reference per sentence (by sentence {metric})",
                "x": 0.01,
                "xanchor": "left",
            },
            "xaxis": {"automargin": True},
            "yaxis": {
                "title": {"text": "sentences"},
                "rangemode": "tozero",
                # Whole sentences: no 0.5 ticks on a small test set.
                **({"dtick": 1} if max(counts) <= 10 else {}),
            },
            "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
            "height": 320,
        },
    }
