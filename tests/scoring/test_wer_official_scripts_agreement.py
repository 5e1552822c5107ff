"""WER agrees with WER.pl 1.0 (Universitat d'Alacant), segment and corpus.

(PER.pl: ``test_per_official_scripts_agreement.py``, which reuses the data
helpers below.)

Oracles (read from ``../shared/data``; skipped with a reason when absent):

- ``oracle-figures/wmt21-*.json``, ``ualacant-wer``: WER.pl against the
  single reference ``wer_per_reference`` of WMT21 de-en, en-de and ru-en
  (8 systems, 1000-1002 segments each);
- ``blend-wmt15-16-da/scores/WER`` and ``nWER`` (= -WER): the same script
  on the BLEND ``preprocessed/`` files, 5360 segments.

WER.pl splits on ASCII whitespace only and is case-sensitive, which is
``tokenize=ascii``. Every value agrees to 5e-15 (WER.pl prints 15 digits).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np
import pytest

from scoring.wer import WER
from tests.scoring.realdata import DATA_DIR, read_lines

TOLERANCE = 1e-4
ORACLE_DIR = DATA_DIR / "oracle-figures"
BLEND_DIR = DATA_DIR / "blend-wmt15-16-da"
PAIRS = ["de-en", "en-de", "ru-en"]


@cache
def oracle(pair: str) -> dict[str, Any]:
    path = ORACLE_DIR / f"wmt21-{pair}.json"
    if not path.is_file():
        pytest.skip(f"oracle figures not found at {path} (../shared/data)")
    return json.loads(path.read_text(encoding="utf-8"))


def oracle_systems() -> list[tuple[str, str]]:
    """(pair, system file) of every system in the oracle files present."""
    cases = []
    for pair in PAIRS:
        path = ORACLE_DIR / f"wmt21-{pair}.json"
        if path.is_file():
            systems = json.loads(path.read_text(encoding="utf-8"))["systems"]
            cases += [(pair, system) for system in systems]
    return cases or [("missing", "missing")]


def single_reference_case(pair: str, system: str) -> tuple[list[str], list[str], dict]:
    figures = oracle(pair)
    directory = DATA_DIR / figures["dataset"]
    hypotheses = read_lines(directory / system)
    reference = read_lines(directory / figures["wer_per_reference"])
    return hypotheses, reference, figures["systems"][system]


def assert_agrees(
    result_scores: tuple[float, ...], corpus: float, expected: dict
) -> None:
    ours = np.array(result_scores) / 100
    theirs = np.array(expected["segments"])
    assert ours.shape == theirs.shape
    assert np.abs(ours - theirs).max() <= TOLERANCE
    assert corpus / 100 == pytest.approx(expected["corpus"], abs=TOLERANCE)


@pytest.mark.parametrize(("pair", "system"), oracle_systems())
def test_it_matches_wer_pl_segment_and_corpus_wer_on_wmt21(
    pair: str, system: str
) -> None:
    hypotheses, reference, figures = single_reference_case(pair, system)
    result = WER(tokenize="ascii").score(hypotheses, [reference], sentence=True)
    assert result.sentence_scores is not None
    assert_agrees(result.sentence_scores, result.score, figures["ualacant-wer"])


@cache
def blend() -> tuple[list[str], list[str]]:
    if not BLEND_DIR.is_dir():
        pytest.skip(f"BLEND data not found at {BLEND_DIR} (../shared/data)")
    return (
        read_lines(BLEND_DIR / "preprocessed" / "train.mt-system.toen"),
        read_lines(BLEND_DIR / "preprocessed" / "train.reference.toen"),
    )


def blend_scores(name: str) -> np.ndarray:
    return np.array([float(value) for value in read_lines(BLEND_DIR / "scores" / name)])


def test_it_matches_the_blend_wer_and_nwer_of_all_5360_segments() -> None:
    hypotheses, references = blend()
    result = WER(tokenize="ascii").score(hypotheses, [references], sentence=True)
    ours = np.array(result.sentence_scores) / 100
    assert ours.shape == (5360,)
    assert np.abs(ours - blend_scores("WER")).max() <= TOLERANCE
    assert np.abs(-ours - blend_scores("nWER")).max() <= TOLERANCE
