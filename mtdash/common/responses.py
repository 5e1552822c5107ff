"""Responses every app sends the same way: downloads and a job's status."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpResponse, JsonResponse

from mtdash.common.jobs import Job

CONTENT_TYPES = {
    "csv": "text/csv",
    "tex": "application/x-latex",
    "json": "application/json",
}


def download_response(body: str, file_name: str) -> HttpResponse:
    """``body`` as a UTF-8 attachment; the content type follows the extension
    of ``file_name`` (``.csv``, ``.tex`` or ``.json``)."""
    content_type = CONTENT_TYPES[file_name.rpartition(".")[2]]
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return response


def job_status_response(job: Job) -> JsonResponse:
    """What a job page polls while the job runs; ``stuck`` means its worker
    stopped renewing the lease (the page then offers to run it again)."""
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
            "started_at": _iso(job.started_at),
            "finished_at": _iso(job.finished_at),
            "lease_expires_at": _iso(job.lease_expires_at),
            "stuck": job.is_stuck,
        }
    )


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
