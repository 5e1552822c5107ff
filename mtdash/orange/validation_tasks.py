"""Celery task that checks an uploaded n-best list: takes an id, calls the runner.

Its own module (found by ``mtdash.celery``'s autodiscovery) so that the
ORANGE chunk tasks in ``tasks.py`` stay as they are.
"""

from __future__ import annotations

from mtdash.common.task_options import job_task
from mtdash.orange.models import NBestList
from mtdash.orange.nbest.validation import run_nbest_validation


@job_task(NBestList.task_name)
def validate_nbest_list(nbest_id: int) -> bool:
    """Check a stored upload completely and write its candidates.

    Safe to run twice: the list is claimed with a conditional update, and a
    finished one is left alone.
    """
    return run_nbest_validation(nbest_id)
