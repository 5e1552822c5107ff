"""The demo shows ORANGE: a 7-best list from the demo systems and a finished job."""

import pytest
from django.core.management import CommandError, call_command

from mtdash.demo.corpus import demo_test_set
from mtdash.demo.nbest import DEMO_ORANGE_METRICS, demo_nbest_lines
from mtdash.demo.systems import demo_systems
from mtdash.orange.models import NBestList, OrangeJob
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
)

# The demo user's password is hashed as any test user's (conftest.py).
pytestmark = pytest.mark.usefixtures("artifact_dir", "fast_password_hashing")


def test_the_demo_nbest_list_has_the_seven_systems_best_first_for_every_sentence():
    corpus = demo_test_set()
    systems = demo_systems(corpus)
    lines = demo_nbest_lines(corpus, systems)
    assert len(lines) == 7 * len(corpus.sources)
    first = [line.split(" ||| ") for line in lines[:7]]
    assert [fields[0] for fields in first] == ["0"] * 7
    assert [fields[2] for fields in first] == [f"system={s.name}" for s in systems]
    assert first[0][1] == " ".join(systems[0].hypotheses[0].split())


def test_loading_the_orange_demo_gives_a_finished_job(db):
    call_command("load_demo", "--score-now")
    call_command("load_orange_demo", "--score-now")

    job = OrangeJob.objects.get()
    assert job.status == OrangeJob.Status.SUCCEEDED, job.error_message
    assert job.n_chunks == 3  # 48 sentences of 7 candidates, 16 sentences a chunk
    assert [score.metric for score in job.scores.all()] == list(DEMO_ORANGE_METRICS)
    nbest = NBestList.objects.get()
    assert (nbest.n_sentences, nbest.max_candidates) == (48, 7)
    for score in job.scores.all():
        assert 0 < score.orange < 100
        assert len(score.curve) == 7  # n = 1 … 7


def test_loading_the_orange_demo_twice_changes_nothing(db):
    call_command("load_demo", "--score-now")
    call_command("load_orange_demo", "--score-now")
    call_command("load_orange_demo", "--score-now")
    assert NBestList.objects.count() == 1 and OrangeJob.objects.count() == 1


def test_the_orange_demo_needs_the_demo_test_set(db):
    with pytest.raises(CommandError, match="run load_demo first"):
        call_command("load_orange_demo")
