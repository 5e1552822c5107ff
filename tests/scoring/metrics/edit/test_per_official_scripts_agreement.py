"""PER agrees with PER.pl 1.0 (Universitat d'Alacant), segment and corpus.

Oracles: ``ualacant-per`` in ``oracle-figures/wmt21-*.json`` (8 systems,
single reference) and ``blend-wmt15-16-da/scores/nPER`` (= -PER, 5360
segments). PER.pl's corpus figure takes max(Σ|hyp|, Σ|ref|) over the corpus
totals, which is ``pool_lengths=true``; segment scores do not depend on it.
Every value agrees to 5e-15 (PER.pl prints 15 digits). On the committed
fixtures the corpus score is checked against PER.pl's figure for the kept
segments, recomputed from its own segment figures.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring.metrics.edit.per import PER
from tests.scoring.support.edit_oracles import (
    BLEND_SET,
    TOLERANCE,
    assert_agrees,
    blend,
    blend_scores,
    per_pl_corpus,
    single_reference_case,
)
from tests.scoring.support.oracles import oracle_cases, oracle_figures
from tests.scoring.support.realdata import FULL_DATA, segment_count


@pytest.mark.parametrize(("pair", "system"), oracle_cases())
def test_it_matches_per_pl_segment_and_pooled_corpus_per_on_wmt21(
    pair: str, system: str
) -> None:
    hypotheses, reference = single_reference_case(pair, system)
    result = PER(tokenize="ascii", pool_lengths=True).score(
        hypotheses, [reference], sentence=True
    )
    assert_agrees(result, pair, system, "ualacant-per", per_pl_corpus)


def test_the_default_per_corpus_score_is_the_pooled_sum_of_segment_errors() -> None:
    # Not PER.pl's corpus figure: Σ(max(h, r) - C) / Σ r. On WMT21 de-en
    # Facebook-AI the two differ (some hypotheses are longer than their
    # reference, others shorter).
    system = "sys/Facebook-AI.en"
    hypotheses, reference = single_reference_case("de-en", system)
    result = PER(tokenize="ascii").score(hypotheses, [reference], sentence=True)
    summed = result.statistics.sum(axis=0)
    assert result.score == pytest.approx(100 * summed[0] / summed[4], rel=1e-12)
    figures = oracle_figures("de-en", system, "ualacant-per")
    if FULL_DATA:
        per_pl = figures["corpus"]
    else:  # PER.pl's figure for the kept segments
        per_pl = per_pl_corpus(np.array(figures["segments"]), result.statistics)
    assert result.score / 100 != pytest.approx(per_pl, abs=1e-4)


def test_it_matches_the_blend_nper_of_every_segment() -> None:
    hypotheses, references = blend()
    result = PER(tokenize="ascii").score(hypotheses, [references], sentence=True)
    ours = np.array(result.sentence_scores) / 100
    assert ours.shape == (segment_count(BLEND_SET, full=5360),)
    assert np.abs(-ours - blend_scores("nPER")).max() <= TOLERANCE
