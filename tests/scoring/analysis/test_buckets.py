"""compare-mt style buckets, checked against values worked out by hand."""

import math

import numpy as np
import pytest

from scoring import get_metric
from scoring.analysis.buckets import (
    FREQUENCY_CUTOFFS,
    LENGTH_CUTOFFS,
    bucket_indices,
    bucket_labels,
    bucket_sentences,
    count_words,
    score_cutoffs,
    score_histogram,
    word_accuracy_by_frequency,
)


def test_labels_are_compare_mt_s():
    assert bucket_labels(FREQUENCY_CUTOFFS) == (
        "<1", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000",
    )  # fmt: skip
    assert bucket_labels(LENGTH_CUTOFFS) == (
        "<10", "[10,20)", "[20,30)", "[30,40)", "[40,50)", "[50,60)", ">=60",
    )  # fmt: skip
    assert bucket_labels(score_cutoffs(100.0), integer=False)[:2] == ("<10", "[10,20)")


def test_a_value_goes_below_the_first_cutoff_it_is_less_than():
    assert bucket_indices([0, 1, 4, 5, 9, 10, 999, 1000, 5000], FREQUENCY_CUTOFFS).tolist() == [
        0, 1, 4, 5, 5, 6, 7, 8, 8,
    ]  # fmt: skip


def test_word_f_measure_by_frequency_by_hand():
    references = [[["a", "a", "b"], ["d"]]]
    hypotheses = [["a", "c"], ["d", "d"]]
    frequencies = count_words(references[0])  # a: 2, b: 1, d: 1
    result = word_accuracy_by_frequency(hypotheses, references, frequencies)
    labels = dict(zip(result.labels, range(len(result.labels))))
    zero, one, two = labels["<1"], labels["1"], labels["2"]
    # "<1": c (output only); "1": b (ref), d (ref 1, output 2, 1 match);
    # "2": a (ref 2, output 1, 1 match).
    assert (
        result.matches[zero],
        result.reference_words[zero],
        result.output_words[zero],
    ) == (0, 0, 1)
    assert (
        result.matches[one],
        result.reference_words[one],
        result.output_words[one],
    ) == (1, 2, 2)
    assert (
        result.matches[two],
        result.reference_words[two],
        result.output_words[two],
    ) == (1, 2, 1)
    assert result.recall[one] == pytest.approx(0.5)
    assert result.precision[one] == pytest.approx(0.5)
    assert result.f_measure[one] == pytest.approx(0.5)
    assert result.f_measure[two] == pytest.approx(2 * 1.0 * 0.5 / 1.5)
    assert result.f_measure[zero] == 0.0
    assert sum(result.output_words) == 4 and sum(result.reference_words) == 4


def test_several_references_sum_their_counts():
    hypotheses = [["a", "b"]]
    one = word_accuracy_by_frequency(hypotheses, [[["a"]]], {"a": 7, "b": 7})
    two = word_accuracy_by_frequency(
        hypotheses, [[["a"]], [["a", "b"]]], {"a": 7, "b": 7}
    )
    bucket = one.labels.index("[5,10)")
    assert (
        one.matches[bucket],
        one.reference_words[bucket],
        one.output_words[bucket],
    ) == (1, 1, 2)
    assert (
        two.matches[bucket],
        two.reference_words[bucket],
        two.output_words[bucket],
    ) == (3, 3, 4)


def test_a_reference_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError):
        word_accuracy_by_frequency([["a"]], [[["a"], ["b"]]], {})


def test_sentence_buckets_count_average_and_rescore_from_statistics():
    lengths = [3, 12, 15, 70]
    buckets = bucket_indices(lengths, LENGTH_CUTOFFS)
    assert buckets.tolist() == [0, 1, 1, 6]
    # A mean-of-ratios "metric": statistics (matches, total) per segment.
    statistics = np.array([[1, 2], [3, 4], [1, 4], [0, 5]])
    result = bucket_sentences(
        buckets,
        bucket_labels(LENGTH_CUTOFFS),
        [50.0, 75.0, 25.0, 0.0],
        statistics,
        lambda summed: 100 * summed[..., 0] / summed[..., 1],
    )
    assert result.counts == (1, 2, 0, 0, 0, 0, 1)
    assert result.mean_sentence_scores[1] == pytest.approx(50.0)
    assert result.corpus_scores[1] == pytest.approx(100 * 4 / 8)
    assert math.isnan(result.corpus_scores[2])
    assert result.to_dict()["corpus_scores"][2] is None


def test_bucket_corpus_scores_equal_the_metric_on_the_bucket_alone():
    metric = get_metric("bleu")
    hypotheses = ["the cat sat on the mat", "a dog", "it is raining hard today"]
    references = [["the cat is on the mat", "a dog barks", "it is raining today"]]
    statistics = metric.score(hypotheses, references).statistics
    result = bucket_sentences(
        np.array([0, 1, 0]), ("x", "y"), [0.0, 0.0, 0.0], statistics,
        metric.corpus_scores_from_statistics,
    )  # fmt: skip
    alone = metric.score(
        [hypotheses[0], hypotheses[2]], [[references[0][0], references[0][2]]]
    ).score
    assert result.corpus_scores[0] == pytest.approx(alone, abs=1e-9)


def test_score_cutoffs_are_tenths_of_the_scale():
    assert score_cutoffs(1.0)[:3] == (0.1, 0.2, 0.3)
    assert score_cutoffs(100.0)[-1] == 90.0
    assert score_cutoffs(math.inf, [2.0, 8.0])[0] == pytest.approx(0.8)


def test_histograms_cover_the_scale_or_the_scores():
    histogram = score_histogram([0.0, 0.05, 0.5, 1.0], 1.0, bins=4)
    assert histogram.edges == (0.0, 0.25, 0.5, 0.75, 1.0)
    assert histogram.counts == (2, 0, 1, 1)
    over = score_histogram([0.0, 150.0], 100.0, bins=3)
    assert over.edges[-1] == 150.0 and sum(over.counts) == 2
