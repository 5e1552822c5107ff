"""The leaderboard's human columns, one per criterion: computed by the
comparison job (``mtdash.evaluation.leaderboard.comparisons``, which calls
them through ``mtdash.common.registry``) and stored beside the metrics'.

They are the WMT system-level means (raw and per-judge z) with a two-sided
percentile bootstrap interval of the z mean over the judged segments, and
clusters from a two-sided paired approximate randomisation of each pair's z
over the segments judged for both systems.
"""

from __future__ import annotations

import numpy as np

from mtdash.evaluation.leaderboard.comparisons import (
    clusters_by_correction,
    tested_matrices,
)
from mtdash.evaluation.models import MetricComparison, TestSet
from mtdash.judgments.models import Criterion
from mtdash.judgments.reading import stored_judgments
from mtdash.judgments.sources import human_signature
from scoring.stats import (
    bootstrap_counts,
    human_scores,
    paired_mean_randomization_p_values,
    percentile_interval,
    random_signs,
)


def human_columns(test_set: TestSet, visible: dict[int, str]):
    judgments = stored_judgments(test_set)
    if judgments.values.size == 0:
        return
    output_of = {name: output_id for output_id, name in visible.items()}
    digest = [
        judgments.values.size,
        float(judgments.values.sum()),
        sorted(visible.items()),
    ]
    for criterion in judgments.criteria:

        def compute(options, criterion=criterion):
            return _human_fields(test_set.pk, judgments, criterion, output_of, options)

        yield MetricComparison.Kind.HUMAN, criterion, ([criterion, *digest], compute)


def _human_fields(test_set_id, judgments, criterion, output_of, options):
    raw = human_scores(judgments, criterion, standardise=False)
    z = human_scores(judgments, criterion, standardise=True)
    stored = Criterion.objects.filter(test_set_id=test_set_id, name=criterion).first()
    criterion_higher = stored.higher_is_better if stored else True
    summary = {}
    output_ids = []
    rows = []
    for row, system in enumerate(z.systems):
        output_id = output_of.get(system)
        if output_id is None:
            continue
        rows.append(row)
        judged = ~np.isnan(z.segment_scores[row])
        values = z.segment_scores[row][judged]
        low = high = float("nan")
        if values.size:
            counts = bootstrap_counts(values.size, options.n_samples, options.seed)
            means = counts @ values / values.size
            low, high = (
                float(v) for v in percentile_interval(means, options.confidence)
            )
        summary[str(output_id)] = {
            "score": float(raw.system_scores[raw.systems.index(system)]),
            "z": float(z.system_scores[row]),
            "low": low,
            "high": high,
            "judged_segments": int(z.judged_segments[row]),
            "judgments": int(z.judgment_counts[row].sum()),
        }
        output_ids.append(output_id)
    if not output_ids:
        return None
    matrices = {}
    n_trials = options.n_trials if len(rows) > 1 and z.segments.size else 0
    if n_trials:
        # Pairs are judged on different segments: each pair is tested over
        # the segments judged for both (paired_mean_randomization_p_values).
        signs = random_signs(int(z.segments.size), n_trials, options.seed)
        raw_p = paired_mean_randomization_p_values(z.segment_scores[rows], signs)
        matrices = tested_matrices({"ar_p": raw_p})
        scores = z.system_scores[rows]
        for name, entry in clusters_by_correction(
            {"ar": raw_p}, scores, criterion_higher, options.alpha, output_ids
        ).items():
            summary[name].update(entry)
    return {
        "signature": human_signature(test_set_id, criterion),  # scale, sources
        "higher_is_better": criterion_higher,
        "output_ids": output_ids,
        "seed": options.seed,
        "n_samples": options.n_samples,
        "n_trials": n_trials,
        "confidence": options.confidence,
        "alpha": options.alpha,
        "n_segments": int(z.segments.size),
        "summary": summary,
        "matrices": matrices,
    }
