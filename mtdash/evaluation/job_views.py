"""Actions on a scoring job (the pages that show jobs are in ``views``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from mtdash.evaluation import access
from mtdash.evaluation.services.scoring_jobs import retry_scoring_job


@login_required
@require_POST
def job_retry(request, pk: int):
    """Queue a failed job, or one whose worker stopped, again."""
    job = access.get_job(request.user, pk)
    if retry_scoring_job(job):
        messages.success(request, "Queued the job again.")
    else:
        messages.error(
            request, "Only a failed job, or one whose worker stopped, can run again."
        )
    return redirect(job)
