"""The evaluation app's pages: test sets, outputs and scoring jobs, the
leaderboard, compare, system, reference, readability, manage and external
scores pages (each feature's views in its folder)."""

import re

from django.urls import path, register_converter

from mtdash.evaluation import views
from mtdash.evaluation.compare import views as compare_views
from mtdash.evaluation.external_scores import views as external_scores_views
from mtdash.evaluation.leaderboard import exports
from mtdash.evaluation.leaderboard import views as leaderboard_views
from mtdash.evaluation.manage import views as manage_views
from mtdash.evaluation.readability import views as readability_views
from mtdash.evaluation.readability.exports import STABILITY_FORMATS, TEST_SET_FORMATS
from mtdash.evaluation.references import views as reference_views
from mtdash.evaluation.systems import views as system_views
from mtdash.evaluation.systems import word_counts_upload as word_counts


class ExportFormatConverter:
    """Only the leaderboard's real export formats: ``leaderboard.pdf`` is a 404."""

    regex = "|".join(re.escape(name) for name in exports.FORMATS)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ExportFormatConverter, "export_format")


class _Suffixes:
    """Only the real export formats: ``readability.pdf`` is a 404."""

    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def _pattern(suffixes) -> str:
    return "|".join(re.escape(name) for name in suffixes)


class TestSetFormat(_Suffixes):
    regex = _pattern(TEST_SET_FORMATS)


class StabilityFormat(_Suffixes):
    regex = _pattern(STABILITY_FORMATS)


register_converter(TestSetFormat, "readability_format")
register_converter(StabilityFormat, "stability_format")


urlpatterns = [
    path("", views.home, name="home"),
    path("test-sets/new/", views.test_set_new, name="test_set_new"),
    path(
        "test-sets/<int:pk>/",
        leaderboard_views.test_set_detail,
        name="test_set_detail",
    ),
    path(
        "test-sets/<int:pk>/leaderboard.<export_format:fmt>",
        leaderboard_views.test_set_export,
        name="test_set_export",
    ),
    path(
        "test-sets/<int:pk>/leaderboard/status.json",
        leaderboard_views.leaderboard_status,
        name="leaderboard_status",
    ),
    path(
        "test-sets/<int:pk>/p-values/",
        leaderboard_views.test_set_pvalues,
        name="test_set_pvalues",
    ),
    path("test-sets/<int:pk>/outputs/new/", views.output_new, name="output_new"),
    path(
        "test-sets/<int:pk>/rescore/", views.test_set_rescore, name="test_set_rescore"
    ),
    path("jobs/<int:pk>/", views.job_detail, name="job_detail"),
    path("jobs/<int:pk>/status.json", views.job_status, name="job_status"),
    path("jobs/<int:pk>/retry/", views.job_retry, name="job_retry"),
    # A system's output and its sentences, two outputs side by side, the
    # references, renaming/hiding/deleting.
    path("outputs/<int:pk>/", system_views.output_detail, name="output_detail"),
    path(
        "outputs/<int:pk>/sentences/",
        system_views.output_sentences,
        name="output_sentences",
    ),
    path(
        "outputs/<int:pk>/sentences/<int:number>/",
        system_views.sentence_detail,
        name="sentence_detail",
    ),
    path(
        "test-sets/<int:pk>/word-counts/new/",
        word_counts.word_counts_new,
        name="word_counts_new",
    ),
    path(
        "test-sets/<int:pk>/compare/",
        compare_views.compare_outputs,
        name="compare_outputs",
    ),
    path(
        "test-sets/<int:pk>/compare/ngrams/",
        compare_views.compare_ngrams,
        name="compare_ngrams",
    ),
    path(
        "test-sets/<int:pk>/references/",
        reference_views.reference_diagnostics,
        name="reference_diagnostics",
    ),
    path(
        "test-sets/<int:pk>/references/<str:label>/as-system/",
        reference_views.reference_as_system,
        name="reference_as_system",
    ),
    path("systems/<int:pk>/rename/", manage_views.system_rename, name="system_rename"),
    path("systems/<int:pk>/delete/", manage_views.system_delete, name="system_delete"),
    path("outputs/<int:pk>/hide/", manage_views.output_hide, name="output_hide"),
    path("outputs/<int:pk>/delete/", manage_views.output_delete, name="output_delete"),
    path(
        "test-sets/<int:pk>/rename/",
        manage_views.test_set_rename,
        name="test_set_rename",
    ),
    path("test-sets/<int:pk>/hide/", manage_views.test_set_hide, name="test_set_hide"),
    path(
        "test-sets/<int:pk>/delete/",
        manage_views.test_set_delete,
        name="test_set_delete",
    ),
    path(
        "test-sets/<int:pk>/fill-missing/",
        manage_views.test_set_fill_missing,
        name="test_set_fill_missing",
    ),
    # Readability of the sources, references and outputs.
    path(
        "test-sets/<int:pk>/readability/",
        readability_views.readability_test_set,
        name="readability_test_set",
    ),
    path(
        "test-sets/<int:pk>/readability/status.json",
        readability_views.readability_job_status,
        name="readability_job_status",
    ),
    path(
        "test-sets/<int:pk>/readability/retry/",
        readability_views.readability_retry,
        name="readability_retry",
    ),
    path(
        "test-sets/<int:pk>/readability.<readability_format:fmt>",
        readability_views.readability_test_set_export,
        name="readability_test_set_export",
    ),
    path(
        "readability/",
        readability_views.readability_across,
        name="readability_across",
    ),
    path(
        "readability/<stability_format:fmt>",
        readability_views.readability_across_export,
        name="readability_across_export",
    ),
    # A metric's scores computed elsewhere: leaderboard columns.
    path(
        "test-sets/<int:pk>/external-scores/import/",
        external_scores_views.external_scores_import,
        name="external_scores_import",
    ),
]
