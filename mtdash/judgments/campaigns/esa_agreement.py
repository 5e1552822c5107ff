"""Agreement between an ESA campaign's judges, on its sampled items (the
controls left out): on the spans, per pair of judges, and on the scores.

Spans: for each pair of judges, the items both answered, one judge's spans
taken as the reference and the other's as the prediction in
:func:`scoring.stats.evaluate_spans` (micro-averaged over the items), in
two variants:

- ``mpp`` (the library's default, Perrella et al. 2026): spans matched one
  to one on the same side, each matched pair credited with its shared
  characters (|a∩b| / |b| to precision, |a∩b| / |a| to recall); severity
  ignored. Swapping the judges swaps precision and recall, so F1 is the
  pair's, whichever comes first;
- ``w25`` (WMT25's character-level F1): at every character, the spans of
  each severity covering it on both sides; a character both mark with
  different severities counts half. Also symmetric.

Items neither judge marked add nothing (a pair that marked nothing at all
scores 1). Intervals: the library's seeded percentile bootstrap over
segments (:data:`SAMPLES` resamples, seed :data:`SEED`).

Scores (0–100): Krippendorff's alpha (interval) and the mean Pearson r over
judge pairs sharing 3 items or more, as the agreement table computes them
for any criterion, with bootstrap intervals over items.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from mtdash.judgments.models import Assignment, Campaign
from scoring.spans import Span, SpanAnnotation
from scoring.stats import (
    AgreementEstimate,
    SpanFigures,
    alpha_agreement,
    evaluate_spans,
    pearson_agreement,
)

SEED = 12345
SAMPLES = 1000
CONFIDENCE = 0.95
VARIANTS = ("mpp", "w25")
VARIANT_LABELS = {
    "mpp": "partial overlap, partial credit (mpp, micro)",
    "w25": "character-level, severity-aware (WMT25)",
}


@dataclass(frozen=True)
class PairAgreement:
    """Two judges' spans on the items both answered."""

    first: str
    second: str
    items: int
    spans_first: int
    spans_second: int
    figures: dict[str, SpanFigures]  # variant -> F1 (and P, R) with intervals

    def to_dict(self) -> dict:
        return {
            "judges": [self.first, self.second],
            "items": self.items,
            "spans": [self.spans_first, self.spans_second],
            "variants": {v: f.to_dict() for v, f in self.figures.items()},
        }


@dataclass(frozen=True)
class EsaAgreement:
    pairs: tuple[PairAgreement, ...]
    alpha: AgreementEstimate
    pearson: AgreementEstimate

    def mean_f1(self, variant: str) -> float | None:
        """The mean of the pairs' F1 in ``variant`` (None without pairs)."""
        values = [pair.figures[variant].f1 for pair in self.pairs]
        return sum(values) / len(values) if values else None

    @property
    def mean_f1s(self) -> dict[str, float | None]:
        return {variant: self.mean_f1(variant) for variant in VARIANTS}

    def to_dict(self) -> dict:
        return {
            "spans": {
                "variants": VARIANT_LABELS,
                "mean_f1": self.mean_f1s,
                "pairs": [pair.to_dict() for pair in self.pairs],
            },
            "scores": {
                "alpha_interval": self.alpha.to_dict(),
                "pearson": self.pearson.to_dict(),
            },
            "seed": SEED,
            "n_samples": SAMPLES,
            "confidence": CONFIDENCE,
        }


def esa_agreement(campaign: Campaign) -> EsaAgreement:
    answers: dict[str, dict[tuple[int, int], tuple[float, list]]] = {}
    rows = (
        Assignment.objects.filter(
            campaign=campaign, kind=Assignment.Kind.REGULAR, value__isnull=False
        )
        .order_by("pk")
        .values_list(
            "judge__username", "item__output_id", "item__index", "value", "spans"
        )
    )
    for judge, output_id, index, value, spans in rows:
        answers.setdefault(judge, {})[output_id, index] = (value, spans or [])
    pairs = tuple(
        pair
        for first, second in combinations(sorted(answers), 2)
        if (pair := _pair(first, second, answers[first], answers[second]))
    )
    items, judges, values = [], [], []
    codes: dict[tuple[int, int], int] = {}
    for judge, answered in answers.items():
        for key, (value, _) in answered.items():
            items.append(codes.setdefault(key, len(codes)))
            judges.append(judge)
            values.append(value)
    options = {"n_samples": SAMPLES, "seed": SEED, "confidence": CONFIDENCE}
    return EsaAgreement(
        pairs=pairs,
        alpha=alpha_agreement(items, judges, values, "interval", **options),
        pearson=pearson_agreement(items, judges, values, **options),
    )


def _pair(first: str, second: str, a: dict, b: dict) -> PairAgreement | None:
    shared = sorted(set(a) & set(b))
    if not shared:
        return None
    reference = [_annotation(key, first, a[key][1]) for key in shared]
    predicted = [_annotation(key, second, b[key][1]) for key in shared]
    evaluation = evaluate_spans(
        reference,
        predicted,
        variants=VARIANTS,
        averages=("micro",),
        n_samples=SAMPLES,
        seed=SEED,
        confidence=CONFIDENCE,
    )
    return PairAgreement(
        first=first,
        second=second,
        items=len(shared),
        spans_first=sum(len(a[key][1]) for key in shared),
        spans_second=sum(len(b[key][1]) for key in shared),
        figures={v: evaluation.result(v, "micro").overall for v in VARIANTS},
    )


def _annotation(key: tuple[int, int], judge: str, spans: list[dict]) -> SpanAnnotation:
    output_id, index = key
    return SpanAnnotation(
        segment=index + 1,
        system=str(output_id),
        annotator=judge,
        spans=tuple(
            Span(
                s["start"],
                s["end"],
                s["severity"],
                s.get("category") or None,
                s["side"],
            )
            for s in spans
        ),
    )
