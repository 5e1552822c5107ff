"""TER agrees exactly with TERCOM 0.7.25 on WMT21 (2-3 references).

Oracle: ``oracle-figures/wmt21-{de-en,en-de,ru-en}.json`` (8 systems,
1000-1002 segments each), TERCOM run with ``-s`` (case-sensitive) on the
plain text: ``tercom-ter-cased`` (segment TER and "Total TER"),
``tercom-edits-cased`` (edits to the best reference; corpus = sum) and
``tercom-avgreflen-cased`` (average reference length; corpus = sum). Our
``ter:tercom=true,lowercase=false`` reproduces every one of them: the
largest difference measured is 2.2e-16 (floating-point division), edits and
lengths are identical integers / averages. The ``-wsnorm`` runs are in
``test_ter_tercom_wsnorm_agreement.py``. On the committed fixtures every
kept segment is checked, and the totals against TERCOM's totals of the kept
segments (:mod:`tests.scoring.support.ter_oracles`).
"""

from __future__ import annotations

import pytest

from scoring.metrics.ter.metric import TER
from tests.scoring.support.oracles import oracle, oracle_cases
from tests.scoring.support.realdata import measured
from tests.scoring.support.ter_oracles import (
    assert_matches_tercom,
    our_ter,
    system_and_references,
)


@pytest.mark.parametrize(("pair", "system"), oracle_cases())
def test_it_matches_tercom_cased_segment_by_segment_and_in_total(
    pair: str, system: str
) -> None:
    result = our_ter(pair, system, TER(tercom=True, lowercase=False))
    assert_matches_tercom(result, oracle(pair)["systems"][system], "-cased")


def test_tercom_mode_keeps_a_no_break_space_inside_a_word() -> None:
    # Reference A of en-de has 42 lines with U+00A0 (oracle README; 4 of
    # them in the fixtures): in each, TERCOM mode finds fewer words than the
    # default text handling.
    _hypotheses, references = system_and_references("en-de", "sys/UEdin.de")
    with_nbsp = [line for line in references[0] if "\u00a0" in line]
    assert len(with_nbsp) == measured(full=42, fixtures=4)
    tercom, default = TER(tercom=True).preprocessor, TER().preprocessor
    assert all(len(tercom(line)) < len(default(line)) for line in with_nbsp)
