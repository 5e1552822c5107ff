"""Queue a comparison job for every test set whose stored comparisons
predate clusters per correction for multiple comparisons (their clusters
followed a rule that could join two significantly different systems and
name no correction). The leaderboard shows their scores as pending until the
job has run; the sweeper sends the queued jobs to a worker."""

from django.db import migrations


def queue_recomputation(apps, schema_editor):
    MetricComparison = apps.get_model("evaluation", "MetricComparison")
    ComparisonJob = apps.get_model("evaluation", "ComparisonJob")
    stale = set()
    rows = MetricComparison.objects.exclude(kind="human").values_list(
        "test_set_id", "summary"
    )
    for test_set_id, summary in rows.iterator():
        if any("clusters" not in entry for entry in summary.values()):
            stale.add(test_set_id)
    for test_set_id in sorted(stale):
        if not ComparisonJob.objects.filter(
            test_set_id=test_set_id, status="queued"
        ).exists():
            ComparisonJob.objects.create(test_set_id=test_set_id)


class Migration(migrations.Migration):
    dependencies = [
        ("evaluation", "0004_test_set_analyses"),
    ]

    operations = [
        migrations.RunPython(queue_recomputation, migrations.RunPython.noop),
    ]
