"""How a metric is named on ORANGE pages: by its spec, with the parameter that
tells the paper's variants apart written out (``bleus:n=4``, ``rouge-s:d=4``,
``gtm:e=1``), never a bare family name such as "bleu"; and, where the spec
alone misleads, what the metric is (:func:`metric_name`): ORANGE scores
sentences, so its BLEU is the smoothed sentence BLEU, not corpus BLEU."""

from __future__ import annotations

from functools import lru_cache

from scoring import MetricError, canonical_spec, get_metric
from scoring.orange import sentence_metric_name

# The parameter that names a variant in the paper's tables (BLEUS4, ROUGE-S4,
# ROUGE-W-1.2, GTM10): always shown, even at its default value.
_VARIANT_PARAMETERS = ("n", "d", "w", "e")


@lru_cache(maxsize=512)
def metric_label(spec: str) -> str:
    """The canonical spec with its variant parameter written out.

    >>> metric_label("bleus")
    'bleus:n=4'
    >>> metric_label("BLEUS:n=6")
    'bleus:n=6'
    >>> metric_label("wer")
    'wer'
    """
    try:
        metric = get_metric(spec)
        canonical = canonical_spec(metric)
    except MetricError:
        return spec
    name, _, written = canonical.partition(":")
    items = [item for item in written.split(",") if item]
    first = type(metric).parameters[0] if type(metric).parameters else None
    if first is not None and first.name in _VARIANT_PARAMETERS:
        if not any(item.startswith(f"{first.name}=") for item in items):
            value = getattr(metric, first.attribute)
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            items.insert(0, f"{first.name}={value}")
    return f"{name}:{','.join(items)}" if items else name


def metric_name(spec: str) -> str:
    """What the metric is, where its spec does not say it: BLEU's smoothed
    sentence score, by its smoothing; ``""`` for every other metric. The
    command line and the JSON name it the same way
    (:func:`scoring.orange.sentence_metric_name`).

    >>> metric_name("bleus:n=4"), metric_name("bleu"), metric_name("wer")
    ('BLEU (add-one sentence)', 'BLEU (add-one sentence)', '')
    >>> metric_name("bleu:sentence_smooth=exp")
    'BLEU (exp-smoothed sentence)'
    """
    return sentence_metric_name(spec)


def metric_title(spec: str) -> str:
    """The label and, where there is one, the name: ``bleus:n=4 · BLEU
    (add-one sentence)``; ``wer`` alone."""
    name = metric_name(spec)
    return f"{metric_label(spec)} · {name}" if name else metric_label(spec)
