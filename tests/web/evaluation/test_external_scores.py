"""Scores of a metric computed elsewhere: checked, stored with their mean,
and shown on the leaderboard as a column of their own."""

from __future__ import annotations

import random
import statistics

import pytest
from django.urls import reverse

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.external_scores.imports import (
    ExternalMetricProblem,
    import_external_scores,
)
from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.models import (
    CorpusScore,
    ExternalCorpusScore,
    ExternalMetric,
    ExternalSegmentScore,
)
from mtdash.evaluation.services.uploads import create_system_output
from tests.web.judgments.support import SYSTEMS, wmt_test_set

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]
COMET = "Unbabel/wmt22-comet-da, unbabel-comet 2.2.2"


@pytest.fixture
def toy(test_set, owner):
    for system in ("sys-a", "sys-b"):
        create_system_output(test_set, owner, system, HYPOTHESES, queue=False)
    return test_set


def stored() -> tuple[int, int, int]:
    return (
        ExternalMetric.objects.count(),
        ExternalCorpusScore.objects.count(),
        ExternalSegmentScore.objects.count(),
    )


def scores_file(systems, n_segments: int, seed: int) -> str:
    rng = random.Random(seed)
    rows = [
        f"{system}\t{segment}\t{rng.uniform(-0.2, 1.0):.6f}"
        for system in systems
        for segment in range(1, n_segments + 1)
    ]
    rng.shuffle(rows)  # any order of rows
    return "system\tsegment\tscore\n" + "\n".join(rows) + "\n"


def means_of(text: str) -> dict[str, float]:
    """The mean per system, worked out from the file's text alone."""
    by_system: dict[str, list[float]] = {}
    for line in text.splitlines()[1:]:
        system, _, score = line.split("\t")
        by_system.setdefault(system, []).append(float(score))
    return {system: statistics.fmean(values) for system, values in by_system.items()}


def leaderboard_html(client, user, test_set, metric: str = "") -> str:
    client.force_login(user)
    url = reverse("test_set_detail", args=[test_set.pk])
    html = client.get(url, {"metric": metric} if metric else {}).content.decode()
    return html[html.index('id="leaderboard"') : html.index('class="exports"')]


def test_external_scores_show_on_the_leaderboard_with_their_mean(client, team, owner):
    systems = SYSTEMS["en-de", "mqm_seg.tsv"]
    test_set = wmt_test_set(team, owner, "en-de", systems)
    n = test_set.segments.count()
    text = scores_file(systems, n, seed=7)
    before = leaderboard_html(client, owner, test_set)  # cached, then changed

    result = import_external_scores(
        test_set, owner, "comet-22", COMET, True, text.encode(), "comet.tsv"
    )

    expected = means_of(text)
    assert result.n_scores == len(systems) * n
    assert result.systems == pytest.approx(expected, rel=1e-12)
    html = leaderboard_html(client, owner, test_set)
    assert html != before
    for mean in expected.values():
        assert f"{mean:.4f}" in html
    assert COMET in html
    assert '<small class="external">external</small>' in html
    ranked = leaderboard_html(client, owner, test_set, metric="comet-22")
    order = sorted(expected, key=lambda s: -expected[s])
    positions = [ranked.index(f'title="{s}">{s}</') for s in order]
    assert positions == sorted(positions)
    leaderboard = build_leaderboard(test_set, rank_by="comet-22")
    column = leaderboard.columns[0]
    assert (column.name, column.external, column.signature) == ("comet-22", True, COMET)
    assert [row.system for row in leaderboard.rows] == order
    assert [row.rank for row in leaderboard.rows] == list(range(1, len(order) + 1))


def test_a_lower_is_better_metric_ranks_the_lowest_first(toy, owner):
    text = "sys-a\t1\t0.5\nsys-a\t2\t0.4\nsys-a\t3\t0.3\nsys-b\t1\t0.1\nsys-b\t2\t0\nsys-b\t3\t0.2\n"
    import_external_scores(
        toy, owner, "ter-x", "tercom 0.7.25", False, text.encode(), "t.tsv"
    )
    leaderboard = build_leaderboard(toy, rank_by="ter-x")
    assert [row.system for row in leaderboard.rows] == ["sys-b", "sys-a"]
    assert leaderboard.rows[0].scores["ter-x"] == pytest.approx(0.1, rel=1e-12)
    assert leaderboard.columns[0].higher_is_better is False


def test_segment_scores_are_kept_in_segment_order_for_resampling(toy, owner):
    text = "sys-a\t3\t3\nsys-a\t1\t1\nsys-a\t2\t2\n"
    import_external_scores(toy, owner, "m", "d", True, text.encode(), "m.tsv")
    corpus = ExternalCorpusScore.objects.get()
    assert list(corpus.segment_scores.values_list("index", "score")) == [
        (0, 1.0),
        (1, 2.0),
        (2, 3.0),
    ]
    assert (corpus.score, corpus.n_segments) == (2.0, 3)


def test_more_systems_can_be_added_to_a_metric_later(toy, owner):
    import_external_scores(
        toy, owner, "m", "d", True, b"sys-a\t1\t1\nsys-a\t2\t1\nsys-a\t3\t1\n", "a.tsv"
    )
    import_external_scores(
        toy, owner, "m", "d", True, b"sys-b\t1\t0\nsys-b\t2\t0\nsys-b\t3\t3\n", "b.tsv"
    )
    assert stored() == (1, 2, 6)
    with pytest.raises(UploadProblem) as caught:
        import_external_scores(toy, owner, "m", "d", True, b"sys-b\t1\t0\n", "c.tsv")
    assert str(caught.value) == (
        "c.tsv, line 1: sys-b already has scores of m; import only systems without them"
    )
    with pytest.raises(ExternalMetricProblem) as caught:
        import_external_scores(
            toy, owner, "m", "other", True, b"sys-b\t1\t0\n", "c.tsv"
        )
    assert str(caught.value) == (
        "the test set already has an external metric 'm' ('d', higher is better); "
        "give new scores the same description and direction, or another name"
    )
    assert stored() == (1, 2, 6)


GOOD = "sys-a\t1\t0.5\nsys-a\t2\t0.5\nsys-a\t3\t0.5\n"

REFUSED_FILES = [
    ("", "s.tsv: the file is empty (0 bytes)"),
    ("\n", "s.tsv: no scores: the file has no data lines"),
    ("system\tsegment\tscore\n", "s.tsv: no scores: the file has no data lines"),
    (
        GOOD + "sys-b\t1\n",
        "s.tsv, line 4: expected 3 tab-separated fields (system, segment, score), found 2",
    ),
    (
        "sys-a 1 0.5\n",
        "s.tsv, line 1: expected 3 tab-separated fields (system, segment, score), found 1",
    ),
    (
        GOOD + "sys-z\t1\t0.5\n",
        "s.tsv, line 4: unknown system 'sys-z': the test set has outputs of sys-a, sys-b",
    ),
    (
        "sys-a\t4\t0.5\n",
        "s.tsv, line 1: segment 4 is not in the test set (it has 3 segments, "
        "numbered 1 to 3)",
    ),
    (
        "sys-a\t-1\t0.5\n",
        "s.tsv, line 1: segment '-1' is not a line number (a positive integer)",
    ),
    ("sys-a\t1\tnan\n", "s.tsv, line 1: score 'nan' is not a number"),
    ("sys-a\t1\t0,5\n", "s.tsv, line 1: score '0,5' is not a number"),
    (
        GOOD + "sys-a\t2\t0.7\n",
        "s.tsv, line 4: duplicate score: segment 2 of sys-a is already on line 2",
    ),
    (
        GOOD + "sys-b\t1\t0.5\nsys-b\t3\t0.5\n",
        "s.tsv: sys-b has scores for 2 of the test set's 3 segments (none for "
        "segment 2); a corpus score needs every segment",
    ),
]


@pytest.mark.parametrize(("content", "message"), REFUSED_FILES)
def test_it_refuses_a_bad_scores_file_naming_the_line_and_stores_nothing(
    toy, owner, content, message
):
    import_external_scores(toy, owner, "other", "x", True, GOOD.encode(), "first.tsv")
    before = stored()
    with pytest.raises(UploadProblem) as caught:
        import_external_scores(
            toy, owner, "comet-22", COMET, True, content.encode(), "s.tsv"
        )
    assert str(caught.value) == message
    assert stored() == before


REFUSED_NAMES = [
    (
        "bleu",
        "'bleu' is the name of mtdash's own metric 'bleu'; name the external metric differently, e.g. bleu-external",
    ),
    (
        "BLEU",
        "'BLEU' is the name of mtdash's own metric 'bleu'; name the external metric differently, e.g. bleu-external",
    ),
    (
        "chrf++",
        "'chrf++' is the name of mtdash's own metric 'chrf++'; name the external metric differently, e.g. chrf++-external",
    ),
    ("", "give the metric a name, e.g. comet-22"),
    (
        "comet 22",
        "'comet 22' is not a valid metric name: use at most 100 letters, digits and . _ + - (starting with a letter or digit), e.g. comet-22",
    ),
    (
        "bleu:n=2",
        "'bleu:n=2' is not a valid metric name: use at most 100 letters, digits and . _ + - (starting with a letter or digit), e.g. comet-22",
    ),
]


@pytest.mark.parametrize(("name", "message"), REFUSED_NAMES)
def test_it_refuses_names_of_registered_metrics_and_invalid_names(
    toy, owner, name, message
):
    with pytest.raises(ExternalMetricProblem) as caught:
        import_external_scores(toy, owner, name, COMET, True, GOOD.encode(), "s.tsv")
    assert (caught.value.field, str(caught.value)) == ("metric", message)
    assert stored() == (0, 0, 0)


def test_it_requires_a_one_line_description(toy, owner):
    for description in ("", "  ", "line one\nline two"):
        with pytest.raises(ExternalMetricProblem) as caught:
            import_external_scores(
                toy, owner, "m", description, True, GOOD.encode(), "s.tsv"
            )
        assert caught.value.field == "description"
    assert stored() == (0, 0, 0)


def test_external_columns_sit_beside_mtdash_scores(toy, owner):
    output = toy.outputs.get(system__name="sys-a")
    CorpusScore.objects.create(
        output=output, metric="bleu", score=30.0, signature="BLEU|x"
    )
    import_external_scores(toy, owner, "comet-22", COMET, True, GOOD.encode(), "s.tsv")
    leaderboard = build_leaderboard(toy)
    assert [(c.name, c.external) for c in leaderboard.columns] == [
        ("bleu", False),
        ("comet-22", True),
    ]
    assert leaderboard.columns[1].scale_label == "external"
