"""Two outputs of a test set side by side (``?a=<output id>&b=<output id>``).

The page reads stored scores and p-values and tokenises only the sentences
it shows; the whole set's n-gram tables come from :func:`compare_ngrams`,
which the page's script fetches (computed once per pair, then cached).
"""

from __future__ import annotations

from dataclasses import replace

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from mtdash.evaluation import access
from mtdash.evaluation.compare import page as service
from mtdash.evaluation.compare.figures import sentence_scatter
from mtdash.evaluation.span_view.filters import SpanFilters
from mtdash.evaluation.span_view.rows import pair_spans

# The compare page's own fields, carried by the error spans' filter form.
PAGE_FIELDS = ("a", "b", "metric", "order", "n")


@login_required
@require_GET
def compare_outputs(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    query = request.GET
    order = query.get("order") if query.get("order") in service.ORDERS else "b"
    n = int(query["n"]) if query.get("n") in ("1", "2", "3", "4") else 1
    context = {
        "test_set": test_set,
        "outputs": test_set.outputs.select_related("system").order_by("system__name"),
        "orders": service.ORDERS,
        "order": order,
        "n": n,
    }
    status = 200
    if query.get("a") or query.get("b"):
        try:
            context.update(_pair(test_set, query, order))
        except service.CompareError as error:
            context["error"] = str(error)
            status = 400
    return render(request, "evaluation/compare.html", context, status=status)


def _pair(test_set, query, order: str) -> dict:
    a = service.pick_output(test_set, query.get("a", ""), "A")
    b = service.pick_output(test_set, query.get("b", ""), "B")
    if a.pk == b.pk:
        raise service.CompareError("Pick two different outputs to compare.")
    scored = service.scored_columns(test_set, a.pk, b.pk)
    columns = service.sentence_columns(scored, a.pk, b.pk)
    metric = query.get("metric") or service.default_column(columns)
    if metric and metric not in columns:
        raise service.CompareError(
            f"There are no sentence scores of “{metric}” for both outputs; "
            f"choose one of: {', '.join(columns) or 'none yet'}."
        )
    context = {
        "a": a,
        "b": b,
        "columns": columns,
        "metric": metric,
        "significance": service.significance_rows(test_set, a, b, scored),
        "ngram_table": service.cached_ngram_table(test_set, a, b),
    }
    if metric:
        scores = service.sentence_scores(columns[metric])
        page = service.page_of(
            scores.order(order), query.get("page"), query.get("focus")
        )
        sentences = service.sentence_pairs(test_set, a, b, scores, list(page))
        spans = pair_spans(a, b, list(page), SpanFilters.from_query(query))
        context.update(
            column=columns[metric],
            tally=scores.tally(),
            figure=sentence_scatter(scores, a.system.name, b.system.name),
            page=page,
            sentences=[
                replace(s, error_spans=spans.rows.get(s.number - 1, ()))
                for s in sentences
            ],
            focus=query.get("focus", ""),
            spans=spans,
            span_keep=[(k, query[k]) for k in PAGE_FIELDS if query.get(k)],
        )
    return context


@login_required
@require_GET
def compare_ngrams(request, pk: int):
    """The n-gram tables alone, for the compare page's script."""
    test_set = access.get_test_set(request.user, pk)
    try:
        a = service.pick_output(test_set, request.GET.get("a", ""), "A")
        b = service.pick_output(test_set, request.GET.get("b", ""), "B")
    except service.CompareError as error:
        return render(
            request, "evaluation/compare_error.html", {"error": str(error)}, status=400
        )
    context = {
        "test_set": test_set,
        "a": a,
        "b": b,
        "ngram_table": service.ngram_table_for(test_set, a, b),
    }
    # The page's script asks for the tables alone; a followed link (no
    # script) gets them as a page of their own.
    fragment = request.headers.get("X-Requested-With") == "fetch"
    template = "compare_ngrams.html" if fragment else "compare_ngrams_page.html"
    return render(request, f"evaluation/{template}", context)
