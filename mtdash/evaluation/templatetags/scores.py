"""Formatting scores with as many decimals as their scale deserves."""

from django import template

register = template.Library()


@register.filter
def score(value, decimals: int = 2) -> str:
    """``{{ value|score:column.decimals }}``; an en dash for a missing score."""
    if value is None:
        return "–"
    return f"{float(value):.{int(decimals)}f}"


@register.filter
def percent(value) -> str:
    """``0.95`` -> ``95%``."""
    return f"{float(value) * 100:g}%"


@register.filter
def human_cells(leaderboard, row) -> list:
    """The row's human scores, one per human column (None where not judged)."""
    return leaderboard.human_cells(row)


@register.filter
def p_value(value) -> str:
    """A p-value as papers print it: 3 decimals, ``< 0.001`` below that."""
    if value is None:
        return "–"
    value = float(value)
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


@register.filter
def percent_int(value) -> str:
    """``0.934`` -> ``93%``; an en dash for None."""
    if value is None:
        return "–"
    return f"{float(value) * 100:.0f}%"
