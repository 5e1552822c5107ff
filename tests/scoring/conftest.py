"""Shared fixtures of the scoring tests: real WMT21 data and sacreBLEU.

The full data lives outside the repository; without it the tests read the
committed fixtures, its first segments (see
:mod:`tests.scoring.support.realdata`). sacreBLEU is a test-only dependency;
tests that need it are skipped, with the reason shown, when it is missing.
Nothing here touches Django or a database.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from tests.scoring.support.batch_cases import (
    MERT_EXAMPLE,
    REGRESSION_RUN,
    NBestData,
    mert_example,
    regression_run,
)
from tests.scoring.support.realdata import (
    WMT21_DIR,
    WmtTestSet,
    load_test_set,
    read_lines,
)


def _require_wmt21() -> None:
    if not WMT21_DIR.is_dir():
        pytest.skip(f"WMT21 data not found at {WMT21_DIR}")


@pytest.fixture
def en_de() -> WmtTestSet:
    """newstest2021 en-de with references A, C and D (1002 segments; 150 on
    the fixtures)."""
    _require_wmt21()
    return load_test_set("en-de", "ACD")


@pytest.fixture
def zh_en() -> WmtTestSet:
    """newstest2021 zh-en with reference A (1948 segments, 4 empty lines in
    two systems' outputs; the first 150 segments, none empty, on the
    fixtures)."""
    _require_wmt21()
    return load_test_set("zh-en", "A")


@pytest.fixture
def official_scores() -> Callable[[str, str, str], float]:
    """``lookup(pair, system, metric)`` in ``wmt21/automatic-scores.tsv``
    (official scores of the full test sets, also on the fixtures)."""
    _require_wmt21()
    table: dict[tuple[str, str, str], float] = {}
    for row in read_lines(WMT21_DIR / "automatic-scores.tsv")[1:]:
        pair, system, _id, _constrained, metric, score = row.split("\t")
        table[(pair, system, metric)] = float(score)
    return lambda pair, system, metric: table[(pair, system, metric)]


@pytest.fixture
def sacrebleu() -> ModuleType:
    """The sacreBLEU package (reference implementation, test-only)."""
    return pytest.importorskip("sacrebleu", reason="sacreBLEU (test-only) missing")


@pytest.fixture(scope="module")
def regression() -> NBestData:
    """Moses's regression-test n-best list (run1) with its three references."""
    if not REGRESSION_RUN.exists():
        pytest.skip(f"real Moses n-best data not found at {REGRESSION_RUN}")
    return regression_run()


@pytest.fixture(scope="module")
def mert() -> NBestData:
    """Moses's MERT example n-best list with its three references."""
    if not MERT_EXAMPLE.exists():
        pytest.skip(f"real Moses n-best data not found at {MERT_EXAMPLE}")
    return mert_example()
