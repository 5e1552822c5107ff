"""Formatting scores with as many decimals as their scale deserves."""

from django import template

register = template.Library()


@register.filter
def score(value, decimals: int = 2) -> str:
    """``{{ value|score:column.decimals }}``; an en dash for a missing score."""
    if value is None:
        return "–"
    return f"{float(value):.{int(decimals)}f}"
