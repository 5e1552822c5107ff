"""``/api/v1/`` paths of the manage actions (included by mtdash.api.urls)."""

from django.urls import path

from mtdash.api.views import manage as manage_views

urlpatterns = [
    path(
        "test-sets/<int:pk>/fill-missing",
        manage_views.FillMissing.as_view(),
        name="api_fill_missing",
    ),
    path("outputs/<int:pk>", manage_views.OutputDetail.as_view(), name="api_output"),
]
