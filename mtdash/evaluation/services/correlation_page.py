"""What the metric-evaluation page shows, read from the stored analysis.

The correlation tables are computed by the comparison job
(:mod:`mtdash.judgments.services.correlations`); a request only reads the
stored ``correlations`` analysis and arranges one table (level, method) as
rows of metrics and columns of criteria, like Table 1 of the ORANGE paper.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mtdash.evaluation.models import TestSet, TestSetAnalysis
from mtdash.judgments.models import Judgment
from mtdash.judgments.services.correlations import (
    KIND,
    LEVELS,
    METHODS,
    table_key,
)

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

    @property
    def method_label(self) -> str:
        return METHOD_LABELS[self.method]

    @property
    def level_label(self) -> str:
        return LEVEL_LABELS[self.level]

    @property
    def headers(self) -> list[tuple[str, int]]:
        return [(c, self.n_points[c]) for c in self.criteria]

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


def arrange(data: dict) -> CorrelationView:
    """A stored ``CorrelationTable.to_dict()`` as rows of metrics."""
    columns = data["criteria"]
    criteria = tuple(column["criterion"] for column in columns)
    by_cell = {}
    for column in columns:
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
