"""Looking metrics up by name: parameters, defaults, signatures and errors."""

from __future__ import annotations

import dataclasses
import json
import tomllib

import pytest

from scoring import (
    MetricError,
    Parameter,
    canonical_spec,
    get_metric,
    list_metrics,
    server_only_parameters,
)
from scoring import __version__ as VERSION
from tests.scoring.support.realdata import PROJECT_ROOT


def test_signatures_carry_the_version_the_project_is_released_as() -> None:
    with open(PROJECT_ROOT / "pyproject.toml", "rb") as project_file:
        assert VERSION == tomllib.load(project_file)["project"]["version"]


def test_default_bleu_has_the_sacrebleu_style_signature_of_the_brief() -> None:
    metric = get_metric("bleu")
    assert metric.signature(nrefs=4) == (
        f"bleu|nrefs:4|case:mixed|tok:13a|smooth:exp|n:4|version:{VERSION}"
    )
    assert metric.sentence_signature(nrefs=4) == (
        f"bleu|nrefs:4|case:mixed|tok:13a|smooth:add-k[1]|eff:yes|n:4|version:{VERSION}"
    )
    assert (
        metric.signature()
        == f"bleu|case:mixed|tok:13a|smooth:exp|n:4|version:{VERSION}"
    )
    assert (metric.name, metric.higher_is_better, metric.scale) == ("bleu", True, 100.0)


def test_spec_parameters_and_keyword_options_configure_the_metric() -> None:
    metric = get_metric(
        "bleu:n=2,smooth=floor,smooth_value=0.2", tokenize="none", lowercase=True
    )
    assert metric.signature(nrefs=1) == (
        f"bleu|nrefs:1|case:lc|tok:none|smooth:floor[0.2]|n:2|version:{VERSION}"
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
        ("bleu:n=0", {}, "n=0 is out of range; allowed: from 1 to 9"),
        ("bleu:n=two", {}, "expected an integer"),
        ("bleu:n=2.5", {}, "expected an integer"),
        ("bleu:lowercase=maybe", {}, "expected true or false"),
        ("bleu:smooth=laplace", {}, "expected one of: none, floor, add-k, exp"),
        (
            "bleu:smooth_value=-1,smooth=floor",
            {},
            "smooth_value=-1.0 is out of range; allowed: more than 0 and at most 100",
        ),
        (
            "bleu:sentence_smooth_value=inf",
            {},
            "sentence_smooth_value=inf is out of range",
        ),
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
        "n",
        "tokenize",
        "lowercase",
        "smooth",
        "smooth_value",
        "sentence_smooth",
        "sentence_smooth_value",
    }
    assert parameters["n"].default == 4 and parameters["n"].type == "int"
    assert parameters["smooth"].default == "exp"
    assert parameters["tokenize"].choices == (
        "13a",
        "none",
        "intl",
        "char",
        "mteval13a",
        "mteval13a-sgml",
        "zh",
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


@pytest.mark.parametrize(
    ("specs", "canonical"),
    [
        (["bleu", "BLEU", " Bleu ", "bleu:n=4", "bleu:n=4,smooth=exp"], "bleu"),
        (
            ["bleu:lowercase=yes,n=2", "BLEU: n = 2 , lowercase = 1"],
            "bleu:n=2,lowercase=true",
        ),
        (["rouge-w", "rouge-w:w=1.2", "ROUGE-W:w=1.20"], "rouge-w"),
        (["gtm:e=2", "gtm:e=2.0"], "gtm:e=2"),
        (["meteor", "meteor:wordnet=/usr/share/wordnet,norm=true"], "meteor"),
        (
            ["meteor:paraphrase=/data/paraphrase-en.gz"],
            "meteor:paraphrase=/data/paraphrase-en.gz",
        ),
    ],
)
def test_every_spelling_of_one_configuration_has_one_canonical_spec(
    specs: list[str], canonical: str
) -> None:
    assert {canonical_spec(spec) for spec in specs} == {canonical}
    assert get_metric(canonical) == get_metric(specs[0])
    assert canonical_spec(get_metric(specs[0])) == canonical


def test_the_canonical_spec_of_every_metric_at_its_defaults_is_its_name() -> None:
    for info in list_metrics():
        assert canonical_spec(info.name.upper()) == info.name


def test_different_configurations_keep_different_canonical_specs() -> None:
    specs = ["bleu", "bleu:n=2", "bleu:lowercase=true", "bleu:tokenize=none"]
    assert len({canonical_spec(spec) for spec in specs}) == len(specs)


def test_a_bad_spec_has_no_canonical_spec() -> None:
    with pytest.raises(MetricError, match="unknown metric 'blue'"):
        canonical_spec("blue")
    with pytest.raises(MetricError, match="cannot be written as a metric spec"):
        canonical_spec(get_metric("meteor", paraphrase="/data/a,b.gz"))


def test_the_parameters_that_name_server_files_are_marked_server_only() -> None:
    marked = {
        (info.name, parameter.name)
        for info in list_metrics()
        for parameter in info.parameters
        if parameter.server_only
    }
    assert marked == {
        ("meteor", "wordnet"),
        ("meteor", "paraphrase"),
        ("red", "model"),
        ("red", "wordnet"),
    }
    (red,) = [info for info in list_metrics() if info.name == "red"]
    assert {p["name"]: p["server_only"] for p in red.to_dict()["parameters"]} == {
        "features": False,
        "model": True,
        "wordnet": True,
    }


def test_a_parameter_is_not_server_only_unless_it_says_so() -> None:
    assert Parameter("n", "max_order", int, "order").server_only is False
    assert Parameter("model", "model", str, "a file", server_only=True).server_only


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("bleu:n=2", ()),
        ("meteor", ()),
        ("meteor:norm=true,paraphrase=/etc/passwd", ("paraphrase",)),
        ("METEOR : wordnet=/tmp , paraphrase=/x", ("wordnet", "paraphrase")),
        ("red:model=/dev/zero", ("model",)),
        ("red:features=semantic,wordnet=/usr/share/wordnet", ("wordnet",)),
    ],
)
def test_server_only_parameters_names_the_file_parameters_a_spec_sets(
    spec: str, named: tuple[str, ...]
) -> None:
    assert server_only_parameters(spec) == named


def test_server_only_parameters_reads_the_spec_without_opening_the_file(
    tmp_path,
) -> None:
    # get_metric would read the model; the check must not even look at it.
    missing = tmp_path / "no-such-model.json"
    assert server_only_parameters(f"red:model={missing}") == ("model",)
    with pytest.raises(MetricError):
        get_metric(f"red:model={missing}")
    with pytest.raises(MetricError, match="unknown metric 'blue'"):
        server_only_parameters("blue:model=/x")
