"""The judgments of a test set and the metric-human disagreement explorer
(issue #12): placeholders until that work lands."""

from django.http import HttpResponse


def judgments_overview(request, pk: int) -> HttpResponse:
    return HttpResponse("not built yet", status=501)


def disagreements(request, pk: int) -> HttpResponse:
    return HttpResponse("not built yet", status=501)
