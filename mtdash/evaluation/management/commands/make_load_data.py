"""A leaderboard of the size the load test measures (``bin/loadtest``).

Creates a user, a team and one test set whose outputs already carry corpus
scores for many metric configurations (seeded random values with the real
signatures), so the pages cost what they cost in use without hours of
scoring first. Idempotent: the test set is made anew each time.
"""

from __future__ import annotations

import numpy as np
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from mtdash.evaluation.models import CorpusScore, ScoringJob, TestSet
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.teams.models import Membership, Team
from scoring import get_metric

LOAD_TEAM = "Load test team"
TEST_SET_NAME = "load-test"
# Twenty configurations with distinct signatures: twenty leaderboard columns.
METRIC_SPECS = (
    "bleu",
    "bleu:n=2",
    "bleus",
    "nist",
    "chrf",
    "chrf++",
    "ter",
    "wer",
    "per",
    "ser",
    "gtm",
    "gtm:e=2",
    "rouge-n",
    "rouge-n:n=1",
    "rouge-l",
    "rouge-w",
    "rouge-s",
    "rouge-su",
    "rouge-s:d=9",
    "bleu:lowercase=true",
)
SENTENCES = (
    "the committee approved the budget on tuesday",
    "rain is expected in the north tomorrow",
    "the museum will reopen after two years of work",
    "prices rose faster than wages last year",
)


class Command(BaseCommand):
    help = "Create a test set with many systems and metrics for bin/loadtest."

    def add_arguments(self, parser):
        parser.add_argument("--systems", type=int, default=50)
        parser.add_argument("--metrics", type=int, default=20)
        parser.add_argument("--username", default="load")
        parser.add_argument("--password", default="mtdash-load")
        parser.add_argument("--seed", type=int, default=7)

    @transaction.atomic
    def handle(self, *args, systems, metrics, username, password, seed, **options):
        if not 1 <= metrics <= len(METRIC_SPECS):
            raise SystemExit(f"--metrics must be 1 to {len(METRIC_SPECS)}")
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            user = get_user_model().objects.create_user(username, password=password)
        team, _ = Team.objects.get_or_create(name=LOAD_TEAM)
        Membership.objects.get_or_create(user=user, team=team)
        TestSet.objects.filter(team=team, name=TEST_SET_NAME).delete()
        test_set = create_test_set(
            team,
            user,
            TestSetData(
                name=TEST_SET_NAME,
                source_language="fr",
                target_language="en",
                text_type="news",
                description="Synthetic scores for the load test.",
                sources=list(SENTENCES),
                references={"A": list(SENTENCES), "B": list(SENTENCES)},
            ),
        )
        random = np.random.default_rng(seed)
        specs = METRIC_SPECS[:metrics]
        references = [list(SENTENCES), list(SENTENCES)]
        signatures = {
            spec: get_metric(spec).corpus_signature(references, nrefs=2)
            for spec in specs
        }
        scales = {spec: get_metric(spec).scale for spec in specs}
        scores = []
        for index in range(systems):
            job = create_system_output(
                test_set,
                user,
                f"system-{index + 1:03d} (a long descriptive name)",
                list(SENTENCES),
                metrics=specs,
                queue=False,
            )
            ScoringJob.objects.filter(pk=job.pk).update(
                status=ScoringJob.Status.SUCCEEDED, progress=100
            )
            for spec in specs:
                scale = 12.0 if np.isinf(scales[spec]) else scales[spec]
                scores.append(
                    CorpusScore(
                        output=job.output,
                        metric=spec,
                        score=float(random.uniform(0.1, 0.9) * scale),
                        signature=signatures[spec],
                        job=job,
                    )
                )
        CorpusScore.objects.bulk_create(scores)
        self.stdout.write(
            f"{test_set.pk}\t{systems} systems x {metrics} metrics on "
            f"“{TEST_SET_NAME}” (login {username})"
        )
