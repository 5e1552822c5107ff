import numpy as np

from scoring.bench.synthetic import CorpusShape, make_corpus

SMALL = CorpusShape(n_sentences=12, n_candidates=50, vocabulary_size=500)


def test_it_has_the_requested_shape_and_lengths():
    corpus = make_corpus(SMALL, seed=3)
    nbest = corpus.nbest
    assert nbest.sentence_offsets.tolist() == list(range(0, 12 * 50 + 1, 50))
    lengths = np.diff(nbest.candidate_offsets)
    assert lengths.size == 600
    assert 20 <= lengths.min() and lengths.max() <= 40
    assert nbest.tokens.max() < 500
    assert all(len(refs) == 4 for refs in corpus.references)
    assert all(20 <= ref.size <= 40 for refs in corpus.references for ref in refs)


def test_it_is_deterministic_for_a_seed():
    first, again, other = (make_corpus(SMALL, seed=s) for s in (3, 3, 4))
    assert np.array_equal(first.nbest.tokens, again.nbest.tokens)
    assert not np.array_equal(first.nbest.tokens[:200], other.nbest.tokens[:200])


def test_candidates_overlap_the_references_like_mt_output():
    corpus = make_corpus(SMALL, seed=3)
    reference = set(corpus.references[0][0].tolist())
    candidate = corpus.nbest.candidate_tokens(0).tolist()
    shared = sum(token in reference for token in candidate) / len(candidate)
    assert 0.4 < shared < 0.95
