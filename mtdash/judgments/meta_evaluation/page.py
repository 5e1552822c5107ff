"""A stored meta-evaluation arranged for the pages and exports.

One table per test set, like the WMT metrics task's results tables: a row
per metric, a column per task, each cell the task's statistic ("higher is
better": error rates were negated) with its rank cluster (1 = top; metrics of
one cluster cannot be told apart by the permutation test), shaded by cluster
(rank 1 darkest). Rows are ordered by the mean of a metric's clusters over
the tasks (then as the first task ranks them). With two test sets or more,
the overall table: each metric's weighted mean of its rescaled statistics
(0–1), its overall cluster and the p-value against the best.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mtdash.judgments.meta_evaluation.options import (
    GROUPINGS,
    KENDALL_NAMES,
    TASK_LABELS,
    describe,
)
from mtdash.judgments.models import MetaEvaluation
from mtdash.orange.labels import metric_label

SHADES = 5  # cluster shades: 5 is the top cluster's (darkest), 1 the last's


def shade(cluster: int, n_clusters: int) -> int:
    """The shade of ``cluster`` among ``n_clusters``: SHADES for the first,
    1 for the last, evenly in between.

    >>> [shade(c, 3) for c in (1, 2, 3)], shade(1, 1)
    ([5, 3, 1], 5)
    """
    if n_clusters <= 1:
        return SHADES
    return SHADES - round((SHADES - 1) * (cluster - 1) / (n_clusters - 1))


@dataclass(frozen=True)
class Column:
    """One task: its level and statistic as the header says them."""

    task: str
    level: str
    label: str
    detail: str
    n_clusters: int
    description: str  # the permutation test, in the library's words
    note: str = ""


@dataclass(frozen=True)
class Cell:
    value: float | None
    cluster: int
    p_value: float | None
    epsilon: float | None
    shade: int


@dataclass(frozen=True)
class OrangeFigure:
    """The ORANGE % of the same metric on the newest ORANGE job that has it."""

    orange: float | None
    low: float | None
    high: float | None
    job_id: int
    url: str
    nbest: str
    label: str


@dataclass(frozen=True)
class Row:
    metric: str
    negated: bool
    cells: tuple[Cell | None, ...]
    mean_cluster: float
    orange: OrangeFigure | None = None


@dataclass(frozen=True)
class ProtocolTable:
    """One test set's tasks (``ProtocolResult.to_dict()`` as stored)."""

    name: str
    test_set_id: int
    weight: float
    criterion: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    systems: tuple[str, ...]
    excluded_systems: tuple[str, ...]
    metrics_left_out: tuple[str, ...]
    seconds: float | None
    settings: dict = field(repr=False)

    @property
    def html_id(self) -> str:
        return f"meta-table-{self.test_set_id}"

    @property
    def has_orange(self) -> bool:
        return any(row.orange is not None for row in self.rows)

    @property
    def negated(self) -> list[str]:
        return [row.metric for row in self.rows if row.negated]

    @property
    def settings_text(self) -> str:
        return describe(self.settings)


@dataclass(frozen=True)
class OverallRow:
    metric: str
    value: float | None
    cluster: int
    p_value: float | None
    shade: int

    @property
    def p_text(self) -> str:
        """The p-value as the page shows it: "–" for the best, "< 0.001"
        when no draw reached the observed difference."""
        if self.p_value is None:
            return "–"
        return "< 0.001" if self.p_value < 0.0005 else f"{self.p_value:.3f}"


@dataclass(frozen=True)
class OverallTable:
    """The pooled ranking over the test sets."""

    rows: tuple[OverallRow, ...]
    n_clusters: int
    weights: tuple[tuple[str, float], ...]  # (test set, share of the total)
    excluded_metrics: tuple[str, ...]
    description: str


def _column(task: dict[str, Any]) -> Column:
    name = task["task"]
    level, label = TASK_LABELS.get(name, ("", name))
    grouping = task.get("grouping", "")
    details = []
    if name == "segment:kendall":
        variant = task.get("variant", "")
        label = f"Kendall {KENDALL_NAMES.get(variant, variant)}"
    if name.startswith("segment:"):
        details.append(GROUPINGS.get(grouping, grouping))
    if task.get("tie_calibration"):
        details.append("ε calibrated")
    note = ""
    if name == "system:spa" and "segments_used" in task:
        note = (
            f"SPA used {task['segments_used']} of {task['segments']} segments "
            f"(left out: {task['segments_missing_human_score']} without every "
            f"system's human score, {task['segments_missing_metric_score']} "
            "without every metric score)"
        )
    clusters = [cell["cluster"] for cell in task["cells"]]
    return Column(
        task=name,
        level=level,
        label=label,
        detail=" · ".join(details),
        n_clusters=max(clusters, default=0),
        description=task.get("test", ""),
        note=note,
    )


def orange_figures(summary: list[dict[str, Any]]) -> dict[str, OrangeFigure]:
    """Metric spec or label -> its figure on the newest ORANGE job that has
    it (``summary``: :func:`mtdash.orange.summary.orange_summary`)."""
    found: dict[str, OrangeFigure] = {}
    for job in summary:  # newest first: the first figure of a metric wins
        for metric in job["metrics"]:
            figure = OrangeFigure(
                orange=metric["orange"],
                low=metric["orange_ci_low"],
                high=metric["orange_ci_high"],
                job_id=job["job_id"],
                url=job["url"],
                nbest=job["nbest"],
                label=metric["label"],
            )
            for key in (metric["metric"], metric["label"]):
                found.setdefault(key, figure)
    return found


def _orange_of(metric: str, figures: dict[str, OrangeFigure]) -> OrangeFigure | None:
    return figures.get(metric) or figures.get(metric_label(metric))


def protocol_table(
    block: dict[str, Any], orange: dict[str, OrangeFigure] | None = None
) -> ProtocolTable:
    """A stored test set's result as rows of metrics and columns of tasks."""
    tasks = block["tasks"]
    columns = tuple(_column(task) for task in tasks)
    by_cell: dict[tuple[str, int], Cell] = {}
    for position, (task, column) in enumerate(zip(tasks, columns)):
        for cell in task["cells"]:
            by_cell[cell["metric"], position] = Cell(
                value=cell["coefficient"],
                cluster=cell["cluster"],
                p_value=cell["p_value"],
                epsilon=cell.get("tie_epsilon"),
                shade=shade(cell["cluster"], column.n_clusters),
            )
    first_order = {
        cell["metric"]: i for i, cell in enumerate(tasks[0]["cells"] if tasks else [])
    }
    negated = set(block.get("negated", []))
    rows = []
    for metric in block["metrics"]:
        cells = tuple(by_cell.get((metric, i)) for i in range(len(columns)))
        clusters = [cell.cluster for cell in cells if cell is not None]
        rows.append(
            Row(
                metric=metric,
                negated=metric in negated,
                cells=cells,
                mean_cluster=sum(clusters) / len(clusters) if clusters else 0.0,
                orange=_orange_of(metric, orange) if orange else None,
            )
        )
    rows.sort(key=lambda row: (row.mean_cluster, first_order.get(row.metric, 0)))
    return ProtocolTable(
        name=block["test_set"],
        test_set_id=block.get("test_set_id", 0),
        weight=block.get("weight", 1.0),
        criterion=block["criterion"],
        columns=columns,
        rows=tuple(rows),
        systems=tuple(block.get("systems", [])),
        excluded_systems=tuple(block.get("excluded_systems", [])),
        metrics_left_out=tuple(block.get("metrics_left_out", [])),
        seconds=block.get("seconds"),
        settings=block["settings"],
    )


def overall_table(result: dict[str, Any]) -> OverallTable | None:
    """The stored pooled ranking (None for a single test set)."""
    overall = result.get("overall")
    if not overall:
        return None
    cells = overall["cells"]
    n_clusters = max((cell["cluster"] for cell in cells), default=0)
    blocks = result["test_sets"]
    total = sum(block["weight"] for block in blocks) or 1.0
    return OverallTable(
        rows=tuple(
            OverallRow(
                metric=cell["metric"],
                value=cell["coefficient"],
                cluster=cell["cluster"],
                p_value=cell["p_value"],
                shade=shade(cell["cluster"], n_clusters),
            )
            for cell in cells
        ),
        n_clusters=n_clusters,
        weights=tuple((block["test_set"], block["weight"] / total) for block in blocks),
        excluded_metrics=tuple(overall.get("excluded_metrics", [])),
        description=overall.get("overall", {}).get("test", ""),
    )


@dataclass(frozen=True)
class JobTables:
    """Everything a finished job shows: the overall table (two test sets or
    more) and each test set's."""

    job: MetaEvaluation
    overall: OverallTable | None
    tables: tuple[ProtocolTable, ...]

    @property
    def settings_text(self) -> str:
        return describe(self.job.protocol_settings)


def job_tables(
    job: MetaEvaluation, orange: dict[str, OrangeFigure] | None = None
) -> JobTables | None:
    """The tables of a succeeded job, else None."""
    if job.status != MetaEvaluation.Status.SUCCEEDED or not job.result:
        return None
    return JobTables(
        job=job,
        overall=overall_table(job.result),
        tables=tuple(protocol_table(b, orange) for b in job.result["test_sets"]),
    )
