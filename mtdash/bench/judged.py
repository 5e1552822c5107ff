"""The benchmark's judged test set, for the metric-evaluation page: 20
systems x 2,000 segments scored by 30 metrics (20 registered, 10 external)
with every segment of every system judged on 3 criteria.

Built like the leaderboard (:mod:`mtdash.bench.build`): each system takes,
per segment, one base system's hypothesis with its real statistics rows.
Human scores follow that base system's sentence chrF with noise (DA 0-100,
adequacy and fluency 1-5), rated by five judges in turn; the external
metrics are noisy copies of the same chrF, so metrics and judges agree in
part, as they do on real data.

:func:`store_meta_evaluation` stores the WMT meta-evaluation of that test
set, as the pages queue one and the worker's runner computes it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from django.db import transaction

from mtdash.bench.build import (
    BENCH_TEAM,
    METRIC_SPECS,
    _base_choices,
    _bench_user_and_team,
    _store_score,
)
from mtdash.bench.corpus import synthetic_corpus
from mtdash.evaluation.models import (
    ExternalCorpusScore,
    ExternalMetric,
    ExternalSegmentScore,
    ScoringJob,
    TestSet,
)
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.meta_evaluation.jobs import (
    _create,
    checked_request,
    run_meta_evaluation,
)
from mtdash.judgments.meta_evaluation.options import chosen_settings
from mtdash.judgments.models import (
    Criterion,
    Judgment,
    JudgmentImport,
    MetaEvaluation,
)
from scoring import get_metric

_BATCH = 20_000
JUDGES = 5
# The criterion the meta-evaluation is of (every judged bench has it).
META_CRITERION = "da"
# name, minimum, maximum: human scores on these scales.
CRITERIA = (("da", 0.0, 100.0), ("adequacy", 1.0, 5.0), ("fluency", 1.0, 5.0))


@dataclass(frozen=True)
class JudgedSize:
    segments: int = 2000
    systems: int = 20
    metrics: int = 30  # a third of them external
    criteria: int = 3
    references: int = 1
    base_systems: int = 6

    @property
    def external(self) -> int:
        return self.metrics // 3

    @property
    def registered(self) -> int:
        return min(self.metrics - self.external, len(METRIC_SPECS))

    @property
    def test_set_name(self) -> str:
        return (
            f"bench judged: {self.systems} systems x {self.segments} segments, "
            f"{self.metrics} metrics, {self.criteria} criteria"
        )


def existing_judged(size: JudgedSize) -> TestSet | None:
    test_set = TestSet.objects.filter(
        team__name=BENCH_TEAM, name=size.test_set_name
    ).first()
    if test_set is None or test_set.outputs.count() != size.systems:
        return None
    return test_set


def build_judged(
    size: JudgedSize, seed: int = 11, say: Callable[[str], None] = print
) -> tuple[TestSet, dict[str, float]]:
    """Replace the judged benchmark test set; returns it and build times."""
    if not 1 <= size.criteria <= len(CRITERIA):
        raise ValueError(f"criteria must be 1 to {len(CRITERIA)}")
    timings: dict[str, float] = {}
    started = time.perf_counter()
    corpus = synthetic_corpus(size.segments, size.references, size.base_systems, seed)
    specs = METRIC_SPECS[: size.registered]
    references = list(corpus.references.values())
    base_statistics = {
        spec: np.stack(
            [
                get_metric(spec).segment_statistics(
                    hyps, references, sources=corpus.sources
                )
                for hyps in corpus.base_hypotheses
            ]
        )
        for spec in specs
    }
    chrf = get_metric("chrf")
    quality = np.stack(  # (base systems, segments) sentence chrF, 0-100
        [
            chrf.sentence_scores_from_statistics(
                chrf.segment_statistics(hyps, references)
            )
            for hyps in corpus.base_hypotheses
        ]
    )
    timings["judged: metrics on base systems"] = time.perf_counter() - started
    say(
        f"judged bench: scored the base systems in {timings[next(iter(timings))]:.0f} s"
    )

    started = time.perf_counter()
    user, team = _bench_user_and_team()
    TestSet.objects.filter(team=team, name=size.test_set_name).delete()
    test_set = create_test_set(
        team,
        user,
        TestSetData(
            name=size.test_set_name,
            source_language="xx",
            target_language="en",
            text_type="synthetic",
            description="Synthetic judged text for python manage.py bench_pages.",
            sources=corpus.sources,
            references=corpus.references,
        ),
    )
    rng = np.random.default_rng(seed + 1)
    choices = _base_choices(size, rng)
    segments = np.arange(size.segments)
    outputs = []
    for system, choice in enumerate(choices):
        hypotheses = [corpus.base_hypotheses[b][i] for i, b in enumerate(choice)]
        with transaction.atomic():
            job = create_system_output(
                test_set,
                user,
                f"judged system {system + 1:02d}",
                hypotheses,
                metrics=specs,
                queue=False,
            )
            ScoringJob.objects.filter(pk=job.pk).update(
                status=ScoringJob.Status.SUCCEEDED, progress=100
            )
            for spec in specs:
                statistics = base_statistics[spec][choice, segments]
                _store_score(job, spec, statistics, size, references)
        outputs.append((job.output_id, quality[choice, segments]))
    timings["judged: outputs and scores"] = time.perf_counter() - started
    started = time.perf_counter()
    _store_external(test_set, user, outputs, size.external, rng)
    _store_judgments(test_set, user, outputs, CRITERIA[: size.criteria], rng)
    timings["judged: external scores and judgments"] = time.perf_counter() - started
    say(f"judged bench: stored {size.systems} judged systems")
    return test_set, timings


def store_meta_evaluation(test_set: TestSet, user) -> MetaEvaluation:
    """Replace the judged test set's meta-evaluations with one of it alone on
    ``META_CRITERION`` at the form's default settings: the request the
    metric-evaluation page queues (no worker woken), run by the worker's
    runner here."""
    MetaEvaluation.objects.filter(test_sets=test_set).delete()
    request = checked_request(
        user, [test_set.pk], None, META_CRITERION, chosen_settings()
    )
    job = _create(request, request.digest, user)
    run_meta_evaluation(job.pk)
    job.refresh_from_db()
    if job.status != MetaEvaluation.Status.SUCCEEDED:
        raise RuntimeError(f"the bench's meta-evaluation failed: {job.error_message}")
    return job


def _store_external(test_set, user, outputs, n_metrics: int, rng) -> None:
    for number in range(n_metrics):
        metric = ExternalMetric.objects.create(
            test_set=test_set,
            name=f"external-{number + 1:02d}",
            description=f"synthetic: chrF with noise {number + 1}",
            created_by=user,
        )
        noise = 0.03 * (number + 1)
        for output_id, quality in outputs:
            values = quality / 100 + rng.normal(0, noise, quality.size)
            corpus = ExternalCorpusScore.objects.create(
                metric=metric,
                output_id=output_id,
                score=float(values.mean()),
                n_segments=values.size,
                file_name="synthetic.tsv",
                imported_by=user,
            )
            ExternalSegmentScore.objects.bulk_create(
                (
                    ExternalSegmentScore(corpus_score=corpus, index=i, score=float(v))
                    for i, v in enumerate(values)
                ),
                batch_size=_BATCH,
            )


def _human_values(name, low, high, quality, rng) -> np.ndarray:
    if name == "da":
        return np.clip(quality + rng.normal(0, 15, quality.size), low, high)
    scaled = 1 + 4 * quality / 100 + rng.normal(0, 0.7, quality.size)
    return np.clip(np.round(scaled), low, high)


def _store_judgments(test_set, user, outputs, criteria, rng) -> None:
    batch = JudgmentImport.objects.create(
        test_set=test_set, file_name="synthetic.csv", layout="csv", imported_by=user
    )
    line = 1
    for name, low, high in criteria:
        criterion = Criterion.objects.create(
            test_set=test_set, name=name, minimum=low, maximum=high
        )
        rows = []
        for output_id, quality in outputs:
            values = _human_values(name, low, high, quality, rng)
            for index, value in enumerate(values):
                line += 1
                rows.append(
                    Judgment(
                        output_id=output_id,
                        index=index,
                        judge=f"judge {(index + output_id) % JUDGES + 1}",
                        criterion=criterion,
                        value=float(value),
                        batch=batch,
                        line=line,
                    )
                )
        Judgment.objects.bulk_create(rows, batch_size=_BATCH)
    JudgmentImport.objects.filter(pk=batch.pk).update(n_judgments=line - 1)
