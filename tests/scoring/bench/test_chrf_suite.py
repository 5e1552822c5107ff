"""The chrF benchmark runs end to end at a tiny scale, and its text corpus
is the synthetic corpus spelt out word for word."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

from scoring.bench.chrf_suite import main
from scoring.bench.synthetic import CorpusShape, make_corpus
from scoring.bench.synthetic_text import corpus_texts, spelled_vocabulary


def test_the_spelt_corpus_has_one_pseudo_word_per_token():
    corpus = make_corpus(CorpusShape(n_sentences=2, n_candidates=3))
    candidates, references = corpus_texts(corpus)
    vocabulary = spelled_vocabulary(corpus.shape.vocabulary_size)
    assert [len(c) for c in candidates] == [3, 3]
    assert [len(r) for r in references] == [4, 4]
    first = corpus.nbest.tokens[: corpus.nbest.candidate_offsets[1]]
    assert candidates[0][0].split() == [vocabulary[i] for i in first.tolist()]
    assert references[1][2].split() == [
        vocabulary[i] for i in corpus.references[1][2].tolist()
    ]
    assert all(word and not any(c.isspace() for c in word) for word in vocabulary)


def test_the_suite_checks_against_per_pair_and_times_both_metrics():
    out = io.StringIO()
    with redirect_stdout(out):
        main(["--sentences", "2", "--check", "1", "--bootstrap", "5"])
    text = out.getvalue()
    assert "chrf: engine vs per-pair ORANGE on 1 sentences: identical" in text
    assert "chrf++: engine vs per-pair ORANGE on 1 sentences: identical" in text
    assert "chrf: ORANGE" in text and "chrf++: ORANGE" in text
