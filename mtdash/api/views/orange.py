"""ORANGE: n-best list upload, starting a job, its results."""

from __future__ import annotations

from django.utils.datastructures import MultiValueDict
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api import idempotency, representations, serializers
from mtdash.api.errors import ApiError, error, form_errors
from mtdash.api.permissions import scoped_or_404
from mtdash.api.views.jobs import retry
from mtdash.evaluation.access import test_sets_of
from mtdash.orange import access as orange_access
from mtdash.orange.forms import NBestUploadForm, OrangeJobForm
from mtdash.orange.jobs.lifecycle import OrangeJobError, create_orange_job
from mtdash.orange.labels import metric_label
from mtdash.orange.models import OrangeJob, OrangeReview
from mtdash.orange.nbest.upload_handlers import NBestUploadHandler
from mtdash.orange.nbest.uploads import not_ready_message, references_problem
from mtdash.orange.reviews.forms import ReviewSampleForm
from mtdash.orange.reviews.report import review_report
from mtdash.orange.reviews.reviewing import ReviewError, create_review
from scoring.orange import (
    ORANGE_PAIRED_TEST,
    parse_above_reference_limit,
    single_candidate_warning,
)

ERRORS = OpenApiResponse(serializers.ErrorsSerializer)
# JSON fields of an ORANGE request -> the web form's fields (and defaults,
# which a bound form does not fill in by itself).
ORANGE_OPTIONS = {
    "bootstrap": ("n_bootstrap", 1000),
    "seed": ("seed", 1),
    "curve_step": ("curve_step", None),  # absent: adapted to N, as the CLI's
}


class NBestCreate(APIView):
    parser_classes = [MultiPartParser, FormParser]

    def initialize_request(self, request, *args, **kwargs):
        # The file goes to disk gzip-compressed as it arrives, capped.
        request.upload_handlers = [NBestUploadHandler(request)]
        return super().initialize_request(request, *args, **kwargs)

    @extend_schema(
        request={"multipart/form-data": serializers.NBestUploadSerializer},
        responses={201: serializers.CreatedSerializer, 400: ERRORS},
        description="Stores the file (plain or gzip) and answers at once with the "
        'list\'s id and status "queued"; a worker then checks the whole file. '
        "GET /api/v1/nbest/{id} says when it is ready, or names the file, line "
        "and problem of a refused one (nothing of it is kept).",
    )
    def post(self, request, pk: int):
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        replayed = idempotency.replay(request)
        if replayed:
            return replayed
        files = MultiValueDict()
        uploaded = request.FILES.get("nbest")
        if uploaded is not None:
            files["nbest_file"] = uploaded
        form = NBestUploadForm(
            {
                "name": request.data.get("name", ""),
                "description": request.data.get("description", ""),
            },
            files,
            test_set=test_set,
        )
        names = [uploaded.name] if uploaded else []
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
            return Response(
                {"id": nbest.pk, "status": nbest.status},
                status=status.HTTP_201_CREATED,
            )

        return idempotency.once(request, create)


class NBestDetail(APIView):
    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="The list and its check: status queued|running|"
                "succeeded|failed, progress 0-100, the counts once succeeded, and "
                'when failed "errors" naming the file, line and problem.'
            )
        }
    )
    def get(self, request, pk: int):
        nbest = scoped_or_404(orange_access.nbest_lists_of(request.user), pk)
        return Response(nbest_list_state(nbest))


def nbest_list_state(nbest) -> dict:
    """An n-best list as ``GET /api/v1/nbest/{id}`` shows it."""
    data = {
        "id": nbest.pk,
        "name": nbest.name,
        "test_set_id": nbest.test_set_id,
        "file": nbest.file_name,
        "uploaded_bytes": nbest.uploaded_bytes,
        "status": nbest.status,
        "progress": nbest.progress,
        "attempts": nbest.attempts,
        "stuck": nbest.is_stuck,
    }
    if nbest.is_ready:
        data.update(
            n_sentences=nbest.n_sentences,
            n_candidates=nbest.n_candidates,
            min_candidates=nbest.min_candidates,
            max_candidates=nbest.max_candidates,
        )
        # One candidate per sentence: ORANGE would mean nothing on it.
        warning = single_candidate_warning(nbest.max_candidates)
        data["warnings"] = [warning] if warning else []
    if nbest.status == nbest.Status.FAILED:
        data["errors"] = [nbest.refusal or error(nbest.error_message)]
    return data


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
        form = OrangeJobForm(fields, test_set=nbest.test_set)
        if not form.is_valid():
            names = {"more_metrics": "metrics", "metrics": "metrics"}
            names.update({f: a for a, (f, _) in ORANGE_OPTIONS.items()})
            raise ApiError(form_errors(form, field_names=names))
        problem = references_problem(nbest.test_set)
        if problem:
            raise ApiError([error(problem)])
        if not nbest.is_ready:
            raise ApiError([error(not_ready_message(nbest))], status_code=409)

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
                "orange --json --above-reference K` prints ({metrics: {spec: ...}, "
                "above_reference_limit, candidate_texts}; NaN as null; "
                "?above_reference=K|all|none, default 10), with "
                "header X-Job-Status: succeeded. Otherwise the job's status object "
                "(as GET /api/v1/jobs/{id}?kind=orange)."
            )
        }
    )
    def get(self, request, pk: int):
        job = scoped_or_404(orange_access.jobs_of(request.user), pk)
        state = representations.job_status(job)
        if job.status == OrangeJob.Status.SUCCEEDED:
            try:
                limit = parse_above_reference_limit(
                    request.query_params.get("above_reference", "10")
                )
            except ValueError as refusal:
                raise ApiError([error(str(refusal))]) from None
            response = Response(representations.orange_results(job, limit))
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


# -- The paired test and reviews of candidates above the references --


class OrangeComparison(APIView):
    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="Per metric spec: best, equivalent (to the best, by the "
                "paired bootstrap of per-sentence normalised ranks), difference to "
                "the best in ORANGE points with its 95% interval, p-value (two-sided), "
                "label, and the test's name and sides."
            ),
            409: ERRORS,
        }
    )
    def get(self, request, pk: int):
        job = scoped_or_404(orange_access.jobs_of(request.user), pk)
        if job.status != OrangeJob.Status.SUCCEEDED:
            raise ApiError([error("the job has no results yet")], status_code=409)
        return Response(
            {
                score.metric: {
                    "label": metric_label(score.metric),
                    "orange": score.orange,
                    "tested": score.tested,
                    "best": score.best,
                    "equivalent": score.equivalent,
                    "difference": score.difference,
                    "difference_ci_low": score.difference_ci_low,
                    "difference_ci_high": score.difference_ci_high,
                    "p_value": score.p_value,
                    "test": ORANGE_PAIRED_TEST["test"],
                    "sides": ORANGE_PAIRED_TEST["sides"],
                }
                for score in job.scores.defer("above_reference").order_by("position")
            }
        )


class OrangeReviewCreate(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        description="Draw a seeded sample of one metric's candidates ranked above "
        'the references: {"metric": spec, "size": 50, "seed": 1}.',
        responses={201: OpenApiTypes.OBJECT, 400: ERRORS},
    )
    def post(self, request, pk: int):
        job = scoped_or_404(orange_access.jobs_of(request.user), pk)
        data = request.data if isinstance(request.data, dict) else {}
        form = ReviewSampleForm(
            {
                "metric": data.get("metric", ""),
                "size": data.get("size", 50),
                "seed": data.get("seed", 1),
            },
            job=job,
        )
        if not form.is_valid():
            raise ApiError(form_errors(form))
        fields = form.cleaned_data
        try:
            review = create_review(
                job, fields["metric"], fields["size"], fields["seed"], request.user
            )
        except ReviewError as refusal:
            raise ApiError([error(str(refusal))]) from None
        return Response(
            {
                "id": review.pk,
                "size": review.size,
                "population": review.population,
                "url": request.build_absolute_uri(review.get_absolute_url()),
            },
            status=status.HTTP_201_CREATED,
        )


class OrangeReviewReport(APIView):
    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="Share of genuine metric errors (marked worse) with its "
                "95% Wilson interval, per reviewer, agreement (Cohen's kappa: null "
                "when undefined, with the reason in kappa_undefined, e.g. both "
                "reviewers used one label), and whether ORANGE can be confidently "
                "applied."
            )
        }
    )
    def get(self, request, pk: int):
        review = scoped_or_404(
            OrangeReview.objects.filter(
                job__nbest__test_set__team__members=request.user
            ),
            pk,
        )
        return Response(review_report(review).to_dict())
