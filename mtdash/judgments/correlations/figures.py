"""The scatter plot of one correlation cell: metric score against human
score with the least-squares line, systems named (Figures 5-6 of the BLEU
paper), as a Plotly figure dict (see figures.py)."""

from __future__ import annotations

from mtdash.common.exports import chart_text
from mtdash.common.palette import series_style

POINT_COLOUR = "#3b6ea8"
LINE_COLOUR = "#d62728"  # not in the palette (mtdash.common.palette)


def _line(points: dict) -> dict | None:
    fit = points.get("fit")
    xs = [x for x in points["metric"] if x is not None]
    if not fit or not xs:
        return None
    low, high = min(xs), max(xs)
    return {
        "type": "scatter",
        "mode": "lines",
        "name": f"least squares: human = {fit['slope']:.3g} × metric "
        f"{'+' if fit['intercept'] >= 0 else '−'} {abs(fit['intercept']):.3g}",
        "x": [low, high],
        "y": [
            fit["slope"] * low + fit["intercept"],
            fit["slope"] * high + fit["intercept"],
        ],
        "line": {"color": LINE_COLOUR, "width": 2},
        "hoverinfo": "skip",
    }


def _system_traces(points: dict, metric: str) -> list[dict]:
    names = [chart_text(system) for system in points["systems"]]
    return [
        {
            "type": "scatter",
            "mode": "markers+text",
            "name": "systems",
            "x": points["metric"],
            "y": points["human"],
            "text": names,
            "textposition": "top center",
            "textfont": {"size": 11},
            "marker": {"color": POINT_COLOUR, "size": 9},
            "hovertemplate": "%{text}<br>"
            + chart_text(metric)
            + " %{x:.4g}<br>human %{y:.3f}<extra></extra>",
        }
    ]


def _sentence_traces(points: dict, metric: str) -> list[dict]:
    traces = []
    for number, system in enumerate(points["systems"]):
        chosen = [i for i, s in enumerate(points["system_of_point"]) if s == number]
        if not chosen:
            continue
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": chart_text(system),
                "x": [points["metric"][i] for i in chosen],
                "y": [points["human"][i] for i in chosen],
                "customdata": [points["segment"][i] for i in chosen],
                # One colour (and past 20 systems, symbol) per system.
                "marker": series_style(number).marker(size=6, opacity=0.6),
                "hovertemplate": chart_text(system)
                + ", segment %{customdata}<br>"
                + chart_text(metric)
                + " %{x:.4g}<br>human %{y:.3f}<extra></extra>",
            }
        )
    return traces


def scatter_note(points: dict) -> str:
    """What the plot shows, for the line under it."""
    note = (
        f"{points['n_points']:,} points; the line is the least-squares fit of the "
        "human score on the metric score."
    )
    if not points.get("higher_is_better", True):
        note += (
            f" {points['name']} is an error rate (lower is better): the table "
            "correlates its negation, so a falling line here is a positive "
            "coefficient there."
        )
    return note


def scatter_figure(points: dict) -> dict:
    """``points`` as read by ``correlation_points.read_points``."""
    metric, criterion = points["name"], points["criterion"]
    if points["level"] == "system":
        traces = _system_traces(points, metric)
        title = f"{metric} against human {criterion}, one point per system"
    else:
        traces = _sentence_traces(points, metric)
        shown = points.get("sampled", points["n_points"])
        title = (
            f"{metric} against human {criterion}, per sentence "
            f"({shown:,} of {points['n_points']:,} points shown)"
        )
    line = _line(points)
    if line:
        traces.append(line)
    return {
        "data": traces,
        "layout": {
            "title": {"text": chart_text(title), "x": 0.01, "xanchor": "left"},
            "xaxis": {
                "title": {"text": chart_text(f"{metric} score")},
                "automargin": True,
            },
            "yaxis": {
                "title": {"text": chart_text(f"human {criterion} (mean z-score)")},
                "automargin": True,
            },
            "legend": {"orientation": "h", "y": -0.2},
            "margin": {"l": 60, "r": 20, "t": 50, "b": 60},
            "height": 460,
        },
    }
