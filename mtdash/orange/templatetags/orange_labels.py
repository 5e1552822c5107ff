"""``{{ score.metric|metric_label }}``: a metric named by its full spec."""

from django import template

from mtdash.orange.labels import metric_label as _metric_label
from mtdash.orange.labels import metric_name as _metric_name

register = template.Library()


@register.filter
def metric_label(spec: str) -> str:
    return _metric_label(str(spec))


@register.filter
def metric_name(spec: str) -> str:
    """``BLEU (add-one sentence)`` for BLEU, empty for other metrics."""
    return _metric_name(str(spec))


@register.filter
def share(value) -> str:
    """``0.2345`` -> ``23.5%``; an en dash for None or NaN."""
    if value is None or value != value:
        return "–"
    return f"{100 * float(value):.1f}%"
