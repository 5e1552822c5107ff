"""Responses every app sends the same way: downloads and a job's status."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpResponse, JsonResponse

from mtdash.common.jobs import Job
from mtdash.common.queueing import queue_place

CONTENT_TYPES = {
    "csv": "text/csv",
    "tex": "application/x-latex",
    "json": "application/json",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def download_response(body: str | bytes, file_name: str) -> HttpResponse:
    """``body`` as an attachment, text as UTF-8; the content type follows
    the extension of ``file_name`` (``.csv``, ``.tex``, ``.json`` or
    ``.xlsx``, whose body is the workbook's bytes)."""
    content_type = CONTENT_TYPES[file_name.rpartition(".")[2]]
    if isinstance(body, str):
        content_type += "; charset=utf-8"
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return response


def job_status_response(job: Job) -> JsonResponse:
    """What a job page polls while the job runs; ``stuck`` means its worker
    stopped renewing the lease (the page then offers to run it again);
    ``queue`` says why it waits while it has rows in the queue
    (:func:`mtdash.common.queueing.queue_place`), else null."""
    place = None if job.is_finished else queue_place(job)
    return JsonResponse(
        {
            "status": job.status,
            # What the page shows, so polling never changes "Queued" to "queued".
            "status_label": job.get_status_display(),
            "progress": job.progress,
            "error_message": job.error_message,
            "finished": job.is_finished,
            "attempts": job.attempts,
            "claimed_by": job.claimed_by,
            "started_at": iso_time(job.started_at),
            "finished_at": iso_time(job.finished_at),
            "lease_expires_at": iso_time(job.lease_expires_at),
            "stuck": job.is_stuck,
            "queue": place.to_dict() if place else None,
        }
    )


def iso_time(moment: datetime | None) -> str | None:
    """A time as ISO 8601 for JSON; None stays None."""
    return moment.isoformat() if moment else None
