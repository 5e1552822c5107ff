"""``/api/v1/test-sets/{id}/correlations`` (included by mtdash.api.urls)."""

from django.urls import path

from mtdash.api.views.correlations import TestSetCorrelations

urlpatterns = [
    path(
        "test-sets/<int:pk>/correlations",
        TestSetCorrelations.as_view(),
        name="api_test_set_correlations",
    ),
]
