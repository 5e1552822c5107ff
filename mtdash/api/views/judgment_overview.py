"""``GET /api/v1/test-sets/{id}/judgments/summary`` and
``GET /api/v1/test-sets/{id}/judgments/disagreements``.

The summary holds every criterion's system aggregates (WMT raw mean and mean
of per-judge z, with counts) and one page of per-segment aggregates
(``criterion`` to choose one, ``page``, ``page_size`` ≤ 1000). The
disagreements are the judged segments where ``metric`` (a leaderboard
column or an external metric) and ``criterion`` disagree most, ``limit``
(≤ 500) of them. Another team's test set is a 404, as in the browser;
errors are ``{"errors": [...]}`` (``mtdash.api.errors``).

``GET .../judgments/sources`` lists every criterion's sources (imports and
campaigns, each with its id and whether it is used); ``POST`` with
``{"criterion": "adequacy", "sources": [3, 5]}`` uses exactly those.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api.errors import ApiError, error
from mtdash.api.permissions import scoped_or_404
from mtdash.evaluation import access
from mtdash.evaluation.access import test_sets_of
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.judgments.overview import disagreements as explorer
from mtdash.judgments.overview.store import all_aggregates
from mtdash.judgments.overview.summary import segment_page
from mtdash.judgments.sources import choose_sources, criterion_sources

MAX_PAGE_SIZE = 1000
MAX_LIMIT = 500


def _positive(request, name: str, default: int, largest: int) -> int:
    text = request.query_params.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= largest:
        raise ApiError([error(f"{name}: a whole number from 1 to {largest}")])
    return value


class JudgmentsSummary(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("criterion", str, description="segments of this one"),
            OpenApiParameter("page", int, description="page of segments, from 1"),
            OpenApiParameter("page_size", int, description=f"≤ {MAX_PAGE_SIZE}"),
        ],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request, pk: int) -> Response:
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        page = _positive(request, "page", 1, 10**9)
        page_size = _positive(request, "page_size", 100, MAX_PAGE_SIZE)
        criteria = all_aggregates(test_set)
        wanted = request.query_params.get("criterion")
        try:
            chosen = explorer.choose(criteria, wanted, "judged criterion")
        except explorer.NoSuchChoice as problem:
            if wanted:
                raise ApiError([error(f"criterion: {problem}")]) from None
            chosen = None
        segments = None
        if chosen is not None:
            found = segment_page(chosen, page, page_size)
            segments = {
                "criterion": chosen.name,
                "page": found.page,
                "pages": found.n_pages,
                "page_size": page_size,
                "count": chosen.n_cells,
                "results": [row.to_dict() for row in found.rows],
            }
        return Response(
            {
                "test_set": test_set.pk,
                "aggregation": "WMT: segment = mean of its judgments; system = "
                "mean of its judged segments; z = per-judge z-scores (sample sd), "
                "or the file's values as given for a criterion whose score is "
                "'WMT z' or 'raw mean'",
                "criteria": [c.to_dict() for c in criteria],
                "segments": segments,
            }
        )


class JudgmentsDisagreements(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("metric", str, description="leaderboard column"),
            OpenApiParameter("criterion", str, description="judged criterion"),
            OpenApiParameter("limit", int, description=f"≤ {MAX_LIMIT}"),
        ],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request, pk: int) -> Response:
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        limit = _positive(request, "limit", 20, MAX_LIMIT)
        try:
            metric = explorer.choose(
                explorer.metric_choices(test_set),
                request.query_params.get("metric"),
                "metric",
            )
            criterion = explorer.choose(
                list(test_set.criteria.order_by("name")),
                request.query_params.get("criterion"),
                "criterion",
            )
        except explorer.NoSuchChoice as problem:
            raise ApiError([error(str(problem))]) from None
        found = explorer.disagreement_page(test_set, metric, criterion, 1, limit)
        return Response(
            {
                "test_set": test_set.pk,
                "metric": {
                    "name": metric.name,
                    "signature": metric.signature,
                    "external": metric.external,
                    "higher_is_better": metric.higher_is_better,
                    "negated": found.metric_negated,
                },
                "criterion": {
                    "name": criterion.name,
                    "higher_is_better": criterion.higher_is_better,
                    "negated": found.human_negated,
                },
                "method": "both scores standardised over the points (population "
                "sd), lower-is-better ones negated; human = mean per-judge z of "
                "the segment; ranked by |metric z - human z|",
                "points": found.n_points,
                "results": [row.to_dict() for row in found.rows],
            }
        )


class JudgmentSources(APIView):
    """Which imports and campaigns feed each criterion."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int) -> Response:
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        return Response(_sources(test_set))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, pk: int) -> Response:
        test_set = access.get_test_set(request.user, pk)
        name = str(request.data.get("criterion", ""))
        criterion = test_set.criteria.filter(name=name).first()
        if criterion is None:
            names = ", ".join(
                test_set.criteria.order_by("name").values_list("name", flat=True)
            )
            raise ApiError(
                [
                    error(
                        f"criterion: no criterion {name!r}; criteria: {names or '(none)'}"
                    )
                ]
            )
        chosen = request.data.get("sources")
        if not isinstance(chosen, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in chosen
        ):
            raise ApiError([error("sources: a list of source ids (from GET)")])
        try:
            choose_sources(criterion, set(chosen))
        except ValueError as problem:
            raise ApiError([error(f"sources: {problem}")]) from None
        request_comparison(test_set.pk)  # leaderboard human columns, correlations
        return Response(_sources(test_set))


def _sources(test_set) -> dict:
    return {
        "test_set": test_set.pk,
        "criteria": [
            {
                "criterion": criterion.name,
                "score": criterion.score_label,
                "sources": [s.to_dict() for s in criterion_sources(criterion)],
            }
            for criterion in test_set.criteria.order_by("name")
        ],
    }
