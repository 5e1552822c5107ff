# The segments of a category filter spans by category (or its prefix) and
# severity: an index on both, in PostgreSQL's pattern operator class so a
# LIKE prefix can use it whatever the database collation.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("judgments", "0007_error_span_evaluation"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="errorspan",
            index=models.Index(
                fields=["category", "severity"],
                name="errorspan_category_severity",
                opclasses=["varchar_pattern_ops", "varchar_pattern_ops"],
            ),
        ),
    ]
