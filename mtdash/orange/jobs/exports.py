"""ORANGE exports: CSV for spreadsheets, a LaTeX table like Tables 2–7 of the paper."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mtdash.common.exports import csv_text, fixed, latex_escape, one_line
from mtdash.orange.labels import metric_label, metric_name
from mtdash.orange.models import OrangeJob, OrangeScore
from scoring.orange import (
    ORANGE_INTERVAL,
    paired_test_line,
    single_candidate_warning,
    table_decimals,
)

CSV_COLUMNS = (
    "metric", "label", "metric_name", "orange_percent", "avg_rank", "ci_low", "ci_high", "orange_ci_low",
    "orange_ci_high", "n_sentences", "n_short", "max_candidates", "n_sentences_above",
    "n_candidates_above", "best", "equivalent", "difference_percent",
    "difference_ci_low", "difference_ci_high", "p_value", "signature",
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


def provenance(job: OrangeJob) -> list[str]:
    """The settings, what the intervals are, and the warning if the list has
    one candidate per sentence: ``#`` lines of the CSV, ``%`` lines of LaTeX."""
    lines = [settings_line(job), f"intervals (ci_*, 95%-CI): {ORANGE_INTERVAL}"]
    if any(score.tested for score in job.scores.all()):
        lines.append(
            "paired test (best, equivalent, difference_*, p_value): "
            + paired_test_line()
        )
    warning = single_candidate_warning(job.nbest.max_candidates)
    return lines + ([f"WARNING: {warning}"] if warning else [])


def orange_csv(
    job: OrangeJob,
    scores: Sequence[OrangeScore],
    best: Iterable[str],
    equivalent: Iterable[str] = (),
) -> str:
    """One row per metric; ORANGE in percent, ranks 1-based, CIs 95% bootstrap
    percentile intervals, every digit; best / equivalent and the difference to
    the best from the paired test. :func:`provenance` is ``#`` lines above the
    header (``pandas.read_csv(path, comment="#")`` skips them).

    Text cells that a spreadsheet would run as a formula get a leading ``'``.
    """
    best, equivalent = set(best), set(equivalent)
    rows = [
        [
            score.metric, metric_label(score.metric), metric_name(score.metric),
            score.orange, score.avg_rank,
            score.ci_low, score.ci_high, score.orange_ci_low, score.orange_ci_high,
            score.n_sentences, score.n_short, score.max_candidates,
            score.n_sentences_above, score.n_candidates_above,
            "yes" if score.metric in best else None,
            "yes" if score.metric in equivalent else None,
            score.difference, score.difference_ci_low, score.difference_ci_high,
            score.p_value, score.signature,
        ]
        for score in scores
    ]  # fmt: skip
    return csv_text(CSV_COLUMNS, rows, provenance(job))


def orange_latex(
    job: OrangeJob,
    scores: Sequence[OrangeScore],
    best: Iterable[str],
    equivalent: Iterable[str] = (),
) -> str:
    """A booktabs table (Method, ORANGE, Avg Rank, 95%-CI-L, 95%-CI-U, and the
    ORANGE interval): the best metric in bold, those statistically equivalent
    to it in italics (the paper's green and gray cells). Ranks and their
    intervals get enough decimals that each interval differs from its rank."""
    best, equivalent = set(best), set(equivalent)
    # Comments end at a line break: a name typed with one must not end it.
    lines = [f"% {one_line(line)}" for line in provenance(job)]
    lines += [
        f"% {one_line(score.metric)}: {one_line(score.signature)}" for score in scores
    ]
    lines += [
        "% bold: best (lowest ORANGE, ties all bold); italics: statistically "
        "equivalent to the best "
        "(paired bootstrap, two-sided: the 95% interval of the difference "
        "contains 0)",
        r"\begin{tabular}{lrrrrr}",
        r"\toprule",
        r"Method & ORANGE & Avg Rank & 95\%-CI-L & 95\%-CI-U & ORANGE 95\%-CI \\",
        r"\midrule",
    ]
    places = table_decimals((s.avg_rank, s.ci_low, s.ci_high) for s in scores)
    for score in scores:
        cells = [
            _latex_method(score.metric),
            f"{score.orange:.2f}\\%",
            fixed(score.avg_rank, places),
            fixed(score.ci_low, places),
            fixed(score.ci_high, places),
            _orange_interval(score),
        ]
        if score.metric in best:
            cells = [rf"\textbf{{{cell}}}" for cell in cells]
        elif score.metric in equivalent:
            cells = [rf"\textit{{{cell}}}" for cell in cells]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(lines)


def _latex_method(spec: str) -> str:
    """``bleus:n=4, BLEU (add-one sentence)``: the label and, where the spec
    alone misleads, the name (ASCII punctuation, so any LaTeX font has it)."""
    name = metric_name(spec)
    label = metric_label(spec)
    return latex_escape(f"{label}, {name}" if name else label)


def _orange_interval(score: OrangeScore) -> str:
    if score.orange_ci_low is None or score.orange_ci_high is None:
        return "--"
    return f"{score.orange_ci_low:.2f}--{score.orange_ci_high:.2f}\\%"
