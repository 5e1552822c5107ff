"""The filters of the spans a page shows, from its query string:
``category`` (a category, or a group such as ``Accuracy`` for every
``Accuracy/…``), ``severity`` and ``annotator`` (a person or a metric)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mtdash.evaluation.span_view.annotations import (
    SEVERITY_ORDER,
    SentenceAnnotation,
    ShownSpan,
)

FIELDS = ("category", "severity", "annotator")
_LONGEST = 200  # as the stored names; a longer value matches nothing anyway


def category_matches(chosen: str, category: str) -> bool:
    """``Accuracy`` matches ``Accuracy`` and ``Accuracy/Omission``."""
    return category == chosen or category.startswith(chosen + "/")


@dataclass(frozen=True)
class SpanFilters:
    category: str = ""
    severity: str = ""
    annotator: str = ""

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> SpanFilters:
        return cls(*(str(query.get(name, "")).strip()[:_LONGEST] for name in FIELDS))

    @property
    def active(self) -> bool:
        return any(self.as_dict().values())

    def as_dict(self) -> dict[str, str]:
        return {
            "category": self.category,
            "severity": self.severity,
            "annotator": self.annotator,
        }

    def query_items(self) -> dict[str, str]:
        """The filters set, for a link's query string."""
        return {name: value for name, value in self.as_dict().items() if value}

    def keeps(self, annotation: SentenceAnnotation) -> bool:
        return not self.annotator or annotation.annotator == self.annotator

    def keeps_span(self, span: ShownSpan) -> bool:
        if self.severity and span.severity != self.severity:
            return False
        return not self.category or category_matches(self.category, span.category)


@dataclass(frozen=True)
class FilterOptions:
    """What a page's selects offer: ``(value, label)`` pairs."""

    categories: tuple[tuple[str, str], ...]
    severities: tuple[tuple[str, str], ...]
    annotators: tuple[tuple[str, str], ...]


def filter_options(
    annotations: Iterable[SentenceAnnotation], chosen: SpanFilters
) -> FilterOptions:
    """The categories (and their groups), severities and annotators of
    ``annotations``, and the chosen values even when none has them."""
    categories: set[str] = set()
    severities: set[str] = set()
    annotators: dict[str, bool] = {}
    for annotation in annotations:
        annotators[annotation.annotator] = annotation.is_metric
        for span in annotation.spans:
            severities.add(span.severity)
            if span.category:
                categories.add(span.category)
    return FilterOptions(
        categories=category_options(categories, chosen.category),
        severities=tuple(
            (name, name)
            for name in sorted(
                severities | ({chosen.severity} - {""}), key=_severity_key
            )
        ),
        annotators=tuple(
            (name, f"{name} (metric)" if is_metric else name)
            for name, is_metric in sorted(
                {**annotators, **_kept(chosen.annotator, annotators)}.items(),
                key=lambda item: (item[1], item[0]),
            )
        ),
    )


def category_options(
    categories: Iterable[str], chosen: str = ""
) -> tuple[tuple[str, str], ...]:
    """Each category, and each group of subcategories (``Accuracy`` for
    ``Accuracy/Omission``, labelled ``Accuracy (any)``), sorted."""
    full = set(categories) | ({chosen} - {""})
    groups = {name.split("/", 1)[0] for name in full if "/" in name} - full
    return tuple(
        (name, f"{name} (any)" if name in groups else name)
        for name in sorted(full | groups, key=str.casefold)
    )


def _kept(name: str, annotators: dict[str, bool]) -> dict[str, bool]:
    return {name: False} if name and name not in annotators else {}


def _severity_key(name: str) -> tuple[int, str]:
    order = SEVERITY_ORDER.index(name) if name in SEVERITY_ORDER else 1
    return (order, name)
