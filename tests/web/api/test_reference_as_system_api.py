"""``POST /api/v1/test-sets/{id}/references/{label}/system``: a reference
entered as a system through the API, with a token, team-scoped, refused
with the reason as the other API errors are."""

from __future__ import annotations

from mtdash.evaluation.models import SystemOutput


def url(test_set, label: str) -> str:
    return f"/api/v1/test-sets/{test_set.pk}/references/{label}/system"


def test_it_creates_the_output_and_queues_its_scoring(api, test_set, queued):
    response = api.post(url(test_set, "B"), {"system": "Human-B"}, format="json")
    assert response.status_code == 201, response.content
    output = SystemOutput.objects.get(pk=response.json()["output_id"])
    assert output.system.name == "Human-B" and output.reference.label == "B"
    assert output.hypotheses() == ["there is a cat on the mat", "it rains", "hello all"]
    job = output.scoring_jobs.get()
    assert response.json()["job_id"] == job.pk
    board = api.get(f"/api/v1/test-sets/{test_set.pk}/leaderboard").json()
    assert [s["human_translation_of"] for s in board["systems"]] == ["B"]


def test_the_default_name_is_wmts(api, test_set):
    response = api.post(url(test_set, "A"))
    assert response.status_code == 201
    assert SystemOutput.objects.get().system.name == "ref-A"


def test_a_refusal_says_why(api, test_set):
    assert api.post(url(test_set, "A")).status_code == 201
    again = api.post(url(test_set, "A"))
    assert again.status_code == 400
    assert again.json() == {
        "errors": [
            {
                "file": None,
                "line": None,
                "message": "reference 'A' is already a system ('ref-A')",
            }
        ]
    }
    unknown = api.post(url(test_set, "Q")).json()["errors"][0]["message"]
    assert unknown == "'toy fr-en' has no reference 'Q' (its references: A, B)"
    not_text = api.post(url(test_set, "B"), {"system": 5}, format="json")
    assert not_text.status_code == 400


def test_another_team_gets_404_and_nothing_is_stored(outsider_api, test_set):
    assert outsider_api.post(url(test_set, "A")).status_code == 404
    assert not SystemOutput.objects.exists()
