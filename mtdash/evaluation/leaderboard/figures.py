"""Plotly figures of the leaderboard as plain dicts (no browser needed).

Pages hand them to Plotly.js with ``json_script``; tests inspect the dicts.
Plotly renders a little HTML in labels, so every name a user wrote goes
through ``chart_text`` (``<a href>`` shows as typed, not as a link).
Only ``scatter`` and ``bar`` traces are used: the vendored partial bundle
has those and nothing more.
"""

from __future__ import annotations

from mtdash.common.exports import chart_text
from mtdash.common.palette import colour, series_style
from mtdash.evaluation.leaderboard.build import Leaderboard


def leaderboard_figure(
    leaderboard: Leaderboard, metric: str | None = None
) -> dict | None:
    """A dot plot of one metric (default: the ranked one) with its bootstrap
    intervals as error bars, best on top, one colour per significance
    cluster. The axis fits the scores, never forced to zero: two systems at
    50.77 and 53.34 must look different."""
    metric = metric or leaderboard.primary_metric
    if metric is None:
        return None
    rows = [row for row in leaderboard.rows if metric in row.scores]
    if not rows:
        return None
    column = next(c for c in leaderboard.columns if c.name == metric)
    rows.sort(key=lambda row: row.scores[metric], reverse=column.higher_is_better)
    rows.reverse()  # Plotly draws the first category at the bottom
    groups: dict[int, list] = {}
    for row in rows:
        significance = row.significance.get(metric)
        groups.setdefault(significance.cluster if significance else 0, []).append(row)
    traces = []
    for cluster, members in sorted(groups.items()):
        traces.append(_cluster_trace(metric, column.decimals, cluster, members))
    direction = "higher" if column.higher_is_better else "lower"
    return {
        "data": traces,
        "layout": {
            "title": {
                "text": f"{chart_text(metric)} with two-sided 95% bootstrap intervals",
                "x": 0.01,
                "xanchor": "left",
            },
            "xaxis": {
                "title": {"text": f"{chart_text(metric)} ({direction} is better)"},
                "zeroline": False,
            },
            "yaxis": {
                "automargin": True,
                "categoryorder": "array",
                "categoryarray": [chart_text(row.system) for row in rows],
            },
            "legend": {
                "title": {
                    "text": f"significance cluster ({leaderboard.correction_text} p)"
                }
            },
            "margin": {"l": 10, "r": 20, "t": 40, "b": 50},
            "height": max(300, 140 + 26 * len(rows)),
        },
    }


def _cluster_trace(metric: str, decimals: int, cluster: int, rows: list) -> dict:
    values = [row.scores[metric] for row in rows]
    above, below = [], []
    for row, value in zip(rows, values):
        significance = row.significance.get(metric)
        high = significance.high if significance else None
        low = significance.low if significance else None
        above.append(0.0 if high is None else max(high - value, 0.0))
        below.append(0.0 if low is None else max(value - low, 0.0))
    if cluster:
        first = rows[-1].significance[metric]  # the best of the group
        name = f"cluster {cluster} (rank {first.rank_range})"
    else:
        name = "not compared yet"
    return {
        "type": "scatter",
        "mode": "markers",
        "name": name,
        "x": values,
        "y": [chart_text(row.system) for row in rows],
        "error_x": {
            "type": "data",
            "symmetric": False,
            "array": above,
            "arrayminus": below,
            "thickness": 1.5,
        },
        "marker": {
            "size": 9,
            # One colour per significance cluster (the shared palette).
            "color": colour(cluster - 1) if cluster else "#999999",
        },
        "hovertemplate": f"%{{y}}: %{{x:.{decimals}f}}<extra>{name}</extra>",
    }


def rank_figure(leaderboard: Leaderboard, max_systems: int = 30) -> dict | None:
    """Where systems change places across metrics (and human criteria): one
    line per system through its rank under each column, rank 1 on top.
    Shown with at least two columns; the best ``max_systems`` of the ranked
    column are drawn, so the chart stays readable."""
    columns = [(c.name, c.higher_is_better) for c in leaderboard.columns]
    if len(columns) + len(leaderboard.human_columns) < 2:
        return None
    rows = [row for row in leaderboard.rows if row.rank is not None][:max_systems]
    if len(rows) < 2:
        return None
    ranks: dict[int, list[int | None]] = {row.output_id: [] for row in rows}
    labels = []
    for name, higher_is_better in columns:
        labels.append(chart_text(name))
        _add_ranks(
            ranks, {r.output_id: r.scores.get(name) for r in rows}, higher_is_better
        )
    for human in leaderboard.human_columns:
        labels.append(chart_text(f"human: {human.criterion}"))
        values = {
            r.output_id: getattr(human.values.get(r.output_id), "z", None) for r in rows
        }
        _add_ranks(ranks, values, True)
    traces = [
        {
            "type": "scatter",
            "mode": "lines+markers",
            "name": chart_text(row.system),
            "x": labels,
            "y": ranks[row.output_id],
            "marker": series_style(position).marker(),
            "line": series_style(position).line(),
            "hovertemplate": f"{chart_text(row.system)}: rank %{{y}} on %{{x}}<extra></extra>",
        }
        for position, row in enumerate(rows)
    ]
    return {
        "data": traces,
        "layout": {
            "title": {
                "text": "Rank under each metric (1 = best)",
                "x": 0.01,
                "xanchor": "left",
            },
            "yaxis": {"autorange": "reversed", "dtick": 1, "title": {"text": "rank"}},
            "xaxis": {"type": "category", "automargin": True},
            "margin": {"l": 50, "r": 20, "t": 40, "b": 60},
            "height": 360 + 8 * len(rows),
        },
    }


def _add_ranks(
    ranks: dict[int, list[int | None]],
    values: dict[int, float | None],
    higher_is_better: bool,
) -> None:
    scored = [(value, oid) for oid, value in values.items() if value is not None]
    scored.sort(key=lambda pair: -pair[0] if higher_is_better else pair[0])
    position = {oid: rank for rank, (_, oid) in enumerate(scored, start=1)}
    for oid in ranks:
        ranks[oid].append(position.get(oid))


def precision_figure(details: list[tuple[str, dict]]) -> dict | None:
    """BLEU's modified n-gram precisions p1…pN per system, as Figures 1–2 of
    the BLEU paper draw them (precision against n-gram length), with each
    system's brevity penalty in its legend entry. ``details`` are (system,
    BLEU result details) pairs."""
    traces = []
    for system, detail in details:
        precisions = detail.get("precisions")
        if not precisions:
            continue
        penalty = detail.get("brevity_penalty")
        label = chart_text(system)
        if penalty is not None:
            label = f"{label} (BP {penalty:.3f})"
        style = series_style(len(traces))
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": label,
                "x": list(range(1, len(precisions) + 1)),
                "y": list(precisions),
                "marker": style.marker(),
                "line": style.line(),
                "hovertemplate": f"{label}: p%{{x}} = %{{y:.2f}}%<extra></extra>",
            }
        )
    if not traces:
        return None
    return {
        "data": traces,
        "layout": {
            "title": {
                "text": "BLEU modified n-gram precision (BP: brevity penalty)",
                "x": 0.01,
                "xanchor": "left",
            },
            "xaxis": {"title": {"text": "n-gram length"}, "dtick": 1},
            "yaxis": {"title": {"text": "precision (%)"}},
            "margin": {"l": 60, "r": 20, "t": 40, "b": 50},
            "height": 380,
        },
    }
