"""Every REST route: ``urlpatterns`` under ``/api/v1/`` (see README "API")
and ``account_urlpatterns``, the signed-in user's token pages under
``/account/``. Scoring jobs are ``jobs/{id}``, ORANGE jobs
``jobs/{id}?kind=orange`` or ``orange/{id}`` (two tables, two id spaces)."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

# Registers the OpenAPI description of the token authentication with the
# schema view below; imported here rather than as the app starts, so a worker
# (which serves no URL) does not import drf-spectacular.
from mtdash.api import schema  # noqa: F401
from mtdash.api.views import (
    account,
    campaigns,
    correlations,
    error_span_agreement,
    error_spans,
    external_scores,
    jobs,
    judgment_overview,
    judgments,
    leaderboard_exports,
    manage,
    meta_evaluation_drill_down,
    meta_evaluations,
    orange,
    readability,
    references,
    testsets,
)

urlpatterns = [
    path("test-sets/", testsets.TestSetList.as_view(), name="api_test_sets"),
    path("test-sets/<int:pk>", testsets.TestSetDetail.as_view(), name="api_test_set"),
    path(
        "test-sets/<int:pk>/leaderboard",
        testsets.TestSetLeaderboard.as_view(),
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
        testsets.OutputCreate.as_view(),
        name="api_outputs",
    ),
    # A reference entered as a system (a human translation, as WMT does).
    path(
        "test-sets/<int:pk>/references/<str:label>/system",
        references.ReferenceAsSystem.as_view(),
        name="api_reference_as_system",
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
    path(
        "test-sets/<int:pk>/fill-missing",
        manage.FillMissing.as_view(),
        name="api_fill_missing",
    ),
    path("outputs/<int:pk>", manage.OutputDetail.as_view(), name="api_output"),
    path("jobs/<int:pk>", jobs.JobDetail.as_view(), name="api_job"),
    path("jobs/<int:pk>/retry", jobs.JobRetry.as_view(), name="api_job_retry"),
    path("schema", SpectacularAPIView.as_view(), name="api_schema"),
    # The split view serves Swagger UI's start-up script as a file of its
    # own (?script=), and our template links the page's style rules, so the
    # page runs under the strict policy (no inline script or style).
    path(
        "docs",
        SpectacularSwaggerSplitView.as_view(
            url_name="api_schema", template_name="api/swagger_ui.html"
        ),
        name="api_docs",
    ),
    # Human judgments, external scores, campaigns, correlations, readability.
    path(
        "test-sets/<int:pk>/judgments/",
        judgments.JudgmentsImport.as_view(),
        name="api_judgments_import",
    ),
    path(
        "test-sets/<int:pk>/external-scores/",
        external_scores.ExternalScoresImport.as_view(),
        name="api_external_scores_import",
    ),
    # MQM and ESA annotations, or a metric's own error spans (GET lists them).
    path(
        "test-sets/<int:pk>/error-spans/",
        error_spans.ErrorSpansImport.as_view(),
        name="api_error_spans",
    ),
    # Span-level meta-evaluation of the metrics' error spans (202 while a
    # worker computes it), and its job.
    path(
        "test-sets/<int:pk>/error-spans/agreement",
        error_span_agreement.TestSetSpanAgreement.as_view(),
        name="api_error_span_agreement",
    ),
    path(
        "error-span-evaluations/<int:pk>",
        error_span_agreement.SpanEvaluationDetail.as_view(),
        name="api_error_span_evaluation",
    ),
    path(
        "test-sets/<int:pk>/campaigns/",
        campaigns.CampaignList.as_view(),
        name="api_campaigns",
    ),
    path(
        "campaigns/<int:pk>",
        campaigns.CampaignDetail.as_view(),
        name="api_campaign",
    ),
    path(
        "test-sets/<int:pk>/agreement",
        campaigns.TestSetAgreement.as_view(),
        name="api_agreement",
    ),
    path(
        "test-sets/<int:pk>/judgments/summary",
        judgment_overview.JudgmentsSummary.as_view(),
        name="api_judgments_summary",
    ),
    path(
        "test-sets/<int:pk>/judgments/sources",
        judgment_overview.JudgmentSources.as_view(),
        name="api_judgment_sources",
    ),
    path(
        "test-sets/<int:pk>/judgments/disagreements",
        judgment_overview.JudgmentsDisagreements.as_view(),
        name="api_judgments_disagreements",
    ),
    path(
        "test-sets/<int:pk>/correlations",
        correlations.TestSetCorrelations.as_view(),
        name="api_test_set_correlations",
    ),
    path(
        "test-sets/<int:pk>/readability",
        readability.TestSetReadability.as_view(),
        name="api_test_set_readability",
    ),
    path(
        "readability",
        readability.ReadabilityAcross.as_view(),
        name="api_readability",
    ),
    # The WMT metrics task's meta-evaluation, of one test set or several.
    path(
        "meta-evaluations/",
        meta_evaluations.MetaEvaluationCreate.as_view(),
        name="api_meta_evaluations",
    ),
    path(
        "meta-evaluations/<int:pk>",
        meta_evaluations.MetaEvaluationDetail.as_view(),
        name="api_meta_evaluation",
    ),
    path(
        "meta-evaluations/<int:pk>/test-sets/<int:test_set_id>/metrics/<path:metric>",
        meta_evaluation_drill_down.MetaEvaluationMetric.as_view(),
        name="api_meta_evaluation_metric",
    ),
    path(
        "orange/<int:pk>/comparison",
        orange.OrangeComparison.as_view(),
        name="api_orange_comparison",
    ),
    path(
        "orange/<int:pk>/reviews",
        orange.OrangeReviewCreate.as_view(),
        name="api_orange_reviews",
    ),
    path(
        "orange/reviews/<int:pk>/report",
        orange.OrangeReviewReport.as_view(),
        name="api_orange_review_report",
    ),
]

account_urlpatterns = [
    path("tokens/", account.tokens, name="api_tokens"),
    path("tokens/<int:pk>/revoke/", account.token_revoke, name="api_token_revoke"),
]
