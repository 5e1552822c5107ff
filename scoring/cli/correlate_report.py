"""The text of ``correlate --test permutation``: one table per test set and
criterion, then the overall tables, in the layout of
:mod:`scoring.stats.report` (a few header lines, aligned columns, "-" for
an undefined number).

Each table lists the metrics best first: the statistic ("higher is better";
error rates negated), the calibrated tie threshold epsilon when calibrated,
the one-sided p-value of "the best metric is better than this one" and the
rank cluster (1 = top).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from scoring.stats.pooled_meta_evaluation import PooledRanking
from scoring.stats.wmt_protocol import ProtocolSettings
from scoring.stats.wmt_results import ProtocolResult, TaskResult, overall_cells

TASK_LABELS = {
    "system:pearson": "Pearson's r, system level",
    "system:accuracy": "pairwise accuracy (Kocmi et al. 2021), system level",
    "system:spa": "soft pairwise accuracy (Thompson et al. 2024), system level",
    "segment:acc_eq": "acc_eq (acc23, Deutsch et al. 2023), sentence level",
    "segment:kendall": "Kendall tau-{variant}, sentence level",
    "segment:pearson": "Pearson's r, sentence level",
}
GROUPING_LABELS = {
    "none": "none (every judged point at once)",
    "item": "by item (the systems' translations of one segment)",
    "system": "by system (one system's segments)",
}


def _number(value: float | None, digits: int = 4) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _table(rows: Sequence[Sequence[str]]) -> str:
    """Align columns: the first left, the others right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]
    return "\n".join(lines) + "\n"


def _header(settings: ProtocolSettings) -> str:
    (task,) = settings.tasks
    human = "per-judge z-scores" if settings.standardise else "raw"
    lines = [
        TASK_LABELS[task].format(variant=settings.kendall_variant)
        + f", human scores: {human}"
    ]
    if task == "segment:pearson":
        lines.append(f"grouping: {GROUPING_LABELS[settings.pearson_group_by]}")
    elif task in ("segment:acc_eq", "segment:kendall"):
        lines.append(f"grouping: {GROUPING_LABELS[settings.group_by]}")
        if task == "segment:acc_eq" or settings.kendall_variant != "b":
            if not settings.tie_calibration:
                calibration = "off (every tie threshold 0; WMT calibrates)"
            elif settings.tie_sample_rate < 1.0:
                calibration = f"search over a sample of thresholds (rate {settings.tie_sample_rate:g})"
            else:
                calibration = "exact search over every threshold"
            lines.append(f"tie calibration: {calibration}")
    lines.append(
        'p vs best: one-sided permutation test (PERM-BOTH) of "the best metric is '
        f'better", {settings.n_permutations} draws from seed {settings.seed} (one '
        "stream per test set)"
    )
    lines.append(
        f"cluster: 1 = top rank; a new cluster starts where p <= {settings.alpha:g} "
        "against any metric of the current cluster"
    )
    return "\n".join(lines) + "\n"


def _task_table(task: TaskResult, calibrated: bool) -> str:
    header = ["metric", task.ranking.statistic]
    if calibrated:
        header.append("epsilon")
    rows = [header + ["p vs best", "cluster"]]
    for cell in task.cells():
        row = [cell["metric"], _number(cell["coefficient"])]
        if calibrated:
            row.append(_number(cell["tie_epsilon"]))
        rows.append(row + [_number(cell["p_value"]), str(cell["cluster"])])
    return _table(rows)


def _result_text(name: str, result: ProtocolResult) -> str:
    (task,) = result.tasks
    text = f"{name}, {result.criterion}: {len(result.systems)} systems"
    if result.excluded_systems:
        text += f"; left out (no metric scores): {', '.join(result.excluded_systems)}"
    text += "\n"
    if result.negated:
        text += f"negated (lower is better): {', '.join(result.negated)}\n"
    notes = {
        key: value
        for key, value in task.notes.items()
        if key not in ("variant", "tie_calibration")  # in the header
    }
    if notes:
        text += "; ".join(
            f"{key.replace('_', ' ')}: {value}" for key, value in notes.items()
        )
        text += "\n"
    return text + _task_table(task, bool(task.epsilons))


def _overall_text(criterion: str, names: Sequence[str], pooled: PooledRanking) -> str:
    weights = ", ".join(
        f"{name} {weight:.4g}" for name, weight in zip(names, pooled.weights)
    )
    text = (
        f"overall, {criterion}: weighted mean of the statistics rescaled to [0, 1] "
        f"(weights {weights})\n"
    )
    rows = [["metric", "overall", "p vs best", "cluster"]]
    for cell in overall_cells(pooled):
        rows.append(
            [
                cell["metric"],
                _number(cell["coefficient"]),
                _number(cell["p_value"]),
                str(cell["cluster"]),
            ]
        )
    text += _table(rows)
    if pooled.excluded_metrics:
        text += (
            "left out (not scored in every test set): "
            f"{', '.join(pooled.excluded_metrics)}\n"
        )
    return text


def permutation_report(
    settings: ProtocolSettings,
    results: Mapping[str, Mapping[str, ProtocolResult]],
    pooled: Mapping[str, PooledRanking],
) -> str:
    """The header, a table per test set and criterion, an overall table per
    pooled criterion; ``results[test set][criterion]``."""
    parts = [_header(settings)]
    for name, by_criterion in results.items():
        parts += [_result_text(name, result) for result in by_criterion.values()]
    parts += [
        _overall_text(criterion, list(results), ranking)
        for criterion, ranking in pooled.items()
    ]
    return "\n".join(parts)
