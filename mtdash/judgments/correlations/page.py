"""What the metric-evaluation page shows, read from the stored analysis.

The correlation tables are computed by the comparison job
(:mod:`mtdash.judgments.correlations.tables`); a request only reads the
stored ``correlations`` analysis and arranges one table (level, method) as
rows of metrics and columns of criteria, like Table 1 of the ORANGE paper.

Every view names its interval (two-sided percentile bootstrap, and what was
resampled) and its paired test against the best metric with the test's
sidedness, in the words stored with the table (``interval``,
``equivalence_test``), so the page, the CSV and LaTeX exports and the API
say the same. A table stored before those words existed resampled points
at sentence level: it is described so until the worker recomputes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mtdash.evaluation.models import TestSet, TestSetAnalysis
from mtdash.judgments.correlations.tables import (
    KIND,
    LEVELS,
    METHODS,
    table_key,
)
from mtdash.judgments.models import Judgment
from scoring.stats import describe_interval, describe_test

METHOD_LABELS = {"pearson": "Pearson", "spearman": "Spearman", "kendall": "Kendall"}
LEVEL_LABELS = {"system": "System level", "sentence": "Sentence level"}


@dataclass(frozen=True)
class Cell:
    metric: str
    criterion: str
    coefficient: float | None
    low: float | None
    high: float | None
    best: bool
    equivalent: bool
    p_value: float | None
    n_points: int
    too_few_points: bool = False
    compared_with: str | None = None  # the best metric the test was against

    @property
    def mark(self) -> str:
        return "best" if self.best else "equivalent" if self.equivalent else ""


@dataclass(frozen=True)
class Row:
    metric: str
    negated: bool
    cells: tuple[Cell | None, ...]


@dataclass(frozen=True)
class CorrelationView:
    """One stored table arranged for display."""

    level: str
    method: str
    criteria: tuple[str, ...]
    rows: tuple[Row, ...]
    n_points: dict[str, int]
    systems: dict[str, list[str]]
    excluded: dict[str, list[str]]
    best: dict[str, str | None]
    unavailable: list[dict]
    n_samples: int
    seed: int | None
    confidence: float
    alpha: float
    data: dict = field(repr=False)
    # What the intervals resampled and the paired test against the best, in
    # words (describe_interval / describe_test of scoring.stats).
    interval: dict = field(default_factory=dict)
    test: dict = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    too_few: dict[str, bool] = field(default_factory=dict)
    best_metrics: dict[str, list[str]] = field(default_factory=dict)

    @property
    def unit(self) -> str:
        return self.interval["unit"]

    @property
    def method_label(self) -> str:
        return METHOD_LABELS[self.method]

    @property
    def level_label(self) -> str:
        return LEVEL_LABELS[self.level]

    @property
    def headers(self) -> list[tuple[str, int, bool]]:
        """(criterion, points, too few points) of each column."""
        return [
            (c, self.n_points[c], self.too_few.get(c, False)) for c in self.criteria
        ]

    @property
    def negated(self) -> list[str]:
        return [row.metric for row in self.rows if row.negated]


@dataclass(frozen=True)
class CorrelationPage:
    state: str  # "no_judgments", "pending" or "ready"
    level: str
    method: str
    table: CorrelationView | None
    computing: bool  # other tables of the analysis are still being computed
    computed_at: object = None
    n_judgments: int = 0
    seconds: dict = field(default_factory=dict)


def choose(value: str | None, allowed: tuple[str, ...]) -> str:
    return value if value in allowed else allowed[0]


def _descriptions(data: dict) -> tuple[dict, dict]:
    """(interval, test) of a stored table; a table stored before they were
    (ANALYSIS_VERSION 1) resampled points at sentence level."""
    interval = data.get("interval") or describe_interval(
        data["confidence"],
        "system" if data["level"] == "system" else "point",
        data["n_samples"],
        data["seed"],
    )
    test = data.get("equivalence_test") or describe_test(
        data.get("test", "bootstrap"), data["alpha"]
    )
    return interval, test


def arrange(data: dict) -> CorrelationView:
    """A stored ``CorrelationTable.to_dict()`` as rows of metrics."""
    columns = data["criteria"]
    criteria = tuple(column["criterion"] for column in columns)
    by_cell = {}
    for column in columns:
        too_few = column.get("status") == "too few points"
        for cell in column["cells"]:
            by_cell[cell["metric"], column["criterion"]] = Cell(
                metric=cell["metric"],
                criterion=column["criterion"],
                coefficient=cell["coefficient"],
                low=cell["low"],
                high=cell["high"],
                best=cell["best"],
                equivalent=cell["equivalent"],
                p_value=cell["p_value"],
                n_points=cell["n_points"],
                too_few_points=too_few,
                compared_with=cell.get("compared_with"),
            )
    negated = set(data["negated"])
    rows = tuple(
        Row(
            metric,
            metric in negated,
            tuple(by_cell.get((metric, criterion)) for criterion in criteria),
        )
        for metric in data["metrics"]
    )
    interval, test = _descriptions(data)
    return CorrelationView(
        level=data["level"],
        method=data["method"],
        criteria=criteria,
        rows=rows,
        n_points={c["criterion"]: c["n_points"] for c in columns},
        systems={c["criterion"]: c["systems"] for c in columns},
        excluded={c["criterion"]: c["excluded_systems"] for c in columns},
        best={c["criterion"]: c["best_metric"] for c in columns},
        unavailable=data.get("unavailable", []),
        n_samples=data["n_samples"],
        seed=data["seed"],
        confidence=data["confidence"],
        alpha=data["alpha"],
        data=data,
        interval=interval,
        test=test,
        notes={c["criterion"]: c.get("note", "") for c in columns},
        too_few={c["criterion"]: c.get("status") == "too few points" for c in columns},
        best_metrics={
            c["criterion"]: c.get(
                "best_metrics", [c["best_metric"]] if c["best_metric"] else []
            )
            for c in columns
        },
    )


def stored_table(test_set: TestSet, level: str, method: str) -> dict | None:
    """The stored ``CorrelationTable.to_dict()`` (plus ``unavailable``)."""
    tables = (
        TestSetAnalysis.objects.filter(test_set=test_set, kind=KIND)
        .values_list(f"data__tables__{table_key(level, method)}", flat=True)
        .first()
    )
    return tables or None


def correlation_page(
    test_set: TestSet, level: str | None, method: str | None
) -> CorrelationPage:
    level, method = choose(level, LEVELS), choose(method, METHODS)
    analysis = TestSetAnalysis.objects.filter(test_set=test_set, kind=KIND).first()
    if analysis is None:
        state = (
            "pending"
            if Judgment.objects.filter(output__test_set=test_set).exists()
            else "no_judgments"
        )
        return CorrelationPage(state, level, method, None, computing=False)
    data = analysis.data
    stored = data["tables"].get(table_key(level, method))
    return CorrelationPage(
        "ready" if stored else "pending",
        level,
        method,
        arrange(stored) if stored else None,
        computing=not data.get("complete", False),
        computed_at=analysis.computed_at,
        n_judgments=data.get("n_judgments", 0),
        seconds=data.get("seconds", {}),
    )
