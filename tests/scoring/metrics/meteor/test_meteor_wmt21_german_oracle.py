"""METEOR 1.5 (German, exact + Snowball stem, ``-norm``, 3 references)
against the oracle figures ``meteor15-de-exact-stem`` of WMT21 en-de.

Measured: all 3 × 1002 segments and the corpus scores agree exactly. Two jar quirks are needed for that and are
reproduced: METEOR 1.5 uses its *English* function-word list for German, and
a perfectly matched segment adds no chunks to the pooled statistics. One
system is checked here, in full, to keep the file fast (on the committed
fixtures: its first segments, without the corpus score of the full file).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from scoring.metrics.meteor.metric import Meteor
from tests.scoring.support.realdata import DATA_DIR, FULL_DATA

# Measured: no difference at all; this leaves room for another CPU's rounding.
AGREE = 5e-15

ORACLE = DATA_DIR / "oracle-figures" / "wmt21-en-de.json"


def test_it_matches_meteor_15_german_exact_stem_on_wmt21_en_de(en_de) -> None:
    if not ORACLE.is_file():
        pytest.skip(f"oracle figures not found at {ORACLE}")
    figures = json.loads(ORACLE.read_text(encoding="utf-8"))
    assert figures["meteor_configuration"]["Eval ID"] == (
        "meteor-1.5-wo-de-norm-0.95_1.0_0.55_0.55-ex_st-1.0_0.8"
    )
    expected = figures["systems"]["sys/UEdin.de"]["meteor15-de-exact-stem"]
    metric = Meteor(lang="de", modules="exact+stem")
    assert metric.config.formula.weights == (1.0, 0.8)
    result = metric.score(en_de.system("UEdin"), en_de.references, sentence=True)
    difference = np.abs(np.array(result.sentence_scores) - expected["segments"])
    assert difference.max() < AGREE
    if FULL_DATA:
        assert result.score == pytest.approx(expected["corpus"], abs=AGREE)
