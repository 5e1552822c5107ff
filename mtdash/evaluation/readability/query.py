"""What the cross-test-set readability page and its API are asked for.

One reader for both: test sets as repeated ``test_sets`` parameters (the
page's checkboxes) or one comma-separated list (``?test_sets=1,2,3``, the
API), or every visible test set into ``target_language``; the reference
test set; the side the complexity is measured on; the BLEU and WNM specs.
A test set that is not the user's is a 404, as everywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import Http404, QueryDict

from mtdash.evaluation.access import test_sets_of
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.readability.scores import check_spec
from mtdash.evaluation.readability.stability import DEFAULT_SPECS, MEASURE_ON


@dataclass(frozen=True)
class StabilityQuery:
    test_set_ids: tuple[int, ...] = ()
    target_language: str = ""
    reference_id: int | None = None
    measure_on: str = "source"
    specs: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_SPECS))

    @property
    def asked(self) -> bool:
        """True once the user has chosen something (the page's first visit
        shows only the form)."""
        return bool(self.test_set_ids or self.target_language)


def read_query(params: QueryDict) -> StabilityQuery:
    """Parse ``params``; raises ``ValueError`` with a message for the user."""
    ids: list[int] = []
    for value in params.getlist("test_sets"):
        for part in value.split(","):
            if part.strip():
                ids.append(_integer("test_sets", part))
    reference = params.get("reference", "").strip()
    measure_on = params.get("measure_on", "source").strip() or "source"
    if measure_on not in MEASURE_ON:
        raise ValueError(
            f"measure_on: {measure_on!r} is not one of {', '.join(MEASURE_ON)}"
        )
    specs = {
        metric: check_spec(metric, params.get(metric, "").strip() or default)
        for metric, default in DEFAULT_SPECS.items()
    }
    return StabilityQuery(
        test_set_ids=tuple(dict.fromkeys(ids)),
        target_language=params.get("target_language", "").strip(),
        reference_id=_integer("reference", reference) if reference else None,
        measure_on=measure_on,
        specs=specs,
    )


def chosen_test_sets(user, query: StabilityQuery) -> list[TestSet]:
    """The user's test sets the query names; any other id is a 404 (its
    existence is not revealed). ``target_language`` adds every test set into
    that language that is not hidden."""
    visible = test_sets_of(user)
    chosen = {ts.pk: ts for ts in visible.filter(pk__in=query.test_set_ids)}
    missing = [pk for pk in query.test_set_ids if pk not in chosen]
    if missing:
        raise Http404(f"no test set {missing[0]}")
    if query.target_language:
        for test_set in visible.filter(
            target_language=query.target_language, hidden=False
        ):
            chosen.setdefault(test_set.pk, test_set)
    return list(chosen.values())


def _integer(name: str, text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(f"{name}: {text.strip()!r} is not a test set id") from None
