"""``POST /api/v1/test-sets/{id}/judgments/``.

Multipart requests with the file in the field ``file``; 201 with the import's
counts, or 400 with ``{"errors": [{"file", "line", "message"}]}`` (``file``
and ``line`` null for a refused field, whose name starts the message; built
by ``mtdash.api.errors``). Another team's test set is a 404, as in the browser.

Judgments take the fields ``human_rows`` (``auto``, ``keep``, ``skip``: rows
of ``HUMAN-*`` systems), ``segment_order`` (``line``, ``sorted-document``)
and ``dry_run`` (true: 200 with the preview the browser shows, nothing
stored; its ``problem`` is null when the file would be imported).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema

from mtdash.api import serializers
from mtdash.api.views.file_imports import ERRORS, FileImportView, flag
from mtdash.evaluation.external_scores.imports import ExternalMetricProblem
from mtdash.judgments.imports.judgments import import_judgments, preview_judgments
from mtdash.judgments.imports.results import ImportOptions


class _Dry:
    """A preview answered with 200: nothing was created."""

    status = 200

    def __init__(self, preview) -> None:
        self.preview = preview

    def to_dict(self) -> dict:
        return {"dry_run": True, **self.preview.to_dict()}


class JudgmentsImport(FileImportView):
    @extend_schema(
        operation_id="judgments_import",
        request={"multipart/form-data": serializers.JudgmentsUploadSerializer},
        responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT, 400: ERRORS},
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def run(self, request, test_set, data: bytes, file_name: str):
        try:
            options = ImportOptions(
                str(request.data.get("human_rows", "auto")).strip().lower(),
                str(request.data.get("segment_order", "")).strip().lower(),
            )
        except ValueError as problem:
            field_name = str(problem).split()[0]
            raise ExternalMetricProblem(field_name, str(problem)) from None
        if flag(request, "dry_run", default=False):
            return _Dry(preview_judgments(test_set, data, file_name, options))
        return import_judgments(
            test_set, request.user, data, file_name, options=options
        )
