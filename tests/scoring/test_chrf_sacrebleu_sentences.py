"""chrF and chrF++ agree with sacreBLEU 2.6.0 segment by segment.

Real data: newstest2021 en-de (3 references A, C, D), zh-en (1 reference;
ZengHuiMT has empty lines 434 and 1649) and de-en (2 references A, B).
sacreBLEU is the reference implementation (test-only dependency): its
``sentence_score`` for every segment (corpus scores and options are checked in
``test_chrf_sacrebleu_corpus.py``). Tolerance 1e-4 on the 0-100 scale; the
measured differences are 0.0 (the same operations in the same order).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from scoring import MetricResult
from scoring.chrf import CHRF
from tests.scoring.realdata import WMT21_DIR, WmtTestSet, load_test_set

TOLERANCE = 1e-4
SYSTEMS = {"en-de": "Facebook-AI", "zh-en": "ZengHuiMT", "de-en": "Online-W"}
REFERENCES = {"en-de": "ACD", "zh-en": "A", "de-en": "AB"}
WORD_ORDERS = pytest.mark.parametrize("word_order", [0, 2], ids=["chrF", "chrF++"])
PAIRS = pytest.mark.parametrize("pair", list(SYSTEMS))


def wmt21_pair(pair: str) -> WmtTestSet:
    if not WMT21_DIR.is_dir():
        pytest.skip(f"real WMT21 data not found at {WMT21_DIR} (../shared/data)")
    return load_test_set(pair, REFERENCES[pair])


@cache
def ours(pair: str, word_order: int) -> MetricResult:
    data = wmt21_pair(pair)
    metric = CHRF(word_order=word_order)
    return metric.score(data.system(SYSTEMS[pair]), data.references, sentence=True)


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
    data = wmt21_pair("zh-en")
    hypotheses = data.system(SYSTEMS["zh-en"])
    empty = [i for i, hypothesis in enumerate(hypotheses) if not hypothesis.strip()]
    assert empty == [433, 1648]
    scores = ours("zh-en", 2).sentence_scores
    assert [scores[i] for i in empty] == [0.0, 0.0]
