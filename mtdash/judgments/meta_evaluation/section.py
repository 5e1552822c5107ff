"""The "WMT meta-evaluation" section of a test set's metric-evaluation page:
the newest result of the test set alone for the chosen criterion, the job
computing a newer one (its progress) or its failure, and the settings the
form starts from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mtdash.evaluation.models import TestSet
from mtdash.judgments.meta_evaluation.inputs import judged_criteria, meta_digest
from mtdash.judgments.meta_evaluation.jobs import single_test_set_jobs
from mtdash.judgments.meta_evaluation.options import (
    describe,
    form_values,
    settings_from_dict,
)
from mtdash.judgments.meta_evaluation.page import (
    OrangeFigure,
    ProtocolTable,
    protocol_table,
)
from mtdash.judgments.models import MetaEvaluation


@dataclass(frozen=True)
class MetaSection:
    criteria: tuple[str, ...]
    criterion: str
    latest: MetaEvaluation | None  # the newest job, whatever its status
    shown: MetaEvaluation | None  # the newest succeeded job
    table: ProtocolTable | None
    stale: bool  # the scores or judgments changed since ``shown`` ran
    initial: dict[str, Any]  # the settings form's values

    @property
    def waiting(self) -> MetaEvaluation | None:
        """The newest job while it is queued or running."""
        latest = self.latest
        return latest if latest is not None and not latest.is_finished else None

    @property
    def failed(self) -> MetaEvaluation | None:
        latest = self.latest
        failed = MetaEvaluation.Status.FAILED
        return latest if latest is not None and latest.status == failed else None

    @property
    def settings_text(self) -> str:
        return describe(self.shown.protocol_settings) if self.shown else ""


def meta_section(
    test_set: TestSet,
    criterion: str | None,
    orange: dict[str, OrangeFigure] | None = None,
) -> MetaSection:
    criteria = tuple(judged_criteria(test_set))
    chosen = criterion if criterion in criteria else (criteria[0] if criteria else "")
    jobs = single_test_set_jobs(test_set, chosen)
    latest = jobs.first()
    shown = (
        latest
        if latest is not None and latest.status == MetaEvaluation.Status.SUCCEEDED
        else jobs.filter(status=MetaEvaluation.Status.SUCCEEDED).first()
    )
    table = stale = None
    if shown is not None and shown.result:
        table = protocol_table(shown.result["test_sets"][0], orange)
        settings = settings_from_dict(shown.protocol_settings)
        weight = shown.weights[0]["weight"]
        current = meta_digest([test_set], [weight], chosen, settings)
        stale = current != shown.inputs
    source = latest if latest is not None else shown
    return MetaSection(
        criteria=criteria,
        criterion=chosen,
        latest=latest,
        shown=shown,
        table=table,
        stale=bool(stale),
        initial=form_values(source.protocol_settings if source else None),
    )
