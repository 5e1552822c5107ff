"""The judgments' summary and the metric-human disagreements under /api/v1/."""

from django.urls import path

from mtdash.api.views import judgment_overview as api_overview

urlpatterns = [
    path(
        "test-sets/<int:pk>/judgments/summary",
        api_overview.JudgmentsSummary.as_view(),
        name="api_judgments_summary",
    ),
    path(
        "test-sets/<int:pk>/judgments/sources",
        api_overview.JudgmentSources.as_view(),
        name="api_judgment_sources",
    ),
    path(
        "test-sets/<int:pk>/judgments/disagreements",
        api_overview.JudgmentsDisagreements.as_view(),
        name="api_judgments_disagreements",
    ),
]
