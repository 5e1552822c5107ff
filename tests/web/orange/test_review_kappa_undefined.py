"""Cohen's kappa of two reviewers who used one and the same label is
undefined (scikit-learn: nan), not 1.0: "undefined" with the reason on the
report page, null in the API, never "nan" in the CSV."""

from __future__ import annotations

import math

from django.urls import reverse

from mtdash.orange.reviews.report import review_report
from mtdash.orange.reviews.reviewing import create_review, mark_item
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    demo_world_fixture,
)
from tests.web.orange.test_orange_reviews import job, token_client  # noqa: F401


def test_reviewers_who_both_mark_everything_worse_have_no_kappa(
    client,
    owner,
    member,
    job,  # noqa: F811
):
    review = create_review(job, "wer", 4, 1, owner)
    for item in review.items.all():
        mark_item(item, owner, "worse")
        mark_item(item, member, "worse")
    (pair,) = review_report(review).agreement
    assert pair.raw_agreement == 1.0
    assert math.isnan(pair.kappa)  # was 1.0
    assert "single label 'worse'" in pair.kappa_undefined

    client.login(username=owner.username, password=PASSWORD)
    page = client.get(reverse("orange_review_report", args=[review.pk]))
    table = page.content.decode().split('id="agreement-table"', 1)[1]
    table = table.split("</table>", 1)[0]
    assert "undefined" in table and "single label" in table
    assert "nan" not in table and "1.000" not in table

    report = token_client(owner).get(f"/api/v1/orange/reviews/{review.pk}/report")
    (row,) = report.json()["agreement"]
    assert row["kappa"] is None
    assert "single label" in row["kappa_undefined"]

    csv_text = client.get(reverse("orange_review_export", args=[review.pk, "csv"]))
    text = csv_text.content.decode()
    assert "kappa undefined" in text and "nan" not in text.lower()
