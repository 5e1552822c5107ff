"""The external metrics' models join this app (see
``judgments.0004_move_external_scores``, which renamed their tables): state
only, no table is created; their content types follow them, so permissions
and admin history keep pointing at the same rows."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("externalmetric", "externalcorpusscore", "externalsegmentscore")


def move_content_types(apps, schema_editor, source="judgments", target="evaluation"):
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not content_type.objects.filter(app_label=target, model=model).exists():
            content_type.objects.filter(app_label=source, model=model).update(
                app_label=target
            )


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, source="evaluation", target="judgments")


class Migration(migrations.Migration):
    dependencies = [
        ("evaluation", "0006_readability_jobs"),
        ("judgments", "0004_move_external_scores"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ExternalMetric",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=100)),
                        ("description", models.CharField(max_length=300)),
                        ("higher_is_better", models.BooleanField(default=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "test_set",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="external_metrics",
                                to="evaluation.testset",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["name"],
                    },
                ),
                migrations.CreateModel(
                    name="ExternalCorpusScore",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("score", models.FloatField()),
                        ("n_segments", models.PositiveIntegerField()),
                        ("file_name", models.CharField(max_length=255)),
                        ("imported_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "imported_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "output",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="external_scores",
                                to="evaluation.systemoutput",
                            ),
                        ),
                        (
                            "metric",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="corpus_scores",
                                to="evaluation.externalmetric",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["metric", "output"],
                    },
                ),
                migrations.CreateModel(
                    name="ExternalSegmentScore",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "index",
                            models.PositiveIntegerField(
                                help_text="segment line number − 1"
                            ),
                        ),
                        ("score", models.FloatField()),
                        (
                            "corpus_score",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="segment_scores",
                                to="evaluation.externalcorpusscore",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["index"],
                    },
                ),
                migrations.AddConstraint(
                    model_name="externalmetric",
                    constraint=models.UniqueConstraint(
                        fields=("test_set", "name"),
                        name="external_metric_name_per_test_set",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="externalcorpusscore",
                    constraint=models.UniqueConstraint(
                        fields=("metric", "output"),
                        name="one_external_score_per_output",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="externalsegmentscore",
                    constraint=models.UniqueConstraint(
                        fields=("corpus_score", "index"), name="external_segment_index"
                    ),
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
