"""ORANGE: n-best list upload, starting a job, its results."""

from __future__ import annotations

from django.utils.datastructures import MultiValueDict
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api import idempotency, representations, serializers
from mtdash.api.errors import ApiError, error, form_errors
from mtdash.api.permissions import scoped_or_404
from mtdash.api.uploads import StreamedUploadsMixin, gunzipped
from mtdash.api.views.jobs import retry
from mtdash.evaluation.access import test_sets_of
from mtdash.orange import access as orange_access
from mtdash.orange.forms import NBestUploadForm, OrangeJobForm
from mtdash.orange.models import OrangeJob
from mtdash.orange.services.nbest_uploads import references_problem
from mtdash.orange.services.orange_jobs import OrangeJobError, create_orange_job

ERRORS = OpenApiResponse(serializers.ErrorsSerializer)
# JSON fields of an ORANGE request -> the web form's fields (and defaults,
# which a bound form does not fill in by itself).
ORANGE_OPTIONS = {
    "bootstrap": ("n_bootstrap", 1000),
    "seed": ("seed", 1),
    "curve_step": ("curve_step", None),  # absent: adapted to N
}


class NBestCreate(StreamedUploadsMixin, APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": serializers.NBestUploadSerializer},
        responses={201: serializers.CreatedSerializer, 400: ERRORS},
    )
    def post(self, request, pk: int):
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        replayed = idempotency.replay(request)
        if replayed:
            return replayed
        files = MultiValueDict()
        uploaded = request.FILES.get("nbest")
        if uploaded is not None:
            files["nbest_file"] = gunzipped(uploaded)
        form = NBestUploadForm(
            {
                "name": request.data.get("name", ""),
                "description": request.data.get("description", ""),
            },
            files,
            test_set=test_set,
        )
        names = [uploaded.name, files["nbest_file"].name] if uploaded else []
        if not form.is_valid():
            return idempotency.refuse(
                request,
                form_errors(
                    form, file_names=names, field_names={"nbest_file": "nbest"}
                ),
            )

        def create() -> Response:
            nbest = form.save(request.user)
            if nbest is None:  # an identical upload took the name meanwhile
                raise ApiError(form_errors(form, file_names=names))
            return Response({"id": nbest.pk}, status=status.HTTP_201_CREATED)

        return idempotency.once(request, create)


class OrangeJobCreate(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        request=serializers.OrangeJobRequestSerializer,
        responses={201: serializers.JobCreatedSerializer, 400: ERRORS},
    )
    def post(self, request, pk: int):
        nbest = scoped_or_404(orange_access.nbest_lists_of(request.user), pk)
        replayed = idempotency.replay(request)
        if replayed:
            return replayed
        data = request.data if isinstance(request.data, dict) else {}
        metrics = data.get("metrics", [])
        if isinstance(metrics, str):
            metrics = [metrics]
        if not isinstance(metrics, list) or not all(
            isinstance(m, str) for m in metrics
        ):
            raise ApiError([error("metrics: give a list of metric specs")])
        fields = {
            # One spec per line: a spec's own commas stay its parameters.
            "more_metrics": "\n".join(metrics),
            "all_references": bool(data.get("all_references", False)),
        }
        for api_name, (form_name, default) in ORANGE_OPTIONS.items():
            fields[form_name] = data.get(api_name, default)
        form = OrangeJobForm(fields)
        if not form.is_valid():
            names = {"more_metrics": "metrics", "metrics": "metrics"}
            names.update({f: a for a, (f, _) in ORANGE_OPTIONS.items()})
            raise ApiError(form_errors(form, field_names=names))
        problem = references_problem(nbest.test_set)
        if problem:
            raise ApiError([error(problem)])

        def create() -> Response:
            try:
                job = create_orange_job(
                    nbest, request.user, form.cleaned_data["metric_specs"], form.options
                )
            except OrangeJobError as refusal:
                raise ApiError([error(str(refusal))]) from None
            return Response({"job_id": job.pk}, status=status.HTTP_201_CREATED)

        return idempotency.once(request, create)


class OrangeJobDetail(APIView):
    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="When the job succeeded: the object `python -m scoring "
                "orange --json` prints, keyed by metric spec (NaN as null), with "
                "header X-Job-Status: succeeded. Otherwise the job's status object "
                "(as GET /api/v1/jobs/{id}?kind=orange)."
            )
        }
    )
    def get(self, request, pk: int):
        job = scoped_or_404(orange_access.jobs_of(request.user), pk)
        state = representations.job_status(job)
        if job.status == OrangeJob.Status.SUCCEEDED:
            response = Response(representations.orange_results(job))
        else:
            response = Response(state)
        response["X-Job-Status"] = state["status"]
        return response


class OrangeJobRetry(APIView):
    @extend_schema(
        request=None, responses={202: serializers.JobSerializer, 409: ERRORS}
    )
    def post(self, request, pk: int):
        return retry(scoped_or_404(orange_access.jobs_of(request.user), pk))
