"""Judging campaigns in the browser (issue #12)."""

from django.urls import path

from mtdash.judgments.campaigns import views as campaign_views

urlpatterns = [
    path(
        "test-sets/<int:pk>/campaigns/",
        campaign_views.campaign_list,
        name="campaign_list",
    ),
    path(
        "test-sets/<int:pk>/campaigns/new/",
        campaign_views.campaign_new,
        name="campaign_new",
    ),
    path("campaigns/<int:pk>/", campaign_views.campaign_detail, name="campaign_detail"),
    path(
        "campaigns/<int:pk>/judge/",
        campaign_views.campaign_judge,
        name="campaign_judge",
    ),
]
