"""``GET /api/v1/test-sets/{id}/correlations``: the stored correlation table
of one level and coefficient (``CorrelationTable.to_dict()`` of
``scoring.stats``, plus ``unavailable``: criteria that could not be
correlated). It names its interval (``interval``: two-sided percentile
bootstrap, ``resampling_unit`` system or segment) and its paired test
against the best with the test's sidedness (``equivalence_test``); a
criterion with fewer than 3 points has ``status`` "too few points".

With ``test=permutation`` (implied by ``method=accuracy`` or ``spa``) it
answers the WMT meta-evaluation's ranking of one task instead: the cells
(``metric``, ``method``, ``coefficient``, ``tie_epsilon``, ``p_value``,
``cluster``, as ``python -m scoring correlate --json`` prints them) of a
meta-evaluation of this test set alone on ``criterion`` (default: the first
judged one by name) with the settings ``permutations``, ``seed``,
``group_by``, ``tie_calibration`` and ``kendall_variant``; 202 with the
job's URL while a worker computes it (queued by this request if none was
stored or waiting), 409 if it failed. Tasks: system level ``pearson``,
``accuracy`` (pairwise) and ``spa``; sentence level ``pearson``,
``kendall`` (the chosen variant) and ``accuracy`` (acc_eq)."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api.errors import ApiError, error, errors_response
from mtdash.api.permissions import scoped_or_404
from mtdash.api.views.meta_evaluations import queued_body, read_settings, refused
from mtdash.common.responses import iso_time
from mtdash.evaluation.access import test_sets_of
from mtdash.judgments.correlations.page import stored_table
from mtdash.judgments.correlations.tables import LEVELS, METHODS
from mtdash.judgments.meta_evaluation.inputs import judged_criteria
from mtdash.judgments.meta_evaluation.jobs import (
    RequestProblem,
    checked_request,
    matching_job,
    request_meta_evaluation,
)
from mtdash.judgments.meta_evaluation.options import (
    DEFAULTS,
    GROUPINGS,
    KENDALL_VARIANTS,
)
from mtdash.judgments.models import Judgment, MetaEvaluation

# Methods that exist only as a meta-evaluation task (no bootstrap table).
PERMUTATION_METHODS = ("accuracy", "spa")
TESTS = ("bootstrap", "permutation")
# (level, method) -> the meta-evaluation task answering it.
TASKS = {
    ("system", "pearson"): "system:pearson",
    ("system", "accuracy"): "system:accuracy",
    ("system", "spa"): "system:spa",
    ("sentence", "pearson"): "segment:pearson",
    ("sentence", "kendall"): "segment:kendall",
    ("sentence", "accuracy"): "segment:acc_eq",
}


class TestSetCorrelations(APIView):
    __test__ = False

    @extend_schema(
        operation_id="test_set_correlations",
        parameters=[
            OpenApiParameter("level", str, enum=list(LEVELS), default="system"),
            OpenApiParameter(
                "method",
                str,
                enum=[*METHODS, *PERMUTATION_METHODS],
                default="pearson",
                description="accuracy and spa imply test=permutation",
            ),
            OpenApiParameter(
                "test",
                str,
                enum=list(TESTS),
                description="bootstrap: the stored correlation table (default); "
                "permutation: the WMT meta-evaluation's cells of one task",
            ),
            OpenApiParameter("criterion", str, description="test=permutation"),
            OpenApiParameter("permutations", int, default=DEFAULTS.n_permutations),
            OpenApiParameter("seed", int, default=DEFAULTS.seed),
            OpenApiParameter(
                "group_by", str, enum=list(GROUPINGS), default=DEFAULTS.group_by
            ),
            OpenApiParameter("tie_calibration", bool, default=DEFAULTS.tie_calibration),
            OpenApiParameter(
                "kendall_variant",
                str,
                enum=list(KENDALL_VARIANTS),
                default=DEFAULTS.kendall_variant,
            ),
        ],
        responses={
            200: OpenApiTypes.OBJECT,
            202: OpenApiResponse(description="being computed by a worker"),
            400: OpenApiResponse(description="a bad parameter, named"),
            404: OpenApiResponse(description="no such test set, or no judgments"),
            409: OpenApiResponse(description="the meta-evaluation failed"),
        },
    )
    def get(self, request, pk: int):
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        params = request.query_params
        level = params.get("level", LEVELS[0])
        method = params.get("method", METHODS[0])
        permutation_only = method in PERMUTATION_METHODS
        test = params.get("test") or ("permutation" if permutation_only else TESTS[0])
        problems = [
            error(f"{name}: {value!r} is not one of {', '.join(allowed)}")
            for name, value, allowed in (
                ("level", level, LEVELS),
                ("method", method, (*METHODS, *PERMUTATION_METHODS)),
                ("test", test, TESTS),
            )
            if value not in allowed
        ]
        if not problems and test == "bootstrap" and permutation_only:
            problems.append(
                error(f"method: {method} is ranked by test=permutation only")
            )
        if problems:
            return errors_response(problems)
        if test == "bootstrap":
            table = stored_table(test_set, level, method)
            if table is not None:
                return Response(table)
        if not Judgment.objects.filter(output__test_set=test_set).exists():
            return errors_response(
                [error("the test set has no human judgments: import some first")],
                status_code=404,
            )
        if test == "permutation":
            return permutation_cells(request, test_set, level, method)
        return Response(
            {"status": "pending", "detail": "being computed by a worker"}, status=202
        )


def permutation_cells(request, test_set, level: str, method: str) -> Response:
    """One task's cells of the test set's meta-evaluation with the settings
    asked for: stored (200), being computed (202, queued now if need be) or
    failed (409)."""
    task = TASKS.get((level, method))
    if task is None:
        choices = ", ".join(m for lv, m in TASKS if lv == level)
        raise ApiError(
            [
                error(
                    f"method: {method} has no permutation ranking at {level} level; "
                    f"choose {choices}"
                )
            ]
        )
    settings = read_settings(dict(request.query_params.items()))
    criteria = judged_criteria(test_set)
    criterion = request.query_params.get("criterion") or (
        criteria[0] if criteria else ""
    )
    try:
        meta = checked_request(request.user, [test_set.pk], None, criterion, settings)
    except RequestProblem as problem:
        raise refused(problem) from None
    job = matching_job(meta, meta.digest)
    if job is None:
        job, _ = request_meta_evaluation(meta, request.user)
    if job.status == MetaEvaluation.Status.FAILED:
        raise ApiError(
            [
                error(
                    f"the meta-evaluation failed: {job.error_message} (POST "
                    f"{reverse('api_meta_evaluations')} to run it again)"
                )
            ],
            status_code=409,
        )
    if job.status != MetaEvaluation.Status.SUCCEEDED:
        body = {**queued_body(job), "detail": "being computed by a worker"}
        return Response(body, status=202)
    block = job.result["test_sets"][0]
    result = next(t for t in block["tasks"] if t["task"] == task)
    notes = {
        key: value
        for key, value in result.items()
        if key not in ("task", "statistic", "grouping", "test", "cells")
    }
    return Response(
        {
            "level": level,
            "method": method,
            "test": "permutation",
            "task": task,
            "criterion": job.criterion,
            "statistic": result["statistic"],
            "grouping": result["grouping"],
            "permutation_test": result["test"],
            "settings": job.protocol_settings,
            "systems": block["systems"],
            "excluded_systems": block["excluded_systems"],
            "negated": block["negated"],
            "metrics_left_out": block.get("metrics_left_out", []),
            "notes": notes,
            "meta_evaluation": queued_body(job),
            "computed_at": iso_time(job.finished_at),
            "cells": result["cells"],
        }
    )
