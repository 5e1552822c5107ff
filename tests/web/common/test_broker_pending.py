"""What the sweeper reads from a real Redis broker (kombu's layout): messages
waiting in the queue, and messages taken by a worker, which count only while
fresh: a killed worker's reservations must not hide their rows for the
broker's one-hour visibility timeout."""

import base64
import json
import time

import pytest
import redis

from mtdash.celery import app as celery_app
from mtdash.common.broker import pending_messages

TASK = "mtdash.evaluation.tasks.score_output"


def message(row_id: int) -> dict:
    body = json.dumps([[row_id], {}, {}]).encode()
    return {
        "body": base64.b64encode(body).decode(),
        "headers": {"task": TASK, "id": f"task-{row_id}"},
        "properties": {"body_encoding": "base64", "delivery_tag": f"tag-{row_id}"},
    }


@pytest.fixture
def broker(redis_url, monkeypatch):
    # Another database of the session's Redis: the real worker of the
    # integration tests consumes the queue of database 0.
    url = redis_url.rsplit("/", 1)[0] + "/13"
    monkeypatch.setattr(celery_app.conf, "broker_url", url)
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


def take(client: redis.Redis, row_id: int, seconds_ago: float) -> None:
    """A message a worker reserved ``seconds_ago``, as kombu records it."""
    tag = f"tag-{row_id}"
    client.hset("unacked", tag, json.dumps([message(row_id), "", "celery"]))
    client.zadd("unacked_index", {tag: time.time() - seconds_ago})


def test_waiting_and_freshly_taken_messages_count_old_reservations_do_not(broker):
    broker.rpush("scoring", json.dumps(message(1)))
    take(broker, 2, seconds_ago=5)
    take(broker, 3, seconds_ago=3600)
    pending = pending_messages(taken_within=60)
    assert pending.waiting[TASK] == {1}
    assert pending.taken[TASK] == {2}


def test_every_queue_the_workers_read_counts_and_no_other(broker):
    broker.rpush("analysis", json.dumps(message(4)))
    broker.rpush("orange\x06\x163", json.dumps(message(5)))  # priority 3
    broker.rpush("nobody-reads-this", json.dumps(message(6)))
    assert pending_messages().waiting[TASK] == {4, 5}


def test_without_a_bound_every_taken_message_counts(broker):
    take(broker, 2, seconds_ago=5)
    take(broker, 3, seconds_ago=3600)
    assert pending_messages().taken[TASK] == {2, 3}


def test_an_unreachable_broker_gives_no_answer(monkeypatch):
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:9/0")
    assert pending_messages(taken_within=60) is None
