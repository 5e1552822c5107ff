"""The external metrics' tables go to the evaluation app (their models
moved there: they are leaderboard columns). The rows stay where they are:
the tables are renamed, and the models leave this app's state only;
``evaluation.0007_move_external_scores`` takes them into its own."""

from django.db import migrations

TABLES = {
    "externalmetric": "evaluation_externalmetric",
    "externalcorpusscore": "evaluation_externalcorpusscore",
    "externalsegmentscore": "evaluation_externalsegmentscore",
}


class Migration(migrations.Migration):
    dependencies = [
        ("judgments", "0003_criterion_scale_and_sources"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name=model, table=table)
                for model, table in TABLES.items()
            ],
            state_operations=[
                migrations.RemoveField(
                    model_name="externalsegmentscore",
                    name="corpus_score",
                ),
                migrations.RemoveField(
                    model_name="externalmetric",
                    name="created_by",
                ),
                migrations.RemoveField(
                    model_name="externalmetric",
                    name="test_set",
                ),
                migrations.DeleteModel(
                    name="ExternalCorpusScore",
                ),
                migrations.DeleteModel(
                    name="ExternalSegmentScore",
                ),
                migrations.DeleteModel(
                    name="ExternalMetric",
                ),
            ],
        ),
    ]
