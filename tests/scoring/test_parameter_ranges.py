"""Every numeric metric parameter has bounds, refused before any work.

``bleu:n=100000000`` once grew a worker to 3.46 GB and ``chrf:char_order=
100000`` took 49 s: the bounds are declared with each parameter and checked
by the registry (form, API, command line and workers all build metrics
through it) and by the metric's constructor. Messages quote at most a short
piece of what the user wrote.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from scoring import MetricError, get_metric, list_metrics
from scoring.base import Bounds, Parameter
from scoring.errors import ECHO_LIMIT
from scoring.registry import _METRICS
from tests.scoring.support.realdata import PROJECT_ROOT

# Text parameters that hold numbers: ROUGE-S's skip, METEOR's module weights.
NUMBERS_IN_TEXT = {("rouge-s", "d"), ("rouge-su", "d"), ("meteor", "weights")}

# The README's table of bounds, which these tests hold the code to.
DOCUMENTED = {
    ("bleu", "n"): "from 1 to 9",
    ("bleus", "n"): "from 1 to 9",
    ("nist", "n"): "from 1 to 9",
    ("rouge-n", "n"): "from 1 to 9",
    ("wnm", "n"): "from 1 to 9",
    ("bleu", "smooth_value"): "more than 0 and at most 100",
    ("bleu", "sentence_smooth_value"): "more than 0 and at most 100",
    ("chrf", "char_order"): "from 0 to 10",
    ("chrf", "word_order"): "from 0 to 10",
    ("chrf", "beta"): "more than 0 and at most 10",
    ("chrf++", "char_order"): "from 0 to 10",
    ("chrf++", "word_order"): "from 0 to 10",
    ("chrf++", "beta"): "more than 0 and at most 10",
    ("gtm", "e"): "from 1 to 10",
    ("rouge-w", "w"): "more than 0 and at most 10",
    ("rouge-s", "d"): "from 0 to 100",
    ("rouge-su", "d"): "from 0 to 100",
    ("meteor", "weights"): "from 0 to 1",
    **{
        (rouge, parameter): bounds
        for rouge in ("rouge-n", "rouge-l", "rouge-w", "rouge-s", "rouge-su")
        for parameter, bounds in (("beta", "from 0 to 100"), ("alpha", "from 0 to 1"))
    },
}


def bounded_parameters() -> list[tuple[str, Parameter]]:
    return [
        (name, parameter)
        for name, metric_class in _METRICS.items()
        for parameter in metric_class.parameters
        if parameter.bounds is not None
    ]


def too_large(parameter: Parameter) -> str:
    """A spec value just above the parameter's bounds."""
    assert parameter.bounds is not None
    return f"{parameter.bounds.high + 1:g}"


def test_every_numeric_parameter_of_every_metric_has_bounds() -> None:
    unbounded = [
        f"{name}:{parameter.name}"
        for name, metric_class in _METRICS.items()
        for parameter in metric_class.parameters
        if (parameter.kind in (int, float) or (name, parameter.name) in NUMBERS_IN_TEXT)
        and parameter.bounds is None
    ]
    assert unbounded == []


def test_the_bounds_are_the_documented_ones() -> None:
    declared = {
        (name, parameter.name): str(parameter.bounds)
        for name, parameter in bounded_parameters()
    }
    assert declared == DOCUMENTED


def test_the_readme_documents_every_bound() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    metrics_section = readme.split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0]
    table = metrics_section.split("### Parameter ranges", 1)[1].split("\n\n", 2)[1]
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in table.splitlines()[2:]
    ]
    documented = {
        (metric.strip("`"), parameter.strip("`")): allowed
        for names, parameters, allowed, *_ in rows
        for metric in names.split(", ")
        for parameter in parameters.split(", ")
    }
    assert documented == DOCUMENTED


@pytest.mark.parametrize(
    ("name", "parameter"),
    bounded_parameters(),
    ids=[f"{name}:{parameter.name}" for name, parameter in bounded_parameters()],
)
def test_a_value_above_the_bounds_is_refused_naming_metric_parameter_value_and_range(
    name: str, parameter: Parameter
) -> None:
    value = too_large(parameter)
    if parameter.name == "weights":
        value = f"1.0+{value}"  # one weight too large is enough
    extra = ",smooth=floor" if parameter.name == "smooth_value" else ""
    with pytest.raises(MetricError) as raised:
        get_metric(f"{name}:{parameter.name}={value}{extra}")
    first_line = str(raised.value).splitlines()[0]
    assert first_line.startswith(f"{name}: {parameter.name}=")
    assert f"is out of range; allowed: {parameter.bounds}" in first_line


@pytest.mark.parametrize(
    ("name", "parameter"),
    bounded_parameters(),
    ids=[f"{name}:{parameter.name}" for name, parameter in bounded_parameters()],
)
def test_a_metric_built_directly_refuses_a_value_above_the_bounds_too(
    name: str, parameter: Parameter
) -> None:
    value = parameter.convert(too_large(parameter))
    if parameter.name == "weights":
        value = f"1.0+{value}"
    metric_class = _METRICS[name]
    with pytest.raises(MetricError, match="is out of range"):
        metric_class(**{parameter.attribute: value})


@pytest.mark.parametrize(
    "spec",
    [
        "bleu:n=9",
        "nist:n=9",
        "rouge-n:n=9",
        "wnm:n=9",
        "chrf:char_order=10,word_order=10",
        "gtm:e=10",
        "rouge-s:d=100",
        "rouge-s:d=*",
        "rouge-w:w=10",
        "meteor:weights=1+0+0.5+1",
        "bleu:smooth=add-k,smooth_value=100",
    ],
)
def test_the_largest_values_are_accepted(spec: str) -> None:
    get_metric(spec)


def test_bleu_with_n_of_a_hundred_million_is_refused_at_once() -> None:
    started = time.perf_counter()
    with pytest.raises(MetricError) as raised:
        get_metric("bleu:n=100000000")
    assert time.perf_counter() - started < 0.5
    assert str(raised.value).splitlines()[0] == (
        "bleu: n=100000000 is out of range; allowed: from 1 to 9"
    )


def test_nan_is_out_of_any_bounds() -> None:
    with pytest.raises(MetricError, match="alpha=nan is out of range"):
        get_metric("rouge-l:alpha=nan")
    assert not Bounds(0, 1).admits(float("nan"))


def test_the_command_line_refuses_an_out_of_range_parameter_before_reading_files(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "not-there.txt"  # were the files read, this would be named
    finished = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "score",
            "--metric",
            "bleu:n=100000000",
            "--refs",
            str(missing),
            "--hyp",
            str(missing),
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode == 2
    assert finished.stderr.startswith(
        "error: bleu: n=100000000 is out of range; allowed: from 1 to 9\n"
    )
    assert "not-there" not in finished.stderr
    assert finished.stdout == ""


def test_list_metrics_gives_the_bounds() -> None:
    bleu = next(info for info in list_metrics() if info.name == "bleu")
    n = next(parameter for parameter in bleu.parameters if parameter.name == "n")
    assert n.to_dict()["bounds"] == {"low": 1, "high": 9, "low_excluded": False}
    tokenize = next(p for p in bleu.parameters if p.name == "tokenize")
    assert tokenize.to_dict()["bounds"] is None


# -- what a message quotes of the user's text ------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "x" * 20_000,  # an unknown metric
        "bleu:" + "k" * 20_000 + "=1",  # an unknown parameter
        "bleu:n=" + "9" * 20_000,  # a value no integer reads
        "bleu:tokenize=" + "t" * 20_000,  # a value that is no choice
        "meteor:weights=" + "1+" * 10_000 + "1",  # a value the metric reads
        "bleu:" + "n" * 20_000,  # no "=": a malformed spec
        "rouge-s:d=" + "1" * 5_000,  # a number too long for int()
    ],
    ids=["name", "key", "integer", "choice", "weights", "malformed", "long-number"],
)
def test_a_message_quotes_only_the_start_of_a_long_spec(spec: str) -> None:
    with pytest.raises(MetricError) as raised:
        get_metric(spec)
    message = str(raised.value)
    assert len(message) < 1_500  # the valid-parameter list is most of it
    longest_run = max(message.count(c * (ECHO_LIMIT + 1)) for c in "xkn9t1")
    assert longest_run == 0


def test_a_number_too_long_to_print_is_refused_when_built_directly() -> None:
    metric_class = _METRICS["rouge-s"]
    with pytest.raises(MetricError, match="out of range"):
        metric_class(skip="1" * 5_000)
    bleu = _METRICS["bleu"]
    with pytest.raises(MetricError) as raised:
        bleu(max_order=10**5000)
    assert len(str(raised.value)) < 200
