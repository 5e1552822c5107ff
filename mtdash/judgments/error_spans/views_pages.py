"""The error spans' pages: a test set's errors per system, one system's
errors by category × severity (overall or in one document), and the
segments with errors of a category. Team-scoped: another team's test set
or output is a 404."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from mtdash.evaluation import access
from mtdash.evaluation.span_view.filters import category_options
from mtdash.evaluation.systems.analyses import tokenizer_name
from mtdash.evaluation.systems.page import get_output
from mtdash.judgments.error_spans import breakdown as service
from mtdash.judgments.error_spans.breakdown_figures import (
    category_figure,
    systems_figure,
)
from mtdash.judgments.error_spans.segment_list import SegmentFilters, segment_page
from mtdash.judgments.models import ErrorSpan


@login_required
@require_GET
def error_spans_overview(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    filters = service.BreakdownFilters.from_query(request.GET)
    outputs = list(test_set.outputs.select_related("system").order_by("system__name"))
    found = service.breakdowns(test_set, outputs, filters)
    context = {
        **_choices(test_set, filters),
        "breakdowns": found,
        "severities": found[0].severities if found else (),
        "category_rows": service.category_rows(found),
        "figure": systems_figure(found) if found else None,
    }
    return render(request, "judgments/error_spans_overview.html", context)


@login_required
@require_GET
def error_spans_system(request, pk: int):
    output = get_output(request.user, pk)
    test_set = output.test_set
    filters = service.BreakdownFilters.from_query(request.GET)
    found = service.breakdowns(test_set, [output], filters)
    context = {
        **_choices(test_set, filters),
        "output": output,
        "documents": service.annotated_documents(output),
        "breakdown": found[0] if found else None,
        "figure": category_figure(found[0]) if found else None,
    }
    return render(request, "judgments/error_spans_system.html", context)


@login_required
@require_GET
def error_spans_segments(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    filters = SegmentFilters.from_query(request.GET)
    page, hits = segment_page(test_set, filters, request.GET.get("page"))
    kinds = set(
        ErrorSpan.objects.filter(annotation__output__test_set=test_set)
        .values_list("category", "severity")
        .distinct()
        .order_by()
    )
    context = {
        **_choices(test_set, service.BreakdownFilters(filters.source)),
        "segment_filters": filters,
        "categories": category_options(
            {category or service.NO_CATEGORY for category, _ in kinds},
            filters.category,
        ),
        "severities": service.severity_columns({s for _, s in kinds}),
        "outputs": test_set.outputs.select_related("system").order_by("system__name"),
        "page": page,
        "hits": hits,
        "sentence_query": filters.sentence_query(),
    }
    return render(request, "judgments/error_spans_segments.html", context)


def _choices(test_set, filters: service.BreakdownFilters) -> dict:
    """What every page of error spans shows: the test set, the filters and
    the sources and annotators to choose from."""
    return {
        "test_set": test_set,
        "filters": filters,
        "sources": service.span_sources(test_set),
        "annotators": service.human_annotators(test_set),
        "tokenizer": tokenizer_name(test_set),
    }
