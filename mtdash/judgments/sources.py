"""Which sources feed a criterion: imported files and judging campaigns.

A criterion's judgments come from its sources: each import
(:class:`JudgmentImport`) and each campaign (whose ratings are stored in a
``JudgmentImport`` of layout ``campaign``). The user chooses which sources
the aggregates, the leaderboard and the correlations read; the others stay
stored, listed in ``Criterion.left_out``.

A campaign's ratings and imported judgments are different evidence (other
judges, another protocol, another sample), so they are never merged
silently: a new source of the other kind than the criterion's sources in
use starts left out (:func:`keep_apart`), and the pages say so.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, QuerySet

from mtdash.judgments.models import Campaign, Criterion, Judgment, JudgmentImport


@dataclass(frozen=True)
class Source:
    batch_id: int
    label: str  # file name, or "campaign <name>"
    kind: str  # "import" or "campaign"
    layout: str
    n_judgments: int  # of this criterion
    in_use: bool

    def to_dict(self) -> dict:
        return {
            "id": self.batch_id,
            "source": self.label,
            "kind": self.kind,
            "layout": self.layout,
            "judgments": self.n_judgments,
            "in_use": self.in_use,
        }


def in_use(judgments: QuerySet) -> QuerySet:
    """``judgments`` without those of a source left out of their criterion."""
    left_out = Criterion.left_out.through.objects.filter(
        criterion_id=OuterRef("criterion_id"), judgmentimport_id=OuterRef("batch_id")
    )
    return judgments.exclude(Exists(left_out))


def criterion_sources(criterion: Criterion) -> list[Source]:
    """Every source with judgments of ``criterion`` and every campaign that
    judges it (even before its first rating), oldest first."""
    counts = dict(
        Judgment.objects.filter(criterion=criterion)
        .values_list("batch_id")
        .annotate(n=Count("pk"))
        .values_list("batch_id", "n")
    )
    campaigns = set(
        Campaign.objects.filter(criteria=criterion).values_list("batch_id", flat=True)
    )
    left_out = set(criterion.left_out.values_list("pk", flat=True))
    batches = JudgmentImport.objects.filter(pk__in=set(counts) | campaigns)
    return [
        Source(
            batch_id=batch.pk,
            label=batch.source_label,
            kind="campaign" if batch.is_campaign else "import",
            layout=batch.layout,
            n_judgments=counts.get(batch.pk, 0),
            in_use=batch.pk not in left_out,
        )
        for batch in batches.order_by("imported_at", "pk")
    ]


def sources_label(criterion: Criterion) -> str:
    """The sources in use, as pages and signatures name them ("" if none)."""
    return "; ".join(s.label for s in criterion_sources(criterion) if s.in_use)


def keep_apart(criterion: Criterion, batch: JudgmentImport) -> bool:
    """Leave the new source ``batch`` out of ``criterion`` when the sources
    already in use are of the other kind (import vs campaign); True if so."""
    kind = "campaign" if batch.is_campaign else "import"
    others = [
        s
        for s in criterion_sources(criterion)
        if s.batch_id != batch.pk and s.in_use and s.kind != kind
    ]
    if others:
        criterion.left_out.add(batch)
    return bool(others)


def choose_sources(criterion: Criterion, chosen: set[int]) -> list[Source]:
    """Use exactly the sources ``chosen`` (batch ids) for ``criterion``;
    ValueError for an id that is not one of its sources."""
    sources = criterion_sources(criterion)
    known = {s.batch_id for s in sources}
    unknown = chosen - known
    if unknown:
        raise ValueError(
            f"{criterion.name} has no source with id {min(unknown)}; its sources: "
            + ", ".join(f"{s.batch_id} ({s.label})" for s in sources)
        )
    criterion.left_out.set(known - chosen)
    return criterion_sources(criterion)


_SCALE_WORDS = {
    "raw": "z-scores per judge",
    "z": "WMT z as given",
    "mean": "raw means as given",
}


def human_signature(test_set_id: int, name: str) -> str:
    """The signature of a human column: what its score is and the sources it
    was computed from, e.g. ``human:da-z|WMT z as given|WMT micro-average|
    sources:da_seg.tsv``."""
    criterion = Criterion.objects.filter(test_set_id=test_set_id, name=name).first()
    scale = _SCALE_WORDS[criterion.scale if criterion else "raw"]
    sources = sources_label(criterion) if criterion else ""
    return f"human:{name}|{scale}|WMT micro-average|sources:{sources}"[:400]


@dataclass(frozen=True)
class CriterionSources:
    """How pages name a criterion's human scores: its score and sources."""

    name: str
    score_label: str  # "mean z", "WMT z" or "raw mean"
    sources: str  # the sources in use, "; "-separated

    def to_dict(self) -> dict:
        return {
            "criterion": self.name,
            "score": self.score_label,
            "sources": self.sources,
        }


def criteria_sources(test_set_id: int) -> list[CriterionSources]:
    """Every criterion of the test set with sources in use, by name."""
    found = []
    for criterion in Criterion.objects.filter(test_set_id=test_set_id).order_by("name"):
        label = sources_label(criterion)
        if label:
            found.append(CriterionSources(criterion.name, criterion.score_label, label))
    return found
