"""Run by ``tests/web/evaluation/test_external_scores_migration.py`` in a
process of its own, on a fresh database named by ``DATABASE_URL``: migrate
to the schema before the external scores moved to the evaluation app, fill
their tables through the models of that schema, migrate to the latest, and
print (JSON) what was written and what the current models read back.

A process of its own, because the test suite's database is shared with
worker processes and other tests; a schema taken back and forth under them
is not what a user's ``manage.py migrate`` meets.
"""

from __future__ import annotations

import json
import os

BEFORE_THE_MOVE = [
    ("evaluation", "0006_readability_jobs"),
    ("judgments", "0003_criterion_scale_and_sources"),
]


def migrate(connection, targets=None):
    """Migrate to ``targets`` (None: the latest); the models as they are there."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def fill(old) -> list[list]:
    """A team, a user, a test set with two outputs, two external metrics,
    a corpus score per output and three segment scores each."""
    user = old.get_model("auth", "User").objects.create(username="alice")
    team = old.get_model("teams", "Team").objects.create(name="team")
    test_set = old.get_model("evaluation", "TestSet").objects.create(
        team=team, name="toy", source_language="fr", target_language="en"
    )
    system_model = old.get_model("evaluation", "System")
    output_model = old.get_model("evaluation", "SystemOutput")
    outputs = [
        output_model.objects.create(
            test_set=test_set,
            system=system_model.objects.create(team=team, name=name),
        )
        for name in ("good", "poor")
    ]
    metric_model = old.get_model("judgments", "ExternalMetric")
    corpus_model = old.get_model("judgments", "ExternalCorpusScore")
    segment_model = old.get_model("judgments", "ExternalSegmentScore")
    written = []
    for number, name in enumerate(["comet-22", "metricx-23"]):
        metric = metric_model.objects.create(
            test_set=test_set,
            name=name,
            description=f"{name} model v{number}",
            higher_is_better=number == 0,
            created_by=user,
        )
        for output in outputs:
            scores = [0.1 * (i + 1) + number + output.pk for i in range(3)]
            corpus = corpus_model.objects.create(
                metric=metric,
                output=output,
                score=sum(scores) / 3,
                n_segments=3,
                file_name=f"{name}.tsv",
                imported_by=user,
            )
            segment_model.objects.bulk_create(
                segment_model(corpus_score=corpus, index=i, score=score)
                for i, score in enumerate(scores)
            )
            written.append(
                [name, metric.description, metric.higher_is_better, output.pk,
                 corpus.score, user.pk, scores]
            )  # fmt: skip
    return written


def read_back() -> dict:
    from django.contrib.contenttypes.models import ContentType

    from mtdash.evaluation.models import ExternalCorpusScore, TestSet

    rows = []
    for corpus in ExternalCorpusScore.objects.select_related("metric").order_by(
        "metric__name", "output_id"
    ):
        scores = list(
            corpus.segment_scores.order_by("index").values_list("score", flat=True)
        )
        metric = corpus.metric
        rows.append(
            [metric.name, metric.description, metric.higher_is_better,
             corpus.output_id, corpus.score, corpus.imported_by_id, scores]
        )  # fmt: skip
    tables = sorted(
        model._meta.db_table
        for model in ExternalCorpusScore._meta.apps.get_models()
        if model.__name__.startswith("External")
    )
    types = sorted(
        f"{app}.{model}"
        for app, model in ContentType.objects.filter(
            model__startswith="external"
        ).values_list("app_label", "model")
    )
    TestSet.objects.all().delete()  # the foreign keys survived the renames
    left = ExternalCorpusScore.objects.count()
    return {"rows": rows, "tables": tables, "content_types": types, "left": left}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mtdash.settings")
    import django

    django.setup()
    from django.db import connection

    old = migrate(connection, BEFORE_THE_MOVE)
    # The external models' content types, as a database of that time has them.
    content_type = old.get_model("contenttypes", "ContentType")
    for model in ("externalmetric", "externalcorpusscore", "externalsegmentscore"):
        content_type.objects.create(app_label="judgments", model=model)
    written = fill(old)
    migrate(connection)
    print(json.dumps({"written": written, **read_back()}))


if __name__ == "__main__":
    main()
