"""PER: the lecture notes' worked example, PER.pl's corpus pooling, edge cases.

Expected values are the lecture notes' (002, "Example - PER") or hand counts
stated next to each assertion.
"""

from __future__ import annotations

import pytest

from scoring import MetricError, get_metric
from scoring import __version__ as VERSION
from scoring.metrics.edit.per import PER
from tests.scoring.support.lecture_examples import (
    LECTURE_HYPOTHESIS,
    LECTURE_REFERENCE,
)


def test_it_gives_the_lecture_notes_33_percent() -> None:
    # 12 of 16 hypothesis words are matched; max(16, 18) - 12 = 6 errors.
    result = PER().score([LECTURE_HYPOTHESIS], [[LECTURE_REFERENCE]], sentence=True)
    assert result.score == pytest.approx(100 * 6 / 18, abs=1e-12)
    assert result.sentence_scores == (pytest.approx(33.333333, abs=1e-6),)
    assert result.statistics.tolist() == [[6.0, 12.0, 16.0, 18.0, 18.0]]


def test_word_order_does_not_matter() -> None:
    # The lecture notes' "he saw a man" / "a man saw he": both score 0.
    assert PER().score(["a man saw he"], [["he saw a man"]]).score == 0.0


def test_it_is_an_error_rate_in_percent() -> None:
    metric = get_metric("per")
    assert (metric.higher_is_better, metric.scale) == (False, 100.0)


def test_pooling_lengths_changes_only_the_corpus_score_as_per_pl_does() -> None:
    # Segment 1: hyp "a b c" vs ref "a": 1 match, errors max(3,1)-1 = 2.
    # Segment 2: hyp "x" vs ref "x y z": 1 match, errors max(1,3)-1 = 2.
    hypotheses, references = ["a b c", "x"], [["a", "x y z"]]
    default = PER().score(hypotheses, references, sentence=True)
    pooled = PER(pool_lengths=True).score(hypotheses, references, sentence=True)
    assert default.score == pytest.approx(100 * 4 / 4, rel=1e-12)
    # PER.pl: 1 - (Σ matches - max(0, Σ hyp - Σ ref)) / Σ ref
    #       = (max(4, 4) - 2) / 4.
    assert pooled.score == pytest.approx(100 * 2 / 4, rel=1e-12)
    assert default.sentence_scores == pooled.sentence_scores == (200.0, 200 / 3)


def test_the_closest_reference_has_the_fewest_errors() -> None:
    # Reference 1: 1 match -> max(2, 2) - 1 = 1 error; reference 2: 2 matches
    # but 4 words -> max(2, 4) - 2 = 2 errors. Average length 3.
    row = PER().segment_statistics(["a b"], [["a x"], ["b a y z"]])[0]
    assert row.tolist() == [1.0, 1.0, 2.0, 2.0, 3.0]


def test_empty_inputs() -> None:
    assert PER().score([""], [["a b"]]).score == 100.0  # 2 errors / 2 words
    assert PER().score(["a b"], [[""]]).score == 100.0  # errors, no reference
    assert PER().score([""], [[""]]).score == 0.0
    assert PER(pool_lengths=True).score([""], [[""]]).score == 0.0


def test_unicode_words_and_a_missing_reference() -> None:
    result = PER().score(
        ["猫 が 好き", "ذهب الولد"], [["好き 猫 が", None], [None, "الولد ذهب"]]
    )
    assert result.score == 0.0
    assert (
        result.signature == f"per|nrefs:1|case:mixed|tok:none|pool:no|version:{VERSION}"
    )


def test_signatures_name_the_pooling_only_for_the_corpus_score() -> None:
    metric = get_metric("per:pool_lengths=true,tokenize=ascii")
    assert metric.signature(1) == (
        f"per|nrefs:1|case:mixed|tok:ascii|pool:yes|version:{VERSION}"
    )
    assert metric.sentence_signature(1) == (
        f"per|nrefs:1|case:mixed|tok:ascii|version:{VERSION}"
    )


def test_it_refuses_a_non_boolean_pooling_flag() -> None:
    with pytest.raises(MetricError, match="pool_lengths must be true or false"):
        PER(pool_lengths=1)  # type: ignore[arg-type]
