"""A synthetic judged test set at the size of a WMT metrics task test set.

The meta-evaluation benchmark (:mod:`scoring.bench.meta_evaluation`) needs
what a user of ``python -m scoring correlate`` has: human judgments of
every system's segments and many metrics' scores of the same outputs. Each
(system, segment) has a latent quality: a system effect, a segment's
difficulty and their interaction.

- Human scores are MQM-like: minor errors cost 1 and major errors 5, their
  counts Poisson with a rate that falls with the quality, capped at 25 (so
  many segments score 0 and ties are everywhere, as in WMT's MQM). Each
  block of ten segments (a "document") of a system goes to one of six
  raters, every rater seeing every system.
- Metric ``m`` scores the quality plus Gaussian noise whose size grows
  with ``m`` (graded metrics, the first the best), on a 0-100-like scale
  rounded to 0, 1 or 2 decimals in turn (metric ties, fewer as decimals
  grow). Every tenth metric is an error rate (lower is better). A corpus
  score is the mean of the sentence scores plus a little noise.

Everything comes from one seed; a second test set is the same spec with
another seed and name.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

CRITERION = "mqm"
SEGMENTS_PER_DOCUMENT = 10
MAX_PENALTY = 25


@dataclass(frozen=True)
class JudgedTestSetSpec:
    """Size and seed of a synthetic test set; ``name`` names its files (and
    so the test set, whose name seeds the permutation draws)."""

    n_systems: int = 20
    n_segments: int = 2000
    n_metrics: int = 30
    n_raters: int = 6
    seed: int = 0
    name: str = "synthetic"

    def another(self, name: str) -> JudgedTestSetSpec:
        """The same size with the next seed and ``name`` (as a second
        language pair would be)."""
        return replace(self, seed=self.seed + 1, name=name)


WMT_SIZED = JudgedTestSetSpec()


@dataclass(frozen=True, eq=False)
class JudgedTestSet:
    """``judgments_csv``: ``segment,system,judge,criterion,value`` rows with
    a header; ``scores``: the SCORES.json object (system -> metric ->
    entry; :mod:`scoring.stats.scores_file`)."""

    spec: JudgedTestSetSpec
    judgments_csv: str
    scores: dict


@dataclass(frozen=True)
class TestSetFiles:
    scores: Path
    judgments: Path
    write_seconds: float
    scores_mib: float
    judgments_mib: float


def metric_name(index: int) -> str:
    return f"metric{index:02d}"


def is_error_rate(index: int) -> bool:
    return index % 10 == 9


def make_judged_test_set(spec: JudgedTestSetSpec = WMT_SIZED) -> JudgedTestSet:
    """The test set of ``spec`` (module docstring)."""
    rng = np.random.default_rng(spec.seed)
    systems = [f"sys{s:02d}" for s in range(spec.n_systems)]
    quality = (
        0.5 * rng.normal(size=(spec.n_systems, 1))
        + rng.normal(size=(1, spec.n_segments))
        + 0.7 * rng.normal(size=(spec.n_systems, spec.n_segments))
    )  # (S, N)
    rate = np.exp(-quality)
    minor = rng.poisson(0.8 * rate)
    major = rng.poisson(0.25 * rate)
    penalty = np.minimum(minor + 5 * major, MAX_PENALTY)  # (S, N)
    documents = np.arange(spec.n_segments) // SEGMENTS_PER_DOCUMENT
    rows = ["segment,system,judge,criterion,value"]
    for s, system in enumerate(systems):
        raters = (documents + s) % spec.n_raters  # (N,)
        rows.extend(
            f"{n + 1},{system},rater{raters[n]},{CRITERION},{-int(penalty[s, n])}"
            for n in range(spec.n_segments)
        )
    noise = np.linspace(0.4, 3.0, spec.n_metrics)
    scores: dict = {system: {} for system in systems}
    for m in range(spec.n_metrics):
        sentence = 50.0 + 10.0 * (
            quality + noise[m] * rng.normal(size=quality.shape)
        )  # (S, N)
        if is_error_rate(m):
            sentence = 100.0 - sentence
        sentence = np.round(sentence, m % 3)
        corpus = sentence.mean(axis=1) + 0.5 * noise[m] * rng.normal(size=len(systems))
        for s, system in enumerate(systems):
            entry: dict = {
                "score": round(float(corpus[s]), 4),
                "sentence_scores": sentence[s].tolist(),
            }
            if is_error_rate(m):
                entry["higher_is_better"] = False
            scores[system][metric_name(m)] = entry
    return JudgedTestSet(spec, "\n".join(rows) + "\n", scores)


def write_test_set(
    test_set: JudgedTestSet, directory: str | os.PathLike
) -> TestSetFiles:
    """Write ``<name>.json`` (SCORES.json) and ``<name>-judgments.csv`` in
    ``directory``; the command line names the test set after the scores
    file's stem, i.e. ``spec.name``."""
    started = time.perf_counter()
    scores = Path(directory) / f"{test_set.spec.name}.json"
    judgments = Path(directory) / f"{test_set.spec.name}-judgments.csv"
    scores.write_text(json.dumps(test_set.scores), encoding="utf-8")
    judgments.write_text(test_set.judgments_csv, encoding="utf-8")
    return TestSetFiles(
        scores=scores,
        judgments=judgments,
        write_seconds=time.perf_counter() - started,
        scores_mib=scores.stat().st_size / 2**20,
        judgments_mib=judgments.stat().st_size / 2**20,
    )
