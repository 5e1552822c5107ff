"""The leaderboard of a test set: one row per system output, one column per metric.

Columns are keyed by the canonical metric spec (``scoring.canonical_spec``),
worked out here from whatever text a score was stored under, so ``BLEU``,
``bleu`` and ``bleu:n=4`` are one column however they were typed or stored.
Specs whose scores carry the same signature are one column too (a signature
records every parameter that changes the number; ``meteor`` and
``meteor:paraphrase=<a missing file>`` both say ``para:off``); the column is
named after the shortest of them. When an output holds several scores for one
column, the most recently computed one is shown.

Metrics computed elsewhere (``mtdash.judgments``: COMET, MetricX...) follow
as columns of their own, marked external: their corpus score is the stored
mean of their segment scores and their signature the description given at
import.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace

from mtdash.common.metric_specs import (
    at_main_signature,
    stored_spec,
    without_references,
)
from mtdash.evaluation.leaderboard.significance import (
    DEFAULT_TEST,
    ColumnComparison,
    HumanColumn,
    HumanValue,
    Significance,
    chosen_correction,
    chosen_test,
    correction_text,
    read_human_columns,
    read_significance,
)
from mtdash.evaluation.models import (
    CorpusScore,
    ExternalCorpusScore,
    MetricComparison,
    ScoringJob,
    SystemOutput,
    TestSet,
)
from scoring import MetricError, get_metric, list_metrics
from scoring.stats import DEFAULT_CORRECTION


def decimals_for_scale(scale: float) -> int:
    """Digits worth showing: 4 on the 0–1 scale, 2 on the 0–100 scale and for
    NIST (unbounded, typically 5–12). Every view of a score (leaderboard page,
    chart labels, LaTeX, job page) uses this; CSV keeps full precision."""
    return 2 if scale >= 10 else 4


def metric_decimals(spec: str) -> int:
    """:func:`decimals_for_scale` of the metric ``spec`` names (2 if unknown)."""
    try:
        return decimals_for_scale(get_metric(spec).scale)
    except MetricError:
        return 2


@dataclass(frozen=True)
class MetricColumn:
    name: str  # the canonical spec, e.g. "bleu" or "rouge-s:d=9"
    signature: str  # the signature most of the column's scores carry
    higher_is_better: bool
    scale: float  # scores lie in [0, scale]: 1.0 or 100.0 (NIST: unbounded)
    # Every signature found in the column, ``signature`` first; more than one
    # when outputs were scored by different versions.
    signatures: tuple[str, ...] = ()
    # Computed outside mtdash and imported (its scale is not known: ``scale``
    # only chooses the decimals, from the scores' magnitude).
    external: bool = False

    @property
    def decimals(self) -> int:
        return decimals_for_scale(self.scale)

    @property
    def scale_label(self) -> str:
        """``0–1``, ``0–100``, ``≥ 0`` (NIST) or ``external``, for column headers."""
        if self.external:
            return "external"
        if math.isinf(self.scale):
            return "≥ 0"
        return f"0–{self.scale:g}"


@dataclass(frozen=True)
class LeaderboardCell:
    """One score as a template shows it."""

    value: float | None
    column: MetricColumn
    signature: str = ""
    significance: Significance | None = None
    # The score is there but its interval is not computed yet (a worker will).
    pending: bool = False

    @property
    def in_best_cluster(self) -> bool:
        return self.significance is not None and self.significance.cluster == 1

    # The score of a human translation entered as a system: computed against
    # the other references, so its signature differs in them alone.
    human_translation: bool = False

    @property
    def other_signature(self) -> bool:
        """True when this score was computed under another signature than
        most of its column (e.g. by an older version)."""
        if not self.signature:
            return False
        if self.human_translation:
            return without_references(self.signature) != without_references(
                self.column.signature
            )
        return self.signature != self.column.signature


@dataclass(frozen=True)
class LeaderboardRow:
    system: str
    output_id: int
    scores: dict[str, float] = field(default_factory=dict)
    job_status: str = ""
    job_id: int | None = None
    rank: int | None = None
    # Scores aligned with Leaderboard.columns (None where not scored yet).
    cells: tuple[float | None, ...] = ()
    # The signature of each score, keyed like ``scores``.
    signatures: dict[str, str] = field(default_factory=dict)
    # Interval, cluster and rank range per column, where computed.
    significance: dict[str, Significance] = field(default_factory=dict)
    hidden: bool = False
    system_id: int | None = None
    # A reference entered as a system (its label), scored against the others.
    human_translation_of: str = ""


@dataclass(frozen=True)
class Leaderboard:
    test_set_id: int
    columns: tuple[MetricColumn, ...]
    rows: tuple[LeaderboardRow, ...]
    # Per column name: how its intervals and clusters were computed.
    comparisons: dict[str, ColumnComparison] = field(default_factory=dict)
    human_columns: tuple[HumanColumn, ...] = ()
    test: str = DEFAULT_TEST
    # Correction for multiple comparisons behind every cluster shown.
    correction: str = DEFAULT_CORRECTION

    @property
    def correction_text(self) -> str:
        return correction_text(self.correction)

    @property
    def primary_metric(self) -> str | None:
        return self.columns[0].name if self.columns else None

    @property
    def has_human_translations(self) -> bool:
        return any(row.human_translation_of for row in self.rows)

    @property
    def has_other_signatures(self) -> bool:
        return any(len(column.signatures) > 1 for column in self.columns)

    @property
    def primary_comparison(self) -> ColumnComparison | None:
        return self.comparisons.get(self.primary_metric or "")

    def cell(self, row: LeaderboardRow, column: MetricColumn) -> LeaderboardCell:
        value = row.scores.get(column.name)
        significance = row.significance.get(column.name)
        return LeaderboardCell(
            value,
            column,
            row.signatures.get(column.name, ""),
            significance,
            pending=value is not None and significance is None and not row.hidden,
            human_translation=bool(row.human_translation_of),
        )

    def display_rows(self) -> list[tuple[LeaderboardRow, list[LeaderboardCell]]]:
        """Each row with its cells paired with their columns, for templates."""
        return [
            (row, [self.cell(row, column) for column in self.columns])
            for row in self.rows
        ]

    def human_cells(self, row: LeaderboardRow) -> list[HumanValue | None]:
        return [column.values.get(row.output_id) for column in self.human_columns]


def build_leaderboard(
    test_set: TestSet,
    rank_by: str | None = None,
    test: str | None = None,
    correction: str | None = None,
) -> Leaderboard:
    """Rows ranked by ``rank_by`` (any spelling of a column's spec; default:
    BLEU if present, else the first metric by name), best first; outputs
    without that score come last; hidden outputs are left out. Each score
    carries its stored interval, cluster and rank range under ``test``
    (``bootstrap`` or ``ar``, the default) and ``correction`` (``holm``, the default,
    ``bonferroni`` or ``none``) when the comparison job has computed them."""
    test = chosen_test(test)
    correction = chosen_correction(correction)
    outputs = SystemOutput.objects.filter(test_set=test_set, hidden=False)
    outputs = outputs.select_related("system", "reference")
    latest_jobs = {}
    for job in ScoringJob.objects.filter(output__test_set=test_set).order_by(
        "created_at", "pk"
    ):
        latest_jobs[job.output_id] = job
    stored = list(
        CorpusScore.objects.filter(output__test_set=test_set)
        .order_by("computed_at", "pk")
        .values_list("output_id", "metric", "score", "signature")
    )
    column_of = column_names(
        [(metric, signature) for _, metric, _, signature in stored]
    )
    scores: dict[int, dict[str, float]] = {}
    signatures: dict[int, dict[str, str]] = {}
    for output_id, metric, score, signature in stored:  # oldest first: latest wins
        name = column_of[metric, signature]
        scores.setdefault(output_id, {})[name] = score
        signatures.setdefault(output_id, {})[name] = signature
    external = _external_columns(test_set, scores, signatures)
    stored_comparisons = list(
        MetricComparison.objects.filter(test_set=test_set).defer("matrices")
    )
    significance, comparisons = read_significance(
        stored_comparisons, scores, test, correction
    )
    rows = []
    for output in outputs:
        job = latest_jobs.get(output.pk)
        rows.append(
            LeaderboardRow(
                system=output.system.name,
                output_id=output.pk,
                system_id=output.system_id,
                scores=scores.get(output.pk, {}),
                signatures=signatures.get(output.pk, {}),
                job_status=job.status if job else "",
                job_id=job.pk if job else None,
                significance=significance.get(output.pk, {}),
                human_translation_of=(
                    output.reference.label if output.reference_id else ""
                ),
            )
        )
    # A metric only hidden outputs carry has no column (nothing to show, and
    # no signature to head it: it made the page fail).
    shown = {name for row in rows for name in row.scores}
    names = sorted(set(column_of.values()) & shown)
    names += [name for name in external if name not in names]
    primary = _primary(names, column_of, rank_by)
    if primary:
        names.remove(primary)
        names.insert(0, primary)
    columns = tuple(external.get(name) or _column(name, rows) for name in names)
    return Leaderboard(
        test_set.pk,
        columns,
        _ranked(rows, columns),
        comparisons=comparisons,
        human_columns=read_human_columns(stored_comparisons, correction),
        test=test,
        correction=correction,
    )


def _external_columns(
    test_set: TestSet,
    scores: dict[int, dict[str, float]],
    signatures: dict[int, dict[str, str]],
) -> dict[str, MetricColumn]:
    """Add the external metrics' scores to ``scores`` and ``signatures`` (by
    output id) and return their columns by name."""
    stored = ExternalCorpusScore.objects.filter(metric__test_set=test_set).values_list(
        "output_id",
        "score",
        "metric__name",
        "metric__description",
        "metric__higher_is_better",
    )
    columns: dict[str, MetricColumn] = {}
    magnitude: dict[str, float] = {}
    for output_id, score, name, description, higher_is_better in stored:
        scores.setdefault(output_id, {})[name] = score
        signatures.setdefault(output_id, {})[name] = description
        magnitude[name] = max(magnitude.get(name, 0.0), abs(score))
        columns[name] = MetricColumn(
            name, description, higher_is_better, 1.0, (description,), external=True
        )
    return {
        name: replace(column, scale=100.0 if magnitude[name] >= 10 else 1.0)
        for name, column in sorted(columns.items())
    }


def column_names(stored: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """Map each stored (metric spec, signature) to its column's name.

    Canonical specs that share a signature are joined (union-find); a group
    is named after its shortest spec.
    """
    parent: dict[str, str] = {}

    def root(spec: str) -> str:
        while parent[spec] != spec:
            parent[spec] = parent[parent[spec]]
            spec = parent[spec]
        return spec

    spec_with_signature: dict[str, str] = {}
    for metric, signature in stored:
        spec = stored_spec(metric)
        parent.setdefault(spec, spec)
        other = spec_with_signature.setdefault(signature, spec)
        a, b = sorted((root(spec), root(other)), key=lambda s: (len(s), s))
        parent[b] = a
    return {
        (metric, signature): root(stored_spec(metric)) for metric, signature in stored
    }


def _primary(
    names: list[str], column_of: dict[tuple[str, str], str], rank_by: str | None
) -> str | None:
    if rank_by:
        wanted = stored_spec(rank_by)
        by_spec = {stored_spec(metric): name for (metric, _), name in column_of.items()}
        if wanted in names or wanted in by_spec:
            return by_spec.get(wanted, wanted)
    return "bleu" if "bleu" in names else None


def _column(name: str, rows: list[LeaderboardRow]) -> MetricColumn:
    by_output = {
        row.output_id: row.signatures[name] for row in rows if name in row.signatures
    }
    human = {row.output_id for row in rows if row.human_translation_of}
    main, at_main = at_main_signature(by_output, lambda signature: signature, human)
    # Signatures that differ in more than a human translation's references,
    # most common first.
    others = Counter(s for oid, s in by_output.items() if oid not in at_main)
    signatures = (main, *sorted(others, key=lambda s: (-others[s], s)))
    higher_is_better, scale = _direction_and_scale(name, main)
    return MetricColumn(name, main, higher_is_better, scale, signatures)


def _direction_and_scale(spec: str, signature: str) -> tuple[bool, float]:
    try:
        metric = get_metric(spec)
        return metric.higher_is_better, float(metric.scale)
    except MetricError:
        # A spec this version cannot read: its signature still names the metric.
        infos = {info.name: info for info in list_metrics()}
        info = infos.get(signature.partition("|")[0])
        return (info.higher_is_better, info.scale) if info else (True, 1.0)


def _ranked(rows: list[LeaderboardRow], columns: tuple[MetricColumn, ...]):
    if not columns:
        return tuple(sorted(rows, key=lambda row: row.system))
    primary = columns[0]
    sign = -1.0 if primary.higher_is_better else 1.0
    scored = [row for row in rows if primary.name in row.scores]
    unscored = sorted(
        (row for row in rows if primary.name not in row.scores), key=lambda r: r.system
    )
    scored.sort(key=lambda row: (sign * row.scores[primary.name], row.system))
    ranks = [(rank, row) for rank, row in enumerate(scored, start=1)]
    ranks += [(None, row) for row in unscored]
    return tuple(
        replace(row, rank=rank, cells=tuple(row.scores.get(c.name) for c in columns))
        for rank, row in ranks
    )
