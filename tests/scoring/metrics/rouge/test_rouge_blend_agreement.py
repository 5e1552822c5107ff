"""ROUGE with ``preprocess=rouge155,stem=true`` agrees with ROUGE-1.5.5 on
BLEND's 5,360 WMT15/16 DA segments (one reference, Moses-tokenised,
lower-cased, XML-escaped text).

``scores/ROUGE-*`` are the F-scores of ``ROUGE-1.5.5.pl -z SPL -2 -1 -U -r
1000 -n 4 -w 1.2 -c 95 -d -m``: Porter stemming with WordNet 2.0 exceptions.
Every segment must equal the printed 5-decimal value. The data also
pins down the exception table: without it 309 ROUGE-1 segments differ, and
with ``better``/``best`` -> ``good`` (adj.exc read last) 2 differ, so the
official database maps them to ``well`` (adv.exc read after adj.exc).
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring import get_metric
from scoring.metrics.rouge import preprocess as rouge_preprocess
from scoring.metrics.rouge.preprocess import wordnet_exceptions
from tests.scoring.support.realdata import measured, segment_count
from tests.scoring.support.rouge_oracles import (
    BLEND_DIR,
    BLEND_MEASURES,
    BLEND_SET,
    blend_lines,
    with_options,
)

F_COLUMN = 5


@pytest.fixture(scope="module")
def blend() -> tuple[list[str], list[list[str]]]:
    """(hypotheses, [references]) of the preprocessed BLEND files."""
    if not (BLEND_DIR / "scores" / "ROUGE-L").is_file():
        pytest.skip(f"BLEND data not found at {BLEND_DIR}")
    if wordnet_exceptions() is None:
        pytest.skip("WordNet exception lists (Debian wordnet-base) not installed")
    hypotheses = blend_lines("preprocessed", "train.mt-system.toen")
    references = [blend_lines("preprocessed", "train.reference.toen")]
    return hypotheses, references


@pytest.mark.parametrize("measure", list(BLEND_MEASURES))
def test_every_segment_f_equals_rouge_1_5_5_with_stemming_on_blend(
    blend: tuple[list[str], list[list[str]]], measure: str
) -> None:
    hypotheses, references = blend
    expected = np.array([float(value) for value in blend_lines("scores", measure)])
    spec = with_options(BLEND_MEASURES[measure], "preprocess=rouge155,stem=true")
    statistics = get_metric(spec).segment_statistics(hypotheses, references)
    assert len(expected) == len(statistics) == segment_count(BLEND_SET, full=5360)
    difference = np.abs(statistics[:, F_COLUMN] - expected)
    assert difference.max() <= 1e-9, (measure, int(difference.argmax()))


@pytest.mark.parametrize(
    ("change", "differing_segments"),
    # measured on all 5360 segments (on the 210 of the fixtures: 17 and 0)
    [
        ("no exceptions", measured(full=309, fixtures=17)),
        ("better/best -> good", measured(full=2, fixtures=0)),
    ],
)
def test_blend_needs_the_wordnet_2_0_exception_table_as_rouge_builds_it(
    blend: tuple[list[str], list[list[str]]],
    monkeypatch: pytest.MonkeyPatch,
    change: str,
    differing_segments: int,
) -> None:
    table = dict(wordnet_exceptions() or {})
    altered = (
        None
        if change == "no exceptions"
        else {**table, "better": "good", "best": "good"}
    )
    monkeypatch.setattr(rouge_preprocess, "wordnet_exceptions", lambda: altered)
    rouge_preprocess.rouge155_stem.cache_clear()
    try:
        hypotheses, references = blend
        metric = get_metric("rouge-n:n=1,preprocess=rouge155,stem=true")
        statistics = metric.segment_statistics(hypotheses, references)
    finally:
        rouge_preprocess.rouge155_stem.cache_clear()
    expected = np.array([float(value) for value in blend_lines("scores", "ROUGE-1")])
    differing = np.abs(statistics[:, F_COLUMN] - expected) > 1e-9
    assert int(differing.sum()) == differing_segments
