"""Whole WMT21 human files through the import: every row checked and stored.

Times are printed (run with -s), with generous bounds only."""

from __future__ import annotations

import random
import time

import pytest

from mtdash.evaluation.external_scores.imports import import_external_scores
from mtdash.evaluation.models import ExternalSegmentScore, TestSet
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import Judgment
from tests.scoring.support.realdata import WMT21_DIR, read_lines, require_full_data


def whole_test_set(team, user, pair: str, systems: list[str]) -> TestSet:
    """All of ``pair``'s segments, an output for each judged system (the
    import reads only names and segment numbers, so outputs without a file,
    such as WMT's metricsystem1 or ref-B, get placeholder text)."""
    source_language = pair.split("-")[0]
    sources = read_lines(WMT21_DIR / pair / f"src.{source_language}")
    test_set = create_test_set(
        team,
        user,
        TestSetData(pair, source_language, "xx", "news", "", sources, {"A": sources}),
    )
    for system in systems:
        create_system_output(test_set, user, system, sources, queue=False)
    return test_set


@pytest.mark.wall_clock
@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_a_whole_wmt21_mqm_file_imports_in_seconds(team, owner, pair):
    require_full_data("whole WMT21 MQM files")
    data = (WMT21_DIR / pair / "human" / "mqm_seg.tsv").read_bytes()
    rows = [line.split("\t") for line in data.decode().splitlines()[1:]]
    systems = sorted({cells[0] for cells in rows})
    test_set = whole_test_set(team, owner, pair, systems)

    started = time.perf_counter()
    result = import_judgments(test_set, owner, data, "mqm_seg.tsv")
    seconds = time.perf_counter() - started

    rated = sum(1 for cells in rows if cells[3] != "None")
    assert result.n_judgments == rated == Judgment.objects.count()
    print(
        f"\n{pair} mqm_seg.tsv: {len(rows)} rows ({rated} rated, {len(systems)} "
        f"systems) imported in {seconds:.2f} s"
    )
    assert seconds < 120


@pytest.mark.wall_clock
def test_external_scores_for_20_systems_on_1948_segments(team, owner):
    require_full_data("the whole WMT21 zh-en test set")
    systems = [f"system-{k:02d}" for k in range(20)]
    test_set = whole_test_set(team, owner, "zh-en", systems)
    n = test_set.segments.count()
    rng = random.Random(3)
    text = "".join(
        f"{system}\t{segment}\t{rng.random():.6f}\n"
        for system in systems
        for segment in range(1, n + 1)
    )
    started = time.perf_counter()
    result = import_external_scores(
        test_set, owner, "comet-22", "wmt22-comet-da", True, text.encode(), "c.tsv"
    )
    seconds = time.perf_counter() - started
    assert result.n_scores == 20 * n == ExternalSegmentScore.objects.count()
    print(f"\nexternal scores: {20 * n} rows imported in {seconds:.2f} s")
    assert seconds < 120
