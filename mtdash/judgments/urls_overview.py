"""The judgments of a test set and the metric-human disagreement explorer."""

from django.urls import path

from mtdash.judgments import overview_views

urlpatterns = [
    path(
        "test-sets/<int:pk>/judgments/",
        overview_views.judgments_overview,
        name="judgments_overview",
    ),
    # ?metric=<leaderboard column>&criterion=<name>
    path(
        "test-sets/<int:pk>/judgments/disagreements/",
        overview_views.disagreements,
        name="judgments_disagreements",
    ),
]
