"""One palette for every chart: 12 systems, 8 significance clusters or 15
metrics never share a colour (Plotly's own cycle, and the palettes each
figure builder had, repeated after 6 to 10)."""

from __future__ import annotations

import itertools
import math
import re
from types import SimpleNamespace

import pytest

from mtdash.common.palette import COLOURS, series_style
from mtdash.evaluation.leaderboard.figures import (
    leaderboard_figure,
    precision_figure,
    rank_figure,
)
from mtdash.judgments.correlations.figures import scatter_figure
from mtdash.orange.jobs.figures import orange_curve_figure

SYSTEMS = [f"system number {i} (constrained)" for i in range(12)]
MIN_DELTA_E = 15.0  # CIE76; about 2.3 is "just noticeable"


def cielab(colour: str) -> tuple[float, float, float]:
    """sRGB hex -> CIELAB (D65), written out here rather than taken from
    the module under test."""
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))

    def linear(c: float) -> float:
        return ((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92

    red, green, blue = linear(red), linear(green), linear(blue)
    x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047
    y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_the_palette_has_twenty_colours_any_two_far_apart():
    assert len(COLOURS) >= 20
    assert all(re.fullmatch(r"#[0-9a-f]{6}", colour) for colour in COLOURS)
    closest = min(
        math.dist(cielab(a), cielab(b)) for a, b in itertools.combinations(COLOURS, 2)
    )
    assert closest >= MIN_DELTA_E, closest


def test_the_lab_conversion_matches_known_values():
    # Reference values (D65): white L*=100, sRGB red L*=53.24 a*=80.09 b*=67.20.
    assert cielab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.05)
    assert cielab("#ff0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.1)


def test_past_the_colours_series_differ_by_symbol_and_dash():
    styles = [series_style(i) for i in range(len(COLOURS) * 6)]
    assert len({(s.colour, s.symbol) for s in styles}) == len(styles)
    assert len({(s.colour, s.dash) for s in styles}) == len(styles)
    assert series_style(len(COLOURS)).colour == series_style(0).colour
    assert series_style(len(COLOURS)).symbol != series_style(0).symbol
    assert series_style(0).dash == "solid"


def colours_of(figure: dict) -> list[str]:
    found = []
    for trace in figure["data"]:
        colour = (trace.get("line") or {}).get("color") or trace["marker"]["color"]
        found.append(colour)
    return found


def test_twelve_systems_get_twelve_colours_in_the_rank_chart():
    columns = [
        SimpleNamespace(name=name, higher_is_better=True)
        for name in ("bleu", "chrf", "ter")
    ]
    rows = [
        SimpleNamespace(
            system=name,
            output_id=i,
            rank=i + 1,
            scores={"bleu": 40 - i, "chrf": 60 - i, "ter": 50 + i},
        )
        for i, name in enumerate(SYSTEMS)
    ]
    figure = rank_figure(SimpleNamespace(columns=columns, rows=rows, human_columns=()))
    assert len(figure["data"]) == 12
    assert len(set(colours_of(figure))) == 12


def test_twelve_systems_get_twelve_colours_in_the_precision_chart():
    details = [
        (name, {"precisions": [60 - i, 40 - i, 25, 15], "brevity_penalty": 1.0})
        for i, name in enumerate(SYSTEMS)
    ]
    assert len(set(colours_of(precision_figure(details)))) == 12


def test_eight_clusters_get_eight_colours_in_the_leaderboard_chart():
    def significance(cluster: int, value: float):
        return SimpleNamespace(
            cluster=cluster, low=value - 1, high=value + 1, rank_range=str(cluster)
        )

    rows = [
        SimpleNamespace(
            system=name,
            scores={"bleu": 40.0 - i},
            significance={"bleu": significance(min(i, 7) + 1, 40.0 - i)},
        )
        for i, name in enumerate(SYSTEMS)
    ]
    board = SimpleNamespace(
        primary_metric="bleu",
        correction_text="Holm-adjusted",
        rows=rows,
        columns=[SimpleNamespace(name="bleu", higher_is_better=True, decimals=2)],
    )
    figure = leaderboard_figure(board)
    assert len(figure["data"]) == 8
    assert len(set(colours_of(figure))) == 8


def test_sentence_points_of_twelve_systems_get_twelve_colours():
    points = {
        "name": "chrf",
        "criterion": "adequacy",
        "level": "sentence",
        "systems": SYSTEMS,
        "system_of_point": [i % 12 for i in range(48)],
        "metric": [float(i) for i in range(48)],
        "human": [float(i % 7) for i in range(48)],
        "segment": [i // 12 for i in range(48)],
        "n_points": 48,
    }
    traces = [t for t in scatter_figure(points)["data"] if t["mode"] == "markers"]
    assert len(traces) == 12
    assert len({t["marker"]["color"] for t in traces}) == 12


def test_fifteen_orange_metrics_get_fifteen_colours():
    results = [
        SimpleNamespace(metric=f"rouge-s:d={d}", curve=[[1, 30.0 - d], [2, 28.0 - d]])
        for d in range(15)
    ]
    assert len(set(colours_of(orange_curve_figure(results)))) == 15
