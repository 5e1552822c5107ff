"""The judgments page's chart, built as a Plotly figure dict (pure: tests
check it without a browser; the page hands it over with json_script)."""

from __future__ import annotations

import math

from mtdash.common.numbers import finite
from mtdash.judgments.overview.summary import CriterionAggregates


def system_figure(aggregates: CriterionAggregates) -> dict:
    """Dot plot: each system's mean per-judge z (x; WMT's z or raw mean as
    given for such a criterion), best at the top; the raw mean in the hover
    text. Plotly's basic bundle (scatter)."""
    systems = list(reversed(aggregates.systems))  # Plotly draws y bottom-up
    values = [s.z_mean for s in systems if math.isfinite(s.z_mean)] or [0.0]
    low, high = min(values + [0.0]), max(values + [0.0])  # zero always shown
    pad = 0.12 * (high - low) or 0.5
    label = aggregates.score_label
    title = {
        "mean z": "mean of per-judge z-scores",
        "WMT z": "WMT z (as given in the file)",
        "raw mean": "raw mean (as given in the file)",
    }[label]
    return {
        "data": [
            {
                "type": "scatter",
                "mode": "markers",
                "x": [finite(s.z_mean) for s in systems],
                "y": [s.system for s in systems],
                "marker": {"size": 11, "color": "#2563eb"},
                "text": [
                    f"raw mean {s.raw_mean:.4g} · {s.n_segments} segments · "
                    f"{s.n_judges} judges"
                    for s in systems
                ],
                "hovertemplate": f"%{{y}}: {label} %{{x:.3f}}<br>%{{text}}"
                "<extra></extra>",
                "name": label,
            }
        ],
        "layout": {
            "height": max(220, 60 + 26 * len(systems)),
            "margin": {"l": 10, "r": 20, "t": 30, "b": 45},
            "xaxis": {
                "range": [low - pad, high + pad],
                "title": {"text": f"{aggregates.name}: {title}"},
                "zeroline": True,
                "zerolinecolor": "#9aa4b2",
            },
            "yaxis": {
                "automargin": True,
                "type": "category",
                "range": [-0.6, len(systems) - 0.4],
            },
            "showlegend": False,
        },
    }
