"""Support of the meta-evaluation tests (no tests here): the small judged
test set of the correlation tests (four scored outputs, COMET, two criteria
by two judges) without its correlation tables, a second one like it, and
meta-evaluations queued and run in-process (the runner, no Celery)."""

from __future__ import annotations

import json

from mtdash.evaluation.external_scores.imports import import_external_scores
from mtdash.evaluation.services.uploads import TestSetData, create_test_set
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.meta_evaluation.jobs import (
    checked_request,
    plain,
    request_meta_evaluation,
    run_meta_evaluation,
)
from mtdash.judgments.meta_evaluation.options import chosen_settings
from mtdash.judgments.models import MetaEvaluation
from tests.web.judgments.test_correlations_support import (
    comet_tsv,
    judgments_csv,
    scored_outputs,
)

# 200 draws keep each run well under a second on these test sets.
FAST = chosen_settings(permutations=200)


def judge(test_set, owner):
    """Scored outputs, COMET and the judgments (no comparison job)."""
    scored_outputs(test_set, owner)
    import_external_scores(
        test_set, owner, "comet", "wmt22-comet-da", True, comet_tsv(), "comet.tsv"
    )
    import_judgments(test_set, owner, judgments_csv(), "judgments.csv")
    return test_set


def another_test_set(team, owner, name: str = "toy de-en"):
    """A second test set like the shared one (same segments), judged."""
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name=name,
            source_language="de",
            target_language="en",
            text_type="news",
            description="",
            sources=["die Katze ist auf der Matte", "es regnet", "hallo zusammen"],
            references={
                "A": ["the cat is on the mat", "it is raining", "hello everyone"],
            },
        ),
    )
    return judge(test_set, owner)


def queue(user, test_sets, criterion="adequacy", settings=FAST, weights=None):
    """(job, created) of a checked request."""
    request = checked_request(
        user, [t.pk for t in test_sets], weights, criterion, settings
    )
    return request_meta_evaluation(request, user)


def run(job: MetaEvaluation) -> MetaEvaluation:
    run_meta_evaluation(job.pk)
    job.refresh_from_db()
    return job


def as_stored(value):
    """What a JSON field gives back for ``value``."""
    return json.loads(json.dumps(plain(value)))
