"""Test sets: upload, list, read, leaderboard; uploading a system output."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpResponse
from django.utils.datastructures import MultiValueDict
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api import idempotency, representations, serializers
from mtdash.api.errors import ApiError, error, form_errors
from mtdash.api.permissions import scoped_or_404, team_named
from mtdash.api.uploads import StreamedUploadsMixin
from mtdash.evaluation.access import teams_of, test_sets_of
from mtdash.evaluation.forms import SystemOutputUploadForm, TestSetUploadForm
from mtdash.evaluation.leaderboard.build import Leaderboard, build_leaderboard
from mtdash.evaluation.leaderboard.stored import (
    LeaderboardQuery,
    not_modified,
    rendering,
    revalidated,
    stored_value,
    with_validator,
)
from mtdash.evaluation.leaderboard.version import leaderboard_version
from mtdash.evaluation.services.corpus_files import FORMAT_CHOICES

ERRORS = OpenApiResponse(serializers.ErrorsSerializer, "errors, naming file and line")
# The upload forms' formats: plain text, NIST SGML, WMT XML, TSV (and "auto").
SUPPORTED_FORMATS = tuple(code for code, _ in FORMAT_CHOICES)
# Metrics an output is scored with when the request names none and the test
# set's leaderboard has none yet.
FALLBACK_METRICS = ("bleu", "chrf")

TEST_SET_FIELDS = {
    "source_file": "source",
    "reference_files": "reference",
    "reference_labels": "reference_label",
    "document_ids_file": "document_ids",
}
OUTPUT_FIELDS = {
    "system_name": "system",
    "system_description": "description",
    "hypothesis_file": "hypotheses",
    "more_metrics": "metric",
    "metrics": "metric",
}


def _with_counts(queryset):
    return queryset.annotate(n_segments=Count("segments", distinct=True))


def _labels(test_set) -> list[str]:
    return list(test_set.reference_sets.order_by("pk").values_list("label", flat=True))


class TestSetList(StreamedUploadsMixin, APIView):
    parser_classes = [MultiPartParser, FormParser]

    __test__ = False

    @extend_schema(
        operation_id="test_sets_list",
        responses=serializers.TestSetSerializer(many=True),
    )
    def get(self, request):
        test_sets = _with_counts(test_sets_of(request.user)).order_by("pk")
        return Response(
            [
                representations.test_set_detail(ts, ts.n_segments, _labels(ts))
                for ts in test_sets.prefetch_related("reference_sets")
            ]
        )

    @extend_schema(
        operation_id="test_sets_create",
        request={"multipart/form-data": serializers.TestSetUploadSerializer},
        responses={201: serializers.TestSetSummarySerializer, 400: ERRORS},
    )
    def post(self, request):
        replayed = idempotency.replay(request)
        if replayed:
            return replayed
        data = request.data
        file_format = _check_format(data.get("format"))
        labels = data.getlist("reference_label")
        if any("," in label for label in labels):
            raise ApiError([error("reference_label: a label cannot contain a comma")])
        team = team_named(request.user, data.get("team"))
        form = TestSetUploadForm(
            {
                "team": team.pk,
                "name": data.get("name", ""),
                "source_language": data.get("source_language", ""),
                "target_language": data.get("target_language", ""),
                "text_type": data.get("text_type", ""),
                "description": data.get("description", ""),
                "reference_labels": ",".join(labels),
                "file_format": file_format,
            },
            _files(
                request,
                source_file="source",
                reference_files="reference",
                document_ids_file="document_ids",
            ),
            teams=teams_of(request.user),
        )
        if not form.is_valid():
            return idempotency.refuse(request, _errors(form, request, TEST_SET_FIELDS))

        def create() -> Response:
            test_set = form.save(request.user)
            if test_set is None:  # an identical upload took the name meanwhile
                raise ApiError(_errors(form, request, TEST_SET_FIELDS))
            body = representations.test_set_summary(
                test_set, test_set.segments.count(), _labels(test_set)
            )
            return Response(body, status=status.HTTP_201_CREATED)

        return idempotency.once(request, create)


class TestSetDetail(APIView):
    __test__ = False

    @extend_schema(responses={200: serializers.TestSetSerializer})
    def get(self, request, pk: int):
        test_set = scoped_or_404(_with_counts(test_sets_of(request.user)), pk)
        body = representations.test_set_detail(
            test_set, test_set.n_segments, _labels(test_set)
        )
        return Response(body)


# The leaderboard's query, shared by its JSON and its files.
LEADERBOARD_PARAMETERS = [
    OpenApiParameter("metric", str, description="rank by this metric spec"),
    OpenApiParameter(
        "test",
        str,
        enum=["bootstrap", "ar"],
        description="the test behind clusters and rank ranges (both two-sided; "
        "default ar)",
    ),
    OpenApiParameter(
        "correction",
        str,
        enum=["holm", "bonferroni", "none"],
        description="correction of the all-pairs p-values the clusters "
        "respect (default holm)",
    ),
]


def requested_leaderboard(request, test_set) -> Leaderboard:
    """The leaderboard ranked, tested and corrected as the query asks."""
    return build_leaderboard(
        test_set,
        rank_by=request.query_params.get("metric"),
        test=request.query_params.get("test"),
        correction=request.query_params.get("correction"),
    )


class TestSetLeaderboard(APIView):
    __test__ = False

    @extend_schema(
        parameters=[
            *LEADERBOARD_PARAMETERS,
            OpenApiParameter(
                "p_values", bool, description="include the p-value matrices"
            ),
        ],
        responses={200: serializers.LeaderboardSerializer},
    )
    def get(self, request, pk: int):
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        p_values = request.query_params.get("p_values", "") in ("1", "true", "yes")
        if not isinstance(request.accepted_renderer, JSONRenderer):
            # The browsable API renders the object itself.
            board = requested_leaderboard(request, test_set)
            return Response(representations.leaderboard(board, p_values=p_values))
        version = leaderboard_version(test_set)
        query = LeaderboardQuery.of(request.query_params, p_values)

        def build() -> bytes:  # the bytes JSONRenderer would write
            board = requested_leaderboard(request, test_set)
            body = representations.leaderboard(board, p_values=p_values)
            return JSONRenderer().render(body)

        wanted = rendering(test_set, version, "api", query)
        if not_modified(request, wanted.etag):
            return revalidated(wanted.etag)
        body = stored_value(wanted, build)
        response = HttpResponse(body, content_type="application/json")
        return with_validator(response, wanted.etag)


class OutputCreate(StreamedUploadsMixin, APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": serializers.OutputUploadSerializer},
        responses={201: serializers.OutputCreatedSerializer, 400: ERRORS},
    )
    def post(self, request, pk: int):
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        replayed = idempotency.replay(request)
        if replayed:
            return replayed
        data = request.data
        file_format = _check_format(data.get("format"))
        specs = data.getlist("metric") or _default_metrics(test_set)
        form = SystemOutputUploadForm(
            {
                "system_name": data.get("system", ""),
                "system_description": data.get("description", ""),
                # One spec per line: a spec's own commas stay its parameters.
                "more_metrics": "\n".join(specs),
                "file_format": file_format,
            },
            _files(request, hypothesis_file="hypotheses"),
            test_set=test_set,
        )
        if not form.is_valid():
            return idempotency.refuse(request, _errors(form, request, OUTPUT_FIELDS))

        def create() -> Response:
            saved = form.save(request.user)
            if not saved:  # an identical upload stored its output meanwhile
                raise ApiError(_errors(form, request, OUTPUT_FIELDS))
            # One job, or the list of one job of a form that takes several files.
            job = saved[0] if isinstance(saved, list) else saved
            body = {"output_id": job.output_id, "job_id": job.pk}
            return Response(body, status=status.HTTP_201_CREATED)

        return idempotency.once(request, create)


def _default_metrics(test_set) -> list[str]:
    """The metrics already on the leaderboard, so the new row is comparable
    (not the imported external ones: mtdash cannot compute those)."""
    columns = build_leaderboard(test_set).columns
    computed = [column.name for column in columns if not column.external]
    return computed or list(FALLBACK_METRICS)


def _check_format(value: str | None) -> str:
    """The format the forms are given (``auto``: detected from the content)."""
    if value and value not in SUPPORTED_FORMATS:
        raise ApiError(
            [
                error(
                    f"format: {value!r} is not supported (yet); use one of "
                    + ", ".join(SUPPORTED_FORMATS)
                )
            ]
        )
    return value or "auto"


def _files(request, **names: str) -> MultiValueDict:
    """The request's files under the form's field names (form name=API name)."""
    files = MultiValueDict()
    for form_name, api_name in names.items():
        uploaded = request.FILES.getlist(api_name)
        if uploaded:
            files.setlist(form_name, uploaded)
    return files


def _errors(form, request, field_names: dict[str, str]) -> list[dict]:
    file_names = [f.name for name in request.FILES for f in request.FILES.getlist(name)]
    return form_errors(form, file_names=file_names, field_names=field_names)
