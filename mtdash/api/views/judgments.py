"""``POST /api/v1/test-sets/{id}/judgments/`` and ``.../external-scores/``.

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

from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api.errors import error, errors_response, upload_problem_error
from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation import access
from mtdash.evaluation.external_scores.imports import (
    ExternalMetricProblem,
    import_external_scores,
)
from mtdash.judgments.imports.judgments import import_judgments, preview_judgments
from mtdash.judgments.imports.results import ImportOptions

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


class _ImportView(APIView):
    parser_classes = [MultiPartParser, FormParser]
    renderer_classes = [JSONRenderer]
    permission_classes = [IsAuthenticated]

    def post(self, request, pk: int) -> Response:
        test_set = access.get_test_set(request.user, pk)
        uploaded = request.FILES.get("file")
        if uploaded is None:
            return errors_response(
                [error("file: send the file as the multipart field 'file'")]
            )
        try:
            result = self.run(request, test_set, uploaded.read(), uploaded.name)
        except UploadProblem as problem:
            return errors_response([upload_problem_error(problem)])
        except ExternalMetricProblem as problem:
            return errors_response([error(f"{problem.field}: {problem}")])
        return Response(result.to_dict(), status=getattr(result, "status", 201))

    def run(self, request, test_set, data: bytes, file_name: str):
        raise NotImplementedError


class _Dry:
    """A preview answered with 200: nothing was created."""

    status = 200

    def __init__(self, preview) -> None:
        self.preview = preview

    def to_dict(self) -> dict:
        return {"dry_run": True, **self.preview.to_dict()}


class JudgmentsImport(_ImportView):
    def run(self, request, test_set, data: bytes, file_name: str):
        try:
            options = ImportOptions(
                str(request.data.get("human_rows", "auto")).strip().lower(),
                str(request.data.get("segment_order", "")).strip().lower(),
            )
        except ValueError as problem:
            field_name = str(problem).split()[0]
            raise ExternalMetricProblem(field_name, str(problem)) from None
        if _flag(request, "dry_run", default=False):
            return _Dry(preview_judgments(test_set, data, file_name, options))
        return import_judgments(
            test_set, request.user, data, file_name, options=options
        )


def _flag(request, name: str, *, default: bool) -> bool:
    text = str(request.data.get(name, "true" if default else "false")).strip().lower()
    if text not in _TRUE | _FALSE:
        raise ExternalMetricProblem(name, f"{name} must be true or false, not {text!r}")
    return text in _TRUE


class ExternalScoresImport(_ImportView):
    def run(self, request, test_set, data: bytes, file_name: str):
        text = str(request.data.get("higher_is_better", "true")).strip().lower()
        if text not in _TRUE | _FALSE:
            raise ExternalMetricProblem(
                "higher_is_better",
                f"higher_is_better must be true or false, not {text!r}",
            )
        return import_external_scores(
            test_set,
            request.user,
            str(request.data.get("metric", "")),
            str(request.data.get("description", "")),
            text in _TRUE,
            data,
            file_name,
        )
