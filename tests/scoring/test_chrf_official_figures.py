"""chrF and chrF++ reproduce the published sacreBLEU 2.6.0 corpus figures.

Oracles (read-only data in ``../shared/data``):

- ``oracle-figures/wmt21-{de-en,en-de,ru-en}.json``: ``sacrebleu260-chrf`` and
  ``sacrebleu260-chrfpp``, sacreBLEU 2.6.0 defaults, all references in the
  JSON's ``references`` order (8 systems; corpus level only).
- ``wmt21/automatic-scores.tsv``: the official WMT21 ``chrf-all`` (all
  references) and ``chrf-<X>`` (reference X alone) figures.

No sacreBLEU is needed here: the expected numbers are the published ones.
Tolerance 1e-4 on the 0-100 scale.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from scoring.chrf import CHRF, CHRFPlusPlus
from tests.scoring.realdata import DATA_DIR, WMT21_DIR, read_lines

TOLERANCE = 1e-4
ORACLE_DIR = DATA_DIR / "oracle-figures"
ORACLE_SYSTEMS = [
    ("de-en", "sys/Facebook-AI.en"),
    ("de-en", "sys/Online-W.en"),
    ("de-en", "sys/VolcTrans-AT.en"),
    ("en-de", "sys/Facebook-AI.de"),
    ("en-de", "sys/Online-W.de"),
    ("en-de", "sys/UEdin.de"),
    ("ru-en", "sys/Facebook-AI.en"),
    ("ru-en", "sys/Online-Y.en"),
]
# (pair, system, references of chrf-all); systems not already in the JSONs.
OFFICIAL_SYSTEMS = [
    ("en-de", "VolcTrans-GLAT", "ACD"),
    ("zh-en", "ZengHuiMT", "A"),
    ("zh-en", "Online-B", "A"),
    ("de-en", "happypoet", "AB"),
    ("ru-en", "Online-A", "AB"),
]


@cache
def oracle(pair: str) -> dict[str, Any]:
    path = ORACLE_DIR / f"wmt21-{pair}.json"
    if not path.is_file():
        pytest.skip(f"oracle figures not found at {path} (../shared/data)")
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def lines(pair: str, name: str) -> tuple[str, ...]:
    if not WMT21_DIR.is_dir():
        pytest.skip(f"real WMT21 data not found at {WMT21_DIR} (../shared/data)")
    return tuple(read_lines(WMT21_DIR / pair / name))


@cache
def official(pair: str, system: str, metric: str) -> float:
    rows = read_lines(WMT21_DIR / "automatic-scores.tsv")[1:]
    table = {}
    for row in rows:
        row_pair, row_system, _id, _constrained, row_metric, score = row.split("\t")
        table[(row_pair, row_system, row_metric)] = float(score)
    return table[(pair, system, metric)]


@pytest.mark.parametrize(
    ("metric", "oracle_id"),
    [(CHRF(), "sacrebleu260-chrf"), (CHRFPlusPlus(), "sacrebleu260-chrfpp")],
    ids=["chrF", "chrF++"],
)
@pytest.mark.parametrize(("pair", "system"), ORACLE_SYSTEMS)
def test_it_matches_the_sacrebleu_figures_of_the_oracle_files(
    pair: str, system: str, metric: CHRF, oracle_id: str
) -> None:
    references = [lines(pair, name) for name in oracle(pair)["references"]]
    result = metric.score(lines(pair, system), references)
    expected = oracle(pair)["systems"][system][oracle_id]["corpus"]
    assert result.score == pytest.approx(expected, abs=TOLERANCE)
    prefix = f"{metric.name}|nrefs:{len(references)}|case:mixed|eff:yes"
    assert result.signature.startswith(prefix)


@pytest.mark.parametrize(("pair", "system", "reference_ids"), OFFICIAL_SYSTEMS)
def test_it_matches_the_official_wmt21_chrf_with_all_and_with_each_reference(
    pair: str, system: str, reference_ids: str
) -> None:
    target = pair.split("-")[1]
    hypotheses = lines(pair, f"sys/{system}.{target}")
    streams = {x: lines(pair, f"ref.{x}.{target}") for x in reference_ids}
    metric = CHRF()
    everything = metric.score(hypotheses, list(streams.values()))
    assert everything.score == pytest.approx(
        official(pair, system, "chrf-all"), abs=TOLERANCE
    )
    if len(streams) > 1:
        for reference_id, stream in streams.items():
            alone = metric.score(hypotheses, [stream]).score
            expected = official(pair, system, f"chrf-{reference_id}")
            assert alone == pytest.approx(expected, abs=TOLERANCE)
