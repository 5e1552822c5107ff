"""URLs of the metric-evaluation page (included by mtdash.evaluation.urls)."""

from django.urls import path

from mtdash.judgments.correlations import views as correlation_views

urlpatterns = [
    path(
        "test-sets/<int:pk>/correlations/",
        correlation_views.correlations,
        name="test_set_correlations",
    ),
    path(
        "test-sets/<int:pk>/correlations/scatter/",
        correlation_views.correlation_scatter,
        name="test_set_correlation_scatter",
    ),
    path(
        "test-sets/<int:pk>/correlations/export.<str:fmt>",
        correlation_views.correlation_export,
        name="test_set_correlation_export",
    ),
]
