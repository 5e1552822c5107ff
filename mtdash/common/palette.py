"""Colours, marker symbols and dashes that tell the series of a chart apart.

One palette for every Plotly figure builder: a leaderboard of 12 systems, 8
significance clusters or 15 metrics must not give two series one colour
(Plotly's default cycle has 10). The colours are Kelly's 22 colours of
maximum contrast (K. L. Kelly, "Twenty-two colors of maximum contrast",
1965) without white and black (black is too close to olive green), ordered so
that the first ones read well on a white background. Any two differ by at
least 15 in CIELAB (ΔE*76); tests/web/common/test_palette.py checks it. Past 20
series the colours repeat with another marker symbol and line dash, so
series stay distinct up to 20 × 6.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS: tuple[str, ...] = (
    "#0067a5",  # strong blue
    "#f38400",  # vivid orange
    "#008856",  # vivid green
    "#be0032",  # vivid red
    "#875692",  # strong purple
    "#882d17",  # reddish brown
    "#e68fac",  # purplish pink
    "#848482",  # medium grey
    "#8db600",  # yellowish green
    "#a1caf1",  # light blue
    "#604e97",  # violet
    "#f6a600",  # orange yellow
    "#b3446c",  # purplish red
    "#2b3d26",  # olive green
    "#c2b280",  # buff
    "#e25822",  # reddish orange
    "#654522",  # yellowish brown
    "#f99379",  # yellowish pink
    "#dcd300",  # greenish yellow
    "#f3c300",  # vivid yellow
)
SYMBOLS: tuple[str, ...] = (
    "circle",
    "square",
    "diamond",
    "triangle-up",
    "x",
    "star",
)
DASHES: tuple[str, ...] = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


@dataclass(frozen=True)
class SeriesStyle:
    """How series number ``index`` (from 0) is drawn."""

    colour: str
    symbol: str
    dash: str

    def marker(self, **extra) -> dict:
        """A Plotly ``marker`` dict in this style (``extra``: size, opacity...)."""
        return {"color": self.colour, "symbol": self.symbol, **extra}

    def line(self, **extra) -> dict:
        """A Plotly ``line`` dict in this style (``extra``: width...)."""
        return {"color": self.colour, "dash": self.dash, **extra}


def series_style(index: int) -> SeriesStyle:
    """The style of the ``index``-th series: the ``index``-th colour, then
    the colours again with the next symbol and dash."""
    if index < 0:
        raise ValueError(f"series index must be 0 or more, not {index}")
    turn, position = divmod(index, len(COLOURS))
    return SeriesStyle(
        COLOURS[position], SYMBOLS[turn % len(SYMBOLS)], DASHES[turn % len(DASHES)]
    )


def colour(index: int) -> str:
    """The colour of series ``index`` (alone: for bars and single markers)."""
    return series_style(index).colour
