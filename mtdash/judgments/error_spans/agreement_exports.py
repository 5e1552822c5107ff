"""Exports of a span-level meta-evaluation: CSV (every metric, variant,
averaging and system, one row each, which ``pandas.read_csv(path,
comment="#")`` and the ``csv`` module read as is) and LaTeX (booktabs: one
variant and averaging, a row per metric with P, R and F1 and their
intervals).

Both carry the settings (gold, resamples, seed, interval) in the words the
page uses; metric and system names go through the shared escaping
(:mod:`mtdash.common.exports`).
"""

from __future__ import annotations

from collections.abc import Callable

from mtdash.common.exports import csv_text, fixed, latex_escape, one_line
from mtdash.judgments.error_spans.agreement_options import (
    AVERAGE_LABELS,
    VARIANT_LABELS,
    describe,
)
from mtdash.judgments.error_spans.agreement_section import Figures, span_table
from mtdash.judgments.models import ErrorSpanEvaluation

CSV_HEADER = [
    "metric",
    "variant",
    "average",
    "level",
    "system",
    "precision",
    "precision_low",
    "precision_high",
    "recall",
    "recall_low",
    "recall_high",
    "f1",
    "f1_low",
    "f1_high",
    "segments",
    "bootstrap",
    "seed",
    "confidence",
]
OVERALL, SYSTEM = "overall", "system"


def _bounds(interval: tuple[float, float] | None) -> list[float | None]:
    return [None, None] if interval is None else [interval[0], interval[1]]


def _figures(figures: Figures) -> list:
    cells: list = []
    for _, value, interval in figures.cells:
        cells += [value, *_bounds(interval)]
    return [*cells, figures.segments]


def _provenance(job: ErrorSpanEvaluation, settings: dict) -> list[str]:
    variants = "; ".join(f"{k} = {label}" for k, label in VARIANT_LABELS.items())
    averages = "; ".join(f"{k} = {label}" for k, label in AVERAGE_LABELS.items())
    return [
        f"span-level meta-evaluation of test set {job.test_set.name}: each metric's "
        "error spans against the human spans (Perrella et al. 2026; WMT25)",
        f"error-span evaluation {job.pk}: {describe(settings)}",
        f"variants: {variants}",
        f"averages: {averages}",
        "precision, recall and f1 are 0-1; level overall has an empty system",
    ]


def span_agreement_csv(job: ErrorSpanEvaluation) -> str:
    """Every figure of the stored result at full precision; ``*_low`` and
    ``*_high`` the interval's bounds (empty without bootstrap)."""
    settings = job.result["metrics"][0]["settings"]
    common = [settings["bootstrap"], settings["seed"], settings["confidence"]]
    rows = []
    for result in job.result["metrics"][0]["results"]:
        table = span_table(job.result, result["variant"], result["average"])
        for row in table.rows:
            key = [row.metric, table.variant, table.average]
            rows.append([*key, OVERALL, None, *_figures(row.overall), *common])
            rows += [
                [*key, SYSTEM, name, *_figures(figures), *common]
                for name, figures in row.systems
            ]
    return csv_text(CSV_HEADER, rows, _provenance(job, settings))


def _cell(value: float | None, interval: tuple[float, float] | None) -> str:
    text = fixed(value, 3)
    if interval is None:
        return text
    low, high = fixed(interval[0], 3), fixed(interval[1], 3)
    return rf"{text} {{\footnotesize [{low}, {high}]}}"


def span_agreement_latex(job: ErrorSpanEvaluation, variant: str, average: str) -> str:
    """The table of one variant and averaging, overall figures per metric."""
    table = span_table(job.result, variant, average)
    lines = [
        r"% Needs \usepackage{booktabs}.",
        f"% settings: {one_line(describe(table.settings))}",
        r"\begin{table}",
        r"\centering",
        r"\begin{tabular}{lrrrr}",
        r"\toprule",
        r"Metric & Precision & Recall & F$_1$ & Segments \\",
        r"\midrule",
    ]
    for row in table.rows:
        cells = [_cell(value, interval) for _, value, interval in row.overall.cells]
        name = latex_escape(row.metric)
        lines.append(" & ".join([name, *cells, str(row.overall.segments)]) + r" \\")
    intervals = (
        f"in brackets the {table.settings['confidence']:.0%} percentile bootstrap "
        f"interval over segments ({table.settings['bootstrap']:,} resamples, seed "
        f"{table.settings['seed']})"
        if table.has_intervals
        else "no bootstrap intervals"
    ).replace("%", r"\%")
    caption = (
        f"Span-level precision, recall and F$_1$ of each metric's error spans "
        f"against the human spans of {latex_escape(job.test_set.name)} "
        f"(gold: {latex_escape(table.settings['gold'])}): "
        f"{latex_escape(table.variant_label)} ({table.variant}), "
        f"{latex_escape(table.average_label)} averaging; {intervals}."
    )
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}"]
    lines += [r"\end{table}", ""]
    return "\n".join(lines)


# The formats a span-level meta-evaluation is exported in, by file suffix:
# each takes the job, the variant and the averaging.
FORMATS: dict[str, Callable[[ErrorSpanEvaluation, str, str], str]] = {
    "csv": lambda job, variant, average: span_agreement_csv(job),
    "tex": span_agreement_latex,
}
