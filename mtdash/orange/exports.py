"""ORANGE exports: CSV for spreadsheets, a LaTeX table like Tables 2–7 of the paper."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from mtdash.common.exports import (
    fixed,
    latex_escape,
    one_line,
    plain_number,
    spreadsheet_text,
)
from mtdash.orange.models import OrangeJob, OrangeScore

CSV_COLUMNS = (
    "metric", "orange_percent", "avg_rank", "ci_low", "ci_high", "orange_ci_low",
    "orange_ci_high", "n_sentences", "n_short", "max_candidates", "n_sentences_above",
    "n_candidates_above", "best", "signature",
)  # fmt: skip


def settings_line(job: OrangeJob) -> str:
    """The options that change the numbers, in one line."""
    references = "all references" if job.all_references else "jackknife"
    return (
        f"ORANGE over {job.nbest.name}: {len(job.reference_labels)} references "
        f"({', '.join(job.reference_labels)}), {references}, "
        f"{job.n_bootstrap} bootstrap samples, seed {job.seed}, "
        f"curve step {job.curve_step}"
    )


def orange_csv(
    job: OrangeJob, scores: Sequence[OrangeScore], best: Iterable[str]
) -> str:
    """One row per metric; ORANGE in percent, ranks 1-based, CIs 95% bootstrap.

    Text cells that a spreadsheet would run as a formula get a leading ``'``.
    """
    best = set(best)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for score in scores:
        writer.writerow(
            [
                spreadsheet_text(score.metric), repr(score.orange), repr(score.avg_rank),
                plain_number(score.ci_low), plain_number(score.ci_high),
                plain_number(score.orange_ci_low), plain_number(score.orange_ci_high),
                score.n_sentences, score.n_short, score.max_candidates,
                score.n_sentences_above, score.n_candidates_above,
                "yes" if score.metric in best else "", spreadsheet_text(score.signature),
            ]
        )  # fmt: skip
    writer.writerow(["# " + one_line(settings_line(job))])
    return buffer.getvalue()


def orange_latex(
    job: OrangeJob, scores: Sequence[OrangeScore], best: Iterable[str]
) -> str:
    """A booktabs table (Method, ORANGE, Avg Rank, 95%-CI-L, 95%-CI-U), best in bold."""
    best = set(best)
    # Comments end at a line break: a name typed with one must not end it.
    lines = [f"% {one_line(settings_line(job))}"]
    lines += [
        f"% {one_line(score.metric)}: {one_line(score.signature)}" for score in scores
    ]
    lines += [
        r"\begin{tabular}{lrrrr}",
        r"\toprule",
        r"Method & ORANGE & Avg Rank & 95\%-CI-L & 95\%-CI-U \\",
        r"\midrule",
    ]
    for score in scores:
        cells = [
            latex_escape(score.metric),
            f"{score.orange:.2f}\\%",
            fixed(score.avg_rank, 2),
            fixed(score.ci_low, 2),
            fixed(score.ci_high, 2),
        ]
        if score.metric in best:
            cells = [rf"\textbf{{{cell}}}" for cell in cells]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(lines)
