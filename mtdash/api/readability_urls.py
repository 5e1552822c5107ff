"""Readability endpoints under /api/v1/ (mtdash.api.views.readability)."""

from django.urls import path

from mtdash.api.views import readability

urlpatterns = [
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
]
