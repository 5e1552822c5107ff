"""WER.pl and PER.pl 1.0 (Universitat d'Alacant) figures for the WER/PER tests.

Oracles: ``ualacant-wer`` / ``ualacant-per`` in ``oracle-figures/wmt21-*.json``
(one reference, ``wer_per_reference``) and BLEND's ``scores/WER``, ``nWER``
and ``nPER`` (5360 segments). Both scripts split on ASCII whitespace only and
are case-sensitive (``tokenize=ascii``); they print 15 digits.

On the committed fixtures the oracle's corpus figures are those of the full
files, so there the expected corpus figure is recomputed from the scripts'
own segment figures over the kept segments (see :func:`assert_agrees`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

from scoring import MetricResult
from tests.scoring.support.oracles import oracle, oracle_figures, oracle_text
from tests.scoring.support.realdata import DATA_DIR, FULL_DATA, read_lines

TOLERANCE = 1e-4
BLEND_SET = "blend-wmt15-16-da"
BLEND_DIR = DATA_DIR / BLEND_SET

# (segment figures (n,), our statistics (n, k)) -> the script's corpus figure
CorpusOfSegments = Callable[[np.ndarray, np.ndarray], float]


def single_reference_case(pair: str, system: str) -> tuple[list[str], list[str]]:
    """Hypotheses of ``system`` and the one reference the scripts were given."""
    reference = oracle_text(pair, oracle(pair)["wer_per_reference"])
    return list(oracle_text(pair, system)), list(reference)


def wer_pl_corpus(segments: np.ndarray, statistics: np.ndarray) -> float:
    """WER.pl's corpus figure, sum(edits) / sum(|ref|), from its segment
    figures edits / |ref| and our ``[edits, ref_len]`` rows."""
    reference_lengths = statistics[:, 1]
    return float((segments * reference_lengths).sum() / reference_lengths.sum())


def per_pl_corpus(segments: np.ndarray, statistics: np.ndarray) -> float:
    """PER.pl's corpus figure, (max(sum |hyp|, sum |ref|) - sum(matches)) /
    sum(|ref|), from its segment figures (max(|hyp|, |ref|) - matches) / |ref|
    and our ``[errors, matches, hyp_len, closest_ref_len, ref_len]`` rows."""
    hyp_len, ref_len = statistics[:, 2], statistics[:, 4]
    matches = np.maximum(hyp_len, ref_len) - segments * ref_len
    pooled = max(hyp_len.sum(), ref_len.sum())
    return float((pooled - matches.sum()) / ref_len.sum())


def assert_agrees(
    result: MetricResult,
    pair: str,
    system: str,
    metric_id: str,
    corpus_of_segments: CorpusOfSegments,
) -> None:
    """Our segment and corpus scores (0-100) equal the script's (fractions).

    On the fixtures the corpus figure is ``corpus_of_segments`` of the
    script's own segment figures: its corpus figure for the kept segments.
    """
    expected = oracle_figures(pair, system, metric_id)
    assert result.sentence_scores is not None
    ours = np.array(result.sentence_scores) / 100
    theirs = np.array(expected["segments"])
    assert ours.shape == theirs.shape == (oracle(pair)["num_segments"],)
    assert np.abs(ours - theirs).max() <= TOLERANCE
    if FULL_DATA:
        corpus = expected["corpus"]
    else:
        corpus = corpus_of_segments(theirs, result.statistics)
    assert result.score / 100 == pytest.approx(corpus, abs=TOLERANCE)


@cache
def blend() -> tuple[list[str], list[str]]:
    """BLEND's ``preprocessed/`` MT output and reference."""
    if not BLEND_DIR.is_dir():
        pytest.skip(f"BLEND data not found at {BLEND_DIR}")
    return (
        read_lines(BLEND_DIR / "preprocessed" / "train.mt-system.toen"),
        read_lines(BLEND_DIR / "preprocessed" / "train.reference.toen"),
    )


def blend_scores(name: str) -> np.ndarray:
    """One of BLEND's ``scores/`` files: ``(n_segments,)``."""
    return np.array([float(value) for value in read_lines(BLEND_DIR / "scores" / name)])
