"""TER agrees exactly with TERCOM 0.7.25 on WMT21 (2-3 references).

Oracle: ``oracle-figures/wmt21-{de-en,en-de,ru-en}.json`` (8 systems,
1000-1002 segments each), TERCOM run with ``-s`` (case-sensitive) on the
plain text: ``tercom-ter-cased`` (segment TER and "Total TER"),
``tercom-edits-cased`` (edits to the best reference; corpus = sum) and
``tercom-avgreflen-cased`` (average reference length; corpus = sum). Our
``ter:tercom=true,lowercase=false`` reproduces every one of them: the
largest difference measured is 2.2e-16 (floating-point division), edits and
lengths are identical integers / averages. The ``-wsnorm`` runs are in
``test_ter_tercom_wsnorm_agreement.py``.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np
import pytest

from scoring import MetricResult
from scoring.ter import TER
from tests.scoring.realdata import DATA_DIR, read_lines

TOLERANCE = 1e-4
ORACLE_DIR = DATA_DIR / "oracle-figures"
PAIRS = ["de-en", "en-de", "ru-en"]


@cache
def oracle(pair: str) -> dict[str, Any]:
    path = ORACLE_DIR / f"wmt21-{pair}.json"
    if not path.is_file():
        pytest.skip(f"oracle figures not found at {path} (../shared/data)")
    return json.loads(path.read_text(encoding="utf-8"))


def oracle_systems(pairs: list[str] = PAIRS) -> list[tuple[str, str]]:
    """(pair, system file) of every system in the oracle files present."""
    cases = []
    for pair in pairs:
        path = ORACLE_DIR / f"wmt21-{pair}.json"
        if path.is_file():
            systems = json.loads(path.read_text(encoding="utf-8"))["systems"]
            cases += [(pair, system) for system in systems]
    return cases or [("missing", "missing")]


def system_and_references(pair: str, system: str) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and all reference streams, in the oracle's order."""
    figures = oracle(pair)
    directory = DATA_DIR / figures["dataset"]
    references = [read_lines(directory / name) for name in figures["references"]]
    return read_lines(directory / system), references


@cache
def our_ter(pair: str, system: str, metric: TER) -> MetricResult:
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
    assert edits.sum() == figures[f"tercom-edits{suffix}"]["corpus"]
    assert lengths.sum() == pytest.approx(
        figures[f"tercom-avgreflen{suffix}"]["corpus"], abs=1e-6
    )
    assert result.score / 100 == pytest.approx(
        figures[f"tercom-ter{suffix}"]["corpus"], abs=TOLERANCE
    )


@pytest.mark.parametrize(("pair", "system"), oracle_systems())
def test_it_matches_tercom_cased_segment_by_segment_and_in_total(
    pair: str, system: str
) -> None:
    result = our_ter(pair, system, TER(tercom=True, lowercase=False))
    assert_matches_tercom(result, oracle(pair)["systems"][system], "-cased")


def test_tercom_mode_keeps_a_no_break_space_inside_a_word() -> None:
    # Reference A of en-de has 42 lines with U+00A0 (oracle README): in
    # each, TERCOM mode finds fewer words than the default text handling.
    _hypotheses, references = system_and_references("en-de", "sys/UEdin.de")
    with_nbsp = [line for line in references[0] if "\u00a0" in line]
    assert len(with_nbsp) == 42
    tercom, default = TER(tercom=True).preprocessor, TER().preprocessor
    assert all(len(tercom(line)) < len(default(line)) for line in with_nbsp)
