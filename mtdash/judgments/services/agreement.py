"""Agreement between a test set's judges, per criterion, for the pages'
``judgments/_agreement.html`` partial and ``GET /api/v1/test-sets/{id}/agreement``.

Every judgment of the test set counts (imported and collected in
campaigns); an item is a segment of one output:

- 1–5 scales (a criterion bounded on both sides with at most 10 points
  between, e.g. adequacy, fluency): Krippendorff's alpha for ordinal data;
- DA (``da``, 0–100): the mean Pearson correlation over judge pairs on the
  items both rated (pairs sharing at least 3 items);
- anything else (``da-z``, ``mqm``...): Krippendorff's alpha, interval data;

each with a 95% percentile bootstrap interval over items (1,000 resamples,
``numpy.random.default_rng(AGREEMENT_SEED)``). Intra-annotator figures come
from the campaigns' repeated items (first rating against the repeat), and
the unreliable judges from their quality controls
(:mod:`.quality_control`).

The summary is stored in :class:`AgreementSnapshot` with a digest of what it
read, so pages recompute it only after judgments or ratings change.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Max

from mtdash.evaluation.models import TestSet
from mtdash.judgments.models import (
    AgreementSnapshot,
    Assignment,
    Campaign,
    Criterion,
    Judgment,
)
from mtdash.judgments.services.quality_control import control_pairs, judge_quality
from scoring.stats import alpha_agreement, pearson_agreement, repeat_consistency

AGREEMENT_SEED = 12345
AGREEMENT_SAMPLES = 1000
VERSION = 2  # bump when the computation changes: stored summaries are redone

METHOD_LABELS = {
    "alpha-ordinal": "Krippendorff's α (ordinal)",
    "alpha-interval": "Krippendorff's α (interval)",
    "pearson": "mean pairwise Pearson r",
}
METHOD_SHORT = {"alpha-ordinal": "α ord.", "alpha-interval": "α int.", "pearson": "r"}


def method_for(criterion: Criterion) -> str:
    if criterion.name.lower() == "da":
        return "pearson"
    low, high = criterion.minimum, criterion.maximum
    if low is not None and high is not None and high - low <= 10:
        return "alpha-ordinal"
    return "alpha-interval"


def agreement_summary(test_set: TestSet) -> dict[str, Any]:
    """JSON-safe agreement of the test set's judges, per criterion."""
    digest = _inputs(test_set)
    stored = AgreementSnapshot.objects.filter(test_set=test_set).first()
    if stored is not None and stored.inputs == digest:
        return stored.summary
    summary = compute_agreement(test_set)
    AgreementSnapshot.objects.update_or_create(
        test_set=test_set, defaults={"inputs": digest, "summary": summary}
    )
    return summary


def refresh(test_set: TestSet, visible_output_ids=None) -> None:
    """Recompute the stored summary if its inputs changed (for a worker)."""
    agreement_summary(test_set)


def _inputs(test_set: TestSet) -> str:
    judgments = Judgment.objects.filter(output__test_set=test_set).aggregate(
        n=Count("pk"), last=Max("pk")
    )
    ratings = Assignment.objects.filter(
        campaign__test_set=test_set, value__isnull=False
    ).aggregate(n=Count("pk"), last=Max("judged_at"))
    text = repr((VERSION, judgments, ratings, AGREEMENT_SEED, AGREEMENT_SAMPLES))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def compute_agreement(test_set: TestSet) -> dict[str, Any]:
    campaigns = list(Campaign.objects.filter(test_set=test_set).order_by("pk"))
    repeats = _repeat_pairs(campaigns)
    criteria = []
    for criterion in Criterion.objects.filter(test_set=test_set).order_by("name"):
        rows = list(
            Judgment.objects.filter(criterion=criterion).values_list(
                "output_id", "index", "judge", "value"
            )
        )
        if not rows:
            continue
        width = 1 + max(index for _, index, _, _ in rows)  # one code per item
        items = [output_id * width + index for output_id, index, _, _ in rows]
        judges = [judge for _, _, judge, _ in rows]
        values = [value for *_, value in rows]
        method = method_for(criterion)
        options = {"n_samples": AGREEMENT_SAMPLES, "seed": AGREEMENT_SEED}
        if method == "pearson":
            estimate = pearson_agreement(items, judges, values, **options)
        else:
            level = method.removeprefix("alpha-")
            estimate = alpha_agreement(items, judges, values, level, **options)
        first, second = repeats.get(criterion.name, ([], []))
        criteria.append(
            {
                "criterion": criterion.name,
                "range": criterion.range_label,
                "method_label": METHOD_LABELS[method],
                "method_short": METHOD_SHORT[method],
                "n_judgments": len(rows),
                **estimate.to_dict(),
                "intra": repeat_consistency(first, second).to_dict(),
            }
        )
    unreliable = [
        {"campaign": campaign.name, "campaign_id": campaign.pk, **quality.to_dict()}
        for campaign in campaigns
        for quality in judge_quality(campaign)
        if quality.unreliable
    ]
    return {
        "criteria": criteria,
        "unreliable_judges": unreliable,
        "seed": AGREEMENT_SEED,
        "n_samples": AGREEMENT_SAMPLES,
        "confidence": 0.95,
    }


def _repeat_pairs(campaigns) -> dict[str, tuple[list[float], list[float]]]:
    pairs: dict[str, tuple[list[float], list[float]]] = {}
    for campaign in campaigns:
        for _, name, _, original, repeat in control_pairs(
            campaign, Assignment.Kind.REPEAT
        ):
            firsts, seconds = pairs.setdefault(name, ([], []))
            firsts.append(original)
            seconds.append(repeat)
    return pairs
