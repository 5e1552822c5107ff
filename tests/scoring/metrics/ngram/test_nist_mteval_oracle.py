"""NIST reproduces mteval-v13a.pl's figures, every segment and the corpus.

Oracles: ``oracle-figures/wmt21-*.json`` (ids ``mteval13a-nist-cased`` /
``-uncased``; 2-3 references; information weights from all references of
the test set) and BLEND's ``scores/NIST`` (5360 segments, one reference).
Measured: every value agrees to <= 6e-14 (mteval prints 15 significant
digits), so besides the 1e-4 of the brief we assert 1e-12.

Every NIST figure, segment or corpus, depends on information weights
counted over all references of the whole test set, so mteval's figures can
only be checked on the full data. On any data, including the committed
fixtures, NLTK's ``corpus_nist`` is the live reference implementation: with
one reference it computes mteval's NIST (with several it picks one
reference per segment, which mteval does not).
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring import get_metric, get_tokenizer
from tests.scoring.support.oracles import (
    MTEVAL_RUNS,
    oracle,
    oracle_figures,
    oracle_references,
    oracle_text,
    system_key,
)
from tests.scoring.support.realdata import (
    DATA_DIR,
    full_data_params,
    read_lines,
    require_full_data,
)

TOLERANCE = 1e-4
MEASURED_EXACTNESS = 1e-12
BLEND_DIR = DATA_DIR / "blend-wmt15-16-da"
# The one line with a literal "&amp;" in each Online-W output (README 1).
AMP_LINES = {("de-en", "Online-W"): 902, ("en-de", "Online-W"): 241}
RUNS = MTEVAL_RUNS
CASED_RUNS = [(pair, system) for pair, case, system in RUNS if case == "cased"]
WEIGHTS = "mteval's NIST figures (weights from every reference of the test set)"
# Segments scored against NLTK: as many as the fixtures keep, so the full
# data run does the same work.
NLTK_SEGMENTS = 150


def nist_differences(
    spec: str, pair: str, system: str, case: str, **options: object
) -> tuple[np.ndarray, float]:
    """|ours - mteval| per segment, and our corpus score minus mteval's."""
    key = system_key(pair, system)
    expected = oracle_figures(pair, key, f"mteval13a-nist-{case}")
    result = get_metric(spec, **options).score(
        oracle_text(pair, key), oracle_references(pair), sentence=True
    )
    differences = np.abs(np.array(result.sentence_scores) - expected["segments"])
    return differences, result.score - expected["corpus"]


@pytest.mark.parametrize(("pair", "case", "system"), RUNS)
def test_its_corpus_nist_with_each_reference_alone_is_nltks(
    pair: str, case: str, system: str
) -> None:
    # NLTK is given our mteval13a tokens, whose agreement with mteval the
    # BLEU oracle test checks segment by segment.
    nist_score = pytest.importorskip("nltk.translate.nist_score")
    tokenizer = get_tokenizer("mteval13a", case == "uncased")
    metric = get_metric("nist:tokenize=mteval13a", lowercase=case == "uncased")
    hypotheses = oracle_text(pair, system_key(pair, system))[:NLTK_SEGMENTS]
    for stream in oracle_references(pair):
        references = stream[:NLTK_SEGMENTS]
        ours = metric.score(hypotheses, [references]).score
        theirs = nist_score.corpus_nist(
            [[list(tokenizer(reference))] for reference in references],
            [list(tokenizer(hypothesis)) for hypothesis in hypotheses],
        )
        assert ours == pytest.approx(theirs, rel=1e-12)


@pytest.mark.parametrize(("pair", "case", "system"), full_data_params(RUNS, WEIGHTS))
def test_it_reproduces_mteval_v13a_nist_of_every_segment_and_the_corpus(
    pair: str, case: str, system: str
) -> None:
    differences, corpus_difference = nist_differences(
        "nist:tokenize=mteval13a", pair, system, case, lowercase=case == "uncased"
    )
    assert differences.shape == (oracle(pair)["num_segments"],)
    assert int((differences > TOLERANCE).sum()) == 0
    assert differences.max() < MEASURED_EXACTNESS
    assert abs(corpus_difference) < MEASURED_EXACTNESS


def _lines_with_a_matched_bigram_starting_with_0(pair: str, system: str) -> list[int]:
    tokenizer = get_tokenizer("mteval13a")
    references = oracle_references(pair)
    lines = []
    for index, hypothesis in enumerate(oracle_text(pair, system_key(pair, system))):
        tokens = tokenizer(hypothesis)
        zero_bigrams = {pair for pair in zip(tokens, tokens[1:]) if pair[0] == "0"}
        for stream in references:
            reference = tokenizer(stream[index])
            if zero_bigrams & set(zip(reference, reference[1:])):
                lines.append(index + 1)
                break
    return lines


def test_the_oracle_exercises_mtevals_zero_prefix_quirk() -> None:
    # Matched bigrams "0 w" get mteval's quirky weight log2(words / count)
    # (scoring.metrics.ngram.nist_weights). Without it these 13 segments of de-en
    # Facebook-AI differ from mteval by up to 1.0 and the corpus by 0.009
    # (measured); the test above shows that with it they agree.
    require_full_data("the oracle's segments with a matched '0 w' bigram (from 234)")
    assert _lines_with_a_matched_bigram_starting_with_0("de-en", "Facebook-AI") == [
        234,
        365,
        530,
        531,
        536,
        689,
        694,
        696,
        699,
        872,
        879,
        895,
        906,
    ]


@pytest.mark.parametrize(("pair", "system"), full_data_params(CASED_RUNS, WEIGHTS))
def test_the_unicode_correct_13a_differs_from_mteval_only_on_literal_amp_lines(
    pair: str, system: str
) -> None:
    # Default text processing (sacreBLEU's 13a): the literal "&amp;" becomes
    # "&" instead of "& amp ;" (README 1); nothing else differs in cased runs.
    differences, corpus_difference = nist_differences("nist", pair, system, "cased")
    differing_lines = [int(i) + 1 for i in np.flatnonzero(differences > TOLERANCE)]
    amp_line = AMP_LINES.get((pair, system))
    assert differing_lines == ([amp_line] if amp_line else [])
    if not amp_line:
        assert differences.max() < MEASURED_EXACTNESS
        assert abs(corpus_difference) < MEASURED_EXACTNESS


@pytest.mark.parametrize(
    ("system", "n_differing", "largest", "corpus"),
    full_data_params(
        [("Facebook-AI", 23, 0.139, 1.93e-4), ("UEdin", 25, 0.139, 1.61e-4)], WEIGHTS
    ),
)
def test_unicode_lowercasing_changes_the_german_weights_as_measured(
    system: str, n_differing: int, largest: float, corpus: float
) -> None:
    # Uncased en-de with the default 13a: Python's str.lower() also folds
    # Ü, Ä, Ö ... in the references, which pools their counts and changes
    # the information weights of the n-grams with those words, so segments
    # all over the corpus move a little; mteval folds A-Z only. Measured
    # values pinned (count exact, magnitudes to 2-3 digits).
    differences, corpus_difference = nist_differences(
        "nist", "en-de", system, "uncased", lowercase=True
    )
    assert int((differences > TOLERANCE).sum()) == n_differing
    assert differences.max() == pytest.approx(largest, abs=1e-3)
    assert abs(corpus_difference) == pytest.approx(corpus, abs=1e-5)


def test_it_reproduces_blends_mteval_segment_nist_on_all_5360_segments() -> None:
    # Weights from all 5360 references (BLEND scored everything as one set).
    require_full_data("BLEND's NIST figures (weights from all 5360 references)")
    hypotheses = read_lines(BLEND_DIR / "preprocessed/train.mt-system.toen")
    references = read_lines(BLEND_DIR / "preprocessed/train.reference.toen")
    expected = np.array(
        [float(value) for value in read_lines(BLEND_DIR / "scores/NIST")]
    )
    metric = get_metric("nist:tokenize=mteval13a-sgml,lowercase=true")
    result = metric.score(hypotheses, [references], sentence=True)
    ours = np.array(result.sentence_scores)
    assert ours.shape == expected.shape == (5360,)
    differences = np.abs(ours - expected)
    assert int((differences > TOLERANCE).sum()) == 0
    assert differences.max() < MEASURED_EXACTNESS
