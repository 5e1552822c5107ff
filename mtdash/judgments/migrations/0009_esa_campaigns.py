# ESA campaigns (issue 22, section 4): a campaign's kind, a degraded screen's
# damaged characters and an ESA screen's spans.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("judgments", "0008_error_span_category_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="assignment",
            name="damage_end",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="assignment",
            name="damage_start",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="assignment",
            name="spans",
            field=models.JSONField(
                blank=True,
                help_text="ESA: [{side, start, end, severity, category}] as marked",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="campaign",
            name="kind",
            field=models.CharField(
                choices=[
                    ("rating", "ratings on scales (fluency, adequacy, DA)"),
                    ("esa", "ESA: error spans, then a 0–100 score"),
                ],
                default="rating",
                max_length=6,
            ),
        ),
    ]
