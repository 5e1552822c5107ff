"""What a meta-evaluation reads from the database, and the digest that says
whether a stored one still holds.

A test set's metric scores and judgments are those of the correlation tables
(:mod:`mtdash.judgments.correlations.inputs`): every leaderboard metric
column at its main signature and every external metric over the visible
outputs, the judgments of those outputs from the sources in use. The WMT
tasks at segment level and SPA need every metric's sentence scores, so the
metrics without them (a corpus-only external import) are left out and named.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Max

from mtdash.evaluation.models import Segment, SystemOutput, TestSet
from mtdash.judgments.correlations.inputs import (
    inputs_digest,
    metric_scores,
    with_sentence_scores,
)
from mtdash.judgments.models import Criterion
from mtdash.judgments.reading import stored_judgments
from scoring.stats import Judgments, MetricScores, ProtocolSettings

# Bump when what a job stores changes shape: stored results stop matching.
RESULT_VERSION = 1


@dataclass(frozen=True)
class ProtocolInputs:
    """One test set's scores and judgments as ``run_protocol`` takes them."""

    scores: MetricScores
    judgments: Judgments
    left_out: tuple[str, ...]  # metrics without sentence scores


def visible_outputs(test_set: TestSet) -> dict[int, str]:
    """{output id: system name} of the outputs on the leaderboard."""
    return dict(
        SystemOutput.objects.filter(test_set=test_set, hidden=False).values_list(
            "pk", "system__name"
        )
    )


def protocol_inputs(test_set: TestSet) -> ProtocolInputs:
    """The scores and judgments the correlation tables read, metrics without
    sentence scores left out."""
    visible = visible_outputs(test_set)
    judgments = stored_judgments(test_set, visible)
    last = Segment.objects.filter(test_set=test_set).aggregate(n=Max("index"))["n"]
    scores = metric_scores(test_set, visible, (last or 0) + 1)
    kept = with_sentence_scores(scores)
    left_out = tuple(m for m in scores.metrics if m not in kept.metrics)
    return ProtocolInputs(kept, judgments, left_out)


def judged_criteria(test_set: TestSet) -> list[str]:
    """Names of the test set's criteria that have judgments, by name."""
    return list(
        Criterion.objects.filter(test_set=test_set, judgments__isnull=False)
        .order_by("name")
        .values_list("name", flat=True)
        .distinct()
    )


def meta_digest(
    test_sets: Sequence[TestSet],
    weights: Sequence[float],
    criterion: str,
    settings: ProtocolSettings,
) -> str:
    """Digest of everything a meta-evaluation's result depends on: each test
    set's scores and judgments (the correlation inputs' digest) and name
    (which seeds its permutations), the weights and order, the criterion
    and the settings."""
    parts = [
        (
            test_set.pk,
            test_set.name,
            float(weight),
            inputs_digest(test_set, visible_outputs(test_set), "wmt-protocol"),
        )
        for test_set, weight in zip(test_sets, weights)
    ]
    text = repr((parts, criterion, settings.to_dict(), RESULT_VERSION))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
