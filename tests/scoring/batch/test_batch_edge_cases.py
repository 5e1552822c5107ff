"""Degenerate and unusual inputs give the per-pair code's scores in the batch
engine too: empty hypotheses and references, hypotheses shorter than n,
one reference, different numbers of references per sentence, Unicode,
sentences longer than a 64-bit word, repeated tokens, NIST's "0" prefix; and
the engine refuses what it cannot do."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring.batch.engine import supports
from scoring.batch.subsets import ALL_REFERENCES, jackknife_masks
from scoring.metrics.meteor.metric import Meteor
from scoring.metrics.ter.metric import TER
from scoring.orange.batched import orange_batch
from scoring.orange.options import OrangeOptions
from scoring.orange.sources import TextSource
from tests.scoring.support.batch_cases import engine_scores, per_pair_scores

SPECS = (
    "rouge-l",
    "rouge-l:multiref=best",
    "rouge-w:w=1.2",
    "rouge-w:w=1.2,preprocess=rouge155",
    "rouge-s:d=4",
    "rouge-s:d=*",
    "rouge-s:d=0,multiref=best",
    "rouge-su:d=4,preprocess=rouge155",
    "rouge-n:n=3",
    "bleus:n=9",
    "bleu:sentence_smooth=exp",
    "nist",
    "wer",
    "per",
    "ser",
)
LONG = " ".join(f"w{i % 37}" for i in range(150))
LONGER = " ".join(f"w{(i * 7) % 41}" for i in range(140))

GROUPS = [
    # hypotheses, references
    (
        ["", "a", "a b", "the cat sat on the mat"],
        ["the cat sat on the mat", "", "a cat"],
    ),
    (
        ["x y z", "0 1 0 2 0 1", "the the the the"],
        ["0 1 0 2", "the the cat", "z y x w"],
    ),
    (
        [
            "我们 今天 去 公园",
            "我们去公园",
            "مرحبا بالعالم",
            "cafe\u0301 au lait",
            "10\u00a0000 km",
        ],
        ["我们 明天 去 公园", "مرحبا بالعالم الجميل", "café au lait", "10 000 km"],
    ),
    (
        [LONG, LONGER, LONG[:100], "w1 w2 w3"],
        [LONGER, LONG, LONG[50:] + " " + LONG[:50]],
    ),
]


@pytest.mark.parametrize("spec", SPECS)
def test_odd_inputs_get_the_per_pair_scores_for_every_subset(spec):
    metric = get_metric(spec)
    hypotheses = [group[0] for group in GROUPS]
    references = [group[1] for group in GROUPS]
    masks = jackknife_masks(4, all_references=True)
    ours = engine_scores(metric, hypotheses, references, masks)
    expected = per_pair_scores(metric, hypotheses, references, masks)
    assert np.array_equal(ours, expected), np.abs(ours - expected).max()


@pytest.mark.parametrize(
    "spec", ["rouge-w:w=1.5", "bleus:n=4", "nist", "wer", "per", "rouge-su:d=2"]
)
def test_one_reference_and_different_reference_counts_per_sentence(spec):
    metric = get_metric(spec)
    hypotheses = [["a b c d", "a c"], ["b c d e f", ""], ["e f g"]]
    references = [["a b c d e"], ["b c", "c d e f", "f e d c b", "b"], ["e f", "f g"]]
    # Every mask keeps reference 0, so no sentence gets an empty subset.
    masks = np.array([ALL_REFERENCES, 0b1101, 0b0101, 0b0001, 0b0011], dtype=np.int64)
    ours = engine_scores(metric, hypotheses, references, masks)
    expected = per_pair_scores(metric, hypotheses, references, masks)
    assert np.array_equal(ours, expected)


def test_it_knows_which_metrics_it_computes():
    for spec in SPECS + ("bleus:n=1", "rouge-su:d=*", "per:pool_lengths=true"):
        assert supports(get_metric(spec)), spec
    assert supports(get_metric("meteor"))

    class OwnMeteor(Meteor):  # the engine takes the exact metric classes only
        pass

    assert not supports(OwnMeteor())


def test_orange_needs_two_references_and_a_supported_metric():
    options = OrangeOptions(n_bootstrap=10)
    one_reference = TextSource([["a b", "a"]], [["a b"]])
    with pytest.raises(MetricError, match="at least two references"):
        orange_batch({"bleu": get_metric("bleu")}, one_reference, options)
    two = TextSource([["a b", "a"]], [["a b", "b a"]])

    class OwnTer(TER):  # the engine takes the exact metric classes only
        pass

    with pytest.raises(MetricError, match="does not support: ter"):
        orange_batch({"ter": OwnTer()}, two, options)
