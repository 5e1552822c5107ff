"""The compare page's figure: both outputs' sentence scores, one point per
sentence, as a plain Plotly dict (see :mod:`mtdash.evaluation.leaderboard.figures`)."""

from __future__ import annotations

import math

from mtdash.common.exports import chart_text
from mtdash.evaluation.compare.page import SentenceScores

BETTER_COLOURS = {"b": "#1e7a3c", "a": "#b3261e", "tie": "#7a8494"}


def sentence_scatter(scores: SentenceScores, name_a: str, name_b: str) -> dict:
    """x = A's sentence score, y = B's; the diagonal marks equal scores.

    Points are coloured by which output is better (the metric's direction
    decides); ``customdata`` holds the sentence number the page's script
    opens on a click.
    """
    column = scores.column
    groups: dict[str, list[int]] = {"b": [], "a": [], "tie": []}
    for index in range(len(scores.a)):
        value = scores.improvement(index)
        if math.isnan(value):
            continue
        groups["b" if value > 0 else "a" if value < 0 else "tie"].append(index)
    labels = {
        "b": f"B better ({len(groups['b'])})",
        "a": f"A better ({len(groups['a'])})",
        "tie": f"equal ({len(groups['tie'])})",
    }
    digits = column.decimals
    traces = [
        {
            "type": "scatter",
            "mode": "markers",
            "name": labels[key],
            "x": [scores.a[i] for i in indices],
            "y": [scores.b[i] for i in indices],
            "customdata": [i + 1 for i in indices],
            "hovertemplate": (
                f"sentence %{{customdata}}<br>A %{{x:.{digits}f}} · "
                f"B %{{y:.{digits}f}}<extra></extra>"
            ),
            "marker": {"color": BETTER_COLOURS[key], "size": 7, "opacity": 0.6},
        }
        for key, indices in groups.items()
        if indices
    ]
    values = [v for v in scores.a + scores.b if not math.isnan(v)]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    # The same range on both axes, so that the diagonal is at 45 degrees.
    pad = (high - low) * 0.04 or 1.0
    axis_range = [low - pad, high + pad]
    metric = chart_text(column.name)
    side = "above" if column.higher_is_better else "below"
    return {
        "data": traces,
        "layout": {
            "title": {
                "x": 0.01,
                "xanchor": "left",
                "text": (
                    f"Sentence {metric}, {column.better_word} is better<br>"
                    f"<sup>{side} the diagonal: B scores better</sup>"
                ),
            },
            "xaxis": {
                "title": {"text": f"A: {chart_text(name_a)}"},
                "range": axis_range,
            },
            "yaxis": {
                "title": {"text": f"B: {chart_text(name_b)}"},
                "range": axis_range,
            },
            "shapes": [
                {
                    "type": "line",
                    "x0": low,
                    "y0": low,
                    "x1": high,
                    "y1": high,
                    "line": {"color": "#5b6575", "dash": "dot", "width": 1},
                }
            ],
            "legend": {"orientation": "h", "y": -0.2},
            "hovermode": "closest",
            "margin": {"l": 60, "r": 20, "t": 70, "b": 60},
            "height": 600,
        },
    }
