"""BLEU with any maximum order, the BLEUS-N metric (Lin & Och 2004), and the
intl/char tokenizers, against sacreBLEU 2.6.0 on real WMT21 data.

BLEUS (ORANGE paper, seed 000, section 4): "Add one count to the n-gram hit
and total n-gram count for n > 1 ... if nothing matches then they will get
zero scores" = sacreBLEU ``smooth_method="add-k", smooth_value=1``; the
``bleus`` metric applies it to sentence and corpus scores alike.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring import __version__ as VERSION
from tests.scoring.support.realdata import measured

TOLERANCE = 1e-4
SEGMENTS = 300  # of WMT21 zh-en ZengHuiMT: short and unmatched segments


def sacrebleu_sentences(sacrebleu, hypotheses, streams, **options) -> np.ndarray:
    metric = sacrebleu.BLEU(effective_order=True, **options)
    return np.array(
        [
            metric.sentence_score(hypothesis, [stream[i] for stream in streams]).score
            for i, hypothesis in enumerate(hypotheses)
        ]
    )


@pytest.mark.parametrize("n", [1, 9])  # 9: the largest order a spec may ask
def test_any_max_order_matches_sacrebleu_corpus_and_sentence_bleu(
    sacrebleu, en_de, n: int
) -> None:
    hypotheses = en_de.system("Facebook-AI")
    metric = get_metric(f"bleu:n={n}")
    result = metric.score(hypotheses, en_de.references, sentence=True)
    theirs = sacrebleu.BLEU(max_ngram_order=n).corpus_score(
        list(hypotheses), en_de.references
    )
    assert result.score == pytest.approx(theirs.score, abs=TOLERANCE)
    assert len(result.details["precisions"]) == n
    first = [stream[:SEGMENTS] for stream in en_de.references]
    sentences = sacrebleu_sentences(
        sacrebleu,
        hypotheses[:SEGMENTS],
        first,
        max_ngram_order=n,
        smooth_method="add-k",
        smooth_value=1,
    )
    ours = np.array(result.sentence_scores[:SEGMENTS])
    assert np.max(np.abs(ours - sentences)) < TOLERANCE


@pytest.mark.parametrize("n", range(1, 10))
def test_bleus_n_matches_sacrebleus_add_one_bleu_at_both_levels(
    sacrebleu, zh_en, n: int
) -> None:
    hypotheses = list(zh_en.system("ZengHuiMT")[:SEGMENTS])
    streams = [list(stream[:SEGMENTS]) for stream in zh_en.references]
    result = get_metric(f"bleus:n={n}").score(hypotheses, streams, sentence=True)
    add_one = {"smooth_method": "add-k", "smooth_value": 1, "max_ngram_order": n}
    theirs = sacrebleu.BLEU(**add_one).corpus_score(hypotheses, streams).score
    assert result.score == pytest.approx(theirs, abs=TOLERANCE)
    sentences = sacrebleu_sentences(sacrebleu, hypotheses, streams, **add_one)
    assert np.max(np.abs(np.array(result.sentence_scores) - sentences)) < TOLERANCE


def test_bleus_by_hand_on_the_papers_rules() -> None:
    metric = get_metric("bleus")
    # "hello" vs "hello world": p1 = 1/1, p2..p4 = (0+1)/(0+1), BP = e^(1-2).
    result = metric.score(["hello"], [["hello world"]], sentence=True)
    assert result.sentence_scores[0] == pytest.approx(100 * math.exp(-1), abs=1e-12)
    # The corpus score is smoothed too (plain BLEU would be 0: no bigram).
    assert result.score == pytest.approx(100 * math.exp(-1), abs=1e-12)
    # "Nothing matches": zero, although add-one gives n > 1 some credit.
    assert metric.score(["x y z"], [["a b c"]], sentence=True).sentence_scores == (0.0,)
    # BLEUS1 is unsmoothed BLEU1: 2 of 3 unigrams, equal lengths.
    unigram = get_metric("bleus:n=1").score(["a b x"], [["a b c"]])
    assert unigram.score == pytest.approx(100 * 2 / 3, abs=1e-12)


def test_bleus_has_its_own_name_signature_and_only_n_tokenize_lowercase() -> None:
    metric = get_metric("bleus:n=6")
    assert metric.signature(4) == (
        f"bleus|nrefs:4|case:mixed|tok:13a|smooth:add-k[1]|n:6|version:{VERSION}"
    )
    assert metric.sentence_signature(4) == (
        f"bleus|nrefs:4|case:mixed|tok:13a|smooth:add-k[1]|eff:yes|n:6|version:{VERSION}"
    )
    assert [parameter.name for parameter in metric.parameters] == [
        "n",
        "tokenize",
        "lowercase",
    ]
    with pytest.raises(MetricError, match="unknown parameter 'smooth'"):
        get_metric("bleus:smooth=exp")
    assert metric != get_metric("bleu:n=6,smooth=add-k")


@pytest.mark.parametrize(("tokenize", "pair"), [("intl", "en-de"), ("char", "zh-en")])
def test_the_intl_and_char_tokenizers_give_sacrebleus_bleu(
    sacrebleu, en_de, zh_en, tokenize: str, pair: str
) -> None:
    # The first 500 segments keep the test fast (char 4-grams are many). The
    # fixtures hold 150 segments of zh-en, and not NiuTrans.
    zh_en_system = measured(full="NiuTrans", fixtures="ZengHuiMT")
    test_set, system = (en_de, "Online-W") if pair == "en-de" else (zh_en, zh_en_system)
    hypotheses = list(test_set.system(system)[:500])
    streams = [list(stream[:500]) for stream in test_set.references]
    for lowercase in (False, True):
        ours = get_metric("bleu", tokenize=tokenize, lowercase=lowercase).score(
            hypotheses, streams
        )
        theirs = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(
            hypotheses, streams
        )
        assert ours.score == pytest.approx(theirs.score, abs=TOLERANCE)
        assert f"|tok:{tokenize}|" in ours.signature
