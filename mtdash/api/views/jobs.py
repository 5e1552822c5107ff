"""Job status and retry, for scoring and ORANGE jobs alike.

Scoring and ORANGE jobs are separate tables with separate ids, so a job is
named by its id and its kind: ``/api/v1/jobs/{id}`` is scoring job ``id``,
``/api/v1/jobs/{id}?kind=orange`` ORANGE job ``id`` (the ``job_id`` an ORANGE
request answers; ``/api/v1/orange/{id}`` also gives its results).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api import representations, serializers
from mtdash.api.errors import ApiError, error
from mtdash.api.permissions import scoped_or_404
from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.scoring_jobs import retry_scoring_job
from mtdash.orange import access as orange_access
from mtdash.orange.jobs.lifecycle import NotRetryable, retry_orange_job

KIND = OpenApiParameter(
    "kind",
    OpenApiTypes.STR,
    enum=["scoring", "orange"],
    description="which table the id is in (default scoring)",
)
ERRORS = OpenApiResponse(serializers.ErrorsSerializer)


def get_job(request, pk: int):
    """The user's scoring or ORANGE job ``pk`` as ``?kind=`` says, else 404."""
    kind = request.query_params.get("kind", "scoring")
    if kind == "orange":
        return scoped_or_404(orange_access.jobs_of(request.user), pk)
    if kind != "scoring":
        raise ApiError([error(f"kind: {kind!r} is neither scoring nor orange")])
    jobs = ScoringJob.objects.filter(output__test_set__team__members=request.user)
    return scoped_or_404(jobs, pk)


def retry(job) -> Response:
    """Queue a failed or stuck job again (202), or say why not (409)."""
    if isinstance(job, ScoringJob):
        if not retry_scoring_job(job):
            raise ApiError(
                [
                    error(
                        "Only a failed job, or one whose worker stopped, can run again."
                    )
                ],
                status_code=status.HTTP_409_CONFLICT,
            )
    else:
        try:
            retry_orange_job(job)
        except NotRetryable as refusal:
            raise ApiError(
                [error(str(refusal))], status_code=status.HTTP_409_CONFLICT
            ) from None
    job.refresh_from_db()
    return Response(representations.job_status(job), status=status.HTTP_202_ACCEPTED)


class JobDetail(APIView):
    @extend_schema(parameters=[KIND], responses={200: serializers.JobSerializer})
    def get(self, request, pk: int):
        return Response(representations.job_status(get_job(request, pk)))


class JobRetry(APIView):
    @extend_schema(
        parameters=[KIND],
        request=None,
        responses={202: serializers.JobSerializer, 409: ERRORS},
    )
    def post(self, request, pk: int):
        return retry(get_job(request, pk))
