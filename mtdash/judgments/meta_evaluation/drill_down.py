"""One metric of a stored meta-evaluation, pair by pair: the system pairs it
orders against the humans and the segments that cost it acc_eq
(:mod:`scoring.stats.metric_drill_down`).

The stored result gives the points and settings: the test set's systems
(those every metric scored), the criterion, human scores as per-judge
z-scores or raw, and the metric's calibrated tie threshold of
``segment:acc_eq`` (0 without tie calibration). Only this metric's corpus
and sentence scores and the criterion's judgments are read (per-judge
z-scores are taken within a criterion, so the other criteria change
nothing), so a page costs one metric's segment rows, not every metric's.
The scores are today's: when they or the judgments changed since the job
ran, the page says so (``stale``), and its figures may differ from the
stored cells.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from django.core.paginator import Page, Paginator

from mtdash.common.metric_specs import higher_is_better
from mtdash.evaluation.models import (
    CorpusScore,
    ExternalCorpusScore,
    ExternalSegmentScore,
    Segment,
    SegmentScore,
    TestSet,
)
from mtdash.judgments.correlations.inputs import metric_columns, score_vectors
from mtdash.judgments.meta_evaluation.inputs import visible_outputs
from mtdash.judgments.meta_evaluation.jobs import request_of
from mtdash.judgments.meta_evaluation.options import settings_from_dict
from mtdash.judgments.meta_evaluation.page import ProtocolTable, protocol_table
from mtdash.judgments.models import Judgment, MetaEvaluation
from mtdash.judgments.reading import as_given_criteria, read_judgments
from scoring.stats import MetricDrillDown, MetricScores, drill_down_metric, human_scores

SEGMENTS_PER_PAGE = 50
EXTERNAL_SUFFIX = " (external)"  # an external metric named like a column


class NotInResult(Exception):
    """The job has no such test set or metric (the view answers 404)."""


def stored_block(job: MetaEvaluation, test_set_id: int) -> dict[str, Any]:
    """The stored result of ``test_set_id`` in a succeeded ``job``."""
    for block in (job.result or {}).get("test_sets", []):
        if block.get("test_set_id") == test_set_id:
            return block
    raise NotInResult(f"test set {test_set_id} is not in meta-evaluation {job.pk}")


def acc_eq_epsilon(block: dict[str, Any], metric: str) -> float:
    """The metric's stored tie threshold of ``segment:acc_eq`` (0 when it
    was not calibrated or not run)."""
    for task in block["tasks"]:
        if task["task"] == "segment:acc_eq":
            for cell in task["cells"]:
                if cell["metric"] == metric:
                    return float(cell.get("tie_epsilon") or 0.0)
    return 0.0


def one_metric_scores(
    test_set: TestSet, visible: dict[int, str], n_segments: int, metric: str
) -> MetricScores:
    """``metric``'s scores as :func:`~mtdash.judgments.correlations.inputs.
    metric_scores` reads them (a leaderboard column at its main signature,
    else an external metric, ``name (external)`` when a column has its name),
    without reading any other metric's segment rows."""
    columns = metric_columns(test_set, visible)
    if metric in columns:
        chosen = columns[metric]  # output id -> (CorpusScore id, signature)
        owners = {pk: visible[output_id] for output_id, (pk, _) in chosen.items()}
        values = CorpusScore.objects.filter(pk__in=list(owners))
        rows = SegmentScore.objects.filter(corpus_score_id__in=list(owners))
        higher = higher_is_better(metric)
    else:
        name = metric.removesuffix(EXTERNAL_SUFFIX)
        if name not in columns:  # only a clash with a column adds the suffix
            name = metric
        external = ExternalCorpusScore.objects.filter(
            metric__test_set=test_set, metric__name=name, output_id__in=list(visible)
        )
        owners = dict(external.values_list("pk", "output_id"))
        owners = {pk: visible[output_id] for pk, output_id in owners.items()}
        values = external
        rows = ExternalSegmentScore.objects.filter(corpus_score_id__in=list(owners))
        higher = bool(
            external.values_list("metric__higher_is_better", flat=True).first()
        )
    if not owners:
        raise NotInResult(f"no scores of metric {metric!r}")
    corpus = {owners[pk]: float(s) for pk, s in values.values_list("pk", "score")}
    triples = rows.values_list("corpus_score_id", "index", "score")
    vectors = score_vectors(triples, n_segments)
    sentence = {owners[pk]: vector for pk, vector in vectors.items()}
    return MetricScores(
        metrics=(metric,),
        systems=tuple(sorted(visible.values())),
        higher_is_better=MappingProxyType({metric: higher}),
        corpus=MappingProxyType({metric: MappingProxyType(corpus)}),
        sentence=MappingProxyType({metric: MappingProxyType(sentence)}),
    )


@dataclass(frozen=True)
class StoredDrillDown:
    """A metric's drill-down on one test set of a stored job (today's
    scores), what the page and the API show."""

    job: MetaEvaluation
    test_set: TestSet
    block: dict[str, Any]  # the test set's stored result
    drill: MetricDrillDown
    outputs: dict[str, int]  # system name -> visible output id
    gone: tuple[str, ...]  # stored systems without a visible judged output now
    stale: bool  # the scores or judgments changed since the job ran

    @property
    def cells(self) -> list[dict[str, Any]]:
        """The metric's stored cell of each task, with the task's name."""
        return [
            {"task": task["task"], **cell}
            for task in self.block["tasks"]
            for cell in task["cells"]
            if cell["metric"] == self.drill.metric
        ]


def drill_down(job: MetaEvaluation, test_set_id: int, metric: str) -> StoredDrillDown:
    """``metric`` on ``test_set_id`` of a succeeded ``job``, on today's
    scores; :class:`NotInResult` when the job has no such test set or metric."""
    block = stored_block(job, test_set_id)
    if metric not in block["metrics"]:
        raise NotInResult(f"metric {metric!r} is not in this meta-evaluation")
    test_set = TestSet.objects.filter(pk=test_set_id).first()
    if test_set is None:
        raise NotInResult(f"test set {test_set_id} was deleted")
    visible = visible_outputs(test_set)
    last = Segment.objects.filter(test_set=test_set).order_by("-index").first()
    n_segments = last.index + 1 if last is not None else 0
    scores = one_metric_scores(test_set, visible, n_segments, metric)
    judgments = read_judgments(
        Judgment.objects.filter(
            output_id__in=list(visible), criterion__name=job.criterion
        ),
        source=test_set.name,
        as_given=as_given_criteria(test_set),
    )
    settings = settings_from_dict(block["settings"])
    human = human_scores(judgments, job.criterion, standardise=settings.standardise)
    systems = tuple(s for s in block["systems"] if s in human.systems)
    epsilon = acc_eq_epsilon(block, metric)
    return StoredDrillDown(
        job=job,
        test_set=test_set,
        block=block,
        drill=drill_down_metric(scores, human, metric, systems, epsilon),
        outputs={name: pk for pk, name in visible.items()},
        gone=tuple(s for s in block["systems"] if s not in systems),
        stale=request_of(job).digest != job.inputs,
    )


@dataclass(frozen=True)
class SegmentRow:
    """A listed segment: its outcome, source sentence and sentence links."""

    outcome: Any  # scoring.stats.SegmentOutcome
    source: str
    output_id: int | None  # the sentence page of the first system in human order
    first_output_id: int | None  # the worst pair's two systems
    second_output_id: int | None


@dataclass(frozen=True)
class DrillDownPage:
    stored: StoredDrillDown
    table: ProtocolTable  # the stored cells of this metric only
    segments: Page  # of SegmentRow
    n_segments_listed: int  # segments with at least one pair

    @property
    def drill(self) -> MetricDrillDown:
        return self.stored.drill

    @property
    def test_set(self) -> TestSet:
        return self.stored.test_set

    @property
    def grouping(self) -> str:
        """The stored segment tasks' grouping (the drill-down's: item)."""
        return self.stored.block["settings"]["group_by"]

    @property
    def standardised(self) -> bool:
        return self.stored.block["settings"].get("human", "z") == "z"

    @property
    def epsilon(self) -> float:
        return self.drill.segments.epsilon

    @property
    def pairs(self) -> list:
        return self.drill.system_pairs.disagreements_first()

    @property
    def outcome_counts(self) -> dict[str, int]:
        """Pairs by outcome, keyed for templates ("metric tie" -> metric_tie)."""
        counts = self.drill.system_pairs.counts
        return {name.replace(" ", "_"): n for name, n in counts.items()}


def _segment_rows(
    test_set: TestSet, outcomes: list, outputs: dict[str, int], first_system: str
) -> list[SegmentRow]:
    sources = dict(
        Segment.objects.filter(
            test_set=test_set, index__in=[o.segment - 1 for o in outcomes]
        ).values_list("index", "source")
    )
    rows = []
    for outcome in outcomes:
        worst = outcome.worst_pair
        rows.append(
            SegmentRow(
                outcome=outcome,
                source=sources.get(outcome.segment - 1, ""),
                output_id=outputs.get(first_system),
                first_output_id=outputs.get(worst.first) if worst else None,
                second_output_id=outputs.get(worst.second) if worst else None,
            )
        )
    return rows


def drill_down_page(
    job: MetaEvaluation, test_set_id: int, metric: str, page: str | None = None
) -> DrillDownPage:
    """The page of :func:`drill_down`: the metric's stored cells and page
    ``page`` of the segments with a pair, most discordant first."""
    stored = drill_down(job, test_set_id, metric)
    table = protocol_table(stored.block)
    table = replace(table, rows=tuple(r for r in table.rows if r.metric == metric))
    listed = stored.drill.segments.by_discordant()
    segments = Paginator(listed, SEGMENTS_PER_PAGE).get_page(page)
    systems = stored.drill.system_pairs.systems_used
    segments.object_list = _segment_rows(
        stored.test_set,
        list(segments.object_list),
        stored.outputs,
        systems[0] if systems else "",
    )
    return DrillDownPage(
        stored=stored,
        table=table,
        segments=segments,
        n_segments_listed=len(listed),
    )
