"""chrF and chrF++ reproduce the published sacreBLEU 2.6.0 corpus figures.

Oracles (read-only data in ``../shared/data``):

- ``oracle-figures/wmt21-{de-en,en-de,ru-en}.json``: ``sacrebleu260-chrf`` and
  ``sacrebleu260-chrfpp``, sacreBLEU 2.6.0 defaults, all references in the
  JSON's ``references`` order (8 systems; corpus level only).
- ``wmt21/automatic-scores.tsv``: the official WMT21 ``chrf-all`` (all
  references) and ``chrf-<X>`` (reference X alone) figures.

The expected numbers are the published ones, for the full test sets. On the
committed fixtures (first segments only) sacreBLEU itself, the same version,
scores the kept lines instead, and the official WMT21 figures of systems
that the fixtures do not hold are skipped. Tolerance 1e-4 on the 0-100 scale.
"""

from __future__ import annotations

from functools import cache

import pytest

from scoring.metrics.chrf.metric import CHRF, CHRFPlusPlus
from tests.scoring.support.oracles import oracle, oracle_cases, oracle_figures
from tests.scoring.support.realdata import (
    FULL_DATA,
    WMT21_DIR,
    full_data_params,
    read_lines,
)

TOLERANCE = 1e-4
# (pair, system, references of chrf-all); systems not already in the JSONs.
OFFICIAL_SYSTEMS = [
    ("en-de", "VolcTrans-GLAT", "ACD"),
    ("zh-en", "ZengHuiMT", "A"),
    ("zh-en", "Online-B", "A"),
    ("de-en", "happypoet", "AB"),
    ("ru-en", "Online-A", "AB"),
]


@cache
def lines(pair: str, name: str) -> tuple[str, ...]:
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
@pytest.mark.parametrize(("pair", "system"), oracle_cases())
def test_it_matches_the_sacrebleu_figures_of_the_oracle_files(
    sacrebleu, pair: str, system: str, metric: CHRF, oracle_id: str
) -> None:
    references = [lines(pair, name) for name in oracle(pair)["references"]]
    result = metric.score(lines(pair, system), references)
    if FULL_DATA:
        expected = oracle_figures(pair, system, oracle_id)["corpus"]
    else:  # the oracle figure is of the full file
        theirs = sacrebleu.CHRF(word_order=metric.word_order)
        expected = theirs.corpus_score(
            list(lines(pair, system)), [list(stream) for stream in references]
        ).score
    assert result.score == pytest.approx(expected, abs=TOLERANCE)
    prefix = f"{metric.name}|nrefs:{len(references)}|case:mixed|eff:yes"
    assert result.signature.startswith(prefix)


@pytest.mark.parametrize(
    ("pair", "system", "reference_ids"),
    full_data_params(OFFICIAL_SYSTEMS, "the official WMT21 chrF of whole test sets"),
)
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
