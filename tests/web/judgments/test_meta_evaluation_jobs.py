"""The meta-evaluation job: what it reads, what it stores (the library's
``run_protocol`` and ``pool_protocols`` on the correlation tables' inputs),
its progress, its failures, asking twice, and deleting a test set."""

from __future__ import annotations

import pytest

from mtdash.common.sweeper import job_models
from mtdash.evaluation.manage.actions import summarise_test_set_deletion
from mtdash.evaluation.models import SystemOutput, TestSet
from mtdash.judgments.correlations.inputs import metric_scores, with_sentence_scores
from mtdash.judgments.meta_evaluation.jobs import (
    RequestProblem,
    checked_request,
    evaluate,
    run_meta_evaluation,
)
from mtdash.judgments.meta_evaluation.options import chosen_settings
from mtdash.judgments.models import MetaEvaluation
from mtdash.judgments.reading import stored_judgments
from mtdash.teams.models import Membership, Team
from scoring.stats import overall_cells, pool_protocols, run_protocol
from tests.web.judgments.meta_evaluation_support import (
    FAST,
    another_test_set,
    as_stored,
    judge,
    queue,
    run,
)


def protocol_of(test_set, criterion="adequacy", settings=FAST):
    """``run_protocol`` on the inputs the correlation tables read."""
    visible = dict(
        SystemOutput.objects.filter(test_set=test_set, hidden=False).values_list(
            "pk", "system__name"
        )
    )
    scores = with_sentence_scores(metric_scores(test_set, visible, 3))
    judgments = stored_judgments(test_set, visible)
    return run_protocol(scores, judgments, criterion, settings, name=test_set.name)


@pytest.fixture
def judged(test_set, owner):
    return judge(test_set, owner)


@pytest.mark.django_db
def test_the_stored_result_is_run_protocol_on_the_correlation_inputs(owner, judged):
    job, created = queue(owner, [judged])
    assert created and job.status == "queued"
    assert run(job).status == "succeeded", job.error_message
    assert job.progress == 100
    (block,) = job.result["test_sets"]
    expected = as_stored(protocol_of(judged).to_dict())
    assert {k: block[k] for k in expected} == expected
    assert block["metrics"] == ["bleu", "chrf", "ter", "comet"]
    assert block["negated"] == ["ter"]
    assert block["test_set"] == judged.name and block["test_set_id"] == judged.pk
    assert block["metrics_left_out"] == []
    assert [t["task"] for t in block["tasks"]] == [
        "system:pearson",
        "system:accuracy",
        "system:spa",
        "segment:acc_eq",
        "segment:kendall",
        "segment:pearson",
    ]
    for task in block["tasks"]:
        for cell in task["cells"]:
            assert set(cell) == {
                "metric",
                "method",
                "coefficient",
                "tie_epsilon",
                "p_value",
                "cluster",
            }
    assert job.result["overall"] is None  # one test set: nothing pooled
    assert job.protocol_settings == FAST.to_dict()


@pytest.mark.django_db
def test_the_progress_counts_tasks_done_of_all_the_test_sets_tasks(owner, team, judged):
    second = another_test_set(team, owner)
    job, _ = queue(owner, [judged, second])

    class Reports:
        percents: list[int] = []

        def report_progress(self, percent):
            self.percents.append(percent)

    reports = Reports()
    evaluate(job, reports)
    assert reports.percents == [100 * done // 12 for done in range(1, 13)]


@pytest.mark.django_db
def test_two_test_sets_are_pooled_and_each_reads_as_it_does_alone(owner, team, judged):
    second = another_test_set(team, owner)
    pooled = run(queue(owner, [judged, second], weights=[2.0, 1.0])[0])
    assert pooled.status == "succeeded", pooled.error_message
    alone = run(queue(owner, [second])[0])
    first_result, second_result = protocol_of(judged), protocol_of(second)
    expected = pool_protocols([first_result, second_result], [2.0, 1.0])
    overall = pooled.result["overall"]
    assert overall["cells"] == as_stored(overall_cells(expected))
    assert {k: overall[k] for k in ("tasks", "excluded_metrics")} == as_stored(
        {k: expected.to_dict()[k] for k in ("tasks", "excluded_metrics")}
    )
    blocks = pooled.result["test_sets"]
    assert [b["test_set"] for b in blocks] == ["toy fr-en", "toy de-en"]
    assert [b["weight"] for b in blocks] == [2.0, 1.0]
    # Seeded by the test set's name: the same tasks alone or pooled.
    assert blocks[1]["tasks"] == alone.result["test_sets"][0]["tasks"]
    assert pooled.weights == [
        {"test_set": judged.pk, "weight": 2.0},
        {"test_set": second.pk, "weight": 1.0},
    ]
    assert set(pooled.test_sets.all()) == {judged, second}


@pytest.mark.django_db
def test_asking_again_returns_the_stored_or_waiting_job(owner, member, judged):
    job, created = queue(owner, [judged])
    again, created_again = queue(member, [judged])  # a team member, same request
    assert created and not created_again and again == job  # waiting
    run(job)
    stored, created = queue(owner, [judged])
    assert not created and stored == job and stored.status == "succeeded"
    # Other settings, another criterion, another weight order: new jobs.
    other, created = queue(owner, [judged], settings=chosen_settings(seed=2))
    assert created and other != job
    fluency, created = queue(owner, [judged], criterion="fluency")
    assert created and fluency not in (job, other)
    assert MetaEvaluation.objects.count() == 3


@pytest.mark.django_db
def test_changed_inputs_make_a_new_job(owner, judged):
    job = run(queue(owner, [judged])[0])
    SystemOutput.objects.filter(test_set=judged, system__name="good").update(
        hidden=True
    )
    newer, created = queue(owner, [judged])
    assert created and newer != job
    TestSet.objects.filter(pk=judged.pk).update(name="renamed")  # seeds change too
    judged.refresh_from_db()
    renamed, created = queue(owner, [judged])
    assert created and renamed not in (job, newer)


@pytest.mark.django_db
def test_a_library_error_fails_the_job_with_its_message(owner, judged):
    SystemOutput.objects.filter(
        test_set=judged, system__name__in=["good", "fair"]
    ).update(hidden=True)
    job = run(queue(owner, [judged])[0])
    assert job.status == "failed"
    assert job.error_message == (
        "toy fr-en: 2 system(s) have a human score for 'adequacy' and every "
        "metric's scores; at least 3 needed"
    )
    assert job.result is None
    # A failed job is not what asking again returns: a new one is queued.
    again, created = queue(owner, [judged])
    assert created and again != job


@pytest.mark.django_db
def test_a_job_runs_once(owner, judged):
    job = run(queue(owner, [judged])[0])
    finished = job.finished_at
    assert run_meta_evaluation(job.pk) is False
    job.refresh_from_db()
    assert job.finished_at == finished and job.attempts == 1


@pytest.mark.django_db
def test_a_request_is_checked_field_by_field(owner, outsider, judged):
    other_team = Team.objects.create(name="Beta lab")
    Membership.objects.create(team=other_team, user=owner)
    second = another_test_set(other_team, owner)

    def problem(user, ids, weights=None, criterion="adequacy"):
        with pytest.raises(RequestProblem) as raised:
            checked_request(user, ids, weights, criterion, FAST)
        return raised.value.field, raised.value.message

    assert problem(owner, []) == ("test_sets", "choose at least one test set")
    assert problem(owner, [judged.pk, judged.pk])[0] == "test_sets"
    # Another team's test set is refused like one that does not exist.
    assert problem(outsider, [judged.pk]) == (
        "test_sets",
        f"no test set {judged.pk} in your teams",
    )
    # Both are the owner's, but a meta-evaluation belongs to one team.
    assert problem(owner, [judged.pk, second.pk]) == (
        "test_sets",
        "the test sets must belong to one team",
    )
    assert problem(owner, [judged.pk], weights=[1.0, 2.0])[0] == "weights"
    assert problem(owner, [judged.pk], weights=[0.0])[0] == "weights"
    assert problem(owner, [judged.pk], criterion="mqm") == (
        "criterion",
        "'toy fr-en' has no judgments of 'mqm' (its criteria: adequacy, fluency)",
    )


@pytest.mark.django_db
def test_deleting_a_test_set_deletes_the_meta_evaluations_using_it(owner, team, judged):
    second = another_test_set(team, owner)
    alone = run(queue(owner, [judged])[0])
    pooled, _ = queue(owner, [judged, second])
    other, _ = queue(owner, [second])
    summary = summarise_test_set_deletion(judged)
    assert "2 meta-evaluations" in summary.phrases()
    TestSet.objects.filter(pk=judged.pk).delete()  # as the delete page does
    assert list(MetaEvaluation.objects.all()) == [other]
    assert not MetaEvaluation.objects.filter(pk__in=[alone.pk, pooled.pk]).exists()
    # With the team: every one goes.
    team.delete()
    assert not MetaEvaluation.objects.exists()


def test_the_worker_and_the_sweeper_know_the_job():
    from mtdash.celery import app
    from mtdash.judgments import tasks

    assert tasks.run_meta_evaluation.name == MetaEvaluation.task_name
    app.loader.import_default_modules()  # what a worker does at start
    assert MetaEvaluation.task_name in app.tasks
    assert MetaEvaluation in job_models()


@pytest.mark.django_db
def test_a_new_job_is_sent_to_a_worker_once_the_transaction_commits(
    owner, judged, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(
        "mtdash.judgments.meta_evaluation.jobs.send_job_tasks",
        lambda model, ids: sent.append((model, list(ids))),
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job, _ = queue(owner, [judged])
        assert sent == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert sent == [(MetaEvaluation, [job.pk])]
    with django_capture_on_commit_callbacks(execute=True):
        queue(owner, [judged])  # the same request: nothing new to send
    assert sent == [(MetaEvaluation, [job.pk])]
