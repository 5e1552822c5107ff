"""ORANGE of the paper's 34 variants through the batch engine, fed the
benchmark's synthetic token ids, equals the per-pair ORANGE of the same
corpus rendered as text (``w123`` words, which every tokenizer keeps as
they are): jackknife and all-references."""

from __future__ import annotations

from functools import cache

import pytest

from scoring import get_metric
from scoring.bench.suites import PAPER_34
from scoring.bench.synthetic import CorpusShape, make_corpus
from scoring.orange.batched import orange_batch
from scoring.orange.dispatch import orange_for_metric
from scoring.orange.options import OrangeOptions
from scoring.orange.sources import TokenSource

SHAPE = CorpusShape(n_sentences=3, n_candidates=20, vocabulary_size=400)


@cache
def corpus_and_texts():
    corpus = make_corpus(SHAPE, seed=7)
    nbest = corpus.nbest
    candidates = [
        [corpus.text(nbest.candidate_tokens(c)) for c in nbest.candidates_of(s)]
        for s in range(SHAPE.n_sentences)
    ]
    references = [[corpus.text(r) for r in refs] for refs in corpus.references]
    return corpus, candidates, references


@cache
def batch_results(all_references: bool):
    corpus, _, _ = corpus_and_texts()
    metrics = {name: get_metric(spec) for name, spec in PAPER_34.items()}
    options = OrangeOptions(all_references=all_references, curve_step=8, n_bootstrap=50)
    source = TokenSource(corpus.nbest, corpus.references)
    return orange_batch(metrics, source, options, chunk_candidates=25, workers=2)


@pytest.mark.parametrize("name", list(PAPER_34))
def test_each_paper_variant_equals_the_per_pair_orange_with_the_jackknife(name):
    _, candidates, references = corpus_and_texts()
    options = OrangeOptions(all_references=False, curve_step=8, n_bootstrap=50)
    expected = orange_for_metric(
        get_metric(PAPER_34[name]), name, candidates, references, options, per_pair=True
    )
    assert batch_results(False)[name].to_dict() == expected.to_dict()


@pytest.mark.parametrize(
    "name", ["BLEUS4", "NIST", "PER", "WER", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*"]
)
def test_the_all_references_switch_equals_the_per_pair_orange(name):
    _, candidates, references = corpus_and_texts()
    options = OrangeOptions(all_references=True, curve_step=8, n_bootstrap=50)
    expected = orange_for_metric(
        get_metric(PAPER_34[name]), name, candidates, references, options, per_pair=True
    )
    assert batch_results(True)[name].to_dict() == expected.to_dict()
