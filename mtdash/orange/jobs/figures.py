"""Plotly figures as plain dicts, built from ORANGE results (no browser needed).

The job page hands them to Plotly.js with ``json_script``; tests inspect the dicts.
Metric specs are user-written: they go through ``chart_text``, since Plotly
renders a little HTML in legends and hover labels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol

from mtdash.common.exports import chart_text
from mtdash.common.palette import series_style
from mtdash.orange.labels import metric_title


class CurveResult(Protocol):
    metric: str
    curve: Sequence[
        Sequence[float]
    ]  # [[n, ORANGE % using the first n candidates], ...]


def orange_curve_figure(
    results: Sequence[CurveResult],
    best: Iterable[str] = (),
    equivalent: Iterable[str] = (),
) -> dict | None:
    """ORANGE (%) by n-best size, one line per metric (Figure 1 of Lin & Och 2004).

    The best metric's line is drawn thicker, those statistically equivalent to
    it dashed; metrics are named by their spec (``metric_title``: BLEU
    says it is the smoothed sentence BLEU). Both axes
    span the data (with a little room), not zero to a round number.
    None when there is nothing to draw.
    """
    best, equivalent = set(best), set(equivalent)
    if not results:
        return None
    data = []
    for position, result in enumerate(results):
        is_best = result.metric in best
        label = chart_text(metric_title(result.metric))
        if result.metric in equivalent:
            label = f"{label} (equivalent)"
        points = list(result.curve)
        data.append(
            {
                "type": "scatter",
                "mode": "lines+markers" if len(points) <= 40 else "lines",
                "name": f"{label} (best)" if is_best else label,
                "x": [int(n) for n, _ in points],
                "y": [float(value) for _, value in points],
                # One colour per metric (the shared palette); the dash marks
                # the metrics equivalent to the best.
                "line": {
                    "width": 4 if is_best else 2,
                    "color": series_style(position).colour,
                    "dash": "dash" if result.metric in equivalent else "solid",
                },
                "marker": series_style(position).marker(),
                "hovertemplate": f"{_template_text(label)}<br>first %{{x}} candidates: "
                "%{y:.2f}%<extra></extra>",
            }
        )
    largest = max((int(n) for result in results for n, _ in result.curve), default=1)
    values = [float(v) for result in results for _, v in result.curve]
    return {
        "data": data,
        "layout": {
            "title": {"text": "ORANGE by n-best list size"},
            "xaxis": _size_axis(largest),
            "yaxis": {
                "title": {"text": "ORANGE (%), lower is better"},
                "range": _fitted_range(values),
            },
            "legend": {"orientation": "h", "y": -0.25},
            "margin": {"l": 60, "r": 20, "t": 40, "b": 60},
            "height": 460,
        },
    }


def _template_text(text: str) -> str:
    """Plain text inside a hovertemplate, where ``%{…}`` would be a variable:
    the brace becomes an entity, which Plotly prints as a brace."""
    return text.replace("%{", "%&#123;")


def _size_axis(largest: int) -> dict:
    """n-best sizes are whole numbers: integer ticks, a log axis for long lists."""
    axis: dict = {
        "title": {"text": "n-best list size (first n candidates of each list)"}
    }
    if largest >= 256:
        # Log axis ranges are in powers of ten: from n = 1 to n = N exactly.
        axis.update(type="log", range=[-0.02, math.log10(largest) + 0.02])
    else:
        axis.update(type="linear", tickformat="d", range=[0.8, largest + 0.2])
        if largest <= 20:
            axis["dtick"] = 1
    return axis


def _fitted_range(values: Sequence[float]) -> list[float]:
    """From the lowest to the highest value, 5% of the span (at least 0.5
    ORANGE points) on each side, kept within 0-100."""
    if not values:
        return [0.0, 100.0]
    low, high = min(values), max(values)
    pad = max(0.05 * (high - low), 0.5)
    return [max(0.0, low - pad), min(100.0, high + pad)]
