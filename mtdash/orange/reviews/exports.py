"""Exports of a review report: CSV for spreadsheets, a LaTeX table."""

from __future__ import annotations

import math

from mtdash.common.exports import csv_text, fixed, latex_escape, one_line
from mtdash.orange.reviews.report import ReviewReport

CSV_COLUMNS = (
    "reviewer", "good", "worse", "unsure", "share_worse", "share_worse_low",
    "share_worse_high",
)  # fmt: skip


def _settings(report: ReviewReport) -> str:
    return (
        f"review {report.review_id} of ORANGE job {report.job_id}, "
        f"metric {report.label}: {report.size} of {report.population} candidates "
        f"ranked above the references, seed {report.seed}; shares of 'worse' "
        f"among decided marks; low/high: {report.interval}"
    )


def review_csv(report: ReviewReport) -> str:
    """One row per reviewer and one for all of them; the sample's settings
    and the agreement between reviewers are ``#`` lines above the header
    (``pandas.read_csv(path, comment="#")`` skips them)."""
    rows = [
        [
            row.reviewer, row.good, row.worse, row.unsure,
            row.share_worse, row.low, row.high,
        ]
        for row in (*report.reviewers, report.overall)
    ]  # fmt: skip
    provenance = [_settings(report)]
    provenance += [
        f"agreement {pair.first} / {pair.second}: {pair.n_items} items, "
        f"raw {pair.raw_agreement!r}, kappa {_kappa_cell(pair)}"
        for pair in report.agreement
    ]
    return csv_text(CSV_COLUMNS, rows, provenance)


def review_latex(report: ReviewReport) -> str:
    lines = [
        f"% {one_line(_settings(report))}",
        r"\begin{tabular}{lrrrrr}",
        r"\toprule",
        r"Reviewer & Good & Worse & Unsure & Worse (\%) & 95\% Wilson CI \\",
        r"\midrule",
    ]
    for row in (*report.reviewers, report.overall):
        lines.append(
            " & ".join(
                [
                    latex_escape(row.reviewer),
                    str(row.good),
                    str(row.worse),
                    str(row.unsure),
                    fixed(_percent(row.share_worse), 1),
                    f"{fixed(_percent(row.low), 1)}--{fixed(_percent(row.high), 1)}",
                ]
            )
            + r" \\"
        )
    lines += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(lines)


def _percent(share: float) -> float | None:
    return None if math.isnan(share) else 100 * share


def _kappa_cell(pair) -> str:
    """Kappa as a number, or "undefined" and why (never "nan": the line is a
    comment, so there is no cell to leave empty)."""
    if math.isnan(pair.kappa):
        return f"undefined ({one_line(pair.kappa_undefined or '')})"
    return repr(pair.kappa)
