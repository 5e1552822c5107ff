"""GTM (e = 1, 2, 3 and others) through the batch engine equals the per-pair
GTM 1.4 code: the statistics rows ``[mms, hyp_len, mean_ref_len]`` and the
sentence scores bit for bit (the kernel repeats the greedy's float
operations in the same order), on real Moses n-best lists, on odd inputs and
on random sentences over a tiny vocabulary (many runs and ties, where the
greedy's visiting order decides); and ORANGE through the engine equals the
per-pair ORANGE.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from scoring import get_metric
from scoring.batch.engine import supports
from scoring.batch.grid import grid_from_texts
from scoring.batch.gtm_family import GtmFamily
from scoring.batch.subsets import ALL_REFERENCES, jackknife_masks
from scoring.metrics.gtm.metric import GTM
from scoring.orange.dispatch import on_engine, orange_for_metric, orange_metrics
from scoring.orange.options import OrangeOptions
from tests.scoring.support.batch_cases import (
    engine_scores,
    jackknife_and_all,
    per_pair_scores,
    subsets_of,
)

SPECS = (
    "gtm:e=1,tokenize=gtm14",
    "gtm:e=2,tokenize=gtm14",
    "gtm:e=3,tokenize=gtm14",
    "gtm",
    "gtm:e=1.5,tokenize=13a,lowercase=true",
    "gtm:e=2,tokenize=gtm14,lowercase=true",
    "gtm:e=10,tokenize=intl",
)
LONG = " ".join(f"w{i % 37}" for i in range(150))
LONGER = " ".join(f"w{(i * 7) % 41}" for i in range(140))
ODD_GROUPS = [
    # (hypotheses, references): empty texts, single tokens, repeats, Unicode,
    # long sentences, a fractional mean reference length (budget cut).
    (
        ["", "a", "a b", "the cat sat on the mat", "the the the the the"],
        ["the cat sat on the mat", "", "a cat", "the"],
    ),
    (
        ["x y z", "a b c d e f g", "a b a b a b", "c d e f g h i"],
        ["a b x c d", "a b c d e f g h", "b a b a", "c d e"],
    ),
    (
        ["我们 今天 去 公园", "我们去公园", "مرحبا بالعالم", "cafe\u0301 au lait"],
        ["我们 明天 去 公园", "مرحبا بالعالم الجميل", "café au lait", "10\u00a0000 km"],
    ),
    ([LONG, LONGER, LONG[:100], "w1 w2 w3"], [LONGER, LONG, LONG[50:], LONG[:200]]),
]


def assert_same(spec, hypotheses, references, masks):
    metric = get_metric(spec)
    ours = engine_scores(metric, hypotheses, references, masks)
    expected = per_pair_scores(metric, hypotheses, references, masks)
    assert np.array_equal(ours, expected), (spec, np.abs(ours - expected).max())


def family_rows(metrics, hypotheses, references, masks):
    grid = grid_from_texts(hypotheses, references, metrics[0].tokenizer)
    return GtmFamily(metrics).statistics(grid, masks)


def own_rows(metric, hypotheses, references, masks):
    """``segment_row`` of every hypothesis and subset: ``(H, S, 3)``."""
    rows = []
    for group, refs in zip(hypotheses, references):
        for hypothesis in group:
            rows.append(
                [
                    metric.segment_row(
                        hypothesis,
                        tuple(refs[k] for k in subsets_of(mask, len(refs))),
                    )
                    for mask in masks.tolist()
                ]
            )
    return np.asarray(rows, dtype=np.float64)


def test_the_engine_computes_gtm_of_every_setting():
    for spec in SPECS:
        assert supports(get_metric(spec)), spec
        assert on_engine(get_metric(spec))
        assert not on_engine(get_metric(spec), per_pair=True)


@pytest.mark.parametrize("spec", SPECS)
def test_candidates_and_references_match_the_per_pair_code_on_regression_run1(
    spec, regression
):
    data = regression.first(60)
    assert_same(spec, data.candidates, data.references, jackknife_and_all(3))
    # References as hypotheses, each against the others (the oracle).
    assert_same(spec, data.references, data.references, jackknife_masks(3))


@pytest.mark.parametrize("spec", ["gtm:e=1,tokenize=gtm14", "gtm:e=3,tokenize=gtm14"])
def test_they_match_on_the_mert_example_with_its_xxx_tokens(spec, mert):
    data = mert.first(50)
    assert_same(spec, data.candidates, data.references, jackknife_and_all(3))


def test_the_statistics_rows_equal_segment_row_for_all_exponents_in_one_pass(
    regression,
):
    data = regression.first(25)
    metrics = [GTM(exponent=e, tokenize="gtm14") for e in (3, 1, 2, 2)]
    masks = np.concatenate([jackknife_and_all(3), [0b001, 0b110]])
    together = family_rows(metrics, data.candidates, data.references, masks)
    for metric, rows in zip(metrics, together):
        expected = own_rows(metric, data.candidates, data.references, masks)
        assert np.array_equal(rows, expected), metric.exponent


@pytest.mark.parametrize("spec", SPECS)
def test_odd_inputs_get_the_per_pair_scores_for_every_subset(spec):
    hypotheses = [group[0] for group in ODD_GROUPS]
    references = [group[1] for group in ODD_GROUPS]
    assert_same(spec, hypotheses, references, jackknife_masks(4, all_references=True))


@pytest.mark.parametrize("exponent", [1.0, 2.0, 3.0])
def test_one_reference_and_different_reference_counts_per_sentence(exponent):
    metric = GTM(exponent=exponent)
    hypotheses = [["a b c d", "a c"], ["b c d e f", ""], ["e f g"], ["a"]]
    references = [["a b c d e"], ["b c", "c d e f", "f e d c b", "b"], ["e f", "f g"]]
    references.append(["a", "b a c"])
    masks = np.array([ALL_REFERENCES, 0b1101, 0b0101, 0b0001, 0b0011], dtype=np.int64)
    together = family_rows([metric], hypotheses, references, masks)[0]
    assert np.array_equal(together, own_rows(metric, hypotheses, references, masks))


@pytest.mark.parametrize("exponent", [1.0, 2.0, 3.0, 1.7])
def test_random_sentences_over_four_words_match_the_greedy(exponent):
    # Tiny vocabulary: long diagonals, many equal-length runs and conflicts,
    # so any difference in GTM 1.4's visiting order or budget cut shows.
    rng = random.Random(int(exponent * 10))

    def sentence(length):
        return " ".join(rng.choice("abcd") for _ in range(length))

    references = [
        [sentence(rng.randint(0, 14)) for _ in range(rng.randint(1, 4))]
        for _ in range(120)
    ]
    hypotheses = [[sentence(rng.randint(0, 14)) for _ in range(3)] for _ in references]
    # Every mask keeps reference 0, so no sentence gets an empty subset.
    masks = np.array([ALL_REFERENCES, 0b1101, 0b0101, 0b0001, 0b1011], dtype=np.int64)
    metric = GTM(exponent=exponent)
    rows = family_rows([metric], hypotheses, references, masks)[0]
    assert np.array_equal(rows, own_rows(metric, hypotheses, references, masks))


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all-refs"])
@pytest.mark.parametrize("spec", ["gtm:e=1,tokenize=gtm14", "gtm:e=2,tokenize=gtm14"])
def test_orange_through_the_engine_equals_the_per_pair_orange(
    spec, all_references, regression
):
    options = OrangeOptions(
        all_references=all_references, curve_step=50, n_bootstrap=100
    )
    data = regression.first(80)
    metric = get_metric(spec)
    args = (metric, spec, data.candidates, data.references, options)
    batch = orange_for_metric(*args, sentence_ids=data.sentence_ids)
    per_pair = orange_for_metric(*args, sentence_ids=data.sentence_ids, per_pair=True)
    assert batch.to_dict() == per_pair.to_dict()


def test_orange_of_gtm30_through_the_engine_equals_per_pair_on_the_mert_example(
    mert,
):
    options = OrangeOptions(curve_step=25, n_bootstrap=50)
    data = mert.first(60)
    metric = get_metric("gtm:e=3,tokenize=gtm14")
    args = (metric, "gtm30", data.candidates, data.references, options)
    assert (
        orange_for_metric(*args).to_dict()
        == orange_for_metric(*args, per_pair=True).to_dict()
    )


def test_orange_of_all_three_exponents_together_and_in_chunks_equals_per_pair(
    regression,
):
    # GTM10/20/30 share one matching pass in the engine; chunks of sentences
    # (as workers split a job) merge into the same result.
    data = regression.first(40)
    options = OrangeOptions(curve_step=10, n_bootstrap=50)
    metrics = {f"gtm{e}0": GTM(exponent=e, tokenize="gtm14") for e in (1, 2, 3)}
    args = (data.candidates, data.references, options)
    together = orange_metrics(metrics, *args)
    per_pair = orange_metrics(metrics, *args, per_pair=True)
    for name, metric in metrics.items():
        assert together[name].to_dict() == per_pair[name].to_dict()
        chunked = orange_for_metric(metric, name, *args, chunk_size=2)
        assert chunked.to_dict() == per_pair[name].to_dict()
