"""``/api/v1/test-sets/{id}/error-spans/``: error spans of a test set's
outputs (MQM and ESA annotations, or a metric's own spans).

- ``POST`` (multipart): ``file``, optional ``format`` (``mqm-tsv``,
  ``spans-jsonl`` or ``auto``, the default), ``source`` (``human``, the
  default, or the metric's name) and ``weights`` (MQM weights on top of
  Freitag et al. 2021's, e.g. ``major=5,minor=1,critical=10``); 201 with the
  counts, or 400 with ``{"errors": [{"file", "line", "message"}]}`` (see
  :mod:`mtdash.api.views.file_imports`);
- ``GET``: the test set's error-span imports, newest first.

Another team's test set is a 404, as in the browser.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from mtdash.api.views.file_imports import ERRORS, FileImportView
from mtdash.evaluation import access
from mtdash.judgments.error_spans.imports import error_span_imports, import_error_spans
from mtdash.judgments.error_spans.options import FORMAT_CHOICES, SpanImportOptions


class ErrorSpansUploadSerializer(serializers.Serializer):
    """``POST .../error-spans/`` (multipart; documentation, the service
    checks the fields)."""

    file = serializers.FileField(
        help_text="an MQM TSV in the WMT layout, or spans JSON lines"
    )
    format = serializers.ChoiceField(
        choices=list(FORMAT_CHOICES), required=False, default="auto"
    )
    source = serializers.CharField(
        required=False, default="human", help_text="human, or the metric's name"
    )
    weights = serializers.CharField(
        required=False,
        help_text="MQM weights over the defaults, e.g. major=5,minor=1,critical=10",
    )


class ErrorSpansImport(FileImportView):
    @extend_schema(operation_id="error_spans_list", responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int) -> Response:
        test_set = access.get_test_set(request.user, pk)
        return Response(error_span_imports(test_set))

    @extend_schema(
        operation_id="error_spans_import",
        request={"multipart/form-data": ErrorSpansUploadSerializer},
        responses={201: OpenApiTypes.OBJECT, 400: ERRORS},
    )
    def post(self, request, pk: int) -> Response:
        return super().post(request, pk)

    def run(self, request, test_set, data: bytes, file_name: str):
        options = SpanImportOptions.from_fields(
            str(request.data.get("format", "")),
            str(request.data.get("source", "")),
            str(request.data.get("weights", "")),
        )
        return import_error_spans(test_set, request.user, data, file_name, options)
