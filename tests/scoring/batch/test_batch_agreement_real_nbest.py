"""The batch engine gives the per-pair metric code's scores, bit for bit, on
real Moses n-best lists: every supported variant, each candidate against every
jackknife subset ("all but k") and against all references, each reference
against the others; and ORANGE through the engine equals the per-pair ORANGE.

Data: regression-mert-moses-new run1 (5 sentences x 200 candidates, 3
references; the first 60 candidates for the per-variant checks, to keep the
per-pair side fast) and mert-example (3 x 100, 3 references).
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring import get_metric
from scoring.orange.dispatch import orange_for_metric
from scoring.orange.options import OrangeOptions
from tests.scoring.support.batch_cases import (
    OTHER_SETTINGS,
    PAPER_SPECS,
    engine_scores,
    jackknife_and_all,
    per_pair_scores,
)


def assert_same_scores(spec, data):
    metric = get_metric(spec)
    masks = jackknife_and_all(3)
    candidates = engine_scores(metric, data.candidates, data.references, masks)
    expected = per_pair_scores(metric, data.candidates, data.references, masks)
    assert np.array_equal(candidates, expected), (
        f"{spec}: {np.abs(candidates - expected).max()}"
    )
    # The references as hypotheses (the oracle uses reference k against all
    # but k, column k; every column is checked).
    masks = masks[:3]
    ours = engine_scores(metric, data.references, data.references, masks)
    expected = per_pair_scores(metric, data.references, data.references, masks)
    assert np.array_equal(ours, expected), spec


@pytest.mark.parametrize("spec", PAPER_SPECS)
def test_the_34_paper_variants_match_the_per_pair_code_on_regression_run1(
    spec, regression
):
    assert_same_scores(spec, regression.first(60))


@pytest.mark.parametrize("spec", OTHER_SETTINGS)
def test_other_settings_match_the_per_pair_code_on_regression_run1(spec, regression):
    assert_same_scores(spec, regression.first(30))


@pytest.mark.parametrize(
    "spec",
    ["bleus:n=4", "nist", "wer", "per", "rouge-l", "rouge-w:w=1.2", "rouge-s:d=*"],
)
def test_they_match_on_the_mert_example_with_its_xxx_tokens(spec, mert):
    assert_same_scores(spec, mert.first(50))


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all-refs"])
@pytest.mark.parametrize(
    "spec", ["bleus:n=6", "nist", "per", "wer", "rouge-w:w=1.1", "rouge-s:d=4"]
)
def test_orange_through_the_engine_equals_the_per_pair_orange(
    spec, all_references, regression
):
    options = OrangeOptions(
        all_references=all_references, curve_step=50, n_bootstrap=100
    )
    metric = get_metric(spec)
    args = (metric, spec, regression.candidates, regression.references, options)
    batch = orange_for_metric(*args, sentence_ids=regression.sentence_ids)
    per_pair = orange_for_metric(
        *args, sentence_ids=regression.sentence_ids, per_pair=True
    )
    assert batch.to_dict() == per_pair.to_dict()
