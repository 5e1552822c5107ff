"""TERCOM 0.7.25 figures of the WMT21 oracle files, for the TER tests.

Ids (see the oracle README): ``tercom-ter-cased`` (segment TER and "Total
TER"), ``tercom-edits-cased`` (edits to the best reference; corpus = sum),
``tercom-avgreflen-cased`` (average reference length; corpus = sum), and the
same with ``-wsnorm`` (U+00A0 and U+3000 replaced by spaces first).

On the committed fixtures the corpus figures are those of the full files;
there :func:`assert_matches_tercom` checks the corpus figures that TERCOM's
own segment figures give for the kept segments: the sums of edits and of
average lengths, and "Total TER" = sum(edits) / sum(average lengths).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from scoring import MetricResult
from scoring.metrics.ter.metric import TER
from tests.scoring.support.oracles import oracle_references, oracle_text
from tests.scoring.support.realdata import FULL_DATA

TOLERANCE = 1e-4


def system_and_references(pair: str, system: str) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and all reference streams, in the oracle's order."""
    references = [list(stream) for stream in oracle_references(pair)]
    return list(oracle_text(pair, system)), references


@cache
def our_ter(pair: str, system: str, metric: TER) -> MetricResult:
    """Our TER of an oracle system, segment scores included (once per run)."""
    hypotheses, references = system_and_references(pair, system)
    return metric.score(hypotheses, references, sentence=True)


def assert_matches_tercom(result: MetricResult, figures: dict, suffix: str) -> None:
    """Segment TER, edits and average lengths, and the corpus figures."""
    assert result.sentence_scores is not None
    edits, lengths = result.statistics[:, 0], result.statistics[:, 1]
    expected_edits = np.array(figures[f"tercom-edits{suffix}"]["segments"])
    expected_lengths = np.array(figures[f"tercom-avgreflen{suffix}"]["segments"])
    expected_ter = np.array(figures[f"tercom-ter{suffix}"]["segments"])
    assert np.array_equal(edits, expected_edits)
    assert np.abs(lengths - expected_lengths).max() <= 1e-9
    ours = np.array(result.sentence_scores) / 100
    assert np.abs(ours - expected_ter).max() <= TOLERANCE
    if FULL_DATA:
        total_edits = figures[f"tercom-edits{suffix}"]["corpus"]
        total_length = figures[f"tercom-avgreflen{suffix}"]["corpus"]
        total_ter = figures[f"tercom-ter{suffix}"]["corpus"]
    else:  # TERCOM's totals over the kept segments
        total_edits = expected_edits.sum()
        total_length = expected_lengths.sum()
        total_ter = total_edits / total_length
    assert edits.sum() == total_edits
    assert lengths.sum() == pytest.approx(total_length, abs=1e-6)
    assert result.score / 100 == pytest.approx(total_ter, abs=TOLERANCE)
