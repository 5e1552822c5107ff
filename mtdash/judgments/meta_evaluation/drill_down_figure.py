"""The drill-down's chart: one point per system pair, human Δ across and
metric Δ up, one colour per outcome, as a Plotly figure dict.

Pairs are put in human order (the human-preferred system first), so human Δ
is never negative and a point above the zero line is a pair the metric
orders as the humans do; below it, a disagreement; on it, a metric tie; on
the left edge, a human tie.
"""

from __future__ import annotations

from mtdash.common.exports import chart_text
from mtdash.common.palette import COLOURS

# The same colours as the table's outcome badges (meta_evaluation_metric.css).
OUTCOME_STYLES = {
    "agree": ("agree", COLOURS[2], "circle"),  # vivid green
    "disagree": ("disagree", COLOURS[3], "x"),  # vivid red
    "metric tie": ("metric tie", COLOURS[1], "diamond"),  # vivid orange
    "human tie": ("human tie", COLOURS[7], "square"),  # medium grey
}


def pairs_figure(
    pairs: list, metric: str, criterion: str, standardised: bool = True
) -> dict:
    """``pairs``: :class:`scoring.stats.SystemPairOutcome` objects; human
    scores are means of per-judge z-scores when ``standardised``."""
    unit = "mean z-score" if standardised else "raw mean"
    traces = []
    for outcome, (label, colour, symbol) in OUTCOME_STYLES.items():
        chosen = [pair for pair in pairs if pair.outcome == outcome]
        if not chosen:
            continue
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": f"{label} ({len(chosen)})",
                "x": [pair.human_difference for pair in chosen],
                "y": [pair.metric_difference for pair in chosen],
                "text": [
                    f"{chart_text(pair.first)} vs {chart_text(pair.second)}"
                    for pair in chosen
                ],
                "marker": {"color": colour, "symbol": symbol, "size": 9},
                "hovertemplate": "%{text}<br>human Δ %{x:.3f}<br>"
                + chart_text(metric)
                + " Δ %{y:.4g}<extra>"
                + label
                + "</extra>",
            }
        )
    return {
        "data": traces,
        "layout": {
            "xaxis": {
                "title": {"text": chart_text(f"human Δ ({criterion}, {unit})")},
                "rangemode": "tozero",
                "zeroline": True,
                "automargin": True,
            },
            "yaxis": {
                "title": {"text": chart_text(f"{metric} Δ")},
                "zeroline": True,
                "zerolinecolor": "#1d2430",
                "automargin": True,
            },
            "legend": {"orientation": "h", "y": -0.22},
            "margin": {"l": 60, "r": 20, "t": 44, "b": 60},  # t: the mode bar
            "height": 460,
        },
    }
