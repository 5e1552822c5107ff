"""BLEU reproduces mteval-v13a.pl's figures, every segment and the corpus.

Oracles: ``oracle-figures/wmt21-*.json`` (mteval-v13a run on WMT21 de-en,
en-de, ru-en; 2-3 references; ids ``mteval13a-bleu-cased`` / ``-uncased``,
its ``--metricsMATR`` files, 15 significant digits) and BLEND's
``scores/BLEU`` (5360 segments, one reference, mteval-v13a on the SGML of
``preprocessed/``). mteval's BLEU is a fraction; ours is 0-100, so ours / 100
is compared. Measured: every segment and corpus value agrees to <= 7e-16,
so besides the 1e-4 of the brief we assert 1e-12.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np
import pytest

from scoring import get_metric
from tests.scoring.realdata import DATA_DIR, read_lines

ORACLE_DIR = DATA_DIR / "oracle-figures"
BLEND_DIR = DATA_DIR / "blend-wmt15-16-da"
TOLERANCE = 1e-4
MEASURED_EXACTNESS = 1e-12

SYSTEMS = {
    "de-en": ("Facebook-AI", "Online-W", "VolcTrans-AT"),
    "en-de": ("Facebook-AI", "Online-W", "UEdin"),
    "ru-en": ("Facebook-AI", "Online-Y"),
}
RUNS = [
    (pair, case, system)
    for pair, systems in SYSTEMS.items()
    for case in ("cased", "uncased")
    for system in systems
]
MTEVAL_BLEU = "bleu:tokenize=mteval13a,smooth=mteval,sentence_smooth=mteval"


@cache
def oracle(pair: str) -> dict[str, Any]:
    """The oracle file of a WMT21 pair, its references and system outputs."""
    if not ORACLE_DIR.is_dir():
        pytest.skip(f"oracle figures not found at {ORACLE_DIR} (../shared/data)")
    figures = json.loads((ORACLE_DIR / f"wmt21-{pair}.json").read_text("utf-8"))
    directory = DATA_DIR / figures["dataset"]
    figures["reference_streams"] = [
        read_lines(directory / name) for name in figures["references"]
    ]
    figures["hypotheses"] = {
        name: read_lines(directory / name) for name in figures["systems"]
    }
    return figures


def system_key(pair: str, system: str) -> str:
    return f"sys/{system}.{pair.split('-')[1]}"


def test_the_oracle_files_hold_exactly_the_systems_tested_here() -> None:
    for pair, systems in SYSTEMS.items():
        expected = {system_key(pair, system) for system in systems}
        assert set(oracle(pair)["systems"]) == expected


@pytest.mark.parametrize(("pair", "case", "system"), RUNS)
def test_it_reproduces_mteval_v13a_bleu_of_every_segment_and_the_corpus(
    pair: str, case: str, system: str
) -> None:
    figures = oracle(pair)
    expected = figures["systems"][system_key(pair, system)][f"mteval13a-bleu-{case}"]
    metric = get_metric(MTEVAL_BLEU, lowercase=case == "uncased")
    result = metric.score(
        figures["hypotheses"][system_key(pair, system)],
        figures["reference_streams"],
        sentence=True,
    )
    ours = np.array(result.sentence_scores) / 100
    differences = np.abs(ours - np.array(expected["segments"]))
    assert ours.shape == (figures["num_segments"],)
    assert int((differences > TOLERANCE).sum()) == 0
    assert differences.max() < MEASURED_EXACTNESS
    assert abs(result.score / 100 - expected["corpus"]) < MEASURED_EXACTNESS


# The one line with a literal "&amp;" in each Online-W output (README 1).
AMP_LINES = {("de-en", "Online-W"): 902, ("en-de", "Online-W"): 241}


CASED_RUNS = [(pair, system) for pair, case, system in RUNS if case == "cased"]


@pytest.mark.parametrize(("pair", "system"), CASED_RUNS)
def test_the_unicode_correct_13a_differs_from_mteval_only_on_literal_amp_lines(
    pair: str, system: str
) -> None:
    # Same smoothing, sacreBLEU-style 13a text processing: sacreBLEU turns
    # the literal "&amp;" into "&", mteval tokenises it as "& amp ;". Every
    # other segment agrees, and the corpus score is sacreBLEU's (= WMT21's).
    figures = oracle(pair)
    key = system_key(pair, system)
    hypotheses = figures["hypotheses"][key]
    expected = figures["systems"][key]["mteval13a-bleu-cased"]
    metric = get_metric("bleu:smooth=mteval,sentence_smooth=mteval")
    result = metric.score(hypotheses, figures["reference_streams"], sentence=True)
    differences = np.abs(np.array(result.sentence_scores) / 100 - expected["segments"])
    differing_lines = [int(i) + 1 for i in np.flatnonzero(differences > TOLERANCE)]
    amp_line = AMP_LINES.get((pair, system))
    assert differing_lines == ([amp_line] if amp_line else [])
    if amp_line:
        assert "&amp;" in hypotheses[amp_line - 1]
    sacrebleu_figure = figures["systems"][key]["sacrebleu260-bleu"]["corpus"]
    assert result.score == pytest.approx(sacrebleu_figure, abs=TOLERANCE)


def blend_lines(name: str) -> list[str]:
    if not BLEND_DIR.is_dir():
        pytest.skip(f"BLEND data not found at {BLEND_DIR} (../shared/data)")
    return read_lines(BLEND_DIR / name)


def test_it_reproduces_blends_mteval_segment_bleu_on_all_5360_segments() -> None:
    # BLEND ran mteval on SGML whose segments are exactly the lines of
    # preprocessed/ (entities escaped: &quot; &apos; &amp;), so those lines
    # are read as <seg> content (mteval13a-sgml). Reading them as plain text
    # (mteval13a) would re-escape them and change 867 segments.
    hypotheses = blend_lines("preprocessed/train.mt-system.toen")
    references = blend_lines("preprocessed/train.reference.toen")
    expected = np.array([float(value) for value in blend_lines("scores/BLEU")])
    metric = get_metric(
        "bleu:tokenize=mteval13a-sgml,lowercase=true,"
        "smooth=mteval,sentence_smooth=mteval"
    )
    result = metric.score(hypotheses, [references], sentence=True)
    ours = np.array(result.sentence_scores) / 100
    assert ours.shape == expected.shape == (5360,)
    differences = np.abs(ours - expected)
    assert int((differences > TOLERANCE).sum()) == 0
    assert differences.max() < MEASURED_EXACTNESS
