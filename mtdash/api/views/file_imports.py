"""What the API's file imports share: the multipart field ``file``, the
team check, refused files answered as ``{"errors": [...]}`` (see
``mtdash.api.errors``), and the true/false fields.

A refused field is raised as ``ExternalMetricProblem(field, message)``;
the imports' own problems (``UploadProblem``) name file and line.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api import serializers
from mtdash.api.errors import error, errors_response, upload_problem_error
from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation import access
from mtdash.evaluation.external_scores.imports import ExternalMetricProblem

ERRORS = OpenApiResponse(serializers.ErrorsSerializer, "errors, naming file and line")
TRUE = {"true", "1", "yes", "on"}
FALSE = {"false", "0", "no", "off"}


class FileImportView(APIView):
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


def flag(request, name: str, *, default: bool) -> bool:
    """A true/false field, refused (naming it) when it is neither."""
    text = str(request.data.get(name, "true" if default else "false")).strip().lower()
    if text not in TRUE | FALSE:
        raise ExternalMetricProblem(name, f"{name} must be true or false, not {text!r}")
    return text in TRUE
