"""Stored judgments come back as the arrays the statistics take."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.reading import stored_judgments
from scoring.stats import human_scores, parse_judgments
from tests.web.judgments.support import SYSTEMS, human_file, wmt_test_set


def test_stored_wmt21_da_gives_wmts_raw_system_means(team, owner):
    systems = SYSTEMS["ru-en", "da_seg.tsv"]
    test_set = wmt_test_set(team, owner, "ru-en", systems)
    data, rows = human_file("ru-en", "da_seg.tsv", test_set.segments.count())
    import_judgments(test_set, owner, data, "da_seg.tsv")

    scores = human_scores(stored_judgments(test_set), "da", standardise=False)

    for system in systems:
        raw = [float(cells[6]) for cells in rows if cells[0] == system]
        assert scores.system_score(system) == pytest.approx(
            statistics.fmean(raw), rel=1e-12
        )


def test_stored_judgments_equal_the_file_read_by_the_library(toy_outputs, owner):
    text = (
        "segment,system,judge,criterion,value\n1,sys-a,j1,adequacy,4\n"
        "2,sys-b,j2,adequacy,2\n3,sys-a,j2,fluency,5\n2,sys-a,j1,adequacy,3\n"
    )
    import_judgments(toy_outputs, owner, text.encode(), "j.csv")
    stored = stored_judgments(toy_outputs)
    parsed = parse_judgments(text.encode(), "j.csv")
    for name in (
        "segments",
        "system_ids",
        "judge_ids",
        "criterion_ids",
        "values",
        "lines",
    ):
        assert np.array_equal(getattr(stored, name), getattr(parsed, name)), name
    assert (stored.systems, stored.judges, stored.criteria) == (
        parsed.systems,
        parsed.judges,
        parsed.criteria,
    )


@pytest.fixture
def toy_outputs(test_set, owner):
    for system in ("sys-a", "sys-b"):
        create_system_output(test_set, owner, system, ["a", "b", "c"], queue=False)
    return test_set
