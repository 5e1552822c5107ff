"""``GET /api/v1/test-sets/{id}/leaderboard.{csv,signatures.csv,xlsx}``: the
leaderboard's file exports for scripts, the same bytes as the page's
"Export" links (``mtdash.evaluation.leaderboard.exports``); the URL admits only these
three suffixes (JSON is ``GET .../leaderboard`` itself)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.views import APIView

from mtdash.api.permissions import scoped_or_404
from mtdash.api.views.testsets import LEADERBOARD_PARAMETERS
from mtdash.common.responses import CONTENT_TYPES, download_response
from mtdash.evaluation.access import test_sets_of
from mtdash.evaluation.leaderboard import exports
from mtdash.evaluation.leaderboard.stored import (
    LeaderboardQuery,
    not_modified,
    revalidated,
    with_validator,
)


class _FileRenderer(BaseRenderer):
    """Lets a client that asks for the file's type (``Accept:``) have it; the
    view answers with the finished file, so nothing is rendered here."""

    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


class CsvRenderer(_FileRenderer):
    media_type = CONTENT_TYPES["csv"]
    format = "csv"


class XlsxRenderer(_FileRenderer):
    media_type = CONTENT_TYPES["xlsx"]
    format = "xlsx"


class TestSetLeaderboardFile(APIView):
    __test__ = False
    # JSON first: errors (404, 401) are JSON whatever was asked for.
    renderer_classes = [JSONRenderer, CsvRenderer, XlsxRenderer]

    @extend_schema(
        operation_id="test_set_leaderboard_file",
        parameters=LEADERBOARD_PARAMETERS,
        responses={
            (200, CONTENT_TYPES["csv"]): OpenApiResponse(
                OpenApiTypes.STR, description="leaderboard.csv or its signatures"
            ),
            (200, CONTENT_TYPES["xlsx"]): OpenApiResponse(
                OpenApiTypes.BINARY,
                description="leaderboard.xlsx: sheets leaderboard, signatures, "
                "provenance",
            ),
        },
    )
    def get(self, request, pk: int, fmt: str):
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        query = LeaderboardQuery.of(request.query_params)
        export = exports.leaderboard_export(test_set, query, fmt)
        if export.etag and not_modified(request, export.etag):
            return revalidated(export.etag)
        response = download_response(export.body, f"leaderboard-{test_set.pk}.{fmt}")
        return with_validator(response, export.etag) if export.etag else response
