"""WMT21 systems and our chrF/chrF++ results shared by the sacreBLEU agreement tests."""

from __future__ import annotations

from functools import cache

import pytest

from scoring import MetricResult
from scoring.metrics.chrf.metric import CHRF
from tests.scoring.support.realdata import WMT21_DIR, WmtTestSet, load_test_set

TOLERANCE = 1e-4
SYSTEMS = {"en-de": "Facebook-AI", "zh-en": "ZengHuiMT", "de-en": "Online-W"}
REFERENCES = {"en-de": "ACD", "zh-en": "A", "de-en": "AB"}
WORD_ORDERS = pytest.mark.parametrize("word_order", [0, 2], ids=["chrF", "chrF++"])
PAIRS = pytest.mark.parametrize("pair", list(SYSTEMS))


def wmt21_pair(pair: str) -> WmtTestSet:
    if not WMT21_DIR.is_dir():
        pytest.skip(f"real WMT21 data not found at {WMT21_DIR} (../shared/data)")
    return load_test_set(pair, REFERENCES[pair])


@cache
def ours(pair: str, word_order: int) -> MetricResult:
    """Scored once per test run, whichever test file asks first."""
    data = wmt21_pair(pair)
    metric = CHRF(word_order=word_order)
    return metric.score(data.system(SYSTEMS[pair]), data.references, sentence=True)
