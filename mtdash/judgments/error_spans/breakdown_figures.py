"""Plotly figures of the error breakdowns, as plain dicts built from
:class:`~mtdash.judgments.error_spans.breakdown.ErrorBreakdown` values (the
pages hand them over with ``json_script``; ``static/js/plotly_figure.js``
draws them). Category and system names go through ``chart_text``: Plotly
reads a little HTML in labels."""

from __future__ import annotations

from collections.abc import Sequence

from mtdash.common.exports import chart_text
from mtdash.judgments.error_spans.breakdown import ErrorBreakdown

# As the marks' backgrounds in error_spans.css, darker so bars read on white.
SEVERITY_COLOURS = {
    "minor": "#e0b100",
    "major": "#e07020",
    "critical": "#b3261e",
    "neutral": "#9aa3b0",
}
OTHER_COLOUR = "#6b7380"


def _title(text: str) -> dict:
    return {"text": text, "font": {"size": 15}, "x": 0, "xanchor": "left"}


def category_figure(breakdown: ErrorBreakdown) -> dict:
    """One bar per category (most errors on top), stacked by severity."""
    categories = sorted(breakdown.categories, key=breakdown.count)
    labels = [chart_text(c) for c in categories]
    data = [
        {
            "type": "bar",
            "orientation": "h",
            "name": severity,
            "y": labels,
            "x": [breakdown.count(c, severity) for c in categories],
            "hovertemplate": f"%{{y}}, {severity}: %{{x}} errors<extra></extra>",
            "marker": {"color": SEVERITY_COLOURS.get(severity, OTHER_COLOUR)},
        }
        for severity in breakdown.severities
    ]
    return {
        "data": data,
        "layout": {
            "title": _title(f"{chart_text(breakdown.system)}: errors by category"),
            "barmode": "stack",
            "xaxis": {"title": {"text": "errors"}, "rangemode": "tozero"},
            "yaxis": {"automargin": True, "type": "category"},
            "legend": {"orientation": "h", "y": -0.15, "x": 0},
            "margin": {"l": 10, "r": 20, "t": 50, "b": 60},
            "height": 140 + 26 * max(len(categories), 1),
        },
    }


def systems_figure(breakdowns: Sequence[ErrorBreakdown]) -> dict:
    """Errors per 100 words of each system, stacked by severity (neutral
    marks are not errors and are left out)."""
    severities = [
        s for s in (breakdowns[0].severities if breakdowns else ()) if s != "neutral"
    ]
    names = [chart_text(b.system) for b in breakdowns]
    data = [
        {
            "type": "bar",
            "name": severity,
            "x": names,
            "y": [round(b.per_100_words(severity) or 0.0, 4) for b in breakdowns],
            "hovertemplate": f"%{{x}}, {severity}: %{{y:.2f}} per 100 words"
            "<extra></extra>",
            "marker": {"color": SEVERITY_COLOURS.get(severity, OTHER_COLOUR)},
        }
        for severity in severities
    ]
    return {
        "data": data,
        "layout": {
            "title": _title("Errors per 100 target words"),
            "barmode": "stack",
            "xaxis": {"type": "category", "automargin": True},
            "yaxis": {"title": {"text": "errors per 100 words"}, "rangemode": "tozero"},
            "legend": {"orientation": "h", "y": -0.25, "x": 0},
            "margin": {"l": 60, "r": 20, "t": 50, "b": 80},
            "height": 380,
        },
    }
