"""Filling in missing metrics, hiding and deleting outputs through the API:
the manage pages' actions (``mtdash.evaluation.manage.actions``), scoped
to the caller's teams like every other endpoint."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers as fields
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api import representations
from mtdash.api.errors import ApiError, error
from mtdash.api.permissions import scoped_or_404
from mtdash.evaluation.access import test_sets_of
from mtdash.evaluation.manage import actions as manage
from mtdash.evaluation.models import SystemOutput

PLAN = inline_serializer(
    "FillInPlan",
    {
        "columns": fields.ListField(child=fields.CharField()),
        "missing": fields.ListField(child=fields.DictField()),
        "already_queued": fields.IntegerField(),
        "not_computable": fields.ListField(child=fields.CharField()),
    },
)


def plan_data(plan: manage.FillInPlan) -> dict:
    return {
        "columns": list(plan.columns),
        "missing": [
            {
                "output_id": gap.output_id,
                "system": gap.system,
                "hidden": gap.hidden,
                "metrics": [
                    {"spec": metric.spec, "reason": metric.reason}
                    for metric in gap.missing
                ],
            }
            for gap in plan.gaps
        ],
        "already_queued": plan.already_queued,
        "not_computable": list(plan.not_computable),
    }


class FillMissing(APIView):
    """``GET``: which outputs lack which leaderboard metrics; ``POST``: queue
    one scoring job per such output for exactly those metrics."""

    @extend_schema(responses={200: PLAN})
    def get(self, request, pk: int):
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        return Response(plan_data(manage.fill_in_plan(test_set)))

    @extend_schema(request=None, responses={202: None})
    def post(self, request, pk: int):
        test_set = scoped_or_404(test_sets_of(request.user), pk)
        jobs = manage.fill_in_missing_metrics(test_set, request.user)
        return Response(
            {"jobs": [representations.job_status(job) for job in jobs]},
            status=status.HTTP_202_ACCEPTED,
        )


class OutputVisibility(fields.Serializer):
    hidden = fields.BooleanField()


def output_data(output: SystemOutput) -> dict:
    return {
        "id": output.pk,
        "system": output.system.name,
        "test_set_id": output.test_set_id,
        "hidden": output.hidden,
    }


class OutputDetail(APIView):
    """``PATCH {"hidden": true}`` hides an output from its leaderboard (false
    shows it); ``DELETE`` deletes it with its scores, jobs and judgments."""

    def get_output(self, request, pk: int) -> SystemOutput:
        outputs = SystemOutput.objects.filter(
            test_set__in=test_sets_of(request.user)
        ).select_related("system")
        return scoped_or_404(outputs, pk)

    @extend_schema(request=OutputVisibility, responses={200: None})
    def patch(self, request, pk: int):
        output = self.get_output(request, pk)
        wanted = OutputVisibility(data=request.data)
        if not wanted.is_valid():
            raise ApiError([error("hidden: true or false")])
        manage.set_output_hidden(output, wanted.validated_data["hidden"])
        return Response(output_data(output))

    @extend_schema(responses={200: None})
    def delete(self, request, pk: int):
        output = self.get_output(request, pk)
        summary = manage.delete_output(output)
        return Response({"deleted": dict(summary.counts), **output_data(output)})
