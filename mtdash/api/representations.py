"""What the API answers, as plain JSON-safe dicts built from the models and
the services' results (no serializer classes: the shapes are the README's
"API" section, documented for the schema in ``serializers``)."""

from __future__ import annotations

from mtdash.common.jobs import Job
from mtdash.common.numbers import json_safe
from mtdash.common.responses import iso_time
from mtdash.evaluation.leaderboard.as_json import leaderboard_json
from mtdash.evaluation.leaderboard.build import Leaderboard
from mtdash.evaluation.models import ScoringJob, TestSet
from mtdash.orange.jobs.artifacts import load_nbest_index, read_candidates
from mtdash.orange.models import OrangeJob
from scoring.orange import (
    DEFAULT_ABOVE_REFERENCE_LIMIT,
    AboveReferenceLimit,
    orange_json,
    paired_test_entry,
)

# ORANGE's own "merging" is running as far as a client polling a job cares.
_API_STATUS = {OrangeJob.Status.MERGING: "running"}


def test_set_summary(test_set: TestSet, n_segments: int, labels: list[str]) -> dict:
    return {
        "id": test_set.pk,
        "name": test_set.name,
        "n_segments": n_segments,
        "references": labels,
    }


def test_set_detail(test_set: TestSet, n_segments: int, labels: list[str]) -> dict:
    return {
        **test_set_summary(test_set, n_segments, labels),
        "team": test_set.team.name,
        "source_language": test_set.source_language,
        "target_language": test_set.target_language,
        "text_type": test_set.text_type,
        "description": test_set.description,
        "created_at": iso_time(test_set.created_at),
    }


def job_status(job: Job) -> dict:
    """A scoring or ORANGE job as ``GET /api/v1/jobs/{id}`` shows it."""
    data = {
        "id": job.pk,
        "kind": "orange" if isinstance(job, OrangeJob) else "scoring",
        "status": _API_STATUS.get(job.status, job.status),
        "progress": job.progress,
        "error_message": job.error_message,
        "created_at": iso_time(job.created_at),
        "started_at": iso_time(job.started_at),
        "finished_at": iso_time(job.finished_at),
        "attempts": job.attempts,
        "stuck": job.is_stuck,
        "metrics": list(job.metrics),
    }
    if isinstance(job, ScoringJob):
        data["output_id"] = job.output_id
    else:
        # The job's work is its chunks: their claims are the attempts.
        data["attempts"] = job.chunk_counts.attempts
        data["nbest_id"] = job.nbest_id
        data["n_chunks"] = job.n_chunks
    return data


def leaderboard(board: Leaderboard, p_values: bool = False) -> dict:
    """The leaderboard with intervals, ranks and clusters (see
    :mod:`mtdash.evaluation.leaderboard.as_json`)."""
    return leaderboard_json(board, p_values=p_values)


def orange_results(
    job: OrangeJob, limit: AboveReferenceLimit = DEFAULT_ABOVE_REFERENCE_LIMIT
) -> dict:
    """The object ``python -m scoring orange --json --above-reference LIMIT``
    prints (:func:`scoring.orange.orange_json`) with the job's metrics,
    bootstrap samples and seed, and ``--paired-test`` when the job ran the
    paired test (every job merged since it exists): per metric spec its
    figures, its ``paired_test`` entry, and the ``limit`` best candidates
    above the references per sentence; their texts, read from the stored
    n-best list, once. NaN (no bootstrap) becomes null, since JSON has no
    NaN."""
    scores = list(job.scores.order_by("position"))
    results = {score.metric: score.to_orange_result() for score in scores}
    # A job merged before the test existed answers as a run without it.
    paired = None
    if any(score.tested for score in scores):
        paired = {
            score.metric: paired_test_entry(
                best=score.best,
                equivalent=score.equivalent,
                difference=score.difference,
                ci_low=score.difference_ci_low,
                ci_high=score.difference_ci_high,
                p_value=score.p_value,
            )
            for score in scores
        }
    artifact = job.nbest.artifact
    index = None
    texts: dict[int, tuple[str, ...]] = {}

    def text_of(sentence_id: int, candidate: int) -> str:
        nonlocal index
        if sentence_id not in texts:
            index = index or load_nbest_index(artifact)
            position = index.position_of(sentence_id)
            texts[sentence_id] = read_candidates(
                artifact, position, position + 1, index
            )[1][0]
        return texts[sentence_id][candidate]

    return json_safe(orange_json(results, text_of, limit=limit, paired=paired))
