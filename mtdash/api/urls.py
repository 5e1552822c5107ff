"""``/api/v1/``: see README "API". Scoring jobs are ``jobs/{id}``, ORANGE
jobs ``jobs/{id}?kind=orange`` or ``orange/{id}`` (two tables, two id spaces)."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from mtdash.api.views import jobs, leaderboard_exports, orange
from mtdash.api.views import testsets as test_sets

urlpatterns = [
    path("test-sets/", test_sets.TestSetList.as_view(), name="api_test_sets"),
    path("test-sets/<int:pk>", test_sets.TestSetDetail.as_view(), name="api_test_set"),
    path(
        "test-sets/<int:pk>/leaderboard",
        test_sets.TestSetLeaderboard.as_view(),
        name="api_leaderboard",
    ),
    # The page's file exports (csv, signatures.csv, xlsx), for scripts.
    re_path(
        r"^test-sets/(?P<pk>[0-9]+)/leaderboard\.(?P<fmt>signatures\.csv|csv|xlsx)$",
        leaderboard_exports.TestSetLeaderboardFile.as_view(),
        name="api_leaderboard_file",
    ),
    path(
        "test-sets/<int:pk>/outputs/",
        test_sets.OutputCreate.as_view(),
        name="api_outputs",
    ),
    path("test-sets/<int:pk>/nbest/", orange.NBestCreate.as_view(), name="api_nbest"),
    path("nbest/<int:pk>", orange.NBestDetail.as_view(), name="api_nbest_list"),
    path(
        "nbest/<int:pk>/orange/",
        orange.OrangeJobCreate.as_view(),
        name="api_orange_jobs",
    ),
    path("orange/<int:pk>", orange.OrangeJobDetail.as_view(), name="api_orange_job"),
    path(
        "orange/<int:pk>/retry",
        orange.OrangeJobRetry.as_view(),
        name="api_orange_job_retry",
    ),
    path("", include("mtdash.api.manage_urls")),
    path("jobs/<int:pk>", jobs.JobDetail.as_view(), name="api_job"),
    path("jobs/<int:pk>/retry", jobs.JobRetry.as_view(), name="api_job_retry"),
    path("schema", SpectacularAPIView.as_view(), name="api_schema"),
    path(
        "docs",
        SpectacularSwaggerView.as_view(url_name="api_schema"),
        name="api_docs",
    ),
    # Human judgments, external scores and correlations (mtdash.judgments).
    path("", include("mtdash.judgments.api_urls")),
    path("", include("mtdash.judgments.api_campaign_urls")),
    path("", include("mtdash.judgments.api_overview_urls")),
    path("", include("mtdash.api.correlation_urls")),
    path("", include("mtdash.api.readability_urls")),
    path("", include("mtdash.orange.api_review_urls")),
]
