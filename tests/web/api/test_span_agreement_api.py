"""``/api/v1/test-sets/{id}/error-spans/agreement`` with a token: queued
(202 with the job's URL), then the stored figures in the command line's
``--json`` shape, filtered to the variants and averagings asked for; 409
after a failure; 400 naming a bad parameter; 404 for another team or a
test set without spans; the job's own route."""

from __future__ import annotations

import pytest

from mtdash.judgments.models import ErrorSpanEvaluation
from tests.web.judgments.span_agreement_support import JUDGE, annotate, run
from tests.web.judgments.span_world import METRIC

pytestmark = pytest.mark.django_db
QUERY = {"bootstrap": 200, "seed": 7}


@pytest.fixture
def annotated(test_set, owner):
    return annotate(test_set, owner)


def url(test_set) -> str:
    return f"/api/v1/test-sets/{test_set.pk}/error-spans/agreement"


def test_it_queues_then_answers_the_stored_figures(api, annotated):
    response = api.get(url(annotated), QUERY)
    assert response.status_code == 202
    job = ErrorSpanEvaluation.objects.get()
    body = response.json()
    assert body == {
        "id": job.pk,
        "status": "queued",
        "progress": 0,
        "url": f"/api/v1/error-span-evaluations/{job.pk}",
        "detail": "being computed by a worker",
    }
    assert (job.n_samples, job.seed) == (200, 7)
    assert api.get(url(annotated), QUERY).status_code == 202  # the same job
    assert ErrorSpanEvaluation.objects.count() == 1
    run(job)

    data = api.get(url(annotated), QUERY).json()
    assert set(data) >= {"human", "metric_files", "variants", "averages", "metrics"}
    assert (data["variants"], data["averages"]) == (["mpp"], ["micro"])
    assert [m["metric"] for m in data["metrics"]] == [JUDGE, METRIC]
    for metric, stored in zip(data["metrics"], job.result["metrics"]):
        (only,) = metric["results"]
        assert (only["variant"], only["average"]) == ("mpp", "micro")
        assert only in stored["results"]
        assert {k: metric[k] for k in ("systems", "coverage", "settings")} == {
            k: stored[k] for k in ("systems", "coverage", "settings")
        }
    assert data["human"] == job.result["human"]
    assert data["evaluation"]["id"] == job.pk

    every = api.get(url(annotated), {**QUERY, "variant": "all", "average": "both"})
    assert every.json()["metrics"] == job.result["metrics"]
    w25 = api.get(url(annotated), {**QUERY, "variant": "w25", "average": "macro"})
    assert [
        (r["variant"], r["average"]) for r in w25.json()["metrics"][0]["results"]
    ] == [("w25", "macro")]


def test_other_settings_are_another_job(api, annotated):
    api.get(url(annotated), QUERY)
    api.get(url(annotated))  # the defaults: 1000 resamples, seed 1
    jobs = ErrorSpanEvaluation.objects.order_by("pk")
    assert [(j.n_samples, j.seed) for j in jobs] == [(200, 7), (1000, 1)]


def test_a_failed_evaluation_is_409_until_posted_again(api, annotated):
    api.get(url(annotated), QUERY)
    job = ErrorSpanEvaluation.objects.get()
    ErrorSpanEvaluation.objects.filter(pk=job.pk).fail("no metric could be evaluated")
    response = api.get(url(annotated), QUERY)
    assert response.status_code == 409
    (problem,) = response.json()["errors"]
    assert problem["message"] == (
        "the span-level meta-evaluation failed: no metric could be evaluated "
        "(POST this URL to run it again)"
    )
    posted = api.post(f"{url(annotated)}?bootstrap=200&seed=7")
    assert posted.status_code == 202
    again = ErrorSpanEvaluation.objects.exclude(pk=job.pk).get()
    assert posted.json()["id"] == again.pk
    assert api.get(url(annotated), QUERY).status_code == 202


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"variant": "f1"}, "variant: 'f1' is not one of em, mp, mpp, w25, all"),
        ({"average": "mean"}, "average: 'mean' is not one of micro, macro, both"),
        ({"bootstrap": "many"}, "bootstrap: 'many' is not an integer"),
        ({"bootstrap": "10001"}, "bootstrap: 10001 is not between 0 and 10,000"),
        ({"seed": "-1"}, "seed: -1 is not between 0 and 4294967295"),
    ],
)
def test_a_bad_parameter_is_400_naming_it(api, annotated, query, message):
    response = api.get(url(annotated), query)
    assert response.status_code == 400
    assert [e["message"] for e in response.json()["errors"]] == [message]
    assert not ErrorSpanEvaluation.objects.exists()


def test_a_test_set_without_metric_spans_is_404_saying_so(api, test_set, owner):
    annotate(test_set, owner, metrics=False)
    response = api.get(url(test_set))
    assert response.status_code == 404
    assert response.json()["errors"][0]["message"] == (
        "no metric has error spans on this test set's outputs"
    )


def test_another_team_gets_404(api, outsider_api, annotated):
    assert outsider_api.get(url(annotated)).status_code == 404
    assert outsider_api.post(url(annotated)).status_code == 404
    assert not ErrorSpanEvaluation.objects.exists()
    api.get(url(annotated), QUERY)
    job = ErrorSpanEvaluation.objects.get()
    assert outsider_api.get(f"/api/v1/error-span-evaluations/{job.pk}").status_code == (
        404
    )


def test_the_job_route_gives_its_status_then_the_whole_result(api, annotated):
    api.get(url(annotated), QUERY)
    job = ErrorSpanEvaluation.objects.get()
    detail = api.get(f"/api/v1/error-span-evaluations/{job.pk}").json()
    assert (detail["status"], detail["result"]) == ("queued", None)
    assert detail["settings"] == {"bootstrap": 200, "seed": 7}
    assert detail["agreement"] == f"{url(annotated)}?bootstrap=200&seed=7"
    run(job)
    detail = api.get(f"/api/v1/error-span-evaluations/{job.pk}").json()
    assert detail["status"] == "succeeded" and detail["progress"] == 100
    assert detail["result"] == job.result
