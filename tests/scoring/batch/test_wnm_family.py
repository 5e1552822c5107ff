"""WNM through the batch engine gives what the per-pair ORANGE path gives:
ORANGE has no document ids, WNM's salience needs them, and both paths stop
with the metric's own ``MetricError`` (same class, same message), for every
WNM setting, on a real Moses n-best list and on odd inputs."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring.batch.engine import subset_scores, supports
from scoring.batch.grid import grid_from_texts
from scoring.batch.subsets import jackknife_masks
from scoring.orange.dispatch import orange_for_metric, orange_metrics
from scoring.orange.options import OrangeOptions
from scoring.orange.pairwise import sentence_scores
from tests.scoring.support.batch_cases import REGRESSION_RUN, regression_run

SPECS = (
    "wnm",
    "wnm:measure=p",
    "wnm:measure=f,n=2",
    "wnm:weights=none",
    "wnm:negative=keep,ngram_weight=sum",
    "wnm:scope=document,negative=keep,tokenize=wnm",
    "wnm:tokenize=none,lowercase=false",
)
ODD = ([["", "a", "a a a", "我们 去 公园"]], [["a b", "", "我们 明天 去 公园"]])


def per_pair_error(metric, candidates, references) -> str:
    with pytest.raises(MetricError) as raised:
        sentence_scores(metric, candidates, references[1:])
    return str(raised.value)


@pytest.fixture(scope="module")
def regression():
    if not REGRESSION_RUN.exists():
        pytest.skip(f"real Moses n-best data not found at {REGRESSION_RUN}")
    return regression_run().first(20)


@pytest.mark.parametrize("spec", SPECS)
def test_the_engine_refuses_wnm_with_the_per_pair_codes_own_error(spec):
    metric = get_metric(spec)
    assert supports(metric)
    expected = per_pair_error(metric, ODD[0][0], ODD[1][0])
    assert "needs document ids" in expected
    grid = grid_from_texts(*ODD, metric.tokenizer)
    with pytest.raises(MetricError) as raised:
        subset_scores([metric], grid, jackknife_masks(3, all_references=True))
    assert str(raised.value) == expected


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all-refs"])
@pytest.mark.parametrize("spec", ["wnm", "wnm:scope=document,tokenize=wnm"])
def test_orange_of_wnm_stops_alike_on_both_paths_on_regression_run1(
    spec, all_references, regression
):
    options = OrangeOptions(all_references=all_references, n_bootstrap=10)
    metric = get_metric(spec)
    args = (metric, spec, regression.candidates, regression.references, options)
    messages = []
    for per_pair in (False, True):
        with pytest.raises(MetricError) as raised:
            orange_for_metric(*args, per_pair=per_pair)
        messages.append(str(raised.value))
    assert messages[0] == messages[1] == "wnm needs document ids (command line: --docs)"


def test_a_run_with_wnm_beside_engine_metrics_stops_with_the_same_error(regression):
    metrics = {"bleus": get_metric("bleus"), "wnm": get_metric("wnm")}
    messages = []
    for per_pair in (False, True):
        with pytest.raises(MetricError) as raised:
            orange_metrics(
                metrics,
                regression.candidates,
                regression.references,
                OrangeOptions(n_bootstrap=10),
                per_pair=per_pair,
            )
        messages.append(str(raised.value))
    assert messages[0] == messages[1]


def test_the_refusal_comes_before_any_scoring():
    # A grid the kernels could not even read: the family never looks at it.
    metric = get_metric("wnm")
    grid = grid_from_texts([["a"]], [["a", "b"]], str.split)
    with pytest.raises(MetricError, match="needs document ids"):
        subset_scores([metric], grid, np.array([-1], dtype=np.int64))
