"""One metric's drill-down of a stored meta-evaluation through the API.

``GET /api/v1/meta-evaluations/{id}/test-sets/{test_set_id}/metrics/{metric}``
answers what the drill-down page shows, as JSON:

- ``cells``: the metric's stored cells of every task (``task``,
  ``coefficient``, ``tie_epsilon``, ``p_value``, ``cluster``);
- ``system_pairs``: ``accuracy``, ``counts`` by outcome and every ``pairs``
  entry (``first`` the system the humans prefer, ``second``,
  ``human_difference`` >= 0, ``metric_difference``, ``outcome``: agree,
  disagree, metric tie or human tie), in human order;
- ``segments``: ``acc_eq`` grouped by segment at ``epsilon`` (the stored
  tie threshold), the pair ``counts`` and every segment with a pair, most
  discordant pairs first (``segment`` 1-based, ``pairs``, ``concordant``,
  ``discordant``, ``both_ties``, ``human_ties``, ``metric_ties``,
  ``acc_eq``, ``worst_pair``).

Computed on today's scores and judgments (``stale`` says they changed
since the job ran). While the job waits or runs: 202 with its status; a
failed job: 409. Another team's job, a test set or metric not in it: 404.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api.errors import ApiError, error
from mtdash.api.permissions import scoped_or_404
from mtdash.judgments.meta_evaluation.drill_down import NotInResult, drill_down
from mtdash.judgments.meta_evaluation.jobs import meta_evaluations_of
from mtdash.judgments.models import MetaEvaluation


class MetaEvaluationMetric(APIView):
    @extend_schema(
        operation_id="meta_evaluation_metric_read",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request, pk: int, test_set_id: int, metric: str) -> Response:
        job = scoped_or_404(meta_evaluations_of(request.user), pk)
        if job.status == MetaEvaluation.Status.FAILED:
            message = f"meta-evaluation: it failed: {job.error_message}"
            raise ApiError([error(message)], status_code=409)
        if job.status != MetaEvaluation.Status.SUCCEEDED:
            return Response({"id": job.pk, "status": job.status}, status=202)
        try:
            stored = drill_down(job, test_set_id, metric)
        except NotInResult as missing:
            raise Http404(str(missing)) from None
        test_set = stored.test_set
        return Response(
            {
                "meta_evaluation": job.pk,
                "test_set": {"id": test_set.pk, "name": test_set.name},
                "criterion": job.criterion,
                "metric": metric,
                "negated": stored.drill.negated,
                "stale": stored.stale,
                "systems_no_longer_judged": list(stored.gone),
                "cells": stored.cells,
                "system_pairs": stored.drill.system_pairs.to_dict(),
                "segments": stored.drill.segments.to_dict(),
                "page": reverse(
                    "meta_evaluation_metric", args=[job.pk, test_set.pk, metric]
                ),
            }
        )
