"""A criterion's aggregates stored in a
:class:`~mtdash.evaluation.models.TestSetAnalysis` until one of its
judgments is added, removed or changed: reading 80,000 judgments takes
longer than a page may. Arrays are stored as base64 of their bytes
(decoding 40,000 numbers from JSON lists is slow too)."""

from __future__ import annotations

import base64
import hashlib
import math

import numpy as np
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Sum

from mtdash.common.numbers import finite
from mtdash.evaluation.models import SystemOutput, TestSet, TestSetAnalysis
from mtdash.judgments.models import Criterion, Judgment
from mtdash.judgments.overview.summary import (
    CriterionAggregates,
    SystemAggregate,
    criterion_aggregates,
)
from mtdash.judgments.sources import in_use

KIND_PREFIX = "judgments:"


def judgments_digest(criterion: Criterion) -> str:
    """Changes whenever a judgment of ``criterion`` is added, removed or
    changed, or a system is renamed: a cache key part, two small queries."""
    found = in_use(Judgment.objects.filter(criterion=criterion)).aggregate(
        n=Count("pk"), last=Max("pk"), total=Sum("value")
    )
    names = SystemOutput.objects.filter(test_set_id=criterion.test_set_id)
    names = sorted(names.values_list("pk", "system__name"))
    return f"{found['n']}:{found['last']}:{found['total']!r}:{names!r}"


def store_analysis(test_set_id: int, kind: str, inputs: str, data: dict) -> None:
    """Keep ``data`` for later pages; a concurrent request that stored the
    same thing first wins (both computed it from the same inputs)."""
    try:
        with transaction.atomic():
            TestSetAnalysis.objects.update_or_create(
                test_set_id=test_set_id,
                kind=kind,
                defaults={"inputs": inputs, "data": data},
            )
    except IntegrityError:
        pass


def cached_aggregates(criterion: Criterion) -> CriterionAggregates | None:
    """:func:`criterion_aggregates`, stored in a TestSetAnalysis until a
    judgment of the criterion is added, removed or changed (reading 80,000
    judgments takes longer than a page may)."""
    kind = KIND_PREFIX + hashlib.sha256(criterion.name.encode()).hexdigest()[:32]
    inputs = hashlib.sha256(
        f"v2|{criterion.pk}|{criterion.scale}|{criterion.range_label}|{criterion.higher_is_better}|"
        f"{judgments_digest(criterion)}".encode()
    ).hexdigest()
    stored = TestSetAnalysis.objects.filter(
        test_set_id=criterion.test_set_id, kind=kind
    ).first()
    if stored is not None and stored.inputs == inputs:
        return _from_data(stored.data)
    aggregates = criterion_aggregates(criterion)
    store_analysis(criterion.test_set_id, kind, inputs, _to_data(aggregates))
    return aggregates


def _to_data(aggregates: CriterionAggregates | None) -> dict:
    if aggregates is None:
        return {"empty": True}
    return {
        "name": aggregates.name,
        "range_label": aggregates.range_label,
        "higher_is_better": aggregates.higher_is_better,
        "n_judgments": aggregates.n_judgments,
        "n_judges": aggregates.n_judges,
        "scale": aggregates.scale,
        "systems": [
            [s.system, s.output_id, s.n_judgments, s.n_segments, s.n_judges]
            + [finite(s.raw_mean), finite(s.z_mean)]
            for s in aggregates.systems
        ],
        **{
            name: pack(getattr(aggregates, name), dtype)
            for name, dtype in _CELL_ARRAYS.items()
        },
    }


def _from_data(data: dict) -> CriterionAggregates | None:
    if data.get("empty"):
        return None
    systems = tuple(
        SystemAggregate(
            name, output_id, judgments, segments, judges, _float(raw), _float(z)
        )
        for name, output_id, judgments, segments, judges, raw, z in data["systems"]
    )
    return CriterionAggregates(
        name=data["name"],
        range_label=data["range_label"],
        higher_is_better=data["higher_is_better"],
        systems=systems,
        n_judgments=data["n_judgments"],
        n_judges=data["n_judges"],
        scale=data.get("scale", "raw"),
        **{name: unpack(data[name], dtype) for name, dtype in _CELL_ARRAYS.items()},
    )


_CELL_ARRAYS = {
    "cell_systems": np.int64,
    "cell_segments": np.int64,
    "cell_judges": np.int64,
    "cell_raw": np.float64,
    "cell_z": np.float64,
}


def pack(values: np.ndarray, dtype) -> str:
    """An array as base64 of its little-endian bytes, for a JSON field:
    decoding 40,000 numbers from JSON lists takes longer than a page may."""
    little = np.dtype(dtype).newbyteorder("<")
    return base64.b64encode(np.asarray(values).astype(little).tobytes()).decode()


def unpack(text: str, dtype) -> np.ndarray:
    little = np.dtype(dtype).newbyteorder("<")
    return np.frombuffer(base64.b64decode(text), dtype=little).astype(dtype)


def _float(value: float | None) -> float:
    return math.nan if value is None else value


def all_aggregates(test_set: TestSet) -> list[CriterionAggregates]:
    """Every judged criterion of the test set, by name."""
    found = (
        cached_aggregates(criterion)
        for criterion in Criterion.objects.filter(test_set=test_set).order_by("name")
    )
    return [aggregates for aggregates in found if aggregates is not None]
