"""Which queue each kind of job waits in, and in which order workers read
them: scoring jobs first, then analyses (comparisons, readability,
meta-evaluations, n-best checks), ORANGE chunks last (issue 23 item 5)."""

from django.conf import settings

from mtdash.celery import app as celery_app
from mtdash.common.broker import consumed_queues
from mtdash.common.queueing import worker_models
from mtdash.evaluation.models import ComparisonJob, ScoringJob
from mtdash.orange.models import OrangeChunk


def queue_of(task_name: str) -> str:
    route = celery_app.amqp.router.route({}, task_name, (1,), {})
    return route["queue"].name


def test_the_workers_read_scoring_then_analysis_then_orange():
    assert consumed_queues() == ["scoring", "analysis", "orange"]
    # kombu's Redis transport reads its queues round-robin unless told to
    # keep their order: then BRPOP takes the first non-empty list.
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert options["queue_order_strategy"] == "priority"


def test_each_kind_of_job_is_routed_by_its_urgency():
    assert queue_of(ScoringJob.task_name) == "scoring"
    assert queue_of(ComparisonJob.task_name) == "analysis"
    assert queue_of(OrangeChunk.task_name) == "orange"


def test_every_kind_of_job_waits_in_a_queue_the_workers_read():
    queues = set(consumed_queues())
    for model in worker_models():
        assert queue_of(model.task_name) in queues, model.__name__
    assert queue_of("mtdash.common.tasks.sweep_jobs") == "scoring"


def test_a_worker_waits_for_one_task_at_a_time_per_slot():
    # One message reserved per free slot and acknowledged after the run: a
    # slot that frees takes the most urgent message then, not one fetched
    # while it was busy.
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    assert settings.CELERY_TASK_ACKS_LATE is True
