"""``GET /api/v1/test-sets/{id}/correlations``: the stored correlation table
of one level and coefficient (``CorrelationTable.to_dict()`` of
``scoring.stats``, plus ``unavailable``: criteria that could not be
correlated). It names its interval (``interval``: two-sided percentile
bootstrap, ``resampling_unit`` system or segment) and its paired test
against the best with the test's sidedness (``equivalence_test``); a
criterion with fewer than 3 points has ``status`` "too few points"."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api.errors import error, errors_response
from mtdash.api.permissions import scoped_or_404
from mtdash.evaluation.access import test_sets_of
from mtdash.judgments.correlations.page import stored_table
from mtdash.judgments.correlations.tables import LEVELS, METHODS
from mtdash.judgments.models import Judgment


class TestSetCorrelations(APIView):
    __test__ = False

    @extend_schema(
        operation_id="test_set_correlations",
        parameters=[
            OpenApiParameter("level", str, enum=list(LEVELS), default="system"),
            OpenApiParameter("method", str, enum=list(METHODS), default="pearson"),
        ],
        responses={
            200: OpenApiResponse(description="the correlation table"),
            202: OpenApiResponse(description="being computed by a worker"),
            400: OpenApiResponse(description="bad level or method"),
            404: OpenApiResponse(description="no such test set, or no judgments"),
        },
    )
    def get(self, request, pk: int):
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        level = request.query_params.get("level", LEVELS[0])
        method = request.query_params.get("method", METHODS[0])
        problems = [
            error(f"{name}: {value!r} is not one of {', '.join(allowed)}")
            for name, value, allowed in (
                ("level", level, LEVELS),
                ("method", method, METHODS),
            )
            if value not in allowed
        ]
        if problems:
            return errors_response(problems)
        table = stored_table(test_set, level, method)
        if table is not None:
            return Response(table)
        if not Judgment.objects.filter(output__test_set=test_set).exists():
            return errors_response(
                [error("the test set has no human judgments: import some first")],
                status_code=404,
            )
        return Response(
            {"status": "pending", "detail": "being computed by a worker"}, status=202
        )
