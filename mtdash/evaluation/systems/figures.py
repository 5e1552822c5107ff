"""Plotly figures of the system page, as plain dicts built from the stored
analyses (``system_analyses``); the page hands them over with ``json_script``
and ``static/js/plotly_figure.js`` draws them. Labels a user wrote (metric
specs, word-count names) go through ``chart_text``."""

from __future__ import annotations

from mtdash.common.exports import chart_text

BAR = "#3b6ea8"
# Every chart of the page is this tall, as its box in system.css: Plotly's
# responsive resizing takes the box's height.
HEIGHT = 380
LINE = "#c2571a"


def _layout(title: str, x_title: str, y_title: str, **extra) -> dict:
    return {
        # Left-aligned: the mode bar's buttons sit on the right, over the plot.
        "title": {
            "text": title,
            "font": {"size": 15},
            "x": 0,
            "xref": "paper",
            "xanchor": "left",
        },
        "xaxis": {"title": {"text": x_title}, "type": "category"},
        "yaxis": {"title": {"text": y_title}, "rangemode": "tozero"},
        "margin": {"l": 60, "r": 20, "t": 50, "b": 60},
        "height": HEIGHT,
        "bargap": 0.15,
        **extra,
    }


def _labels(labels: list[str]) -> list[str]:
    """Bucket names such as ``<1`` and ``>=60``: Plotly reads ``<`` as the
    start of a tag, so they are written as entities it prints literally."""
    return [chart_text(label) for label in labels]


def histogram_figure(column: str, analysis: dict) -> dict:
    """Sentence scores of one metric in equal-width bins."""
    edges = analysis["histogram"]["edges"]
    counts = analysis["histogram"]["counts"]
    decimals = analysis.get("decimals", 2)
    centres = [(a + b) / 2 for a, b in zip(edges, edges[1:])]
    ranges = [f"[{a:.{decimals}f}, {b:.{decimals}f})" for a, b in zip(edges, edges[1:])]
    name = chart_text(column)
    layout = _layout(
        f"Sentence {name} scores", f"sentence {name}", "sentences", bargap=0.04
    )
    layout["xaxis"] = {"title": {"text": f"sentence {name}"}}
    return {
        "data": [
            {
                "type": "bar",
                "x": centres,
                "y": counts,
                "width": [b - a for a, b in zip(edges, edges[1:])],
                "customdata": ranges,
                "hovertemplate": "%{customdata}: %{y} sentences<extra></extra>",
                "marker": {"color": BAR},
            }
        ],
        "layout": layout,
    }


def length_figure(column: str, analysis: dict) -> dict:
    """compare-mt's score by reference length: the corpus score of each
    bucket's sentences (bars) and their mean sentence score (dots)."""
    buckets = analysis["length_buckets"]
    labels = _labels(buckets["labels"])
    name = chart_text(column)
    counts = [f"{n} sentences" for n in buckets["counts"]]
    data = [
        {
            "type": "bar",
            "name": f"corpus {name} of the bucket",
            "x": labels,
            "y": buckets["corpus_scores"],
            "customdata": counts,
            "hovertemplate": "%{x} tokens: %{y}<br>%{customdata}<extra></extra>",
            "marker": {"color": BAR},
        },
        {
            "type": "scatter",
            "mode": "markers",
            "name": "mean sentence score",
            "x": labels,
            "y": buckets["mean_sentence_scores"],
            "customdata": counts,
            "hovertemplate": "%{x} tokens: mean %{y}<br>%{customdata}<extra></extra>",
            "marker": {"color": LINE, "size": 9},
        },
    ]
    layout = _layout(
        f"{name} by reference length",
        "reference length (tokens)",
        name,
        legend={"orientation": "h", "y": -0.32, "x": 0},
    )
    layout["margin"]["b"] = 100
    layout["annotations"] = [
        {
            "x": label,
            "y": 0,
            "yref": "paper",
            "yanchor": "bottom",
            "text": f"n={n}",
            "showarrow": False,
            "font": {"size": 10, "color": "#fff" if n else "#888"},
        }
        for label, n in zip(labels, buckets["counts"])
    ]
    return {"data": data, "layout": layout}


def score_buckets_figure(column: str, analysis: dict) -> dict:
    """compare-mt's sentence counts per sentence-score bucket."""
    buckets = analysis["score_buckets"]
    name = chart_text(column)
    return {
        "data": [
            {
                "type": "bar",
                "x": _labels(buckets["labels"]),
                "y": buckets["counts"],
                "text": [str(n) for n in buckets["counts"]],
                "textposition": "auto",
                "hovertemplate": "%{x}: %{y} sentences<extra></extra>",
                "marker": {"color": BAR},
            }
        ],
        "layout": _layout(
            f"Sentences by sentence {name}", f"sentence {name} bucket", "sentences"
        ),
    }


def word_accuracy_figure(entry: dict) -> dict:
    """compare-mt's word F-measure by frequency bucket, the number of
    reference and output words of each bucket in the hover and under the bar."""
    labels = _labels(entry["labels"])
    details = [
        f"reference words {r}, output words {o}, matches {m}<br>"
        f"recall {rec:.4f}, precision {p:.4f}"
        for r, o, m, rec, p in zip(
            entry["reference_words"],
            entry["output_words"],
            entry["matches"],
            entry["recall"],
            entry["precision"],
        )
    ]
    layout = _layout(
        "Word F-measure by frequency",
        f"word frequency in {chart_text(entry['name'])} (on the bars: reference words)",
        "F-measure",
    )
    layout["yaxis"]["range"] = [0, 1.05]
    return {
        "data": [
            {
                "type": "bar",
                "x": labels,
                "y": entry["f_measure"],
                "text": [str(n) for n in entry["reference_words"]],
                "textposition": "outside",
                "textfont": {"size": 11},
                "cliponaxis": False,
                "customdata": details,
                "hovertemplate": "frequency %{x}: F %{y:.4f}<br>%{customdata}"
                "<extra></extra>",
                "marker": {"color": BAR},
            }
        ],
        "layout": layout,
    }
