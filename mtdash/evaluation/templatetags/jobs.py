"""Showing a job's times (``{{ job.elapsed|duration }}``) and why it waits
(``{% queue_place job as place %}``)."""

from datetime import timedelta

from django import template

from mtdash.common.queueing import QueuePlace
from mtdash.common.queueing import queue_place as find_queue_place

register = template.Library()


@register.filter
def duration(value: timedelta | None) -> str:
    """``4.2 s``, ``3 min 05 s``, ``2 h 03 min``; an en dash for none."""
    if value is None:
        return "–"
    seconds = max(value.total_seconds(), 0.0)
    if seconds < 60:
        return f"{seconds:.1f} s"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s"


@register.simple_tag
def queue_place(job) -> QueuePlace | None:
    """Where the job waits in the queue, or None (see ``queue_place``)."""
    return None if job.is_finished else find_queue_place(job)
