"""PER agrees with PER.pl 1.0 (Universitat d'Alacant), segment and corpus.

Oracles: ``ualacant-per`` in ``oracle-figures/wmt21-*.json`` (8 systems,
single reference) and ``blend-wmt15-16-da/scores/nPER`` (= -PER, 5360
segments). PER.pl's corpus figure takes max(Σ|hyp|, Σ|ref|) over the corpus
totals, which is ``pool_lengths=true``; segment scores do not depend on it.
Every value agrees to 5e-15 (PER.pl prints 15 digits).
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring.per import PER
from tests.scoring.test_wer_official_scripts_agreement import (
    TOLERANCE,
    assert_agrees,
    blend,
    blend_scores,
    oracle_systems,
    single_reference_case,
)


@pytest.mark.parametrize(("pair", "system"), oracle_systems())
def test_it_matches_per_pl_segment_and_pooled_corpus_per_on_wmt21(
    pair: str, system: str
) -> None:
    hypotheses, reference, figures = single_reference_case(pair, system)
    result = PER(tokenize="ascii", pool_lengths=True).score(
        hypotheses, [reference], sentence=True
    )
    assert result.sentence_scores is not None
    assert_agrees(result.sentence_scores, result.score, figures["ualacant-per"])


def test_the_default_per_corpus_score_is_the_pooled_sum_of_segment_errors() -> None:
    # Not PER.pl's corpus figure: Σ(max(h, r) - C) / Σ r. On WMT21 de-en
    # Facebook-AI the two differ (some hypotheses are longer than their
    # reference, others shorter).
    hypotheses, reference, figures = single_reference_case(
        "de-en", "sys/Facebook-AI.en"
    )
    result = PER(tokenize="ascii").score(hypotheses, [reference])
    summed = result.statistics.sum(axis=0)
    assert result.score == pytest.approx(100 * summed[0] / summed[4])
    per_pl = figures["ualacant-per"]["corpus"]
    assert result.score / 100 != pytest.approx(per_pl, abs=1e-4)


def test_it_matches_the_blend_nper_of_all_5360_segments() -> None:
    hypotheses, references = blend()
    result = PER(tokenize="ascii").score(hypotheses, [references], sentence=True)
    ours = np.array(result.sentence_scores) / 100
    assert np.abs(-ours - blend_scores("nPER")).max() <= TOLERANCE
