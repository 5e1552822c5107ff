"""Per-reference diagnostics: how each human reference agrees with the others
and with the systems, to find bad references.

Definitions follow ORANGE's jackknife (:mod:`scoring.orange.pairwise`): for
K >= 2 references, reference r_k is scored *as a hypothesis* against the other
K - 1 references, and a system is scored against the same K - 1 ("all but
k"), so a reference and the systems are judged against equally many
references. Three diagnostics build on it:

- :func:`score_references` / :func:`score_system`: corpus (and sentence)
  scores of each reference, and of a system, against all but k;
- :func:`closest_references`: per sentence, the reference whose sentence
  score against the others is best (how often each reference is the closest);
- :func:`find_outliers`: sentences where one reference is far below the
  others both in agreement with the other references and with the systems
  (robust z-scores; the definition is in its docstring).

Texts in, NumPy arrays and frozen dataclasses out; no Django. Shapes: ``K``
references, ``n`` segments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scoring.base import Metric
from scoring.errors import MetricError

# 1.4826 * MAD estimates the standard deviation of normal data; with it a
# robust z-score reads like an ordinary one (Iglewicz & Hoaglin 1993).
MAD_TO_SD = 1.4826
# Iglewicz & Hoaglin's cut-off for a modified z-score: beyond it, an outlier.
DEFAULT_OUTLIER_THRESHOLD = 3.5
# Scores closer than this count as tied (as in scoring.orange.ranking).
TIE_TOLERANCE = 1e-9


def all_but(references: Sequence[Sequence[str]], k: int) -> list[Sequence[str]]:
    """The reference streams without stream ``k`` (the jackknife's subset)."""
    return [stream for j, stream in enumerate(references) if j != k]


def _require_two(references: Sequence[Sequence[str]]) -> None:
    if len(references) < 2:
        raise MetricError("per-reference diagnostics need two or more references")


# Segments per pass: a metric caches the profiles of recent references (chrF
# keeps 256), so scoring every reference subset of a block of segments before
# moving on computes each reference's profile once instead of once per subset.
CACHE_FRIENDLY_REFERENCES = 200


def statistics_of(
    metric: Metric,
    jobs: Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]],
) -> list[np.ndarray]:
    """Segment statistics ``(n, n_stats)`` of each ``(hypotheses, reference
    streams)`` job, the rows :meth:`Metric.score` sums.

    Metrics whose rows depend on one segment only are run block by block of
    segments over all jobs (same rows, far fewer cache misses); a metric that
    needs the whole corpus first (NIST's information weights) runs each job
    whole.
    """
    if not jobs:
        return []
    # Imported on use: the kernels load Numba, which a web process importing
    # scoring.analysis for its other functions must not (issue 24 item 6).
    from scoring.analysis.fast_scoring import statistics
    from scoring.batch.segment_rows import supports_rows

    if supports_rows(metric):  # METEOR, TER, chrF: the compiled kernels
        return [statistics(metric, hyps, references) for hyps, references in jobs]
    n = len(jobs[0][0])
    local = type(metric)._statistics is Metric._statistics
    max_refs = max(len(references) for _, references in jobs)
    block = max(1, CACHE_FRIENDLY_REFERENCES // max_refs) if local else max(n, 1)
    parts: list[list[np.ndarray]] = [[] for _ in jobs]
    for start in range(0, max(n, 1), block):
        stop = min(start + block, n)
        for rows, (hypotheses, references) in zip(parts, jobs):
            rows.append(
                metric.segment_statistics(
                    list(hypotheses[start:stop]),
                    [list(stream[start:stop]) for stream in references],
                )
            )
    return [np.concatenate(rows, axis=0) for rows in parts]


def _corpus(metric: Metric, statistics: np.ndarray) -> float:
    return float(metric.corpus_score_from_statistics(statistics.sum(axis=0)))


@dataclass(frozen=True)
class HeldOutScores:
    """One metric's scores of each reference against the others.

    ``corpus[k]`` is reference k (as a hypothesis) against the other K - 1
    references, on the metric's scale; ``sentences[k, i]`` the same for
    segment i (``None`` unless asked for).
    """

    metric: str
    signature: str  # of the scores against K - 1 references
    higher_is_better: bool
    corpus: tuple[float, ...]  # (K,)
    sentences: np.ndarray | None  # (K, n) float64

    def to_dict(self) -> dict:
        return {
            "metric": self.metric,
            "signature": self.signature,
            "higher_is_better": self.higher_is_better,
            "corpus": list(self.corpus),
        }


def score_references(
    metric: Metric, references: Sequence[Sequence[str]], *, sentence: bool = False
) -> HeldOutScores:
    """Each reference scored against the other K - 1 (ORANGE's oracle, per
    reference and at corpus level); equal to ``metric.score(references[k],
    all_but(references, k))``.

    >>> from scoring import get_metric
    >>> refs = [["a b c d"], ["a b c d"], ["w x y z"]]
    >>> [round(s) for s in score_references(get_metric("chrf"), refs).corpus]
    [100, 100, 0]
    """
    _require_two(references)
    jobs = [(stream, all_but(references, k)) for k, stream in enumerate(references)]
    statistics = statistics_of(metric, jobs)
    sentences = None
    if sentence:
        sentences = np.asarray(
            [metric.sentence_scores_from_statistics(rows) for rows in statistics],
            dtype=np.float64,
        ).reshape(len(references), -1)
    return HeldOutScores(
        metric=metric.name,
        signature=metric.signature(len(references) - 1),
        higher_is_better=bool(metric.higher_is_better),
        corpus=tuple(_corpus(metric, rows) for rows in statistics),
        sentences=sentences,
    )


@dataclass(frozen=True)
class SystemScores:
    """One system output against the references, for one metric.

    ``held_out[k]``: corpus score against all references but k (comparable
    with :class:`HeldOutScores` ``corpus[k]``); ``agreement[k, i]``: sentence
    score of the output against reference k alone (``None`` unless asked).
    """

    held_out: tuple[float, ...]  # (K,)
    agreement: np.ndarray | None  # (K, n) float64


def score_system(
    metric: Metric,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    agreement: bool = False,
) -> SystemScores:
    """A system's scores against every reduced reference set and, with
    ``agreement``, against each single reference per sentence (one pass)."""
    _require_two(references)
    n_refs = len(references)
    jobs = [(hypotheses, all_but(references, k)) for k in range(n_refs)]
    if agreement:
        jobs += [(hypotheses, [stream]) for stream in references]
    statistics = statistics_of(metric, jobs)
    per_reference = None
    if agreement:
        per_reference = np.asarray(
            [metric.sentence_scores_from_statistics(r) for r in statistics[n_refs:]],
            dtype=np.float64,
        ).reshape(n_refs, -1)
    return SystemScores(
        held_out=tuple(_corpus(metric, rows) for rows in statistics[:n_refs]),
        agreement=per_reference,
    )


@dataclass(frozen=True)
class ClosestReferences:
    """How often each reference is the closest one to the others.

    ``counts[k]``: sentences where reference k alone has the best sentence
    score against the other references; ``ties``: sentences where two or
    more share the best score (counted for none); ``closest[i]``: the
    closest reference of segment i, or -1 for a tie.
    """

    counts: tuple[int, ...]  # (K,)
    ties: int
    closest: np.ndarray  # (n,) int64

    def to_dict(self) -> dict:
        return {"counts": list(self.counts), "ties": self.ties}


def closest_references(
    sentence_scores: np.ndarray, *, higher_is_better: bool = True
) -> ClosestReferences:
    """Per sentence, the reference with the best score against the others.

    ``sentence_scores`` is ``(K, n)``: row k holds reference k's sentence
    scores against the other references (``HeldOutScores.sentences``).
    Worked example (higher is better; columns are sentences)::

        A  [60, 50, 70]
        B  [62, 50, 68]      closest: B, tie (A and B), A
        C  [58, 40,  5]      counts A 1, B 1, C 0; ties 1
    """
    scores = np.asarray(sentence_scores, dtype=np.float64)
    if scores.ndim != 2 or scores.shape[0] < 2:
        raise ValueError("sentence scores must be (K >= 2, n)")
    oriented = scores if higher_is_better else -scores
    best = oriented.max(axis=0)  # (n,)
    at_best = np.isclose(oriented, best, rtol=0.0, atol=TIE_TOLERANCE)  # (K, n)
    unique = at_best.sum(axis=0) == 1
    closest = np.where(unique, oriented.argmax(axis=0), -1).astype(np.int64)
    counts = tuple(int((closest == k).sum()) for k in range(scores.shape[0]))
    return ClosestReferences(counts=counts, ties=int((~unique).sum()), closest=closest)


def robust_z(values: np.ndarray, min_scale: float = 1.0) -> tuple[np.ndarray, float]:
    """Robust z-scores of a ``(K, n)`` array around each column's median.

    ``d[k, i] = values[k, i] - median_k values[:, i]`` (the deviation from the
    sentence's median); the scale is ``1.4826 * median |d|`` over every cell
    of the corpus, at least ``min_scale``; ``z = d / scale``. Returns
    ``(z (K, n), scale)``.
    """
    values = np.asarray(values, dtype=np.float64)
    deviations = values - np.median(values, axis=0, keepdims=True)
    scale = max(float(MAD_TO_SD * np.median(np.abs(deviations))), min_scale)
    return deviations / scale, scale


@dataclass(frozen=True)
class ReferenceOutlier:
    """Reference ``reference`` of segment ``segment`` (both from 0) stands
    apart; ``score`` is its outlier score (larger is further)."""

    segment: int
    reference: int
    score: float
    z_references: float | None  # None with two references
    z_systems: float | None  # None without systems

    def to_dict(self) -> dict:
        return {
            "segment": self.segment,
            "reference": self.reference,
            "score": self.score,
            "z_references": self.z_references,
            "z_systems": self.z_systems,
        }


@dataclass(frozen=True)
class OutlierReport:
    """Every flagged (segment, reference), highest outlier score first."""

    outliers: tuple[ReferenceOutlier, ...]
    threshold: float
    evidence: str  # "references and systems", "systems" or "references"
    scale_references: float | None
    scale_systems: float | None


def find_outliers(
    reference_agreement: np.ndarray,
    system_agreement: np.ndarray | None = None,
    *,
    threshold: float = DEFAULT_OUTLIER_THRESHOLD,
    min_scale: float = 1.0,
) -> OutlierReport:
    """Sentences where one reference is far from the other references and
    from every system.

    Inputs, higher meaning closer (e.g. chrF on 0-100), shape ``(K, n)``:

    - ``reference_agreement[k, i]``: reference k's sentence score against the
      other references (``HeldOutScores.sentences``);
    - ``system_agreement[k, i]``: each visible system's sentence score
      against reference k alone, averaged over the systems
      (``SystemScores.agreement``; ``None`` when there are no systems).

    Each is turned into robust z-scores by :func:`robust_z` (deviation from
    the sentence's median over the K references, divided by 1.4826 times the
    corpus-wide median absolute deviation, at least ``min_scale`` points).
    The outlier score of (i, k) is the weaker of the two pieces of evidence,
    ``min(-z_references, -z_systems)``: a reference counts as an outlier only
    when it is far below the sentence's median by *both*. With two
    references the references' agreement cannot tell which one is off (each
    is scored against the other), so only ``-z_systems`` counts; without
    systems only ``-z_references`` does (three or more references). Flagged:
    score >= ``threshold`` (3.5, Iglewicz & Hoaglin's cut-off).

    Worked example (three references, four sentences, no systems)::

        A  [60, 50, 70, 40]    medians      [60, 51, 68, 41]
        B  [62, 52, 68, 41]    |deviations| median 1 -> scale 1.4826
        C  [58, 51,  5, 43]    C, 3rd sentence: (5 - 68) / 1.4826 = -42.5
        -> one outlier: segment 2, reference 2 (C), score 42.5
    """
    agreement = np.asarray(reference_agreement, dtype=np.float64)
    n_refs = agreement.shape[0]
    if agreement.ndim != 2 or n_refs < 2:
        raise ValueError("reference agreement must be (K >= 2, n)")
    use_references = n_refs >= 3
    use_systems = system_agreement is not None
    z_refs = z_sys = None
    scale_refs = scale_sys = None
    parts = []
    if use_references:
        z_refs, scale_refs = robust_z(agreement, min_scale)
        parts.append(-z_refs)
    if use_systems:
        systems = np.asarray(system_agreement, dtype=np.float64)
        if systems.shape != agreement.shape:
            raise ValueError("system agreement must have the references' shape")
        z_sys, scale_sys = robust_z(systems, min_scale)
        parts.append(-z_sys)
    if not parts:
        return OutlierReport((), threshold, "none", None, None)
    evidence = " and ".join(
        name
        for name, used in (("references", use_references), ("systems", use_systems))
        if used
    )
    scores = np.minimum.reduce(parts)  # (K, n)
    ks, segments = np.nonzero(scores >= threshold)
    flagged = [
        ReferenceOutlier(
            segment=int(i),
            reference=int(k),
            score=float(scores[k, i]),
            z_references=None if z_refs is None else float(z_refs[k, i]),
            z_systems=None if z_sys is None else float(z_sys[k, i]),
        )
        for k, i in zip(ks, segments)
    ]
    flagged.sort(key=lambda o: (-o.score, o.segment, o.reference))
    return OutlierReport(tuple(flagged), threshold, evidence, scale_refs, scale_sys)
