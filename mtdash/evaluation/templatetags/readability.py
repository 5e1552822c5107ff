"""Readability numbers on the page: ``{{ value|figure:3 }}``."""

import math

from django import template

register = template.Library()


@register.filter
def figure(value, decimals: int = 2) -> str:
    """``value`` with ``decimals`` digits; an en dash for None or NaN (a
    system not run on a text type, a deviation of fewer than two values)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{float(value):.{int(decimals)}f}"


@register.filter
def zip_rows(names, rows) -> list:
    """``{% for name, row in names|zip_rows:rows %}``."""
    return list(zip(names, rows, strict=True))
