# A judge's repeated judgments of a segment (issue 19 item 10): WMT's raw DA
# files record an annotator meeting an item again (REPEAT controls, the item
# in another HIT); each is a look of the same judge, not another judge.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("judgments", "0009_esa_campaigns"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="judgment",
            name="one_judgment_per_judge",
        ),
        migrations.AddField(
            model_name="judgment",
            name="kind",
            field=models.CharField(
                choices=[("regular", "Regular"), ("repeat", "Repeat")],
                default="regular",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="judgment",
            name="look",
            field=models.PositiveSmallIntegerField(
                default=1,
                help_text="the judge's n-th judgment of this segment (1: first)",
            ),
        ),
        migrations.AddConstraint(
            model_name="judgment",
            constraint=models.UniqueConstraint(
                fields=("output", "index", "judge", "criterion", "look"),
                name="one_judgment_per_judge_and_look",
            ),
        ),
    ]
