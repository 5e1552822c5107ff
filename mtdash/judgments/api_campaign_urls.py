"""Judging campaigns and agreement under /api/v1/ (see api_campaigns)."""

from django.urls import path

from mtdash.api.views import campaigns as api_campaigns

urlpatterns = [
    path(
        "test-sets/<int:pk>/campaigns/",
        api_campaigns.CampaignList.as_view(),
        name="api_campaigns",
    ),
    path(
        "campaigns/<int:pk>",
        api_campaigns.CampaignDetail.as_view(),
        name="api_campaign",
    ),
    path(
        "test-sets/<int:pk>/agreement",
        api_campaigns.TestSetAgreement.as_view(),
        name="api_agreement",
    ),
]
