"""Every family of the batch engine answers one protocol
(:class:`scoring.batch.family.MetricFamily`), and the engine finds a
metric's family and token view through it alone."""

from __future__ import annotations

import inspect
from collections.abc import Hashable

import pytest

from scoring.batch.engine import FAMILIES, family_of, supports, token_view
from scoring.batch.family import MetricFamily
from scoring.metrics.ngram.bleu import BLEU
from scoring.registry import get_metric, list_metrics

SPECS = tuple(info.name for info in list_metrics()) + (
    "bleu:tokenize=intl",
    "per:lowercase=true",
    "rouge-l:stem=true",
    "ter:lowercase=false",
    "chrf:lowercase=true",
    "meteor:norm=false",
)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.__name__)
def test_every_family_implements_the_protocol(family):
    assert issubclass(family, MetricFamily)
    assert not inspect.isabstract(family)
    for name in ("handles", "token_view"):
        assert isinstance(inspect.getattr_static(family, name), staticmethod), name


@pytest.mark.parametrize("spec", SPECS)
def test_every_registered_metric_has_exactly_one_family_and_its_view(spec):
    metric = get_metric(spec)
    handling = [family for family in FAMILIES if family.handles(metric)]
    assert len(handling) == 1, handling
    (family,) = handling
    assert supports(metric) and family_of(metric) is family
    view = token_view(metric)
    assert isinstance(view, Hashable) and callable(view)
    assert view == family.token_view(metric)
    assert family([metric]).metrics == (metric,)


def test_every_family_handles_a_registered_metric():
    metrics = [get_metric(info.name) for info in list_metrics()]
    for family in FAMILIES:
        assert any(family.handles(metric) for metric in metrics), family.__name__


@pytest.mark.parametrize(
    "spec, attribute",
    [
        ("bleu", "tokenizer"),
        ("nist", "tokenizer"),
        ("wer", "tokenizer"),
        ("per", "tokenizer"),
        ("gtm", "tokenizer"),
        ("wnm", "tokenizer"),
        ("rouge-l", "processor"),
        ("ter", "preprocessor"),
    ],
)
def test_the_view_is_the_metrics_own_text_processing(spec, attribute):
    metric = get_metric(spec)
    assert token_view(metric) == getattr(metric, attribute)


def test_a_metric_no_family_handles_has_no_view():
    class OwnBLEU(BLEU):  # exact classes only: a subclass may count differently
        pass

    metric = OwnBLEU()
    assert family_of(metric) is None and not supports(metric)
    with pytest.raises(ValueError, match="does not support"):
        token_view(metric)
