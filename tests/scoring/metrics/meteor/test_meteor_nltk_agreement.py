"""The 2005 parameter set against NLTK's ``meteor_score`` (test-only).

NLTK's WordNet reader cannot read Debian's ``wordnet-base`` (it needs the
``lexnames`` file and NLTK's downloaded corpus layout), and its synonym rule
differs from METEOR's anyway (a hypothesis word matches a reference word that
is a lemma name of one of its synsets). So the exact and stem stages are
compared: NLTK gets a synonym-free WordNet stub and the same original-Porter
stemmer (snowballstemmer's ``porter``), and both see the same words.

NLTK aligns greedily (each stage pairs words scanning from the end of the
sentences) where Banerjee & Lavie choose, among alignments with the most
matches, the one with the fewest chunks. Measured on the first 1000 BLEND
segments: scores agree (to 2.2e-16) on all 241 segments in which no stem
occurs twice on a side, where the alignment is unique; elsewhere 585 of
1000 agree to 1e-4. 402 of the 415 other segments score higher here
(fewer chunks); 13 score lower, where fixing the exact stage first leaves
fewer stem matches than NLTK's greedy pairing.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from scoring.lexicon.stemmers import stemmer
from scoring.metrics.meteor.metric import Meteor
from tests.scoring.support.blend import BLEND, decode_sgml
from tests.scoring.support.realdata import read_lines


@functools.cache
def nltk_meteor():
    # Imported by the tests that use it, not at collection: NLTK takes about
    # 1.5 s to import, and every test process collects this module.
    return pytest.importorskip(
        "nltk.translate.meteor_score", reason="NLTK (test-only) missing"
    )


class NoSynonyms:
    """A WordNet stand-in without synonyms."""

    def synsets(self, word: str) -> list:
        return []


class Porter:
    """NLTK's stemmer interface over the stemmer the metric uses."""

    def __init__(self) -> None:
        self._stem = stemmer("porter")

    def stem(self, word: str) -> str:
        return self._stem(word)


def nltk_score(hyp: tuple[str, ...], ref: tuple[str, ...]) -> float:
    return nltk_meteor().meteor_score(
        [ref], hyp, stemmer=Porter(), wordnet=NoSynonyms()
    )


def test_it_agrees_with_nltk_on_a_worked_sentence() -> None:
    metric = Meteor(params="2005", modules="exact+stem")
    hyp = metric.words("the cats sat on a mat")
    ref = metric.words("on the mat sat a cat")
    ours = metric.score([" ".join(hyp)], [[" ".join(ref)]]).score
    assert ours == pytest.approx(nltk_score(hyp, ref), abs=1e-12)


def test_it_agrees_with_nltk_wherever_the_alignment_is_unique() -> None:
    if not BLEND.is_dir():
        pytest.skip(f"BLEND data not found at {BLEND}")
    hyps = [
        decode_sgml(x) for x in read_lines(BLEND / "preprocessed/train.mt-system.toen")
    ][:300]
    refs = [
        decode_sgml(x) for x in read_lines(BLEND / "preprocessed/train.reference.toen")
    ][:300]  # the committed fixtures hold 210 of them
    metric = Meteor(params="2005", modules="exact+stem", norm=False)
    ours = np.array(metric.score(hyps, [refs], sentence=True).sentence_scores)
    stem = stemmer("porter")
    unique, lower = 0, 0
    for index, (hyp_text, ref_text) in enumerate(zip(hyps, refs, strict=True)):
        hyp, ref = metric.words(hyp_text), metric.words(ref_text)
        theirs = nltk_score(hyp, ref)
        if len({stem(w) for w in hyp}) == len(hyp) and len(
            {stem(w) for w in ref}
        ) == len(ref):
            unique += 1
            assert ours[index] == pytest.approx(theirs, abs=1e-12)
        lower += ours[index] < theirs - 1e-12
    # About one segment in four has a unique alignment (70 of the first 300,
    # 50 of the first 210): enough of them must have been compared.
    assert unique >= len(hyps) // 5
    assert lower <= 5  # stage-wise optimum vs greedy, see the docstring
