"""Judging campaigns and agreement through the API (token or session).

- ``GET /api/v1/test-sets/{id}/campaigns/``: the test set's campaigns;
- ``POST`` there (JSON): ``name``, ``systems`` (system names), ``criteria``
  (``fluency``, ``adequacy``, ``da``), ``segments_per_system``, ``judges``
  (usernames of team members), ``judges_per_item``, optional
  ``controls_per_judge`` (5), ``seed`` (12345) and ``kind`` (``rating``, the
  default, or ``esa``: error spans and a 0–100 score, no ``criteria``); 201
  with the campaign (an ESA one adds its attention checks);
- ``GET /api/v1/campaigns/{id}``: settings, progress and quality controls
  per judge, and the test set's agreement;
- ``GET /api/v1/test-sets/{id}/agreement``: the agreement summary.

Errors are ``{"errors": [...]}`` (``mtdash.api.errors``); another team's
test set or campaign is a 404, as in the browser.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import APIView

from mtdash.api.errors import ApiError, error, form_errors
from mtdash.evaluation import access
from mtdash.judgments.campaigns import judging as service
from mtdash.judgments.campaigns.agreement import agreement_summary
from mtdash.judgments.campaigns.esa_quality import attention_checks
from mtdash.judgments.campaigns.forms import CampaignForm
from mtdash.judgments.campaigns.quality_control import judge_quality
from mtdash.judgments.models import Campaign

FIELD_NAMES = {"outputs": "systems"}


class CampaignRequest(serializers.Serializer):
    """The body of ``POST .../campaigns/`` (documentation; the campaign form
    checks it)."""

    name = serializers.CharField()
    kind = serializers.ChoiceField(["rating", "esa"], default="rating")
    systems = serializers.ListField(child=serializers.CharField())
    criteria = serializers.ListField(
        child=serializers.ChoiceField(["fluency", "adequacy", "da"]), required=False
    )
    segments_per_system = serializers.IntegerField(min_value=1)
    judges = serializers.ListField(child=serializers.CharField(), help_text="usernames")
    judges_per_item = serializers.IntegerField(min_value=1)
    controls_per_judge = serializers.IntegerField(default=5, min_value=0)
    seed = serializers.IntegerField(default=12345, min_value=0)


def campaign_dict(campaign: Campaign, *, details: bool = False) -> dict:
    body = {
        "id": campaign.pk,
        "test_set": campaign.test_set_id,
        "name": campaign.name,
        "kind": campaign.kind,
        "systems": sorted(o.system.name for o in campaign.outputs.all()),
        "criteria": sorted(c.name for c in campaign.criteria.all()),
        "segments_per_system": campaign.segments_per_system,
        "judges_per_item": campaign.judges_per_item,
        "controls_per_judge": campaign.controls_per_judge,
        "seed": campaign.seed,
        "created_at": campaign.created_at.isoformat(),
        "progress": [p.to_dict() for p in service.progress(campaign)],
    }
    if details:
        body["quality_control"] = [q.to_dict() for q in judge_quality(campaign)]
        if campaign.is_esa:
            body["attention_checks"] = [c.to_dict() for c in attention_checks(campaign)]
        body["agreement"] = agreement_summary(campaign.test_set)
    return body


def _names_to_pks(test_set, data) -> dict:
    """The form's data from the request's names (systems, usernames)."""
    form_data = {
        key: data.get(key)
        for key in (
            "name",
            "kind",
            "segments_per_system",
            "judges_per_item",
            "controls_per_judge",
            "seed",
        )
        if data.get(key) is not None
    }
    form_data.setdefault("controls_per_judge", 5)
    form_data.setdefault("seed", 12345)
    form_data["criteria"] = list(data.get("criteria") or [])
    outputs = dict(
        test_set.outputs.filter(hidden=False).values_list("system__name", "pk")
    )
    members = dict(service.team_members(test_set).values_list("username", "pk"))
    problems = []
    for field, known, names in (
        ("systems", outputs, data.get("systems") or []),
        ("judges", members, data.get("judges") or []),
    ):
        unknown = [name for name in names if name not in known]
        if unknown:
            problems.append(
                error(
                    f"{field}: unknown {', '.join(map(repr, unknown))}; "
                    f"choose from {', '.join(sorted(known))}"
                )
            )
        form_data["outputs" if field == "systems" else field] = [
            known[name] for name in names if name in known
        ]
    if problems:
        raise ApiError(problems)
    return form_data


class CampaignList(APIView):
    parser_classes = [JSONParser]

    @extend_schema(operation_id="campaigns_list", responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int) -> Response:
        test_set = access.get_test_set(request.user, pk)
        campaigns = test_set.campaigns.order_by("pk")
        return Response([campaign_dict(c) for c in campaigns])

    @extend_schema(
        operation_id="campaigns_create",
        request=CampaignRequest,
        responses={201: OpenApiTypes.OBJECT},
    )
    def post(self, request, pk: int) -> Response:
        test_set = access.get_test_set(request.user, pk)
        if not isinstance(request.data, dict):
            raise ApiError([error("send a JSON object")])
        form = CampaignForm(_names_to_pks(test_set, request.data), test_set=test_set)
        if not form.is_valid():
            raise ApiError(form_errors(form, field_names=FIELD_NAMES))
        campaign = service.create_campaign(test_set, request.user, form.settings())
        return Response(campaign_dict(campaign, details=True), status=201)


class CampaignDetail(APIView):
    @extend_schema(operation_id="campaign_read", responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int) -> Response:
        campaign = get_object_or_404(service.campaigns_of(request.user), pk=pk)
        return Response(campaign_dict(campaign, details=True))


class TestSetAgreement(APIView):
    __test__ = False

    @extend_schema(operation_id="test_set_agreement", responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int) -> Response:
        test_set = access.get_test_set(request.user, pk)
        return Response(agreement_summary(test_set))
