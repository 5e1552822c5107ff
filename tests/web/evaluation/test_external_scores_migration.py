"""The external metrics' scores moved from the judgments app to the
evaluation app (their models and tables): a database filled at the schema
before the move keeps every row, read back through the current models.
Runs on SQLite and, where ``DATABASE_URL`` points to one, on PostgreSQL."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from mtdash.evaluation.models import (
    ExternalCorpusScore,
    ExternalMetric,
    ExternalSegmentScore,
)
from mtdash.evaluation.services.uploads import create_system_output

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_THE_MOVE = [
    ("evaluation", "0006_readability_jobs"),
    ("judgments", "0003_criterion_scale_and_sources"),
]


def migrate(targets=None):
    """Migrate the test database to ``targets`` (None: the latest) and
    return the models as they are there."""
    executor = MigrationExecutor(connection)
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def fill_at_the_old_schema(old, test_set, outputs, owner) -> list[tuple]:
    """Two metrics, a corpus score per output, three segment scores each;
    returns every row as (metric, description, system, score, segment scores)."""
    metric_model = old.get_model("judgments", "ExternalMetric")
    corpus_model = old.get_model("judgments", "ExternalCorpusScore")
    segment_model = old.get_model("judgments", "ExternalSegmentScore")
    rows = []
    for number, name in enumerate(["comet-22", "metricx-23"]):
        metric = metric_model.objects.create(
            test_set_id=test_set.pk,
            name=name,
            description=f"{name} model v{number}",
            higher_is_better=number == 0,
            created_by_id=owner.pk,
        )
        for output in outputs:
            scores = [0.1 * (i + 1) + number + output.pk for i in range(3)]
            corpus = corpus_model.objects.create(
                metric=metric,
                output_id=output.pk,
                score=sum(scores) / 3,
                n_segments=3,
                file_name=f"{name}.tsv",
                imported_by_id=owner.pk,
            )
            segment_model.objects.bulk_create(
                segment_model(corpus_score=corpus, index=i, score=score)
                for i, score in enumerate(scores)
            )
            rows.append((name, metric.description, output.pk, corpus.score, scores))
    return rows


def read_back() -> list[tuple]:
    rows = []
    for corpus in ExternalCorpusScore.objects.select_related("metric").order_by(
        "metric__name", "output_id"
    ):
        scores = list(
            corpus.segment_scores.order_by("index").values_list("score", flat=True)
        )
        rows.append(
            (
                corpus.metric.name,
                corpus.metric.description,
                corpus.output_id,
                corpus.score,
                scores,
            )
        )
    return rows


def test_every_external_score_row_survives_the_move_to_the_evaluation_app(
    test_set, owner
):
    outputs = [
        create_system_output(test_set, owner, name, hypotheses, queue=False)
        for name, hypotheses in {
            "good": ["the cat is on the mat", "it is raining", "hello everyone"],
            "poor": ["cat", "rain", "greetings"],
        }.items()
    ]
    try:
        old = migrate(BEFORE_THE_MOVE)
        written = fill_at_the_old_schema(old, test_set, outputs, owner)
    finally:
        migrate()  # the latest schema again, whatever happened
    assert read_back() == sorted(written, key=lambda row: (row[0], row[2]))
    assert ExternalMetric.objects.get(name="comet-22").higher_is_better
    assert not ExternalMetric.objects.get(name="metricx-23").higher_is_better
    assert ExternalSegmentScore.objects.count() == 2 * len(outputs) * 3
    # The rows' tables are the evaluation app's now, and so are their types.
    assert ExternalMetric._meta.db_table == "evaluation_externalmetric"
    assert not ContentType.objects.filter(
        app_label="judgments", model__startswith="external"
    ).exists()
    # Deleting the test set still deletes its external scores (the foreign keys
    # survived the table renames).
    test_set.delete()
    assert not ExternalCorpusScore.objects.exists()
