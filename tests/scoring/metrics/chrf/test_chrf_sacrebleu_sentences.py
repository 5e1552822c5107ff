"""chrF and chrF++ agree with sacreBLEU 2.6.0 segment by segment.

Real data: newstest2021 en-de (3 references A, C, D), zh-en (1 reference;
ZengHuiMT has empty lines 434 and 1649) and de-en (2 references A, B).
sacreBLEU is the reference implementation (test-only dependency): its
``sentence_score`` for every segment (corpus scores and options are checked in
``test_chrf_sacrebleu_corpus.py``). Tolerance 1e-4 on the 0-100 scale; the
measured differences are 0.0 (the same operations in the same order).
"""

from __future__ import annotations

import numpy as np

from tests.scoring.support.chrf_data import (
    PAIRS,
    SYSTEMS,
    TOLERANCE,
    WORD_ORDERS,
    ours,
    wmt21_pair,
)
from tests.scoring.support.realdata import require_full_data


@PAIRS
@WORD_ORDERS
def test_it_matches_sacrebleu_sentence_chrf_on_every_segment(
    sacrebleu, pair: str, word_order: int
) -> None:
    data = wmt21_pair(pair)
    theirs = sacrebleu.CHRF(word_order=word_order)
    hypotheses = data.system(SYSTEMS[pair])
    expected = [
        theirs.sentence_score(hypothesis, [s[i] for s in data.references]).score
        for i, hypothesis in enumerate(hypotheses)
    ]
    differences = np.abs(np.array(ours(pair, word_order).sentence_scores) - expected)
    assert len(differences) == len(data.references[0])
    assert differences.max() <= TOLERANCE


def test_zh_en_empty_hypothesis_lines_score_zero() -> None:
    require_full_data("zh-en's empty lines (434 and 1649)")
    data = wmt21_pair("zh-en")
    hypotheses = data.system(SYSTEMS["zh-en"])
    empty = [i for i, hypothesis in enumerate(hypotheses) if not hypothesis.strip()]
    assert empty == [433, 1648]
    scores = ours("zh-en", 2).sentence_scores
    assert [scores[i] for i in empty] == [0.0, 0.0]
