"""``POST /api/v1/test-sets/{id}/external-scores/``: a metric's segment
scores computed elsewhere (COMET, MetricX...), with the fields ``metric``,
``description`` and ``higher_is_better``; answered as the judgments' import
is (:mod:`mtdash.api.views.file_imports`).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema

from mtdash.api import serializers
from mtdash.api.views.file_imports import ERRORS, FALSE, TRUE, FileImportView
from mtdash.evaluation.external_scores.imports import (
    ExternalMetricProblem,
    import_external_scores,
)


class ExternalScoresImport(FileImportView):
    @extend_schema(
        operation_id="external_scores_import",
        request={"multipart/form-data": serializers.ExternalScoresUploadSerializer},
        responses={201: OpenApiTypes.OBJECT, 400: ERRORS},
    )
    def post(self, request, pk: int):
        return super().post(request, pk)

    def run(self, request, test_set, data: bytes, file_name: str):
        text = str(request.data.get("higher_is_better", "true")).strip().lower()
        if text not in TRUE | FALSE:
            raise ExternalMetricProblem(
                "higher_is_better",
                f"higher_is_better must be true or false, not {text!r}",
            )
        return import_external_scores(
            test_set,
            request.user,
            str(request.data.get("metric", "")),
            str(request.data.get("description", "")),
            text in TRUE,
            data,
            file_name,
        )
