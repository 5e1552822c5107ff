"""Span-level meta-evaluation of a test set's metric error spans through the
API (token or session).

- ``GET /api/v1/test-sets/{id}/error-spans/agreement?variant=mpp&average=micro``
  (``variant``: em, mp, mpp, w25 or all; ``average``: micro, macro or both;
  settings ``bootstrap``, 1000, and ``seed``, 1): the stored figures of the
  evaluation with these settings on the current spans, in the shape
  ``python -m scoring spans --json`` prints (``human``, ``metric_files``,
  ``variants``, ``averages``, ``metrics``: each metric's ``systems``,
  ``coverage``, ``settings`` and ``results`` of the chosen variants and
  averagings), plus ``metrics_failed`` and ``evaluation`` (the job). 202
  with the job's URL while a worker computes it (queued by this request if
  none was stored or waiting), 409 if it failed (``POST`` the same URL to
  run it again), 404 for another team's test set or one without metric or
  human spans, 400 naming a bad parameter.
- ``POST`` the same path (same parameters): queue it (202), or answer the
  one stored or waiting.
- ``GET /api/v1/error-span-evaluations/{id}``: a job's status, progress,
  settings and, once succeeded, its whole result.
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api.errors import ApiError, error
from mtdash.api.permissions import scoped_or_404
from mtdash.common.responses import iso_time
from mtdash.evaluation.access import test_sets_of
from mtdash.evaluation.models import TestSet
from mtdash.judgments.error_spans.agreement_forms import settings_for
from mtdash.judgments.error_spans.agreement_jobs import (
    latest_job,
    request_span_evaluation,
    span_evaluations_of,
)
from mtdash.judgments.error_spans.agreement_options import (
    AVERAGES,
    DEFAULT_AVERAGE,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    DEFAULT_VARIANT,
    VARIANTS,
    AgreementSettings,
    SettingsProblem,
)
from mtdash.judgments.meta_evaluation.jobs import RequestProblem
from mtdash.judgments.models import ErrorSpanEvaluation

ALL_VARIANTS, BOTH_AVERAGES = "all", "both"
PARAMETERS = [
    OpenApiParameter(
        "variant", str, enum=[*VARIANTS, ALL_VARIANTS], default=DEFAULT_VARIANT
    ),
    OpenApiParameter(
        "average", str, enum=[*AVERAGES, BOTH_AVERAGES], default=DEFAULT_AVERAGE
    ),
    OpenApiParameter("bootstrap", int, default=DEFAULT_SAMPLES),
    OpenApiParameter("seed", int, default=DEFAULT_SEED),
]


def _integer(params, name: str, default: int) -> int:
    text = params.get(name)
    if text is None or text == "":
        return default
    try:
        return int(text)
    except ValueError:
        raise ApiError([error(f"{name}: {text[:40]!r} is not an integer")]) from None


def _choice(params, name: str, allowed: tuple[str, ...], default: str) -> str:
    value = params.get(name) or default
    if value not in allowed:
        shown = value[:40]
        raise ApiError([error(f"{name}: {shown!r} is not one of {', '.join(allowed)}")])
    return value


def _request(
    request, test_set: TestSet
) -> tuple[list[str], list[str], AgreementSettings]:
    """(variants, averages, settings) of the query, or a 400 naming one."""
    params = request.query_params
    variant = _choice(params, "variant", (*VARIANTS, ALL_VARIANTS), DEFAULT_VARIANT)
    average = _choice(params, "average", (*AVERAGES, BOTH_AVERAGES), DEFAULT_AVERAGE)
    try:
        settings = settings_for(
            test_set,
            _integer(params, "bootstrap", DEFAULT_SAMPLES),
            _integer(params, "seed", DEFAULT_SEED),
        )
    except SettingsProblem as problem:
        raise ApiError([error(f"{problem.field}: {problem.message}")]) from None
    variants = list(VARIANTS) if variant == ALL_VARIANTS else [variant]
    averages = list(AVERAGES) if average == BOTH_AVERAGES else [average]
    return variants, averages, settings


def job_body(job: ErrorSpanEvaluation) -> dict:
    return {
        "id": job.pk,
        "status": job.status,
        "progress": job.progress,
        "url": reverse("api_error_span_evaluation", args=[job.pk]),
    }


def _queue(request, test_set: TestSet, settings: AgreementSettings):
    try:
        return request_span_evaluation(test_set, settings, request.user)[0]
    except RequestProblem as problem:
        raise ApiError([error(problem.message)], status_code=404) from None


def figures(job: ErrorSpanEvaluation, variants: list[str], averages: list[str]) -> dict:
    """The stored result with only the chosen variants and averagings."""
    result = job.result
    metrics = [
        {
            **metric,
            "results": [
                r
                for r in metric["results"]
                if r["variant"] in variants and r["average"] in averages
            ],
        }
        for metric in result["metrics"]
    ]
    return {
        "human": result["human"],
        "metric_files": result["metric_files"],
        "variants": variants,
        "averages": averages,
        "metrics": metrics,
        "metrics_failed": result["metrics_failed"],
        "evaluation": {
            **job_body(job),
            "computed_at": iso_time(job.finished_at),
            "seconds": result["seconds"],
        },
    }


class TestSetSpanAgreement(APIView):
    __test__ = False

    @extend_schema(
        operation_id="test_set_error_span_agreement",
        parameters=PARAMETERS,
        responses={
            200: OpenApiTypes.OBJECT,
            202: OpenApiResponse(description="being computed by a worker"),
            400: OpenApiResponse(description="a bad parameter, named"),
            404: OpenApiResponse(description="no such test set, or no spans"),
            409: OpenApiResponse(description="the evaluation failed"),
        },
    )
    def get(self, request, pk: int) -> Response:
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        variants, averages, settings = _request(request, test_set)
        job = latest_job(test_set, settings) or _queue(request, test_set, settings)
        if job.status == ErrorSpanEvaluation.Status.FAILED:
            raise ApiError(
                [
                    error(
                        f"the span-level meta-evaluation failed: {job.error_message} "
                        "(POST this URL to run it again)"
                    )
                ],
                status_code=409,
            )
        if job.status != ErrorSpanEvaluation.Status.SUCCEEDED:
            body = {**job_body(job), "detail": "being computed by a worker"}
            return Response(body, status=202)
        return Response(figures(job, variants, averages))

    @extend_schema(
        operation_id="test_set_error_span_agreement_run",
        parameters=PARAMETERS[2:],
        request=None,
        responses={
            202: OpenApiTypes.OBJECT,
            400: OpenApiResponse(description="a bad parameter, named"),
            404: OpenApiResponse(description="no such test set, or no spans"),
        },
    )
    def post(self, request, pk: int) -> Response:
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        _, _, settings = _request(request, test_set)
        return Response(job_body(_queue(request, test_set, settings)), status=202)


class SpanEvaluationDetail(APIView):
    @extend_schema(
        operation_id="error_span_evaluation_read",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request, pk: int) -> Response:
        job = scoped_or_404(span_evaluations_of(request.user), pk)
        succeeded = job.status == ErrorSpanEvaluation.Status.SUCCEEDED
        return Response(
            {
                **job_body(job),
                "test_set": job.test_set_id,
                "settings": {"bootstrap": job.n_samples, "seed": job.seed},
                "error_message": job.error_message,
                "created_at": iso_time(job.created_at),
                "started_at": iso_time(job.started_at),
                "finished_at": iso_time(job.finished_at),
                "attempts": job.attempts,
                "stuck": job.is_stuck,
                "agreement": reverse("api_error_span_agreement", args=[job.test_set_id])
                + f"?bootstrap={job.n_samples}&seed={job.seed}",
                "result": job.result if succeeded else None,
            }
        )
