"""The judgments app's pages: imports, judging campaigns, the overview and
disagreement explorer, the metrics' correlations with the judgments and the
WMT meta-evaluation of the metrics."""

from django.urls import path, re_path

from mtdash.judgments.campaigns import views as campaign_views
from mtdash.judgments.correlations import views as correlation_views
from mtdash.judgments.error_spans import agreement_views
from mtdash.judgments.error_spans import views as error_span_views
from mtdash.judgments.error_spans import views_pages as span_pages
from mtdash.judgments.imports import views as import_views
from mtdash.judgments.meta_evaluation import views as meta_views
from mtdash.judgments.overview import views as overview_views

urlpatterns = [
    path(
        "test-sets/<int:pk>/judgments/import/",
        import_views.judgments_import,
        name="judgments_import",
    ),
    path(
        "test-sets/<int:pk>/judgments/import/<str:token>/",
        import_views.judgments_import_preview,
        name="judgments_import_preview",
    ),
    # MQM and ESA annotations, or a metric's own error spans.
    path(
        "test-sets/<int:pk>/error-spans/import/",
        error_span_views.error_spans_import,
        name="error_spans_import",
    ),
    # Span-level meta-evaluation of the metrics' error spans (the section of
    # the metric-evaluation page): queue it, poll its job, export it.
    path(
        "test-sets/<int:pk>/error-spans/agreement/",
        agreement_views.span_agreement_run,
        name="error_span_agreement_run",
    ),
    re_path(
        r"^test-sets/(?P<pk>[0-9]+)/error-spans/agreement/export\.(?P<fmt>csv|tex)$",
        agreement_views.span_agreement_export,
        name="error_span_agreement_export",
    ),
    path(
        "error-span-evaluations/<int:pk>/status/",
        agreement_views.span_evaluation_status,
        name="error_span_evaluation_status",
    ),
    # Errors per system (category x severity, per 100 words), one system's,
    # and the segments with errors of a category.
    path(
        "test-sets/<int:pk>/error-spans/",
        span_pages.error_spans_overview,
        name="error_spans_overview",
    ),
    path(
        "outputs/<int:pk>/error-spans/",
        span_pages.error_spans_system,
        name="error_spans_system",
    ),
    path(
        "test-sets/<int:pk>/error-spans/segments/",
        span_pages.error_spans_segments,
        name="error_spans_segments",
    ),
    # Judging campaigns in the browser; the judgments' overview and the
    # metric-human disagreement explorer.
    path(
        "test-sets/<int:pk>/campaigns/",
        campaign_views.campaign_list,
        name="campaign_list",
    ),
    path(
        "test-sets/<int:pk>/campaigns/new/",
        campaign_views.campaign_new,
        name="campaign_new",
    ),
    path("campaigns/<int:pk>/", campaign_views.campaign_detail, name="campaign_detail"),
    path(
        "campaigns/<int:pk>/judge/",
        campaign_views.campaign_judge,
        name="campaign_judge",
    ),
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
    # Metric evaluation: correlations of the metrics with the judgments.
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
    # The WMT metrics task's meta-evaluation: of one test set (queued from
    # its metric-evaluation page) and across test sets.
    path(
        "test-sets/<int:pk>/meta-evaluation/",
        meta_views.test_set_meta_evaluation,
        name="test_set_meta_evaluation",
    ),
    path(
        "meta-evaluations/",
        meta_views.meta_evaluation_list,
        name="meta_evaluation_list",
    ),
    path(
        "meta-evaluations/<int:pk>/",
        meta_views.meta_evaluation_detail,
        name="meta_evaluation_detail",
    ),
    path(
        "meta-evaluations/<int:pk>/status/",
        meta_views.meta_evaluation_status,
        name="meta_evaluation_status",
    ),
    path(
        "meta-evaluations/<int:pk>/retry/",
        meta_views.meta_evaluation_retry,
        name="meta_evaluation_retry",
    ),
    # One metric's drill-down; <path:> since an external metric's name may
    # hold a slash (a model name such as Unbabel/wmt22-comet-da).
    path(
        "meta-evaluations/<int:pk>/test-sets/<int:test_set_id>/metrics/<path:metric>/",
        meta_views.meta_evaluation_metric,
        name="meta_evaluation_metric",
    ),
    re_path(
        r"^meta-evaluations/(?P<pk>[0-9]+)/export\.(?P<fmt>csv|tex)$",
        meta_views.meta_evaluation_export,
        name="meta_evaluation_export",
    ),
]
