"""chrF and chrF++ agree with sacreBLEU 2.6.0 per corpus, with every option.

Real data: newstest2021 en-de (3 references A, C, D), zh-en (1 reference;
ZengHuiMT has empty lines 434 and 1649) and de-en (2 references A, B).
sacreBLEU is the reference implementation (test-only dependency): its
``corpus_score`` per system, and for non-default options also its
``sentence_score`` on a slice (every segment of the full systems is checked in
``test_chrf_sacrebleu_sentences.py``). Tolerance 1e-4 on the 0-100 scale; the
measured differences are 0.0 (the same operations in the same order).
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring.metrics.chrf.metric import CHRF
from tests.scoring.support.chrf_data import (
    PAIRS,
    SYSTEMS,
    TOLERANCE,
    WORD_ORDERS,
    ours,
    wmt21_pair,
)


@PAIRS
@WORD_ORDERS
def test_it_matches_sacrebleu_corpus_chrf(
    sacrebleu, pair: str, word_order: int
) -> None:
    data = wmt21_pair(pair)
    theirs = sacrebleu.CHRF(word_order=word_order).corpus_score(
        list(data.system(SYSTEMS[pair])), [list(s) for s in data.references]
    )
    assert ours(pair, word_order).score == pytest.approx(theirs.score, abs=TOLERANCE)


OPTIONS = [
    {"lowercase": True},
    {"whitespace": True},
    {"eps_smoothing": True},
    {"eps_smoothing": True, "word_order": 2},
    {"beta": 1},
    {"beta": 3, "word_order": 2},
    {"char_order": 4, "word_order": 1},
    {"char_order": 2, "word_order": 3, "lowercase": True, "whitespace": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda options: str(options))
def test_every_option_matches_sacrebleu_on_a_slice_of_en_de(sacrebleu, options) -> None:
    data = wmt21_pair("en-de")
    hypotheses = list(data.system("UEdin")[:150])
    references = [list(stream[:150]) for stream in data.references]
    result = CHRF(**options).score(hypotheses, references, sentence=True)
    theirs = sacrebleu.CHRF(**options)
    expected = [
        theirs.sentence_score(hypothesis, [stream[i] for stream in references]).score
        for i, hypothesis in enumerate(hypotheses)
    ]
    assert np.abs(np.array(result.sentence_scores) - expected).max() <= TOLERANCE
    corpus = theirs.corpus_score(hypotheses, references).score
    assert result.score == pytest.approx(corpus, abs=TOLERANCE)


def test_each_segment_keeps_the_statistics_of_its_best_reference(sacrebleu) -> None:
    # The best reference is the one with the highest single-reference
    # sacreBLEU sentence chrF (the first on ties); our multi-reference row
    # must be our single-reference row for that reference.
    data = wmt21_pair("en-de")
    hypotheses = data.system("Facebook-AI")[:200]
    theirs = sacrebleu.CHRF(word_order=2)
    metric = CHRF(word_order=2)
    chose_other_than_first = 0
    for i, hypothesis in enumerate(hypotheses):
        references = tuple(stream[i] for stream in data.references)
        single = [theirs.sentence_score(hypothesis, [r]).score for r in references]
        best = int(np.argmax(single))  # argmax: first of equal maxima
        chose_other_than_first += best > 0
        row = metric.segment_row(hypothesis, references)
        assert row == metric.segment_row(hypothesis, (references[best],))
    assert chose_other_than_first > 50  # the rule was really exercised
