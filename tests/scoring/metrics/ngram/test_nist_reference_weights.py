"""NIST with information weights fixed from a whole reference set.

mteval-v13a counts the weights over every reference segment of every
reference set of the test set. A NIST bound to those weights
(``NIST.with_reference_corpus``) and then handed one segment at a time, with
only that segment's references (as ORANGE and chunked jobs hand it), must
still give mteval's figures: that is only possible with the whole set's
weights. Checked against a direct count of the definition (any data), the
unbound corpus scoring of the same references (any data, exact), and
mteval-v13a's printed segment and corpus NIST (full data, 1e-12 as measured
by the agreement tests in ``test_nist_mteval_oracle.py``).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from scoring import MetricError, get_metric, get_tokenizer
from scoring.metrics.ngram.nist import NIST
from scoring.metrics.ngram.nist_reference_weights import (
    ReferenceWeights,
    reference_weights_of_texts,
)
from tests.scoring.support.oracles import (
    MTEVAL_RUNS,
    oracle,
    oracle_figures,
    oracle_references,
    oracle_text,
    system_key,
)
from tests.scoring.support.realdata import full_data_params

MEASURED_EXACTNESS = 1e-12
# One cased and one uncased run per language pair.
WEIGHT_RUNS = [
    (pair, case, system)
    for pair, case, system in MTEVAL_RUNS
    if system == "Facebook-AI"
]


def segments_of(pair: str) -> list[tuple[str, ...]]:
    """The references of each segment of a WMT21 pair, in the oracle's order."""
    return list(zip(*oracle_references(pair)))


def counted_by_the_definition(segments, max_order):
    """info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)) over every
    reference segment, info(w) = log2(words / count(w)); mteval's quirk: a
    bigram whose first token is "0" takes the unigram formula. Counted
    with plain loops, apart from the library's code."""
    counts = Counter()
    words = 0
    for tokens in segments:
        words += len(tokens)
        for start in range(len(tokens)):
            for order in range(1, max_order + 1):
                if start + order <= len(tokens):
                    counts[tuple(tokens[start : start + order])] += 1
    weights = {}
    for ngram, count in counts.items():
        if len(ngram) == 1 or (len(ngram) == 2 and ngram[0] == "0"):
            weights[ngram] = math.log2(words / count)
        else:
            weights[ngram] = math.log2(counts[ngram[:-1]] / count)
    return weights


@pytest.mark.parametrize("pair", ["ru-en"])
def test_the_weights_are_a_direct_count_over_every_reference_of_the_set(pair):
    tokenizer = get_tokenizer("mteval13a")
    segments = segments_of(pair)
    tokens = [tokenizer(text) for segment in segments for text in segment]
    bound = get_metric("nist:tokenize=mteval13a").with_reference_corpus(segments)
    weights = bound.reference_weights
    expected = counted_by_the_definition(tokens, 5)
    assert weights.n_segments == len(segments) * len(segments[0])
    assert weights.total_words == sum(len(t) for t in tokens)
    assert set(weights.as_mapping()) == set(expected)
    for ngram, value in expected.items():
        # log2(a / b) here, -log(b / a) / log 2 (mteval's) in the library.
        assert weights.weight(ngram) == pytest.approx(value, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize(
    ("pair", "case", "system"),
    [("ru-en", "cased", "Online-Y"), ("en-de", "uncased", "UEdin")],
)
def test_segment_by_segment_it_equals_scoring_the_whole_set(pair, case, system):
    # Bound to all references, each segment scored alone (with its own
    # references only) gets exactly the corpus call's row: same weights,
    # same arithmetic.
    lowercase = case == "uncased"
    metric = get_metric("nist:tokenize=mteval13a", lowercase=lowercase)
    hypotheses = oracle_text(pair, system_key(pair, system))
    segments = segments_of(pair)
    whole = metric.segment_statistics(hypotheses, oracle_references(pair))
    bound = metric.with_reference_corpus(segments)
    rows = np.array(
        [bound.segment_row(h, refs) for h, refs in zip(hypotheses, segments)]
    )
    assert np.array_equal(rows, whole)
    # Unbound, one segment alone counts its own references' weights.
    alone = np.array([metric.segment_row(hypotheses[0], segments[0])])
    assert not np.array_equal(alone, whole[:1])


@pytest.mark.parametrize(
    ("pair", "case", "system"),
    full_data_params(WEIGHT_RUNS, "mteval's NIST from weights of the whole set"),
)
def test_bound_weights_reproduce_mteval_segment_by_segment(pair, case, system):
    lowercase = case == "uncased"
    expected = oracle_figures(pair, system_key(pair, system), f"mteval13a-nist-{case}")
    bound = get_metric(
        "nist:tokenize=mteval13a", lowercase=lowercase
    ).with_reference_corpus(segments_of(pair))
    hypotheses = oracle_text(pair, system_key(pair, system))
    rows = np.array(
        [bound.segment_row(h, refs) for h, refs in zip(hypotheses, segments_of(pair))]
    )
    assert rows.shape[0] == oracle(pair)["num_segments"]
    segments = bound.sentence_scores_from_statistics(rows)
    assert np.abs(segments - expected["segments"]).max() < MEASURED_EXACTNESS
    corpus = bound.corpus_score_from_statistics(rows.sum(axis=0))
    assert abs(corpus - expected["corpus"]) < MEASURED_EXACTNESS


def test_a_bound_metric_is_a_new_frozen_metric_named_in_its_signature():
    metric = get_metric("nist:n=2")
    references = [("a b", "a c"), ("b c d", None)]
    bound = metric.with_reference_corpus(references)
    assert metric.reference_weights is None  # the original is unchanged
    assert bound == metric.with_reference_corpus(references)
    assert hash(bound) == hash(metric.with_reference_corpus(references))
    assert bound != metric
    assert bound != metric.with_reference_corpus([("a b", "a d")])
    fingerprint = bound.reference_weights.fingerprint
    assert f"|n:2|info:refs-{fingerprint[:12]}|version:" in bound.signature(2)
    assert "info:" not in metric.signature(2)
    with pytest.raises(AttributeError):
        bound.reference_weights = None  # frozen


def test_the_worked_example_of_the_module():
    # References "a b" and "a c"; hypothesis "a b": info 1 + 2 and 1 (nist:n=2).
    bound = get_metric("nist:n=2").with_reference_corpus([("a b", "a c")])
    row = bound.segment_row("a b", ("a b", "a c"))
    assert row == [2.0, 2.0, 3.0, 1.0, 2, 1]
    # The same segment inside a larger set: "a" is commoner, so worth less.
    larger = get_metric("nist:n=2").with_reference_corpus(
        [("a b", "a c"), ("a a", "d")]
    )
    row = larger.segment_row("a b", ("a b", "a c"))
    words, a_count, b_count = 7, 4, 1
    assert row[2] == pytest.approx(
        math.log2(words / a_count) + math.log2(words / b_count), rel=1e-12
    )
    assert row[3] == pytest.approx(math.log2(a_count / 1), rel=1e-12)


def test_references_outside_the_weights_corpus_are_refused():
    bound = get_metric("nist").with_reference_corpus([("a b c", "a b d")])
    with pytest.raises(MetricError, match="in no reference of the corpus"):
        bound.segment_row("a b", ("a b", "x y"))
    with pytest.raises(MetricError, match="in no reference of the corpus"):
        bound.segment_statistics(["zzz"], [["a b c"], ["a b e"]])


def test_weights_must_be_counted_to_the_metrics_order():
    weights = ReferenceWeights.from_token_segments([("a", "b")], max_order=2)
    assert get_metric("nist:n=2").with_reference_weights(weights).max_order == 2
    with pytest.raises(MetricError, match="order 5"):
        get_metric("nist").with_reference_weights(weights)
    with pytest.raises(MetricError, match="reference_weights"):
        NIST(reference_weights={("a",): 1.0})


def test_the_weights_of_a_test_set_are_counted_once_per_process():
    tokenizer = get_tokenizer("13a")
    references = (("a b", "a c"), ("b c",))
    first = reference_weights_of_texts(5, tokenizer, references)
    assert reference_weights_of_texts(5, tokenizer, references) is first
