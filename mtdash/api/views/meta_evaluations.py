"""The WMT metrics task's meta-evaluation through the API (token or session).

- ``POST /api/v1/meta-evaluations/`` (JSON): ``test_sets`` (ids, in the
  order of the tables), optional ``weights`` (one positive number per test
  set, default 1 each), ``criterion`` (judged on every test set) and the
  settings ``permutations`` (1000), ``seed`` (1), ``group_by`` (item),
  ``tie_calibration`` (true) and ``kendall_variant`` (23); 202 with the id
  and the status URL. The same request on unchanged scores and judgments
  answers the stored or waiting job (its ``status`` says which) instead of
  queueing another; a failed one is queued anew.
- ``GET /api/v1/meta-evaluations/{id}``: status, progress, the request and,
  once succeeded, the result: per test set ``ProtocolResult.to_dict()``
  of ``scoring.stats`` (each task's cells: ``metric``, ``method``,
  ``coefficient``, ``tie_epsilon``, ``p_value``, ``cluster``) and, for two
  test sets or more, ``overall`` (the pooled ranking with its ``cells``).

Errors are ``{"errors": [...]}`` whose messages start with the field at
fault (``mtdash.api.errors``); another team's test set or meta-evaluation
is a 404 (a test set in a request: a 400 saying it is not in your teams).
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api.errors import ApiError, error
from mtdash.api.permissions import scoped_or_404
from mtdash.common.responses import iso_time
from mtdash.evaluation.models import TestSet
from mtdash.judgments.meta_evaluation.jobs import (
    RequestProblem,
    checked_request,
    meta_evaluations_of,
    request_meta_evaluation,
)
from mtdash.judgments.meta_evaluation.options import (
    DEFAULTS,
    GROUPINGS,
    KENDALL_VARIANTS,
    MAX_PERMUTATIONS,
    chosen_settings,
)
from mtdash.judgments.models import MetaEvaluation
from scoring import ScoringError
from scoring.stats import ProtocolSettings


class SettingsSerializer(serializers.Serializer):
    """The settings a client may choose (the others are WMT's)."""

    permutations = serializers.IntegerField(
        min_value=1, max_value=MAX_PERMUTATIONS, default=DEFAULTS.n_permutations
    )
    seed = serializers.IntegerField(
        min_value=0, max_value=2**32 - 1, default=DEFAULTS.seed
    )
    group_by = serializers.ChoiceField(
        list(GROUPINGS),
        default=DEFAULTS.group_by,
        help_text="grouping of segment acc_eq and Kendall (WMT: item)",
    )
    tie_calibration = serializers.BooleanField(default=DEFAULTS.tie_calibration)
    kendall_variant = serializers.ChoiceField(
        list(KENDALL_VARIANTS), default=DEFAULTS.kendall_variant
    )


class MetaEvaluationRequest(SettingsSerializer):
    """The body of ``POST /api/v1/meta-evaluations/``."""

    test_sets = serializers.ListField(
        child=serializers.IntegerField(), min_length=1, help_text="test set ids"
    )
    weights = serializers.ListField(
        child=serializers.FloatField(),
        required=False,
        help_text="one positive weight per test set (default 1 each)",
    )
    criterion = serializers.CharField()


class MetaEvaluationQueued(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(["queued", "running", "succeeded", "failed"])
    progress = serializers.IntegerField(help_text="0–100")
    url = serializers.CharField(help_text="GET it for the status and the result")


def serializer_errors(serializer: serializers.Serializer) -> list[dict]:
    """A serializer's errors, each message starting with its field."""
    return [
        error(f"{field}: {message}")
        for field, messages in serializer.errors.items()
        for message in (messages if isinstance(messages, list) else [messages])
    ]


def read_settings(data: dict) -> ProtocolSettings:
    """The settings in ``data`` (query parameters or a JSON body), or a 400
    naming the field."""
    serializer = SettingsSerializer(data=data)
    if not serializer.is_valid():
        raise ApiError(serializer_errors(serializer))
    try:
        return chosen_settings(**serializer.validated_data)
    except ScoringError as problem:
        raise ApiError([error(f"settings: {problem}")]) from None


def refused(problem: RequestProblem) -> ApiError:
    return ApiError([error(f"{problem.field}: {problem.message}")])


def queued_body(job: MetaEvaluation) -> dict:
    return {
        "id": job.pk,
        "status": job.status,
        "progress": job.progress,
        "url": reverse("api_meta_evaluation", args=[job.pk]),
    }


def meta_evaluation_dict(job: MetaEvaluation) -> dict:
    names = dict(
        TestSet.objects.filter(pk__in=job.test_set_ids).values_list("pk", "name")
    )
    return {
        **queued_body(job),
        "error_message": job.error_message,
        "created_at": iso_time(job.created_at),
        "started_at": iso_time(job.started_at),
        "finished_at": iso_time(job.finished_at),
        "attempts": job.attempts,
        "stuck": job.is_stuck,
        "test_sets": [
            {
                "id": entry["test_set"],
                "name": names.get(entry["test_set"]),
                "weight": entry["weight"],
            }
            for entry in job.weights
        ],
        "criterion": job.criterion,
        "settings": job.protocol_settings,
        "page": job.get_absolute_url(),
        "result": job.result if job.status == MetaEvaluation.Status.SUCCEEDED else None,
    }


class MetaEvaluationCreate(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="meta_evaluations_create",
        request=MetaEvaluationRequest,
        responses={
            202: MetaEvaluationQueued,
            400: OpenApiResponse(description="a field at fault, named"),
        },
    )
    def post(self, request) -> Response:
        if not isinstance(request.data, dict):
            raise ApiError([error("send a JSON object")])
        body = MetaEvaluationRequest(data=request.data)
        if not body.is_valid():
            raise ApiError(serializer_errors(body))
        data = dict(body.validated_data)
        test_sets, weights = data.pop("test_sets"), data.pop("weights", None)
        criterion = data.pop("criterion")
        try:
            settings = chosen_settings(**data)
        except ScoringError as problem:
            raise ApiError([error(f"settings: {problem}")]) from None
        try:
            meta = checked_request(
                request.user, test_sets, weights, criterion, settings
            )
        except RequestProblem as problem:
            raise refused(problem) from None
        job, _ = request_meta_evaluation(meta, request.user)
        return Response(queued_body(job), status=202)


class MetaEvaluationDetail(APIView):
    @extend_schema(
        operation_id="meta_evaluation_read",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request, pk: int) -> Response:
        job = scoped_or_404(meta_evaluations_of(request.user), pk)
        return Response(meta_evaluation_dict(job))
