"""The system page (one output: scores, analyses, sentences) and the
sentence view. Fetch what the user may see, call a service, render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from mtdash.evaluation.span_view.filters import SpanFilters
from mtdash.evaluation.span_view.rows import sentence_spans
from mtdash.evaluation.systems import figures as system_figures
from mtdash.evaluation.systems.analyses import REFERENCE_FREQUENCIES
from mtdash.evaluation.systems.page import (
    NUMBER,
    corpus_score_rows,
    get_output,
    output_columns,
    sentence_table,
    stored_analysis,
)
from mtdash.evaluation.systems.sentence_page import (
    NoSuchSentence,
    build_sentence_view,
)


@login_required
@require_GET
def output_detail(request, pk: int):
    output = get_output(request.user, pk)
    columns = output_columns(output)
    analysis = stored_analysis(output) or {}
    analysed = analysis.get("metrics", {})
    metric = request.GET.get("metric")
    if metric not in analysed:
        metric = next(iter(analysed), None)
    word_accuracy = _chosen_frequencies(analysis, request.GET.get("frequencies"))
    table = sentence_table(
        output,
        columns,
        sort=request.GET.get("sort", NUMBER),
        query=request.GET.get("q", "")[:200],
        page=_page_number(request.GET.get("page")),
    )
    context = {
        "output": output,
        "test_set": output.test_set,
        "score_rows": corpus_score_rows(output, columns),
        "analysis": analysis,
        "analysed_metrics": list(analysed),
        "metric": metric,
        "word_accuracy": word_accuracy,
        "figures": _figures(analysed.get(metric), metric, word_accuracy),
        "table": table,
    }
    return render(request, "evaluation/system_detail.html", context)


def _chosen_frequencies(analysis: dict, key: str | None) -> dict | None:
    entries = analysis.get("word_accuracy", [])
    for entry in entries:
        if entry["key"] == (key or REFERENCE_FREQUENCIES):
            return entry
    return entries[0] if entries else None


def _figures(metric_analysis, metric, word_accuracy) -> list[tuple[str, dict]]:
    """(name, figure) for each chart the page draws: its element is
    ``chart-<name>``, its data ``figure-<name>``."""
    figures = []
    if metric_analysis is not None:
        figures += [
            ("histogram", system_figures.histogram_figure(metric, metric_analysis)),
            ("length", system_figures.length_figure(metric, metric_analysis)),
            (
                "score-buckets",
                system_figures.score_buckets_figure(metric, metric_analysis),
            ),
        ]
    if word_accuracy is not None:
        figures.append(
            ("word-accuracy", system_figures.word_accuracy_figure(word_accuracy))
        )
    return figures


def _page_number(text: str | None) -> int:
    try:
        return int(text or 1)
    except ValueError:
        return 1


@login_required
@require_GET
def output_sentences(request, pk: int):
    """The sentence table lives on the system page: go there, with the same
    sort, search and page."""
    output = get_output(request.user, pk)
    query = request.GET.urlencode()
    url = reverse("output_detail", args=[output.pk])
    return redirect(f"{url}{'?' + query if query else ''}#sentences")


@login_required
@require_GET
def sentence_detail(request, pk: int, number: int):
    output = get_output(request.user, pk)
    try:
        sentence = build_sentence_view(output, number)
    except NoSuchSentence:
        raise Http404(f"no sentence {number} in this output") from None
    spans = sentence_spans(
        output,
        number - 1,
        sentence.hypothesis.text,
        sentence.source,
        SpanFilters.from_query(request.GET),
    )
    context = {
        "output": output,
        "test_set": output.test_set,
        "sentence": sentence,
        "spans": spans,
    }
    return render(request, "evaluation/sentence_detail.html", context)
