"""Default TER text handling = TERCOM on whitespace-normalised text.

TERCOM's ``-wsnorm`` oracle runs (``oracle-figures``, see its README) used
copies of hypotheses and references in which U+00A0 and U+3000 had been
replaced by spaces. Our default text handling splits on every Unicode
whitespace character, and these files contain no other non-ASCII
whitespace, so ``ter:lowercase=false`` (default mode, case-sensitive like
``-s``) must reproduce ``tercom-*-cased-wsnorm`` on the unmodified files.
They differ from the as-is runs only in WMT21 en-de (references A and C
contain U+00A0; 46 segments per system); de-en and ru-en are identical, so
only en-de is scored here. Largest difference measured: 1.1e-16.
"""

from __future__ import annotations

import pytest

from scoring.metrics.ter.metric import TER
from tests.scoring.support.oracles import oracle, oracle_cases
from tests.scoring.support.realdata import measured
from tests.scoring.support.ter_oracles import assert_matches_tercom, our_ter


@pytest.mark.parametrize(("pair", "system"), oracle_cases(("en-de",)))
def test_it_matches_tercom_on_whitespace_normalised_text(
    pair: str, system: str
) -> None:
    result = our_ter(pair, system, TER(lowercase=False))
    figures = oracle(pair)["systems"][system]
    assert_matches_tercom(result, figures, "-cased-wsnorm")
    # ... and the as-is run differs, in 46 segments (4 of the fixtures), by
    # the U+00A0 words.
    as_is = figures["tercom-edits-cased"]["segments"]
    wsnorm = figures["tercom-edits-cased-wsnorm"]["segments"]
    as_is_lengths = figures["tercom-avgreflen-cased"]["segments"]
    wsnorm_lengths = figures["tercom-avgreflen-cased-wsnorm"]["segments"]
    differing = [
        index
        for index, (before, after) in enumerate(
            zip(zip(as_is, as_is_lengths), zip(wsnorm, wsnorm_lengths))
        )
        if before != after
    ]
    assert len(differing) == measured(full=46, fixtures=4)


@pytest.mark.parametrize(("pair", "system"), oracle_cases(("de-en", "ru-en")))
def test_wsnorm_changes_nothing_where_no_file_has_unicode_spaces(
    pair: str, system: str
) -> None:
    figures = oracle(pair)["systems"][system]
    for kind in ("ter", "edits", "avgreflen"):
        assert figures[f"tercom-{kind}-cased"] == figures[f"tercom-{kind}-cased-wsnorm"]
