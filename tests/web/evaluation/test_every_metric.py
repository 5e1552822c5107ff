"""Every registered metric works through the web layer's scoring service."""

import math

from mtdash.common.metric_specs import metric_choices
from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.models import CorpusScore, SegmentScore
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from scoring import get_metric, list_metrics


def test_an_output_is_scored_with_every_metric_and_shown_with_signatures(team, owner):
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="docs",
            source_language="fr",
            target_language="en",
            text_type="news",
            description="",
            sources=[
                "le chat dort",
                "il pleut fort",
                "la maison est grande",
                "bonjour",
            ],
            references={
                "A": ["the cat sleeps", "it rains hard", "the house is big", "hello"],
                "B": [
                    "the cat is sleeping",
                    "it is raining heavily",
                    "the house is large",
                    "hi",
                ],
            },
            document_ids=["d1", "d1", "d2", "d2"],
        ),
    )
    names = [info.name for info in list_metrics()]
    assert [spec for spec, _ in metric_choices()] == names
    job = create_system_output(
        test_set,
        owner,
        "sys",
        ["the cat sleeps", "it rains", "a big house", "hello"],
        metrics=names,
        queue=False,
    )
    run_scoring_job(job.pk)
    job.refresh_from_db()
    assert job.status == "succeeded", job.error_message
    stored = {
        score.metric: score for score in CorpusScore.objects.filter(output=job.output)
    }
    assert sorted(stored) == sorted(names)
    for name, score in stored.items():
        assert score.signature.startswith(name + "|")
        assert math.isfinite(score.score)
        assert SegmentScore.objects.filter(corpus_score=score).count() == 4
    leaderboard = build_leaderboard(test_set)
    assert {column.name for column in leaderboard.columns} == set(names)
    nist = next(column for column in leaderboard.columns if column.name == "nist")
    assert nist.decimals == 2 and get_metric("nist").higher_is_better
