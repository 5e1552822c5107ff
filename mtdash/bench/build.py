"""Build the benchmark's leaderboard in the database: a synthetic test set,
its system outputs with real corpus scores, statistics and sentence scores.

Scoring 50 systems x 20 metrics x 3,000 segments with the real metrics
would take a worker about ten minutes; instead every metric scores a few
*base systems* once (the real per-segment statistics), and each benchmark
system takes, per segment, the hypothesis of one base system and with it
that base system's statistics row. A row depends only on its hypothesis and
the references, so each system's statistics, corpus score, details and
sentence scores are exactly what the scoring job would store for the text
stored as its output. Better systems draw more often from better bases, so
neighbours overlap and the leaderboard has real significance clusters.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from django.contrib.auth import get_user_model
from django.db import transaction

from mtdash.bench.corpus import synthetic_corpus
from mtdash.evaluation.models import (
    CorpusScore,
    ScoringJob,
    SegmentScore,
    TestSet,
)
from mtdash.evaluation.services.statistics_store import pack_statistics
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.teams.models import Membership, Team
from scoring import canonical_spec, get_metric

BENCH_TEAM = "Benchmark team"
BENCH_USER = "bench"
# Twenty configurations with distinct signatures: twenty leaderboard columns.
METRIC_SPECS = (
    "bleu",
    "chrf",
    "ter",
    "meteor",
    "bleu:n=2",
    "bleus",
    "nist",
    "chrf++",
    "wer",
    "per",
    "ser",
    "gtm",
    "gtm:e=2",
    "rouge-n",
    "rouge-n:n=1",
    "rouge-l",
    "rouge-w",
    "rouge-s",
    "rouge-su",
    "rouge-s:d=9",
)
_SEGMENT_SCORE_BATCH = 20_000


@dataclass(frozen=True)
class BenchSize:
    segments: int = 3000
    references: int = 3
    systems: int = 50
    metrics: int = 20
    base_systems: int = 6

    @property
    def test_set_name(self) -> str:
        return (
            f"bench {self.segments} segments x {self.references} references, "
            f"{self.systems} systems x {self.metrics} metrics"
        )


@dataclass
class BenchData:
    """What the page timings need, and how long building it took (seconds)."""

    test_set: TestSet
    user: object
    output_ids: list[int]  # best system first
    timings: dict[str, float] = field(default_factory=dict)
    segment_scores: int = 0
    # The judged test set of the metric-evaluation page (mtdash.bench.judged).
    judged_test_set: TestSet | None = None
    # Its stored WMT meta-evaluation (of it alone: the bench has no second
    # judged test set), shown by its section and the page across test sets.
    meta_evaluation_id: int | None = None


def database_has_other_data() -> bool:
    """True when the database holds anything but a previous benchmark."""
    users = get_user_model().objects.exclude(username=BENCH_USER)
    return users.exists() or TestSet.objects.exclude(team__name=BENCH_TEAM).exists()


def existing_bench(size: BenchSize) -> BenchData | None:
    """The benchmark test set of this size if an earlier run built it."""
    test_set = TestSet.objects.filter(
        team__name=BENCH_TEAM, name=size.test_set_name
    ).first()
    if test_set is None or test_set.outputs.count() != size.systems:
        return None
    outputs = test_set.outputs.order_by("system__name").values_list("pk", flat=True)
    user = get_user_model().objects.get(username=BENCH_USER)
    return BenchData(test_set, user, list(outputs))


def build_bench(
    size: BenchSize, seed: int = 11, say: Callable[[str], None] = print
) -> BenchData:
    """Replace the benchmark team's data with a fresh leaderboard of ``size``."""
    if not 1 <= size.metrics <= len(METRIC_SPECS):
        raise ValueError(f"metrics must be 1 to {len(METRIC_SPECS)}")
    timings: dict[str, float] = {}
    started = time.perf_counter()
    corpus = synthetic_corpus(size.segments, size.references, size.base_systems, seed)
    timings["text"] = time.perf_counter() - started

    started = time.perf_counter()
    specs = METRIC_SPECS[: size.metrics]
    references = list(corpus.references.values())
    base_statistics = {}  # spec -> (base systems, segments, stats)
    for spec in specs:
        metric = get_metric(spec)
        base_statistics[spec] = np.stack(
            [
                metric.segment_statistics(hyps, references, sources=corpus.sources)
                for hyps in corpus.base_hypotheses
            ]
        )
    timings["metrics on base systems"] = time.perf_counter() - started
    say(f"scored {size.base_systems} base systems in {sum(timings.values()):.0f} s")

    started = time.perf_counter()
    user, team = _bench_user_and_team()
    TestSet.objects.filter(team=team).delete()
    test_set = create_test_set(
        team,
        user,
        TestSetData(
            name=size.test_set_name,
            source_language="xx",
            target_language="en",
            text_type="synthetic",
            description="Synthetic text for python manage.py bench_pages.",
            sources=corpus.sources,
            references=corpus.references,
        ),
    )
    choices = _base_choices(size, np.random.default_rng(seed))
    segments = np.arange(size.segments)
    output_ids, n_segment_scores = [], 0
    for system, choice in enumerate(choices):
        hypotheses = [corpus.base_hypotheses[b][i] for i, b in enumerate(choice)]
        with transaction.atomic():
            job = create_system_output(
                test_set,
                user,
                f"system {system + 1:02d}: a synthetic system with a long name",
                hypotheses,
                metrics=specs,
                queue=False,
            )
            ScoringJob.objects.filter(pk=job.pk).update(
                status=ScoringJob.Status.SUCCEEDED, progress=100
            )
            for spec in specs:
                statistics = base_statistics[spec][choice, segments]
                n_segment_scores += _store_score(
                    job, spec, statistics, size, references
                )
        output_ids.append(job.output_id)
        if (system + 1) % 10 == 0:
            say(f"stored {system + 1} of {size.systems} systems")
    timings["database rows"] = time.perf_counter() - started
    return BenchData(test_set, user, output_ids, timings, n_segment_scores)


def _bench_user_and_team():
    user = get_user_model().objects.filter(username=BENCH_USER).first()
    if user is None:
        user = get_user_model().objects.create_user(BENCH_USER, password=None)
    team, _ = Team.objects.get_or_create(name=BENCH_TEAM)
    Membership.objects.get_or_create(user=user, team=team)
    return user, team


def _base_choices(size: BenchSize, rng: np.random.Generator) -> np.ndarray:
    """(systems, segments) base system per segment; system 0 draws mostly
    from the best bases, the last mostly from the worst."""
    bases = np.arange(size.base_systems)
    centres = np.linspace(0, size.base_systems - 1, size.systems)
    choices = np.empty((size.systems, size.segments), dtype=np.int64)
    for system, centre in enumerate(centres):
        weights = np.exp(-((bases - centre) ** 2) / 2.0)
        choices[system] = rng.choice(
            bases, size=size.segments, p=weights / weights.sum()
        )
    return choices


def _store_score(
    job, spec: str, statistics: np.ndarray, size: BenchSize, references
) -> int:
    """The CorpusScore and SegmentScores a scoring job would save; returns
    the number of segment scores."""
    metric = get_metric(spec)
    summed = statistics.sum(axis=0)
    corpus_score = CorpusScore.objects.create(
        output_id=job.output_id,
        metric=canonical_spec(spec),
        score=metric.corpus_score_from_statistics(summed),
        signature=metric.corpus_signature(references, size.references),
        sentence_signature=metric.sentence_signature(size.references),
        statistics=pack_statistics(statistics),
        statistics_names=list(metric.statistics_names),
        details=metric.details_from_statistics(summed),
        job=job,
    )
    values = metric.sentence_scores_from_statistics(statistics)
    SegmentScore.objects.bulk_create(
        (
            SegmentScore(corpus_score=corpus_score, index=i, score=float(value))
            for i, value in enumerate(values)
        ),
        batch_size=_SEGMENT_SCORE_BATCH,
    )
    return len(values)
