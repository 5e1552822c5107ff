import re

from django.urls import include, path, register_converter

from mtdash.evaluation import job_views, views
from mtdash.evaluation.leaderboard import exports
from mtdash.evaluation.leaderboard import views as leaderboard_status_views


class ExportFormatConverter:
    """Only the leaderboard's real export formats: ``leaderboard.pdf`` is a 404."""

    regex = "|".join(re.escape(name) for name in exports.FORMATS)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ExportFormatConverter, "export_format")

urlpatterns = [
    path("", views.home, name="home"),
    path("test-sets/new/", views.test_set_new, name="test_set_new"),
    path("test-sets/<int:pk>/", views.test_set_detail, name="test_set_detail"),
    path(
        "test-sets/<int:pk>/leaderboard.<export_format:fmt>",
        views.test_set_export,
        name="test_set_export",
    ),
    path(
        "test-sets/<int:pk>/leaderboard/status.json",
        leaderboard_status_views.leaderboard_status,
        name="leaderboard_status",
    ),
    path(
        "test-sets/<int:pk>/p-values/", views.test_set_pvalues, name="test_set_pvalues"
    ),
    path("test-sets/<int:pk>/outputs/new/", views.output_new, name="output_new"),
    path(
        "test-sets/<int:pk>/rescore/", views.test_set_rescore, name="test_set_rescore"
    ),
    path("jobs/<int:pk>/", views.job_detail, name="job_detail"),
    path("jobs/<int:pk>/status.json", views.job_status, name="job_status"),
    path("jobs/<int:pk>/retry/", job_views.job_retry, name="job_retry"),
    # Pages of their own modules: a system's output and its sentences, two
    # outputs side by side, the references, renaming/hiding/deleting.
    path("", include("mtdash.evaluation.urls_system")),
    path("", include("mtdash.evaluation.urls_compare")),
    path("", include("mtdash.evaluation.urls_references")),
    path("", include("mtdash.evaluation.urls_manage")),
    # Metric evaluation (correlations with human scores) and readability.
    path("", include("mtdash.evaluation.urls_correlations")),
    path("", include("mtdash.evaluation.urls_readability")),
]
