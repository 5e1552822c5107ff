"""Segment and system scores from span annotations: MQM, or the scores given.

MQM (Freitag, Foster, Grangier, Ratnakar, Tan & Macherey 2021, "Experts,
Errors, and Context", TACL 9, Table 2): each error weighs by its severity
and category,

    =========  ==========================  ======
    severity   category                    weight
    =========  ==========================  ======
    major      Non-translation             25
    major      any other                   5
    minor      Fluency/Punctuation         0.1
    minor      any other                   1
    neutral    any                         0
    =========  ==========================  ======

and a rater's segment score is the sum of the weights of the errors they
marked (0 for a No-error rating). The segment score is **minus** the mean
of its raters' sums, the sign of the published WMT files (``mqm_avg_score``
in google/wmt-mqm-human-evaluation, mt-metrics-eval's ``score_mqm``): 0 is
no error, more negative is worse. A system's score is the mean of its
segment scores. ``critical`` (not in Freitag et al.; later MQM campaigns
use it) weighs 10 and a critical Non-translation 25, as the major one.

Weights are rules ``severity[/category[/subcategory]]`` -> weight, the most
specific rule that matches an error winning (mt-metrics-eval's
``score_mqm`` takes the same spec, ``Major/Non-translation!:25``):
categories are compared case-insensitively, without a trailing ``!`` (WMT
2020 writes ``Non-translation!``). A Non-translation error counts 25 each
time it is marked; raters mark it once, for the whole segment.

Worked example: rater r1 marks a major error and a minor punctuation error
(5 + 0.1), rater r2 finds none (0); the segment scores -(5.1 + 0) / 2::

    >>> from scoring.spans.model import Span, SpanAnnotation
    >>> r1 = SpanAnnotation(1, "A", "r1", (Span(0, 4, "major"),
    ...                     Span(9, 10, "minor", "Fluency/Punctuation")))
    >>> r2 = SpanAnnotation(1, "A", "r2", ())
    >>> scores = mqm_scores([r1, r2])
    >>> scores.values.tolist(), scores.system_scores()
    ([-2.55], {'A': -2.55})
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.spans.model import SEVERITIES, SpanAnnotation, shorten

DEFAULT_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        "major": 5.0,
        "minor": 1.0,
        "neutral": 0.0,
        "critical": 10.0,
        "major/non-translation": 25.0,
        "critical/non-translation": 25.0,
        "minor/fluency/punctuation": 0.1,
    }
)


def _rule_key(parts: Iterable[str]) -> str:
    return "/".join(part.strip().lower().rstrip("!").strip() for part in parts)


@dataclass(frozen=True)
class MqmWeights:
    """MQM weights: rules ``severity[/category...]`` -> weight (see module)."""

    rules: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))

    def __post_init__(self) -> None:
        rules = {}
        for key, weight in self.rules.items():
            normalised = _rule_key(str(key).split("/"))
            if normalised.split("/")[0] not in SEVERITIES:
                raise ScoringError(
                    f"MQM weight {shorten(str(key))!r}: a rule starts with a "
                    f"severity ({', '.join(SEVERITIES)})"
                )
            if (
                isinstance(weight, bool)
                or not isinstance(weight, (int, float))
                or not math.isfinite(weight)
                or weight < 0
            ):
                raise ScoringError(
                    f"MQM weight {shorten(str(key))!r}: the weight must be a "
                    "number >= 0 (errors are subtracted)"
                )
            rules[normalised] = float(weight)
        missing = [severity for severity in SEVERITIES if severity not in rules]
        if missing:
            raise ScoringError(f"MQM weights: no weight for {', '.join(missing)}")
        object.__setattr__(self, "rules", MappingProxyType(rules))

    @classmethod
    def parse(cls, spec: str) -> MqmWeights:
        """The default weights with ``spec``'s rules on top.

        ``spec`` lists ``rule:weight`` items separated by spaces or commas:

        >>> MqmWeights.parse("critical:25, Minor/Fluency/Punctuation:1").weight(
        ...     "minor", "Fluency/Punctuation")
        1.0
        """
        rules = dict(DEFAULT_WEIGHTS)
        for item in spec.replace(",", " ").split():
            rule, colon, weight = item.rpartition(":")
            try:
                value = float(weight)
            except ValueError:
                value = math.nan
            if not colon or not rule or not math.isfinite(value):
                raise ScoringError(
                    f"MQM weight {shorten(item)!r}: expected severity[/category]:weight"
                )
            rules[rule] = value
        return cls(rules)

    def weight(self, severity: str, category: str | None) -> float:
        """The weight of one error: the most specific matching rule's."""
        parts = [severity, *(category.split("/") if category else ())]
        while parts:
            key = _rule_key(parts)
            if key in self.rules:
                return self.rules[key]
            parts.pop()
        raise ScoringError(f"MQM weights: no weight for severity {shorten(severity)!r}")

    def to_dict(self) -> dict[str, float]:
        """The rules, JSON-safe."""
        return dict(self.rules)


def annotation_penalty(annotation: SpanAnnotation, weights: MqmWeights) -> float:
    """The weighted error sum of one rater's annotation (>= 0)."""
    return float(sum(weights.weight(s.severity, s.category) for s in annotation.spans))


@dataclass(frozen=True, eq=False)
class SegmentScores:
    """Human scores per (system, segment), averaged over annotators.

    ``N`` rows ordered by system (first appearance) then segment;
    ``values`` ``(N,)`` float64 on the criterion's scale (``mqm``: 0 or
    negative; ``esa``: as given, 0-100), ``n_annotators`` ``(N,)`` how many
    annotations each mean is over.
    """

    criterion: str
    systems: tuple[str, ...]
    segments: np.ndarray  # (N,) int64, 1-based
    system_ids: np.ndarray  # (N,) int64, index into systems
    values: np.ndarray  # (N,) float64
    n_annotators: np.ndarray  # (N,) int64
    weights: MqmWeights | None = None

    def __post_init__(self) -> None:
        for name in ("segments", "system_ids", "values", "n_annotators"):
            array = np.array(getattr(self, name), copy=True)
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    def system_scores(self) -> dict[str, float]:
        """Each system's mean segment score."""
        sums = np.bincount(self.system_ids, self.values, minlength=len(self.systems))
        counts = np.bincount(self.system_ids, minlength=len(self.systems))
        with np.errstate(invalid="ignore", divide="ignore"):
            means = sums / counts
        return {name: float(mean) for name, mean in zip(self.systems, means)}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: the weights, each system's score and every segment's."""
        counts = np.bincount(self.system_ids, minlength=len(self.systems))
        return json_safe(
            {
                "criterion": self.criterion,
                "weights": self.weights.to_dict() if self.weights else None,
                "systems": {
                    name: {"score": score, "segments": int(count)}
                    for (name, score), count in zip(
                        self.system_scores().items(), counts
                    )
                },
                "segments": [
                    {
                        "system": self.systems[system],
                        "segment": int(segment),
                        "score": float(value),
                        "annotators": int(n),
                    }
                    for system, segment, value, n in zip(
                        self.system_ids, self.segments, self.values, self.n_annotators
                    )
                ],
            }
        )


def mqm_scores(
    annotations: Sequence[SpanAnnotation], weights: MqmWeights | None = None
) -> SegmentScores:
    """MQM score of every (system, segment) annotated (module docstring)."""
    weights = weights or MqmWeights()
    return _average(
        annotations,
        lambda annotation: -annotation_penalty(annotation, weights),
        "mqm",
        weights,
    )


def given_scores(
    annotations: Sequence[SpanAnnotation], criterion: str = "esa"
) -> SegmentScores:
    """The scores the annotators gave (ESA's 0-100), averaged per segment.

    Annotations without a score are left out; a segment none scored has no
    row.
    """
    return _average(
        [a for a in annotations if a.score is not None],
        lambda annotation: float(annotation.score),  # type: ignore[arg-type]
        criterion,
        None,
    )


def _average(annotations, score_of, criterion, weights) -> SegmentScores:
    grouped: dict[tuple[str, int], list[float]] = {}
    annotators: set[tuple[str, int, str]] = set()
    for annotation in annotations:
        if annotation.key in annotators:
            raise ScoringError(
                f"system {shorten(annotation.system)!r}, segment "
                f"{annotation.segment}: annotator {shorten(annotation.annotator)!r} "
                "has two annotations"
            )
        annotators.add(annotation.key)
        grouped.setdefault((annotation.system, annotation.segment), []).append(
            score_of(annotation)
        )
    systems = tuple(dict.fromkeys(system for system, _ in grouped))
    order = {name: position for position, name in enumerate(systems)}
    keys = sorted(grouped, key=lambda key: (order[key[0]], key[1]))
    return SegmentScores(
        criterion=criterion,
        systems=systems,
        segments=np.array([segment for _, segment in keys], dtype=np.int64),
        system_ids=np.array([order[system] for system, _ in keys], dtype=np.int64),
        # + 0.0 turns the -0.0 of a segment without error into 0.0.
        values=np.array(
            [np.mean(grouped[key]) + 0.0 for key in keys], dtype=np.float64
        ),
        n_annotators=np.array([len(grouped[key]) for key in keys], dtype=np.int64),
        weights=weights,
    )
