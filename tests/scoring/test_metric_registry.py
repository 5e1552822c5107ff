"""Looking metrics up by name: parameters, defaults, signatures and errors."""

from __future__ import annotations

import dataclasses
import json

import pytest

import scoring
from scoring import MetricError, get_metric, list_metrics


def test_the_package_version_is_0_1_0() -> None:
    assert scoring.__version__ == "0.1.0"


def test_default_bleu_has_the_sacrebleu_style_signature_of_the_brief() -> None:
    metric = get_metric("bleu")
    assert metric.signature(nrefs=4) == (
        "bleu|nrefs:4|case:mixed|tok:13a|smooth:exp|n:4|version:0.1.0"
    )
    assert metric.sentence_signature(nrefs=4) == (
        "bleu|nrefs:4|case:mixed|tok:13a|smooth:add-k[1]|eff:yes|n:4|version:0.1.0"
    )
    assert metric.signature() == "bleu|case:mixed|tok:13a|smooth:exp|n:4|version:0.1.0"
    assert (metric.name, metric.higher_is_better, metric.scale) == ("bleu", True, 100.0)


def test_spec_parameters_and_keyword_options_configure_the_metric() -> None:
    metric = get_metric(
        "bleu:n=2,smooth=floor,smooth_value=0.2", tokenize="none", lowercase=True
    )
    assert metric.signature(nrefs=1) == (
        "bleu|nrefs:1|case:lc|tok:none|smooth:floor[0.2]|n:2|version:0.1.0"
    )
    assert get_metric(" BLEU : n = 3 ").max_order == 3


def test_a_value_in_the_spec_wins_over_a_keyword_option() -> None:
    assert get_metric("bleu:tokenize=none", tokenize="13a").tokenize == "none"
    assert get_metric("bleu:lowercase=yes", lowercase=False).lowercase is True


def test_an_unknown_metric_is_refused_with_the_valid_names() -> None:
    with pytest.raises(MetricError, match="unknown metric 'blue'; valid metrics: bleu"):
        get_metric("blue")


@pytest.mark.parametrize(
    ("spec", "options", "complaint"),
    [
        ("bleu:order=2", {}, "unknown parameter 'order'"),
        ("bleu:n=0", {}, "integer >= 1"),
        ("bleu:n=two", {}, "expected an integer"),
        ("bleu:n=2.5", {}, "expected an integer"),
        ("bleu:lowercase=maybe", {}, "expected true or false"),
        ("bleu:smooth=laplace", {}, "expected one of: none, floor, add-k, exp"),
        ("bleu:smooth_value=-1,smooth=floor", {}, "must be a finite number > 0"),
        ("bleu:sentence_smooth_value=inf", {}, "must be a finite number > 0"),
        ("bleu:smooth_value=0.5", {}, "only applies to floor and add-k"),
        ("bleu:tokenize=moses", {}, "expected one of: 13a, none"),
        ("bleu", {"tokenize": "moses"}, "expected one of: 13a, none"),
        ("bleu", {"colour": "blue"}, "unknown parameter 'colour'"),
    ],
)
def test_a_bad_parameter_is_refused_with_the_valid_parameters(
    spec: str, options: dict[str, object], complaint: str
) -> None:
    with pytest.raises(MetricError) as raised:
        get_metric(spec, **options)
    message = str(raised.value)
    assert complaint in message
    for parameter in ("n:", "tokenize:", "lowercase:", "smooth:", "sentence_smooth:"):
            assert f"  {parameter}" in message


@pytest.mark.parametrize(
    ("spec", "complaint"),
    [
        ("bleu:n", "expected name:key=value"),
        ("", "non-empty string"),
        (None, "non-empty"),
    ],
)
def test_a_malformed_spec_is_refused_with_the_expected_form(
    spec: str | None, complaint: str
) -> None:
    with pytest.raises(MetricError, match=complaint):
        get_metric(spec)


def test_list_metrics_describes_every_metric_with_its_parameters() -> None:
    (bleu,) = [info for info in list_metrics() if info.name == "bleu"]
    assert "Papineni" in bleu.description
    parameters = {parameter.name: parameter for parameter in bleu.parameters}
    assert set(parameters) == {
        "n", "tokenize", "lowercase", "smooth", "smooth_value",
        "sentence_smooth", "sentence_smooth_value",
    }
    assert parameters["n"].default == 4 and parameters["n"].type == "int"
    assert parameters["smooth"].default == "exp"
    assert parameters["tokenize"].choices == (
        "13a", "none", "intl", "char", "mteval13a", "mteval13a-sgml"
    )
    assert all(parameter.description for parameter in bleu.parameters)
    json.dumps([info.to_dict() for info in list_metrics()])


def test_a_metric_is_immutable_and_hashable() -> None:
    metric = get_metric("bleu")
    with pytest.raises(dataclasses.FrozenInstanceError):
        metric.max_order = 2  # type: ignore[misc]
    assert metric == get_metric("bleu:n=4") and hash(metric) == hash(get_metric("bleu"))
    assert metric != get_metric("bleu:n=2")


def test_scoring_leaves_the_metric_unchanged() -> None:
    metric = get_metric("bleu")
    before = (repr(metric), dict(vars(metric)))
    metric.score(["a b c d e"], [["a b c d f"]], sentence=True)
    assert (repr(metric), dict(vars(metric))) == before
