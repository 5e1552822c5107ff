"""The METEOR benchmark's n-best lists are rewrites of real translations,
and the benchmark runs end to end at a tiny scale."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from scoring.bench.meteor_suite import english_nbest, main
from tests.scoring.support.realdata import DATA_DIR

WMT21_DE_EN = DATA_DIR / "wmt21" / "de-en"


@pytest.fixture(scope="module")
def folder():
    if not (WMT21_DE_EN / "sys").is_dir():
        pytest.skip(f"WMT21 de-en translations not found at {WMT21_DE_EN}")
    return WMT21_DE_EN


def test_references_are_translations_and_candidates_rewrite_the_others(folder):
    candidates, references = english_nbest([folder], 3, 16, seed=7)
    assert [len(c) for c in candidates] == [16, 16, 16]
    assert [len(r) for r in references] == [4, 4, 4]
    first_reference = (folder / "ref.A.en").read_text(encoding="utf-8").split("\n")[0]
    assert references[0][0] == first_reference.strip()
    # Same seed, same corpus.
    assert english_nbest([folder], 3, 16, seed=7) == (candidates, references)


def test_the_suite_runs_and_extrapolates(folder):
    out = io.StringIO()
    with redirect_stdout(out):
        main(["--wmt", str(folder), "--sentences", "2", "--candidates", "8"])
    text = out.getvalue()
    assert "metric meteor|" in text and "para:off" in text
    assert "ORANGE" in text and "extrapolated to 872 sentences" in text
