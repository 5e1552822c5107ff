"""Agreement between a test set's judges, per criterion, for the pages'
``judgments/_agreement.html`` partial and ``GET /api/v1/test-sets/{id}/agreement``.

Every judge's first judgment of an item counts (imported and collected in
campaigns): a judge's later looks (``Judgment.look`` > 1, WMT's ``REPEAT``
items and items met again in another HIT) never pair a judge with
themselves. An item is a segment of one output:

- 1–5 scales (a criterion bounded on both sides with at most 10 points
  between, e.g. adequacy, fluency): Krippendorff's alpha for ordinal data;
- DA (``da``, 0–100): the mean Pearson correlation over judge pairs on the
  items both rated (pairs sharing at least 3 items);
- anything else (``da-z``, ``mqm``...): Krippendorff's alpha, interval data;

each with a 95% percentile bootstrap interval over items (1,000 resamples,
``numpy.random.default_rng(AGREEMENT_SEED)``). Next to it, under
``coefficients``, with intervals made the same way (:data:`COEFFICIENTS`):

- on the same 1–10-point scales: Fleiss' kappa (categories nominal; only
  the items rated by the most common number of judges, since it needs the
  same number per item) and the mean weighted Cohen's kappa over judge
  pairs sharing 3 items or more, with linear and quadratic weights; other
  criteria get them as undefined, with the reason;
- on every criterion: the two-way absolute-agreement ICC(A,1) and ICC(A,k)
  (McGraw & Wong 1996; Shrout & Fleiss's ICC(2,1) and ICC(2,k)) of the
  largest complete items x judges table.

A judge's first rating of an item counts for the kappas and the ICC. An
undefined figure is ``None`` with its reason under ``undefined``; ``note``
says which ratings a coefficient used when not all. Intra-annotator figures
come from the repeated items (first rating against the repeat; undefined
from a single repeat): the campaigns' repeat screens and the imported
judgments of kind ``repeat`` against the same judge's first look. The
unreliable judges come from the campaigns' quality controls
(:mod:`.quality_control`).

The summary is stored in :class:`AgreementSnapshot` with a digest of what it
read, so pages recompute it only after judgments or ratings change.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Max

from mtdash.evaluation.models import TestSet
from mtdash.judgments.campaigns.quality_control import control_pairs, judge_quality
from mtdash.judgments.models import (
    AgreementSnapshot,
    Assignment,
    Campaign,
    Criterion,
    Judgment,
)
from scoring.stats import (
    AgreementEstimate,
    alpha_agreement,
    fleiss_agreement,
    icc_agreement,
    pearson_agreement,
    repeat_consistency,
    weighted_kappa_agreement,
)

AGREEMENT_SEED = 12345
AGREEMENT_SAMPLES = 1000
VERSION = 4  # bump when the computation changes: stored summaries are redone

# method -> (label, short label) of the coefficients shown next to the main one
COEFFICIENTS = {
    "fleiss": ("Fleiss' κ (categories nominal)", "Fleiss κ"),
    "kappa-linear": ("Cohen's κ, linear weights, mean over judge pairs", "κ linear"),
    "kappa-quadratic": (
        "Cohen's κ, quadratic weights, mean over judge pairs",
        "κ quadratic",
    ),
    "icc-a1": (
        "ICC(A,1): two-way, absolute agreement, one judge (Shrout & Fleiss ICC(2,1))",
        "ICC(A,1)",
    ),
    "icc-ak": (
        "ICC(A,k): two-way, absolute agreement, mean of the k judges "
        "(Shrout & Fleiss ICC(2,k))",
        "ICC(A,k)",
    ),
}
NOT_CATEGORICAL = (
    "not a scale of a few points (κ treats values as categories): see the ICC"
)

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
        judged = list(
            Judgment.objects.filter(criterion=criterion).values_list(
                "output_id", "index", "judge", "value", "look", "kind"
            )
        )
        if not judged:
            continue
        rows = [row[:4] for row in judged if row[4] == 1]
        width = 1 + max(row[1] for row in judged)  # one code per item
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
        imported_first, imported_second = _imported_repeats(judged)
        criteria.append(
            {
                "criterion": criterion.name,
                "range": criterion.range_label,
                "method_label": METHOD_LABELS[method],
                "method_short": METHOD_SHORT[method],
                "n_judgments": len(judged),
                **estimate.to_dict(),
                "coefficients": _coefficients(
                    items, judges, values, method == "alpha-ordinal", options
                ),
                "intra": repeat_consistency(
                    first + imported_first, second + imported_second
                ).to_dict(),
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


def _coefficients(items, judges, values, categorical: bool, options) -> list[dict]:
    """Fleiss' and weighted kappa (categorical scales) and the ICCs, as
    JSON-safe dicts in the order of :data:`COEFFICIENTS`."""
    estimates = {}
    if categorical:
        estimates["fleiss"] = fleiss_agreement(items, judges, values, **options)
        for weights in ("linear", "quadratic"):
            estimates[f"kappa-{weights}"] = weighted_kappa_agreement(
                items, judges, values, weights, **options
            )
    single, average = icc_agreement(items, judges, values, **options)
    estimates.update({"icc-a1": single, "icc-ak": average})
    rows = []
    for method, (label, short) in COEFFICIENTS.items():
        estimate = estimates.get(method) or AgreementEstimate(
            method,
            None,
            None,
            None,
            0.95,
            0,
            0,
            0,
            undefined=NOT_CATEGORICAL,
            **options,
        )
        rows.append({**estimate.to_dict(), "label": label, "short": short})
    return rows


def _imported_repeats(judged) -> tuple[list[float], list[float]]:
    """(first look, repeat) value pairs of the judgments of kind ``repeat``
    whose judge has a first look at the same item (``judged``: output id,
    index, judge, value, look, kind)."""
    first = {
        (output_id, index, judge): value
        for output_id, index, judge, value, look, _ in judged
        if look == 1
    }
    pairs = [
        (first[output_id, index, judge], value)
        for output_id, index, judge, value, look, kind in judged
        if kind == Judgment.Kind.REPEAT
        and look > 1
        and (output_id, index, judge) in first
    ]
    return [a for a, _ in pairs], [b for _, b in pairs]


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
