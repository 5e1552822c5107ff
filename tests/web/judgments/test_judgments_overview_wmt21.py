"""The judgments page's aggregates on real WMT21 judgments: ru-en crowd DA
per segment (``human/da_seg.tsv``, mapped to lines) imported into a test set
of all 1,000 segments and the 11 systems WMT evaluated (``HUMAN`` is
reference B scored as a system).

The system aggregates reproduce WMT's own system-level table
(``human/da_sys.tsv``: raw and z rounded to 1 and 3 decimals, and the
number of segments after quality control), and equal
``scoring.stats.human_scores``. Then the disagreement explorer ranks real
sentence-BLEU scores against those judgments, checked against a ranking
worked out here from the file with the standard library.
"""

from __future__ import annotations

import csv
import math
import statistics

import pytest

from mtdash.evaluation.models import CorpusScore
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import Criterion
from mtdash.judgments.overview.disagreements import (
    choose,
    disagreement_page,
    metric_choices,
)
from mtdash.judgments.overview.store import all_aggregates
from mtdash.judgments.reading import stored_judgments
from scoring.stats import human_scores
from tests.scoring.support.realdata import WMT21_DIR, read_lines, require_full_data

pytestmark = pytest.mark.django_db

RU_EN = WMT21_DIR / "ru-en"


def wmt_table(name: str) -> list[dict[str, str]]:
    with open(RU_EN / "human" / name, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.fixture
def ru_en(team, owner):
    require_full_data("every segment and system of WMT21 ru-en with its DA")
    systems = sorted({row["system"] for row in wmt_table("da_sys.tsv")})
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="newstest2021 ru-en",
            source_language="ru",
            target_language="en",
            text_type="news",
            description="",
            sources=read_lines(RU_EN / "src.ru"),
            references={"A": read_lines(RU_EN / "ref.A.en")},
        ),
    )
    for system in systems:
        path = RU_EN / ("ref.B.en" if system == "HUMAN" else f"sys/{system}.en")
        create_system_output(test_set, owner, system, read_lines(path), queue=False)
    data = (RU_EN / "human" / "da_seg.tsv").read_bytes()
    import_judgments(test_set, owner, data, "da_seg.tsv")
    return test_set


def test_system_aggregates_reproduce_wmt21_da_sys(ru_en):
    criteria = {c.name: c for c in all_aggregates(ru_en)}
    assert set(criteria) == {"da", "da-z"}
    published = wmt_table("da_sys.tsv")
    assert len(published) == len(criteria["da"].systems) == 11
    for row in published:
        raw = next(s for s in criteria["da"].systems if s.system == row["system"])
        z = next(s for s in criteria["da-z"].systems if s.system == row["system"])
        # WMT's raw is rounded to 0.1, its z to 0.001.
        assert abs(raw.raw_mean - float(row["raw"])) <= 0.05 + 1e-9, row
        assert abs(z.raw_mean - float(row["z"])) <= 0.0005 + 1e-9, row
        assert raw.n_segments == int(row["n_after_qc"]), row


def test_aggregates_equal_human_scores_on_wmt21(ru_en):
    judgments = stored_judgments(ru_en)
    for criterion in all_aggregates(ru_en):
        raw = human_scores(judgments, criterion.name, standardise=False)
        z = human_scores(judgments, criterion.name, standardise=True)
        for s in criterion.systems:
            assert abs(s.raw_mean - raw.system_score(s.system)) < 1e-9
            assert abs(s.z_mean - z.system_score(s.system)) < 1e-9
        assert criterion.n_cells == int((z.judgment_counts > 0).sum())


def test_the_explorer_ranks_real_sentence_bleu_against_wmt21_da(ru_en):
    for output in ru_en.outputs.filter(system__name__in=["Facebook-AI", "Online-Y"]):
        job = output.scoring_jobs.create(metrics=["bleus"])
        run_scoring_job(job.pk)
    metric = choose(metric_choices(ru_en), "bleus", "metric")
    found = disagreement_page(
        ru_en, metric, Criterion.objects.get(name="da"), page=1, page_size=5
    )
    # By hand: one judge per segment in this file, so the mean per-judge z
    # of a cell is an increasing affine map of its raw DA, and standardising
    # over the points gives the same as standardising the raw values.
    bleu = {}
    for score in CorpusScore.objects.filter(output__test_set=ru_en, metric="bleus"):
        name = score.output.system.name
        for index, value in score.segment_scores.values_list("index", "score"):
            bleu[name, index + 1] = value
    raw = {
        (row["system"], int(row["seg_id(txt line, 1-based)"])): float(row["raw"])
        for row in wmt_table("da_seg.tsv")
        if (row["system"], int(row["seg_id(txt line, 1-based)"])) in bleu
    }
    keys = sorted(raw, key=lambda key: (key[1], key[0]))
    metric_values = [bleu[key] for key in keys]
    human_values = [raw[key] for key in keys]
    m_mean, m_sd = statistics.fmean(metric_values), statistics.pstdev(metric_values)
    h_mean, h_sd = statistics.fmean(human_values), statistics.pstdev(human_values)
    difference = {
        key: (bleu[key] - m_mean) / m_sd - (raw[key] - h_mean) / h_sd for key in keys
    }
    expected = sorted(keys, key=lambda key: -abs(difference[key]))[:5]
    assert found.n_points == len(keys)
    assert [(r.system, r.segment) for r in found.rows] == expected
    for row in found.rows:
        assert math.isclose(
            row.difference, difference[row.system, row.segment], abs_tol=1e-9
        )
        assert row.source and row.hypothesis and len(row.references) == 1
