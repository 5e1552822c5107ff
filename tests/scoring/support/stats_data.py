"""Real data for the statistics tests (the full data or the committed fixtures).

Plain helpers, cached per session; tests call :func:`require` first so they
are skipped, with the reason shown, when the data is absent.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from scoring import get_metric
from tests.scoring.support.realdata import (
    DATA_DIR,
    WMT21_DIR,
    load_test_set,
    read_lines,
)

BLEND_DIR = DATA_DIR / "blend-wmt15-16-da"


def require(path: Path) -> None:
    """Skip the calling test when ``path`` is missing."""
    __tracebackhide__ = True  # report the skip at the caller's line
    if not path.exists():
        pytest.skip(f"real data not found: {path}")


def read_tsv(path: Path, delimiter: str = "\t") -> list[dict[str, str]]:
    """Rows of a TSV file with a header line, as dicts."""
    lines = read_lines(path)
    header = lines[0].split(delimiter)
    return [dict(zip(header, line.split(delimiter))) for line in lines[1:] if line]


@cache
def blend_human() -> np.ndarray:
    """DA z-scores of the BLEND segments: ``(5360,)`` (fixtures: ``(210,)``)."""
    return np.array(
        [float(v) for v in read_lines(BLEND_DIR / "orig" / "train.human.toen")]
    )


@cache
def blend_metric(name: str) -> np.ndarray:
    """Segment scores of one BLEND metric file."""
    return np.array([float(v) for v in read_lines(BLEND_DIR / "scores" / name)])


@cache
def raw_da_rows(pair: str) -> tuple[dict[str, str], ...]:
    """WMT21 raw DA judgements of ``pair``; the header is space-separated,
    the rows tab-separated (as published)."""
    name = {"ru-en": "ad-ruen-good-stnd.csv", "de-en": "ad-deen-good-stnd.csv"}[pair]
    lines = read_lines(WMT21_DIR / pair / "human" / "raw" / name)
    header = lines[0].split()
    return tuple(dict(zip(header, line.split("\t"))) for line in lines[1:] if line)


@cache
def official_scores(pair: str, metric: str) -> dict[str, float]:
    """system -> official WMT21 score (``bleu-all``, ``chrf-all``...)."""
    rows = read_tsv(WMT21_DIR / "automatic-scores.tsv")
    return {
        row["system"]: float(row["score"])
        for row in rows
        if row["pair"] == pair and row["metric"] == metric
    }


@cache
def sentence_bleu(pair: str, references: str, system: str) -> np.ndarray:
    """Our sentence BLEU (0-100, add-one smoothing) of every line: ``(n,)``."""
    test_set = load_test_set(pair, references)
    result = get_metric("bleu").score(
        test_set.system(system), test_set.references, sentence=True
    )
    return np.array(result.sentence_scores)


@cache
def bleu_statistics(pair: str, references: str, system: str) -> np.ndarray:
    """Our BLEU sufficient statistics of every line: ``(n, 10)``."""
    test_set = load_test_set(pair, references)
    return get_metric("bleu").segment_statistics(
        test_set.system(system), test_set.references
    )
