"""Plotly figures of the readability pages, as plain dicts (see figures.py).

Only ``bar`` and ``scatter`` traces (the vendored basic bundle); every name a
user wrote goes through ``chart_text``.
"""

from __future__ import annotations

import math

from mtdash.common.exports import chart_text
from mtdash.common.numbers import finite
from mtdash.common.palette import series_style
from mtdash.evaluation.readability.page import TestSetReadability
from mtdash.evaluation.readability.stability import (
    MetricStability,
    StabilityReport,
)

SOURCE_COLOUR = "#d9822b"
REFERENCE_COLOUR = "#3b6ea8"
# (attribute of TextComplexity, panel title, decimals shown on the bars)
PANELS = (
    ("asl", "ASL (words per sentence)", 1),
    ("asw", "ASW (syllables per word)", 3),
    ("flesch_reading_ease", "Flesch Reading Ease (higher = easier)", 1),
)


def readability_figure(readability: TestSetReadability) -> dict | None:
    """Three small bar panels, ASL, ASW and Flesch Reading Ease, one bar per
    measured text (the source in orange, references in blue)."""
    texts = [text for text in readability.texts if text.figures is not None]
    if not texts:
        return None
    names = [chart_text(text.title) for text in texts]
    colours = [
        SOURCE_COLOUR if text.role == "source" else REFERENCE_COLOUR for text in texts
    ]
    width = 1 / len(PANELS)
    gap = 0.07
    data, layout = [], {}
    for index, (attribute, title, decimals) in enumerate(PANELS):
        suffix = "" if index == 0 else str(index + 1)
        values = [getattr(text.figures, attribute) for text in texts]
        data.append(
            {
                "type": "bar",
                "x": names,
                "y": values,
                "xaxis": f"x{suffix}",
                "yaxis": f"y{suffix}",
                "marker": {"color": colours},
                "text": [f"{value:.{decimals}f}" for value in values],
                "textposition": "auto",
                "hovertemplate": f"%{{x}}: %{{y:.{decimals}f}}<extra></extra>",
                "showlegend": False,
            }
        )
        start = index * width + (gap / 2 if index else 0)
        end = (index + 1) * width - (gap / 2 if index < len(PANELS) - 1 else 0)
        layout[f"xaxis{suffix}"] = {"domain": [start, end], "automargin": True}
        layout[f"yaxis{suffix}"] = {
            "anchor": f"x{suffix}",
            "rangemode": "tozero",
            "title": {"text": title, "font": {"size": 12}},
        }
    layout.update(
        {
            # Room above the panels for Plotly's mode bar.
            "margin": {"l": 60, "r": 20, "t": 40, "b": 50},
            "height": 320,
            "bargap": 0.35,
        }
    )
    return {"data": data, "layout": layout}


def stability_figure(report: StabilityReport, metric: MetricStability) -> dict | None:
    """Like Figures 2-3 of the paper, before and after: each system's raw
    scores across the test sets (left) and its normalised scores (right),
    the test sets ordered from the lowest ASW (easiest) to the highest. Flat
    lines on the right mean the normalisation made the scores stable."""
    table = metric.table
    if table is None or not report.types:
        return None
    order = sorted(range(len(report.types)), key=lambda i: report.types[i].asw)
    labels = [
        chart_text(f"{report.types[i].label} (ASW {report.types[i].asw:.3f})")
        for i in order
    ]
    data = []
    for row, system in enumerate(table.systems):
        # Colour and symbol per system; the dash tells raw from normalised.
        style = series_style(row)
        for panel, values, dash in (
            ("", table.raw[row], "dot"),
            ("2", table.normalised[row], "solid"),
        ):
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines+markers",
                    "name": chart_text(system),
                    "legendgroup": chart_text(system),
                    "showlegend": panel == "",
                    "x": labels,
                    "y": [finite(values[i]) for i in order],
                    "xaxis": f"x{panel}",
                    "yaxis": f"y{panel}",
                    # A system not run on a middle text type still shows its trend.
                    "connectgaps": True,
                    "line": {"color": style.colour, "dash": dash},
                    "marker": style.marker(),
                    "hovertemplate": f"%{{x}}: %{{y:.{metric.decimals}f}}"
                    f"<extra>{chart_text(system)}</extra>",
                }
            )
    spec = chart_text(metric.spec)
    factor = "C²" if metric.power == 2 else "C"
    values = [
        v for block in (table.raw, table.normalised) for row in block for v in row
    ]
    values = [v for v in values if math.isfinite(v)]
    low, high = min(values), max(values)
    pad = (high - low) * 0.08 or abs(high) * 0.05 or 1.0
    shared_range = [low - pad, high + pad]
    return {
        "data": data,
        "layout": {
            "xaxis": {"domain": [0, 0.46], "automargin": True},
            "xaxis2": {"domain": [0.54, 1], "automargin": True},
            "yaxis": {"title": {"text": f"raw {spec}"}, "range": shared_range},
            "yaxis2": {
                "anchor": "x2",
                "title": {"text": f"{spec} × {factor}"},
                "range": shared_range,
            },
            "annotations": [
                _panel_title(0.23, f"raw {spec}"),
                _panel_title(0.77, f"normalised {spec} (× {factor})"),
            ],
            # On the right, outside both panels: below them it would cover
            # what follows the chart.
            "legend": {"title": {"text": "system"}},
            "margin": {"l": 60, "r": 20, "t": 40, "b": 40},
            "height": 380,
        },
    }


def _panel_title(x: float, text: str) -> dict:
    return {
        "text": text,
        "x": x,
        "xref": "paper",
        "xanchor": "center",
        "y": 1.02,
        "yref": "paper",
        "yanchor": "bottom",
        "showarrow": False,
        "font": {"size": 13},
    }
