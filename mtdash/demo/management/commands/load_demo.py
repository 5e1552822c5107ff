"""Create the demo user, team, test set and systems (idempotent).

The demo corpus and systems come from ``mtdash.demo``; their scoring jobs are
queued to Celery like any upload (or run here with ``--score-now``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from mtdash.demo.corpus import demo_test_set
from mtdash.demo.systems import demo_systems
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.teams.models import Membership, Team

DEMO_TEAM = "Demo team"


class Command(BaseCommand):
    help = "Create a demo user and a demo test set with graded systems."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="mtdash-demo")
        parser.add_argument(
            "--score-now",
            action="store_true",
            help="score in this process instead of queueing jobs to Celery",
        )

    def handle(self, *args, username: str, password: str, score_now: bool, **options):
        user, team = self._user_and_team(username, password)
        corpus = demo_test_set()
        if TestSet.objects.filter(team=team, name=corpus.name).exists():
            self.stdout.write(f"Demo test set “{corpus.name}” already exists.")
            call_command("load_orange_demo", score_now=score_now)
            return
        with transaction.atomic():
            test_set = create_test_set(team, user, _as_test_set_data(corpus))
            jobs = [
                create_system_output(
                    test_set,
                    user,
                    system.name,
                    system.hypotheses,
                    system_description=system.description,
                    queue=not score_now,
                )
                for system in demo_systems(corpus)
            ]
        if score_now:
            for job in jobs:
                run_scoring_job(job.pk)
        self.stdout.write(
            f"Created demo test set “{test_set.name}” with {len(jobs)} systems "
            f"({'scored' if score_now else 'scoring jobs queued'})."
        )
        # An n-best list of the demo systems and an ORANGE job over it.
        call_command("load_orange_demo", score_now=score_now)

    def _user_and_team(self, username: str, password: str):
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(username=username)
        if created:
            user.set_password(password)
            user.save()
        team, _ = Team.objects.get_or_create(name=DEMO_TEAM)
        Membership.objects.get_or_create(
            team=team, user=user, defaults={"role": Membership.Role.OWNER}
        )
        return user, team


def _as_test_set_data(corpus) -> TestSetData:
    return TestSetData(
        name=corpus.name,
        source_language=corpus.source_language,
        target_language=corpus.target_language,
        text_type=corpus.text_type,
        description=corpus.description,
        sources=corpus.sources,
        references=dict(corpus.references),
        document_ids=corpus.document_ids,
    )
