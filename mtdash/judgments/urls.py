from django.urls import path

from mtdash.judgments import views

urlpatterns = [
    path(
        "test-sets/<int:pk>/judgments/import/",
        views.judgments_import,
        name="judgments_import",
    ),
    path(
        "test-sets/<int:pk>/external-scores/import/",
        views.external_scores_import,
        name="external_scores_import",
    ),
]
