"""At most one comparison job waiting and one running per test set.

Rows that break the rule already (two web processes queued one each, or a
worker started a waiting job while another ran) are failed first, with a
message naming the job that covers them: the oldest waiting row stays
waiting, the most recently started running row keeps running (a worker of
a failed row loses its lease at its next renewal and saves nothing).
"""

from django.db import migrations, models
from django.utils import timezone


def fail_duplicates(apps, schema_editor):
    ComparisonJob = apps.get_model("evaluation", "ComparisonJob")
    now = timezone.now()
    latest_start = models.F("started_at").desc(nulls_last=True)
    for status, keep_first in (("queued", "created_at"), ("running", latest_start)):
        kept: dict[int, int] = {}
        rows = ComparisonJob.objects.filter(status=status).order_by(
            "test_set_id", keep_first, "pk"
        )
        for pk, test_set_id in rows.values_list("pk", "test_set_id"):
            if test_set_id not in kept:
                kept[test_set_id] = pk
                continue
            ComparisonJob.objects.filter(pk=pk, status=status).update(
                status="failed",
                error_message=(
                    f"superseded by comparison job {kept[test_set_id]} "
                    f"({status} for the same test set)"
                ),
                finished_at=now,
                lease_expires_at=None,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("evaluation", "0008_human_translations_as_systems"),
    ]

    operations = [
        migrations.RunPython(fail_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="comparisonjob",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "queued")),
                fields=("test_set",),
                name="one_waiting_comparison_per_test_set",
            ),
        ),
        migrations.AddConstraint(
            model_name="comparisonjob",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "running")),
                fields=("test_set",),
                name="one_running_comparison_per_test_set",
            ),
        ),
    ]
