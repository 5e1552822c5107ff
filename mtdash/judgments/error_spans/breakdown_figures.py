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


# The page titles each chart; the legend sits above the plot, the mode bar
# upright at the right, so neither covers the other on a phone.
LEGEND = {
    "orientation": "h",
    "x": 0,
    "xanchor": "left",
    "y": 1.0,
    "yanchor": "bottom",
    "traceorder": "normal",
}
MODEBAR = {"orientation": "v"}


def count_step(largest: int) -> int:
    """An integer tick step giving at most about eight ticks (counts are
    whole numbers: no 0.5 ticks)."""
    return max(1, -(-largest // 8))


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
    largest = max((breakdown.count(c) for c in categories), default=0)
    return {
        "data": data,
        "layout": {
            "barmode": "stack",
            "xaxis": {
                "title": {"text": "errors"},
                "rangemode": "tozero",
                "dtick": count_step(largest),
            },
            "yaxis": {"automargin": True, "type": "category"},
            "legend": LEGEND,
            "modebar": MODEBAR,
            "margin": {"l": 10, "r": 56, "t": 40, "b": 50},
            "height": 130 + 26 * max(len(categories), 1),
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
            "barmode": "stack",
            "xaxis": {"type": "category", "automargin": True},
            "yaxis": {"title": {"text": "errors per 100 words"}, "rangemode": "tozero"},
            "legend": LEGEND,
            "modebar": MODEBAR,
            "margin": {"l": 60, "r": 56, "t": 40, "b": 60},
            "bargap": 0.35,
            "height": 380,
        },
    }
