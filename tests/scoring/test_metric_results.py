"""Results: JSON-safe, frozen, with re-usable statistics and progress reports."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scoring import get_metric

HYPOTHESES = ["the cat sat on the mat", "a dog barked", "hello"]
REFERENCES = [["the cat sat upon the mat", "the dog barked", "hello world"]]


def test_to_dict_is_json_safe_and_has_the_corpus_and_sentence_fields() -> None:
    result = get_metric("bleu").score(HYPOTHESES, REFERENCES, sentence=True)
    data = json.loads(json.dumps(result.to_dict()))
    assert set(data) == {
        "metric",
        "score",
        "signature",
        "higher_is_better",
        "scale",
        "n_segments",
        "sentence_scores",
        "sentence_signature",
        "details",
    }
    assert data["metric"] == "bleu" and data["n_segments"] == 3
    assert len(data["sentence_scores"]) == 3
    assert type(data["score"]) is float
    with_statistics = result.to_dict(include_statistics=True)
    assert with_statistics["statistics"][2] == [1, 2, 1, 0, 0, 0, 1, 0, 0, 0]
    json.dumps(with_statistics)


def test_sentence_scores_are_absent_unless_asked_for() -> None:
    result = get_metric("bleu").score(HYPOTHESES, REFERENCES)
    assert result.sentence_scores is None and result.sentence_signature is None


def test_a_result_cannot_be_changed_after_the_fact() -> None:
    result = get_metric("bleu").score(HYPOTHESES, REFERENCES)
    with pytest.raises(AttributeError):
        result.score = 100.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.details["hyp_len"] = 0  # type: ignore[index]
    assert result.statistics is not None
    with pytest.raises(ValueError):
        result.statistics[0, 0] = 0


def test_statistics_have_one_row_per_segment_and_named_columns() -> None:
    metric = get_metric("bleu:n=2")
    statistics = metric.segment_statistics(HYPOTHESES, REFERENCES)
    assert statistics.shape == (3, 6)
    assert np.issubdtype(statistics.dtype, np.integer)
    assert metric.statistics_names == (
        "hyp_len",
        "ref_len",
        "matches_1",
        "matches_2",
        "totals_1",
        "totals_2",
    )
    # Segment 3, "hello" vs "hello world": 1 token, reference 2, 1/1 unigram.
    assert statistics[2].tolist() == [1, 2, 1, 0, 1, 0]


def test_resampled_statistics_give_sacrebleus_score_of_the_resampled_text(
    sacrebleu, en_de
) -> None:
    # Bootstrap resampling sums rows instead of re-tokenising: summing the
    # statistics of a resample must give what sacreBLEU says about the text.
    metric = get_metric("bleu")
    hypotheses = en_de.system("Online-W")
    statistics = metric.segment_statistics(hypotheses, en_de.references)
    n_segments = len(hypotheses)
    indices = np.random.default_rng(seed=2004).integers(0, n_segments, size=n_segments)
    ours = metric.corpus_score_from_statistics(statistics[indices].sum(axis=0))
    theirs = sacrebleu.corpus_bleu(
        [hypotheses[i] for i in indices],
        [[stream[i] for i in indices] for stream in en_de.references],
    ).score
    assert ours == pytest.approx(theirs, abs=1e-4)


def test_corpus_scores_can_be_computed_for_a_batch_of_summed_rows() -> None:
    metric = get_metric("bleu")
    statistics = metric.segment_statistics(HYPOTHESES, REFERENCES)
    # (2, n_stats): the whole corpus and its first two segments.
    batch = np.stack([statistics.sum(axis=0), statistics[:2].sum(axis=0)])
    scores = metric.corpus_scores_from_statistics(batch)
    assert scores.shape == (2,)
    # Rows 1-2: matches 7,4,1,0 of 9,7,5,3 (hand count), exp-smoothed p_4 = 1/6.
    expected = 100 * (7 / 9 * 4 / 7 * 1 / 5 * 1 / 6) ** 0.25
    assert scores[1] == pytest.approx(expected, abs=1e-12)


def test_progress_is_reported_as_growing_fractions_ending_at_one() -> None:
    reports: list[float] = []
    hypotheses = ["a b c"] * 250
    get_metric("bleu").score(hypotheses, [["a b d"] * 250], progress=reports.append)
    assert reports[-1] == 1.0 and reports.count(1.0) == 1
    assert reports == sorted(reports)
    assert all(0.0 < fraction <= 1.0 for fraction in reports)
    assert 2 <= len(reports) <= 102
