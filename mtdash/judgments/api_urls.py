"""The judgments' and external scores' endpoints under /api/v1/."""

from django.urls import path

from mtdash.api.views import judgments as api

urlpatterns = [
    path(
        "test-sets/<int:pk>/judgments/",
        api.JudgmentsImport.as_view(),
        name="api_judgments_import",
    ),
    path(
        "test-sets/<int:pk>/external-scores/",
        api.ExternalScoresImport.as_view(),
        name="api_external_scores_import",
    ),
]
