"""A test set's reference entered as a system (a human translation scored
against the other references, as WMT does)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers as fields
from rest_framework import status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api import serializers
from mtdash.api.errors import error, errors_response
from mtdash.api.permissions import scoped_or_404
from mtdash.evaluation.access import test_sets_of
from mtdash.evaluation.references.as_system import (
    CannotEnterReference,
    enter_reference_as_system,
)


class ReferenceAsSystem(APIView):
    parser_classes = [JSONParser, FormParser, MultiPartParser]

    @extend_schema(
        operation_id="reference_as_system",
        request=inline_serializer(
            "ReferenceAsSystemRequest",
            {
                "system": fields.CharField(
                    required=False,
                    help_text="the system's name (default ref-<label>)",
                )
            },
        ),
        responses={
            201: serializers.OutputCreatedSerializer,
            400: OpenApiResponse(serializers.ErrorsSerializer, "why not"),
        },
    )
    def post(self, request, pk: int, label: str):
        """Enter reference ``label`` as a system output, scored against the
        test set's other references with the test set's metrics."""
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        name = request.data.get("system", "")
        if not isinstance(name, str):
            return errors_response([error("system must be a string")])
        try:
            job = enter_reference_as_system(
                test_set, label, request.user, system_name=name
            )
        except CannotEnterReference as problem:
            return errors_response([error(str(problem))])
        body = {"output_id": job.output_id, "job_id": job.pk}
        return Response(body, status=status.HTTP_201_CREATED)
