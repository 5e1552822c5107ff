"""Sentence-level meta-evaluation on real human scores of WMT21.

Our sentence BLEU (reference A) against expert MQM (en-de, zh-en) and crowd
DA z-scores (ru-en), through the whole pipeline: judgments file, SCORES.json
contents, :func:`correlation_table`. Expected coefficients come from SciPy on
points aligned here independently, straight from the TSV rows. The
committed fixtures hold the human scores of their kept systems and lines
only (en-de: 3 MQM systems, zh-en: 1, ru-en: 2 DA systems).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from scoring.stats.judgments import read_judgments
from scoring.stats.meta_evaluation import correlation_table
from scoring.stats.scores_file import metric_scores_from_json
from tests.scoring.support.realdata import WMT21_DIR, load_test_set, measured
from tests.scoring.support.stats_data import read_tsv, require, sentence_bleu

SCIPY = {
    "pearson": lambda x, y: stats.pearsonr(x, y).statistic,
    "spearman": lambda x, y: stats.spearmanr(x, y).statistic,
    "kendall": lambda x, y: stats.kendalltau(x, y).statistic,
}

# (pair, human file, segment column, value column, systems with outputs)
MQM_SYSTEMS = measured(
    full={
        "en-de": ["Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin",
                  "VolcTrans-AT", "VolcTrans-GLAT", "eTranslation"],
        "zh-en": ["Borderline", "DIDI-NLP", "Facebook-AI", "IIE-MT", "MiSS",
                  "NiuTrans", "Online-W", "SMU"],
    },
    fixtures={"en-de": ["Facebook-AI", "Online-W", "UEdin"], "zh-en": ["Online-W"]},
)  # fmt: skip
# Rated (system, segment) points of those systems.
MQM_POINTS = measured(
    full={"en-de": 8 * 527, "zh-en": 8 * 650}, fixtures={"en-de": 3 * 91, "zh-en": 36}
)
# Systems rated but without an output: the human reference, a metric.
MQM_UNSCORED = measured(full={"ref-A", "metricsystem1"}, fixtures={"ref-A"})
RU_EN_SYSTEMS = measured(
    full=[
        "AFRL", "Facebook-AI", "Manifold", "NVIDIA-NeMo", "NiuTrans",
        "Online-A", "Online-B", "Online-G", "Online-W", "Online-Y",
    ],
    fixtures=["Facebook-AI", "Online-Y"],
)  # fmt: skip
# DA rows of those systems (the 906 HUMAN rows have no system output).
RU_EN_POINTS = measured(full=9832 - 906, fixtures=286)
RU_EN_UNSCORED = measured(full=("HUMAN",), fixtures=())
DA_SEGMENT = "seg_id(txt line, 1-based)"


@cache
def _bleu(pair: str, system: str) -> np.ndarray:
    return sentence_bleu(pair, "A", system)


def _scores_json(pair: str, systems: list[str], unscored: int | None = None) -> dict:
    """SCORES.json contents: sentence BLEU per system (``null`` at one line)."""
    data = {}
    for system in systems:
        values: list[float | None] = [float(v) for v in _bleu(pair, system)]
        if unscored is not None:
            values[unscored - 1] = None
        data[system] = {"bleu": {"score": 0.0, "sentence_scores": values}}
    return data


def _expected_points(
    pair: str,
    human_file: str,
    segment_column: str,
    value_column: str,
    systems: list[str],
) -> tuple[np.ndarray, np.ndarray]:
    metric, human = [], []
    for row in read_tsv(WMT21_DIR / pair / "human" / human_file):
        if row["system"] in systems and row[value_column] != "None":
            metric.append(_bleu(pair, row["system"])[int(row[segment_column]) - 1])
            human.append(float(row[value_column]))
    return np.array(metric), np.array(human)


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_segment_level_mqm_correlations_agree_with_scipy(pair: str) -> None:
    require(WMT21_DIR / pair / "human" / "mqm_seg.tsv")
    load_test_set(pair, "A")
    systems = MQM_SYSTEMS[pair]
    judgments = read_judgments(
        WMT21_DIR / pair / "human" / "mqm_seg.tsv",
        columns={"segment": "seg_id", "value": "mqm_avg_score"},
    )
    x, y = _expected_points(pair, "mqm_seg.tsv", "seg_id", "mqm_avg_score", systems)
    assert x.size == MQM_POINTS[pair]
    scores = metric_scores_from_json(_scores_json(pair, systems))
    for method in SCIPY:
        table = correlation_table(
            scores, judgments, level="sentence", method=method, standardise=False,
            n_samples=100, seed=1,
        )  # fmt: skip
        column = table.columns[0]
        assert column.n_points == x.size
        assert set(column.excluded_systems) >= MQM_UNSCORED
        cell = column.cells[0]
        assert cell.estimate.coefficient == pytest.approx(
            SCIPY[method](x, y), abs=1e-12
        )
        assert cell.estimate.low < cell.estimate.coefficient < cell.estimate.high


def test_segment_level_ru_en_da_correlations_agree_with_scipy() -> None:
    require(WMT21_DIR / "ru-en" / "human" / "da_seg.tsv")
    load_test_set("ru-en", "A")
    judgments = read_judgments(
        WMT21_DIR / "ru-en" / "human" / "da_seg.tsv",
        columns={"segment": DA_SEGMENT, "value": "z"},
    )
    x, y = _expected_points("ru-en", "da_seg.tsv", DA_SEGMENT, "z", RU_EN_SYSTEMS)
    assert x.size == RU_EN_POINTS
    scores = metric_scores_from_json(_scores_json("ru-en", RU_EN_SYSTEMS))
    for method in SCIPY:
        table = correlation_table(
            scores, judgments, level="sentence", method=method, standardise=False,
            n_samples=100, seed=1,
        )  # fmt: skip
        assert table.columns[0].excluded_systems == RU_EN_UNSCORED
        coefficient = table.columns[0].cells[0].estimate.coefficient
        assert coefficient == pytest.approx(SCIPY[method](x, y), abs=1e-12)


def test_a_null_sentence_score_drops_that_point_only() -> None:
    require(WMT21_DIR / "ru-en" / "human" / "da_seg.tsv")
    judgments = read_judgments(
        WMT21_DIR / "ru-en" / "human" / "da_seg.tsv",
        columns={"segment": DA_SEGMENT, "value": "z"},
    )
    scores = metric_scores_from_json(_scores_json("ru-en", RU_EN_SYSTEMS, unscored=3))
    table = correlation_table(
        scores, judgments, level="sentence", standardise=False, n_samples=10
    )
    judged_line_3 = sum(
        1
        for row in read_tsv(WMT21_DIR / "ru-en" / "human" / "da_seg.tsv")
        if row["system"] in RU_EN_SYSTEMS and row[DA_SEGMENT] == "3"
    )
    assert judged_line_3 > 0
    assert table.columns[0].n_points == RU_EN_POINTS - judged_line_3


def test_judged_segments_beyond_the_sentence_scores_are_an_error(
    tmp_path: Path,
) -> None:
    from scoring.errors import ScoringError

    path = tmp_path / "J.tsv"
    path.write_text("segment\tsystem\tvalue\n1\tA\t1\n3\tA\t2\n", encoding="utf-8")
    scores = metric_scores_from_json({"A": {"bleu": {"sentence_scores": [1.0, 2.0]}}})
    with pytest.raises(
        ScoringError, match="segment 3 of system 'A'.*only 2 sentence scores"
    ):
        correlation_table(scores, read_judgments(path), level="sentence", n_samples=10)
