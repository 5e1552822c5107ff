"""The metric-evaluation page of a test set: correlation tables of every
metric against every human criterion (read from the stored analysis), the
scatter plot behind each cell, exports, judges' agreement, ORANGE and the
WMT meta-evaluation of the test set (``?criterion=``), and the span-level
meta-evaluation of the metrics' error spans (``?span_variant=&span_average=``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from mtdash.common.responses import download_response
from mtdash.evaluation import access
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.judgments.campaigns.agreement import agreement_summary
from mtdash.judgments.correlations.exports import FORMATS
from mtdash.judgments.correlations.figures import scatter_figure, scatter_note
from mtdash.judgments.correlations.page import (
    LEVEL_LABELS,
    METHOD_LABELS,
    arrange,
    choose,
    correlation_page,
    stored_table,
)
from mtdash.judgments.correlations.points import read_points
from mtdash.judgments.correlations.tables import LEVELS, METHODS
from mtdash.judgments.error_spans.agreement_forms import SpanAgreementForm
from mtdash.judgments.error_spans.agreement_options import (
    AVERAGE_PARAMETER,
    VARIANT_PARAMETER,
)
from mtdash.judgments.error_spans.agreement_section import span_section
from mtdash.judgments.meta_evaluation.forms import OneTestSetForm
from mtdash.judgments.meta_evaluation.page import orange_figures
from mtdash.judgments.meta_evaluation.section import meta_section
from mtdash.judgments.sources import criteria_sources
from mtdash.orange.summary import orange_summary
from scoring.orange import ORANGE_INTERVAL


@login_required
@require_GET
def correlations(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    page = correlation_page(
        test_set, request.GET.get("level"), request.GET.get("method")
    )
    if page.state == "pending" and page.computed_at is None:
        # Judgments stored before this page existed: ask for the analysis (at
        # most one comparison job waits in the queue).
        request_comparison(test_set.pk)
    orange = orange_summary(test_set)
    meta = meta_section(test_set, request.GET.get("criterion"), orange_figures(orange))
    context = {
        "test_set": test_set,
        "page": page,
        "table": page.table,
        "levels": [(level, LEVEL_LABELS[level]) for level in LEVELS],
        "methods": [(method, METHOD_LABELS[method]) for method in METHODS],
        "agreement": agreement_summary(test_set),
        "orange": orange,
        "orange_interval": ORANGE_INTERVAL,
        # The WMT meta-evaluation of this test set alone, and its settings form.
        "meta": meta,
        "meta_form": OneTestSetForm(
            initial={**meta.initial, "criterion": meta.criterion},
            test_set=test_set,
            user=request.user,
        ),
        # Which imports and campaigns each criterion's human scores come from.
        "human_sources": criteria_sources(test_set.pk),
    }
    # Span-level meta-evaluation of the metrics' error spans, when there are.
    spans = span_section(
        test_set,
        request.GET.get(VARIANT_PARAMETER),
        request.GET.get(AVERAGE_PARAMETER),
    )
    context["spans"] = spans
    if spans.present:
        context["span_form"] = SpanAgreementForm(
            initial=spans.initial, test_set=test_set
        )
    return render(request, "judgments/correlations.html", context)


@login_required
@require_GET
def correlation_scatter(request, pk: int):
    """The Plotly figure of one cell (``?level=&criterion=&metric=``)."""
    test_set = access.get_test_set(request.user, pk)
    level = choose(request.GET.get("level"), LEVELS)
    points = read_points(
        test_set, level, request.GET.get("criterion", ""), request.GET.get("metric", "")
    )
    if points is None:
        raise Http404("no such correlation cell")
    return JsonResponse(
        {
            "figure": scatter_figure(points),
            "n_points": points["n_points"],
            "note": scatter_note(points),
            "systems": points["systems"],
        }
    )


@login_required
@require_GET
def correlation_export(request, pk: int, fmt: str):
    render_export = FORMATS.get(fmt)
    if render_export is None:  # the URL admits only known formats; a backstop
        raise Http404(f"no correlation export in {fmt!r}")
    test_set = access.get_test_set(request.user, pk)
    level = choose(request.GET.get("level"), LEVELS)
    method = choose(request.GET.get("method"), METHODS)
    stored = stored_table(test_set, level, method)
    if stored is None:
        raise Http404("the table is not computed yet")
    return download_response(
        render_export(arrange(stored)),
        f"correlations-{test_set.pk}-{level}-{method}.{fmt}",
    )
