"""API routes of issue #12's ORANGE part: the paired test between a job's
metrics, review samples and their reports (under /api/v1/)."""

from django.urls import path

from mtdash.api.views import orange

urlpatterns = [
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
