"""WNM on real data: WMT21 ru-en (1000 segments, 107 documents, references A
and B, 10 systems with system-level crowd DA).

Measured with these files (Pearson r over the 10 MT systems, DA z-scores of
``human/da_sys.tsv``; the HUMAN row is left out because it is a reference):

    wnm (recall, default)        0.494
    wnm:negative=keep            0.458
    wnm:measure=f                0.447
    wnm:weights=none             0.535
    wnm:scope=document           0.489
    BLEU (13a, sacreBLEU)        0.545

All are positive and of the same size as BLEU's. With only 10 systems the
correlation is driven by Online-Y, whose raw DA is high but whose z-score is
the lowest (against raw DA every metric is near 0), so the threshold below
asserts a clearly positive correlation, not a ranking among metrics.
"""

from __future__ import annotations

import numpy as np

from scoring.metrics.wnm.matching import precision_recall_f
from scoring.metrics.wnm.metric import WNM
from tests.scoring.support.realdata import WMT21_DIR, read_lines, require_full_data

RU_EN = WMT21_DIR / "ru-en"


def test_wnm_recall_correlates_positively_with_system_level_da_on_wmt21_ru_en() -> None:
    require_full_data("the 10 ru-en systems and their system-level DA")
    documents = [line.split("\t")[0] for line in read_lines(RU_EN / "docids")]
    references = [read_lines(RU_EN / "ref.A.en"), read_lines(RU_EN / "ref.B.en")]
    rows = [line.split("\t") for line in read_lines(RU_EN / "human" / "da_sys.tsv")[1:]]
    da_z = {row[0]: float(row[3]) for row in rows if row[0] != "HUMAN"}
    metric = WNM()
    scores = {}
    for system in da_z:
        statistics = metric.segment_statistics(
            read_lines(RU_EN / "sys" / f"{system}.en"),
            references,
            document_ids=documents,
        )
        scores[system] = metric.corpus_score_from_statistics(statistics.sum(axis=0))
        # With negative saliences dropped (the default) every sentence
        # precision, recall and F lies in [0, 1] (up to rounding: the matched
        # and total weights are sums in different orders).
        figures = np.array(precision_recall_f(*statistics.T))
        assert figures.min() >= 0 and figures.max() <= 1 + 1e-12  # rounding
    assert len(scores) == 10
    assert all(0.3 < score < 0.5 for score in scores.values())
    systems = sorted(da_z)
    r = np.corrcoef([scores[s] for s in systems], [da_z[s] for s in systems])[0, 1]
    assert r > 0.4
