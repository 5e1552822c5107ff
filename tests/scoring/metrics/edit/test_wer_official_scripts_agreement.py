"""WER agrees with WER.pl 1.0 (Universitat d'Alacant), segment and corpus.

Oracles (see :mod:`tests.scoring.support.edit_oracles`):

- ``oracle-figures/wmt21-*.json``, ``ualacant-wer``: WER.pl against the
  single reference ``wer_per_reference`` of WMT21 de-en, en-de and ru-en
  (8 systems, 1000-1002 segments each);
- ``blend-wmt15-16-da/scores/WER`` and ``nWER`` (= -WER): the same script
  on the BLEND ``preprocessed/`` files, 5360 segments.

WER.pl splits on ASCII whitespace only and is case-sensitive, which is
``tokenize=ascii``. Every value agrees to 5e-15 (WER.pl prints 15 digits).
On the committed fixtures every kept segment is checked, and the corpus
score against WER.pl's figure for the kept segments, sum(edits) / sum(|ref|)
from its own segment figures.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring.metrics.edit.wer import WER
from tests.scoring.support.edit_oracles import (
    BLEND_SET,
    TOLERANCE,
    assert_agrees,
    blend,
    blend_scores,
    single_reference_case,
    wer_pl_corpus,
)
from tests.scoring.support.oracles import oracle_cases
from tests.scoring.support.realdata import segment_count


@pytest.mark.parametrize(("pair", "system"), oracle_cases())
def test_it_matches_wer_pl_segment_and_corpus_wer_on_wmt21(
    pair: str, system: str
) -> None:
    hypotheses, reference = single_reference_case(pair, system)
    result = WER(tokenize="ascii").score(hypotheses, [reference], sentence=True)
    assert_agrees(result, pair, system, "ualacant-wer", wer_pl_corpus)


def test_it_matches_the_blend_wer_and_nwer_of_every_segment() -> None:
    hypotheses, references = blend()
    result = WER(tokenize="ascii").score(hypotheses, [references], sentence=True)
    ours = np.array(result.sentence_scores) / 100
    assert ours.shape == (segment_count(BLEND_SET, full=5360),)
    assert np.abs(ours - blend_scores("WER")).max() <= TOLERANCE
    assert np.abs(-ours - blend_scores("nWER")).max() <= TOLERANCE
