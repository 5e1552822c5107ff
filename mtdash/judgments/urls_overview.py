"""The judgments of a test set and the metric-human disagreement explorer."""

from django.urls import path

from mtdash.judgments.overview import views as overview_views

urlpatterns = [
    path(
        "test-sets/<int:pk>/judgments/",
        overview_views.judgments_overview,
        name="judgments_overview",
    ),
    path(
        "test-sets/<int:pk>/judgments/systems.csv",
        overview_views.systems_csv,
        name="judgments_systems_csv",
    ),
    path(
        "test-sets/<int:pk>/judgments/segments.csv",
        overview_views.segments_csv,
        name="judgments_segments_csv",
    ),
    path(
        "test-sets/<int:pk>/judgments/sources/<int:criterion_id>/",
        overview_views.judgments_sources,
        name="judgments_sources",
    ),
    # ?metric=<leaderboard column>&criterion=<name>&page=<n>
    path(
        "test-sets/<int:pk>/judgments/disagreements/",
        overview_views.disagreements,
        name="judgments_disagreements",
    ),
]
