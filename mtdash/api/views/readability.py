"""``GET /api/v1/test-sets/{id}/readability`` and ``GET /api/v1/readability``.

The first: ASL, ASW, Flesch Reading Ease and Flesch-Kincaid grade of a test
set's source and of each reference (``figures`` null, with a ``reason``, for
a language without syllable rules); 202 with the job's status and progress
while a worker counts them, 409 with its message if the count failed. The second: raw and complexity-normalised
BLEU (x C²) and WNM (x C) of the systems of several test sets, with each
system's standard deviation across them (Babych et al. 2005, Tables 3-5):
``test_sets=1,2,3`` (or ``target_language=en``), ``reference``,
``measure_on`` (``source`` or ``references``), ``bleu`` and ``wnm`` specs.
Another team's test set is a 404, as in the browser; errors are
``{"errors": [...]}`` (``mtdash.api.errors``).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api.errors import ApiError, error
from mtdash.api.permissions import scoped_or_404
from mtdash.evaluation.access import test_sets_of
from mtdash.evaluation.readability.exports import stability_dict
from mtdash.evaluation.readability.jobs import readability_state
from mtdash.evaluation.readability.query import chosen_test_sets, read_query
from mtdash.evaluation.readability.stability import build_stability


class TestSetReadability(APIView):
    __test__ = False

    @extend_schema(
        operation_id="test_set_readability",
        responses={
            200: OpenApiTypes.OBJECT,
            202: OpenApiResponse(description="being counted by a worker"),
            409: OpenApiResponse(description="the count failed"),
        },
    )
    def get(self, request, pk: int) -> Response:
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        state = readability_state(test_set)
        if state.readability is not None:
            return Response(state.readability.to_dict())
        job = state.job
        body = {
            "status": state.state,
            "detail": "being counted by a worker"
            if state.state == "pending"
            else f"the count failed: {job.error_message}",
            "job": {"status": job.status, "progress": job.progress},
        }
        return Response(body, status=202 if state.state == "pending" else 409)


class ReadabilityAcross(APIView):
    @extend_schema(
        operation_id="readability_across_test_sets",
        parameters=[
            OpenApiParameter("test_sets", str, description="ids, e.g. 1,2,3"),
            OpenApiParameter(
                "target_language", str, description="or every test set into it"
            ),
            OpenApiParameter("reference", int, description="test set with C = 1"),
            OpenApiParameter(
                "measure_on", str, enum=["source", "references"], description="ASW of"
            ),
            OpenApiParameter("bleu", str, description="BLEU spec (default bleu)"),
            OpenApiParameter("wnm", str, description="WNM spec (default wnm)"),
        ],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request) -> Response:
        try:
            query = read_query(request.query_params)
        except ValueError as problem:
            raise ApiError([error(str(problem))]) from None
        report = build_stability(
            chosen_test_sets(request.user, query),
            reference_id=query.reference_id,
            measure_on=query.measure_on,
            specs=query.specs,
        )
        if report.pending:
            return Response(
                {"status": "pending", "detail": " ".join(report.problems)}, status=202
            )
        if not report.ready:
            raise ApiError([error(problem) for problem in report.problems])
        return Response(stability_dict(report))
