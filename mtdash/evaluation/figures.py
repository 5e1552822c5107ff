"""Plotly figures as plain dicts, built from result objects (no browser needed).

Pages hand them to Plotly.js with ``json_script``; tests inspect the dicts.
Plotly renders a little HTML in labels, so every name a user wrote goes
through ``chart_text`` (``<a href>`` shows as typed, not as a link).
"""

from __future__ import annotations

from mtdash.common.exports import chart_text
from mtdash.evaluation.services.leaderboard import Leaderboard


def leaderboard_figure(
    leaderboard: Leaderboard, metric: str | None = None
) -> dict | None:
    """A horizontal bar chart of one metric (default: the first), best on top."""
    metric = metric or leaderboard.primary_metric
    if metric is None:
        return None
    rows = [row for row in leaderboard.rows if metric in row.scores]
    if not rows:
        return None
    column = next(c for c in leaderboard.columns if c.name == metric)
    # Rows are ranked by the first column; draw them in this metric's order.
    rows.sort(key=lambda row: row.scores[metric], reverse=column.higher_is_better)
    # Plotly draws the first category at the bottom: reverse so rank 1 is on top.
    rows = list(reversed(rows))
    return {
        "data": [
            {
                "type": "bar",
                "orientation": "h",
                "x": [row.scores[metric] for row in rows],
                "y": [chart_text(row.system) for row in rows],
                "text": [f"{row.scores[metric]:.{column.decimals}f}" for row in rows],
                "textposition": "auto",
                "hovertemplate": "%{y}: %{x:.4f}<extra></extra>",
                "marker": {"color": "#3b6ea8"},
            }
        ],
        "layout": {
            "title": {"text": f"{chart_text(metric)} by system"},
            "xaxis": {
                "title": {
                    "text": f"{chart_text(metric)} ({'higher' if column.higher_is_better else 'lower'} is better)"
                },
                "rangemode": "tozero",
            },
            "yaxis": {"automargin": True},
            "margin": {"l": 10, "r": 20, "t": 40, "b": 50},
            "height": 120 + 32 * len(rows),
        },
    }
