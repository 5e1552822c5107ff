# Chunks become rows of the shared abstract job model (mtdash.common.jobs.Job),
# which adds a creation time and a progress; existing chunks take their job's
# creation time, and those already done a progress of 100.

import django.utils.timezone
from django.db import migrations, models


def backfill(apps, schema_editor):
    OrangeChunk = apps.get_model("orange", "OrangeChunk")
    OrangeJob = apps.get_model("orange", "OrangeJob")
    job_created = OrangeJob.objects.filter(pk=models.OuterRef("job_id"))
    OrangeChunk.objects.update(
        created_at=models.Subquery(job_created.values("created_at")[:1])
    )
    OrangeChunk.objects.filter(status="done").update(progress=100)


class Migration(migrations.Migration):
    dependencies = [
        ("orange", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="orangechunk",
            name="created_at",
            field=models.DateTimeField(
                auto_now_add=True, default=django.utils.timezone.now
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="orangechunk",
            name="progress",
            field=models.PositiveSmallIntegerField(default=0, help_text="0–100"),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
