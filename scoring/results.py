"""The result of scoring one system output with one metric."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np


def json_safe(value: Any) -> Any:
    """Convert NumPy scalars/arrays, tuples and mappings to plain JSON types.

    Non-finite floats become ``None`` because JSON has no NaN or infinity.
    """
    if isinstance(value, Mapping):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, np.ndarray):
        return [json_safe(item) for item in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        return number if math.isfinite(number) else None
    return value


@dataclass(frozen=True)
class MetricResult:
    """Corpus score, optional sentence scores and their signatures.

    Attributes:
        metric: the metric's name, e.g. ``"bleu"``.
        score: the corpus-level score, on the metric's scale (BLEU: 0–100).
        signature: everything needed to reproduce ``score``, sacreBLEU style.
        higher_is_better: False for error rates (WER, TER, ...).
        scale: the best possible score of a higher-is-better metric (BLEU:
            100.0); scores lie in ``[0, scale]`` for bounded metrics (error rates may exceed it).
        n_segments: number of segments scored.
        sentence_scores: one score per segment, in segment order, on the same
            scale, or ``None`` when sentence scores were not asked for.
        sentence_signature: signature of the sentence scores (their smoothing
            differs from the corpus score's), or ``None``.
        details: metric-specific, JSON-safe figures derived from the summed
            statistics (BLEU: precisions in percent, brevity penalty 0–1,
            lengths in tokens).
        statistics: the per-segment sufficient statistics, shape
            ``(n_segments, n_stats)``, read-only; what bootstrap resampling and
            system comparison need. Not part of equality or ``repr``.
    """

    metric: str
    score: float
    signature: str
    higher_is_better: bool
    scale: float
    n_segments: int
    sentence_scores: tuple[float, ...] | None = None
    sentence_signature: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    statistics: np.ndarray | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Frozen means frozen: nobody can change the details or the statistics
        # of a stored result behind its back.
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))
        if self.statistics is not None:
            statistics = np.array(self.statistics, copy=True)
            statistics.setflags(write=False)
            object.__setattr__(self, "statistics", statistics)

    def to_dict(self, include_statistics: bool = False) -> dict[str, Any]:
        """Return a JSON-safe dict (``json.dumps`` works on it as it is).

        ``statistics`` (a list of per-segment lists) is included only when
        ``include_statistics`` is true, because it is large.
        """
        data: dict[str, Any] = {
            "metric": self.metric,
            "score": json_safe(self.score),
            "signature": self.signature,
            "higher_is_better": self.higher_is_better,
            "scale": json_safe(self.scale),
            "n_segments": self.n_segments,
            "sentence_scores": json_safe(self.sentence_scores),
            "sentence_signature": self.sentence_signature,
            "details": json_safe(self.details),
        }
        if include_statistics:
            data["statistics"] = json_safe(self.statistics)
        return data
