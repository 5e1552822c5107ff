"""Agreement between judges (issue #12): placeholder until the campaign work lands."""

from __future__ import annotations

from typing import Any

from mtdash.evaluation.models import TestSet


def agreement_summary(test_set: TestSet) -> dict[str, Any]:
    """JSON-safe agreement of the test set's judges, per criterion."""
    return {"criteria": []}
