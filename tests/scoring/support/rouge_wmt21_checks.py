"""The WMT21 ROUGE-1.5.5 agreement checks, shared by the per-pair test files.

Segment values must be the very numbers ROUGE-1.5.5 printed (5 decimals; a
difference of 1e-9 would already be a different printout). Corpus: ROUGE's
printed average is the mean of 1000 bootstrap resamples, which
:func:`scoring.metrics.rouge.average155.rouge155_bootstrap_average` replays exactly;
our corpus score is the plain mean of the segment scores (a function of
summed statistics, as bootstrap resampling needs), which differs from the
printed figure by a few 1e-4.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from scoring import Metric, MetricResult, get_metric
from scoring.metrics.rouge.average155 import rouge155_bootstrap_average
from scoring.metrics.rouge.preprocess import rouge155_tokens
from tests.scoring.support.oracles import ORACLE_DIR
from tests.scoring.support.rouge_oracles import (
    COLUMNS,
    MULTIREF,
    WMT21_MEASURES,
    with_options,
    wmt21_oracle,
    wmt21_references,
    wmt21_segments,
)

SAME_PRINTOUT = 1e-9


def require_oracle(pair: str) -> None:
    """Skip, with the reason shown, when the oracle figures are absent."""
    if not (ORACLE_DIR / f"wmt21-{pair}.json").is_file():
        pytest.skip(f"ROUGE oracle figures not found in {ORACLE_DIR} ")


def our_metric(measure: str, mode: str) -> Metric:
    """Our metric for an oracle measure id (``"W-1.2"``) and ``-f`` mode."""
    options = f"preprocess=rouge155,multiref={MULTIREF[mode]}"
    return get_metric(with_options(WMT21_MEASURES[measure], options))


@cache
def our_result(pair: str, system: str, measure: str, mode: str) -> MetricResult:
    """Our ROUGE-1.5.5 reproduction of one oracle configuration."""
    return our_metric(measure, mode).score(
        wmt21_segments(pair, system), wmt21_references(pair), sentence=True
    )


def check_segment_scores(pair: str, measure: str, mode: str) -> None:
    """Every system's segment R, P, F equal ROUGE-1.5.5's printout."""
    oracle = wmt21_oracle(pair)
    for system, figures in oracle["systems"].items():
        statistics = our_result(pair, system, measure, mode).statistics
        for letter, column in COLUMNS.items():
            key = f"rouge155-{measure}-{letter}-f{mode}"
            expected = np.array(figures[key]["segments"])
            assert len(expected) == oracle["num_segments"] == len(statistics)
            difference = np.abs(statistics[:, column] - expected)
            assert difference.max() <= SAME_PRINTOUT, (system, key, difference.argmax())


def check_corpus_replay(pair: str) -> int:
    """The bootstrap replay of our segment scores equals every printed
    average; returns how many figures were checked."""
    checked = 0
    for system, figures in wmt21_oracle(pair)["systems"].items():
        for measure in WMT21_MEASURES:
            for mode in MULTIREF:
                statistics = our_result(pair, system, measure, mode).statistics
                for letter, column in COLUMNS.items():
                    printed = figures[f"rouge155-{measure}-{letter}-f{mode}"]["corpus"]
                    replay = rouge155_bootstrap_average(statistics[:, column])
                    assert replay.average == printed, (system, measure, mode, letter)
                    checked += 1
    return checked


def largest_plain_mean_gap(pair: str) -> float:
    """Largest |our corpus score - printed average| over R, P, F of every
    configuration (our corpus score = mean of the segment scores)."""
    largest = 0.0
    for system, figures in wmt21_oracle(pair)["systems"].items():
        for measure in WMT21_MEASURES:
            for mode in MULTIREF:
                result = our_result(pair, system, measure, mode)
                assert result.score == pytest.approx(
                    np.mean(result.sentence_scores), rel=1e-12
                )
                summed = result.statistics.sum(axis=0)
                for letter in COLUMNS:
                    metric = replace(our_metric(measure, mode), measure=letter.lower())
                    ours = metric.corpus_score_from_statistics(summed)
                    printed = figures[f"rouge155-{measure}-{letter}-f{mode}"]["corpus"]
                    largest = max(largest, abs(ours - printed))
    return largest


def check_default_mode_on_rouge_tokens(pair: str, system: str, measure: str) -> None:
    """Default preprocessing fed ROUGE's own tokens counts the same units;
    only ROUGE's 5-decimal rounding differs: R and P by <= 5e-6, F (from
    the rounded R and P, then rounded) by <= 2 * 5e-6 + 5e-6."""
    tokenised = [
        [" ".join(rouge155_tokens(line)) for line in stream]
        for stream in [wmt21_segments(pair, system), *wmt21_references(pair)]
    ]
    metric = get_metric(with_options(WMT21_MEASURES[measure], "tokenize=none"))
    statistics = metric.segment_statistics(tokenised[0], tokenised[1:])
    figures = wmt21_oracle(pair)["systems"][system]
    for letter, bound in (("R", 5e-6), ("P", 5e-6), ("F", 1.5e-5)):
        expected = np.array(figures[f"rouge155-{measure}-{letter}-fA"]["segments"])
        assert np.abs(statistics[:, COLUMNS[letter]] - expected).max() <= bound + 1e-12
