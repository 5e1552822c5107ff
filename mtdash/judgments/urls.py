from django.urls import include, path

from mtdash.judgments.imports import views

urlpatterns = [
    path(
        "test-sets/<int:pk>/judgments/import/",
        views.judgments_import,
        name="judgments_import",
    ),
    path(
        "test-sets/<int:pk>/judgments/import/<str:token>/",
        views.judgments_import_preview,
        name="judgments_import_preview",
    ),
    path(
        "test-sets/<int:pk>/external-scores/import/",
        views.external_scores_import,
        name="external_scores_import",
    ),
    # Judging campaigns in the browser; the judgments' overview and the
    # metric-human disagreement explorer.
    path("", include("mtdash.judgments.urls_campaigns")),
    path("", include("mtdash.judgments.urls_overview")),
]
