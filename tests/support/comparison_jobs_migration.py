"""Run by ``tests/web/evaluation/test_comparison_jobs_migration.py`` in a
process of its own, on a fresh database named by ``DATABASE_URL``: migrate
to the schema before one waiting and one running comparison job per test
set were enforced, store the duplicates an older server could make, migrate
to the latest, and print (JSON) every comparison job's status and message.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta

from tests.support.external_scores_migration import migrate

BEFORE_THE_CONSTRAINTS = [("evaluation", "0008_human_translations_as_systems")]


def fill(old) -> dict[str, int]:
    """Two test sets: one with three waiting and two running jobs (and one
    that succeeded), one with a single waiting and a single running job."""
    from django.utils import timezone

    team = old.get_model("teams", "Team").objects.create(name="team")
    test_set_model = old.get_model("evaluation", "TestSet")
    job_model = old.get_model("evaluation", "ComparisonJob")
    crowded, tidy = (
        test_set_model.objects.create(
            team=team, name=name, source_language="fr", target_language="en"
        )
        for name in ("crowded", "tidy")
    )
    now = timezone.now()
    ids = {}
    for name, test_set, status, started in (
        ("crowded waiting 1", crowded, "queued", None),
        ("crowded waiting 2", crowded, "queued", None),
        ("crowded waiting 3", crowded, "queued", None),
        ("crowded running earlier", crowded, "running", now - timedelta(minutes=9)),
        ("crowded running later", crowded, "running", now - timedelta(minutes=2)),
        ("crowded done", crowded, "succeeded", now - timedelta(hours=1)),
        ("tidy waiting", tidy, "queued", None),
        ("tidy running", tidy, "running", now - timedelta(minutes=5)),
    ):
        ids[name] = job_model.objects.create(
            test_set=test_set, status=status, started_at=started
        ).pk
    return ids


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mtdash.settings")
    import django

    django.setup()
    from django.db import connection

    ids = fill(migrate(connection, BEFORE_THE_CONSTRAINTS))
    new = migrate(connection)
    rows = dict(
        (pk, [status, message])
        for pk, status, message in new.get_model(
            "evaluation", "ComparisonJob"
        ).objects.values_list("pk", "status", "error_message")
    )
    print(json.dumps({name: rows[pk] for name, pk in ids.items()} | {"ids": ids}))


if __name__ == "__main__":
    main()
