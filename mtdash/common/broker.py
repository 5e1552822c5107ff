"""What the Redis broker still holds: the row ids of messages not yet run.

The sweeper asks before sending a row's task again, so a long queue of work
waiting for busy workers is not sent twice every sweep. Only the Redis
transport is understood (kombu's layout: one list per queue and priority,
and the ``unacked`` hash of messages a worker has taken but not finished);
every queue the workers consume (``CELERY_TASK_QUEUES``: scoring, analysis,
ORANGE) is read, and only those: a message in a queue no worker reads
would never run, so it must not keep its row from being sent again;
with anything else the answer is "unknown" and the sweeper sends anyway,
which is harmless because a claim decides who runs a row.

A message a worker took counts only while it is fresh (delivered within the
lease): a worker killed with messages reserved leaves them in ``unacked``
until the broker's visibility timeout (an hour), and their rows must not wait
that long. A live worker's old reservation is sent again too; the second
message finds nothing to claim.
"""

from __future__ import annotations

import base64
import json
import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field

import redis

from mtdash.celery import app as celery_app

logger = logging.getLogger(__name__)

# kombu's Redis transport: priority queues are "<queue>\x06\x16<priority>".
_PRIORITY_SEPARATOR = "\x06\x16"
_PRIORITY_STEPS = (0, 3, 6, 9)
_UNACKED = "unacked"
_UNACKED_INDEX = "unacked_index"  # delivery tag -> time taken


@dataclass
class PendingMessages:
    """Row ids per task name: ``waiting`` in a queue, ``taken`` by a worker
    (running, reserved or waiting for a retry's countdown)."""

    waiting: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    taken: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))


def _row_id(payload: dict) -> tuple[str, int] | None:
    """``(task name, first argument)`` of a kombu message, if it has them."""
    try:
        task = payload["headers"]["task"]
        body = payload["body"]
        if payload.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return task, int(args[0])
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def consumed_queues() -> list[str]:
    """The names of the queues a worker reads, most urgent first: the
    configured ``task_queues`` (a worker started without ``-Q`` consumes
    them all), else Celery's default queue."""
    queues = celery_app.conf.task_queues
    if queues:
        return [queue.name for queue in queues]
    return [celery_app.conf.task_default_queue or "celery"]


def pending_messages(taken_within: float | None = None) -> PendingMessages | None:
    """The messages in the Redis broker, or None if that cannot be known;
    with ``taken_within``, only messages taken in the last so many seconds
    count as taken."""
    url = celery_app.conf.broker_url or ""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    pending = PendingMessages()
    try:
        client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        with client:
            for queue in consumed_queues():
                for step in _PRIORITY_STEPS:
                    key = queue if step == 0 else f"{queue}{_PRIORITY_SEPARATOR}{step}"
                    for raw in client.lrange(key, 0, -1):
                        found = _row_id(json.loads(raw))
                        if found:
                            pending.waiting[found[0]].add(found[1])
            if taken_within is None:
                taken = client.hvals(_UNACKED)
            else:
                since = time.time() - taken_within
                tags = client.zrangebyscore(_UNACKED_INDEX, since, "+inf")
                taken = (
                    [raw for raw in client.hmget(_UNACKED, tags) if raw] if tags else []
                )
            for raw in taken:
                found = _row_id(json.loads(raw)[0])
                if found:
                    pending.taken[found[0]].add(found[1])
    except (redis.RedisError, OSError, ValueError):
        logger.warning("could not read the broker's queues", exc_info=True)
        return None
    return pending
