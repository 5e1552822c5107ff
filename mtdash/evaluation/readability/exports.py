"""Readability exports: CSV for spreadsheets and pandas, LaTeX for papers.

A test set's readability (one row per text) and the cross-test-set tables
(scores in long form, one row per metric x system x test set; the stability
table, one row per metric x system plus each metric's average). Text a user
wrote is escaped for each format (``mtdash.common.exports``); CSV numbers
keep every digit, empty where missing.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from mtdash.common.exports import Cell, csv_text, fixed, latex_escape, one_line
from mtdash.evaluation.readability.page import TestSetReadability
from mtdash.evaluation.readability.stability import StabilityReport

FIGURES = ("asl", "asw", "flesch_reading_ease", "flesch_kincaid_grade")


def readability_csv(readability: TestSetReadability) -> str:
    """One row per text: counts and the four figures (empty where the
    language has no syllable rules), and the library's signature."""
    header = ["text", "label", "language", "measured", "n_segments", "n_sentences"]
    header += ["n_words", "n_syllables", *FIGURES, "syllables", "signature"]
    rows: list[list[Cell]] = []
    for text in readability.texts:
        figures = text.figures
        counts = (
            [figures.n_segments, figures.n_sentences, figures.n_words]
            + [figures.n_syllables]
            if figures
            else [None] * 4
        )
        values = [getattr(figures, name) if figures else None for name in FIGURES]
        row: list[Cell] = [text.role, text.label, text.language]
        row += [figures is not None, *counts, *values]
        row += [figures.syllables, figures.signature] if figures else [None, None]
        rows.append(row)
    return csv_text(header, rows)


def readability_latex(readability: TestSetReadability, name: str) -> str:
    """A booktabs table: text, sentences, words, ASL, ASW, FR, FKGL."""
    lines = [r"% Needs \usepackage{booktabs}."]
    signatures = {t.figures.signature for t in readability.texts if t.figures}
    lines += [f"% {one_line(signature)}" for signature in sorted(signatures)]
    lines += [
        r"\begin{table}",
        r"\centering",
        r"\begin{tabular}{llrrrrrr}",
        r"\toprule",
        r"Text & Language & Sentences & Words & ASL & ASW & FR & FKGL \\",
        r"\midrule",
    ]
    for text in readability.texts:
        figures = text.figures
        cells = [latex_escape(text.title), latex_escape(text.language)]
        if figures:
            cells += [str(figures.n_sentences), str(figures.n_words)]
            cells += [
                fixed(figures.asl, 2),
                fixed(figures.asw, 3),
                fixed(figures.flesch_reading_ease, 2),
                fixed(figures.flesch_kincaid_grade, 2),
            ]
        else:
            cells += [r"\multicolumn{6}{l}{no syllable rules for this language}"]
        lines.append(" & ".join(cells) + r" \\")
    caption = (
        f"Readability of {latex_escape(name)}: average sentence length (ASL, "
        "words per segment), average syllables per word (ASW), Flesch Reading "
        "Ease (FR) and Flesch-Kincaid grade (FKGL). Numbers are not words."
    )
    lines += [
        r"\bottomrule",
        r"\end{tabular}",
        rf"\caption{{{caption}}}",
        r"\end{table}",
        "",
    ]
    return "\n".join(lines)


def scores_csv(report: StabilityReport) -> str:
    """Long form: one row per metric, system and test set with the test
    set's ASW, C, the factor C**power, the raw and the normalised score."""
    header = ["metric", "power", "system", "test_set_id", "test_set", "text_type"]
    header += ["asw", "coefficient", "factor", "is_reference", "raw", "normalised"]
    rows: list[list[Cell]] = []
    for metric in report.metrics:
        table = metric.table
        if table is None:
            continue
        for system, raw, normalised, *_ in metric.rows:
            for column, text_type in enumerate(report.types):
                coefficient = table.coefficients[column]
                rows.append(
                    [metric.spec, metric.power, system, text_type.test_set.pk]
                    + [text_type.label, text_type.test_set.text_type]
                    + [text_type.asw, coefficient, coefficient**metric.power]
                    + [text_type is report.reference, raw[column]]
                    + [normalised[column]]
                )
    return csv_text(header, rows)


def stability_csv(report: StabilityReport) -> str:
    """Table 5: per metric and system the sample standard deviation across
    the test sets, raw and normalised; then a row ``average`` per metric with
    the means and the improvement (raw / normalised)."""
    header = ["metric", "power", "row", "system", "n_test_sets", "raw_stdev"]
    header += ["normalised_stdev", "improvement"]
    rows: list[list[Cell]] = []
    for metric in report.metrics:
        table = metric.table
        if table is None:
            continue
        for system, raw, _, raw_sd, normalised_sd in metric.rows:
            present = sum(1 for value in raw if not math.isnan(value))
            rows.append(
                [metric.spec, metric.power, "system", system, present, raw_sd]
                + [normalised_sd, None]
            )
        rows.append(
            [metric.spec, metric.power, "average", None, None]
            + [table.average_raw_stdev, table.average_normalised_stdev]
            + [table.improvement]
        )
    return csv_text(header, rows)


def stability_latex(report: StabilityReport) -> str:
    """One booktabs table per metric, as the page shows it: raw and
    normalised scores per test set, each system's standard deviations, their
    averages and the improvement factor (Tables 4-5 of the paper)."""
    lines = [r"% Needs \usepackage{booktabs}."]
    reference = latex_escape(report.reference.label) if report.reference else ""
    for metric in report.metrics:
        table = metric.table
        if table is None:
            continue
        n = len(report.types)
        decimals = metric.decimals
        factor = "C^2" if metric.power == 2 else "C"
        heads = [latex_escape(t.label) for t in report.types]
        lines += [
            r"\begin{table}",
            r"\centering",
            r"\begin{tabular}{l" + "r" * (2 * n + 2) + "}",
            r"\toprule",
            rf" & \multicolumn{{{n}}}{{c}}{{raw}}"
            rf" & \multicolumn{{{n}}}{{c}}{{normalised ($\times {factor}$)}}"
            r" & \multicolumn{2}{c}{standard deviation} \\",
            "System & " + " & ".join(heads + heads) + r" & raw & norm. \\",
            f"${factor}$ & "
            + " & ".join(
                [""] * n + [fixed(c**metric.power, 3) for c in table.coefficients]
            )
            + r" & & \\",
            r"\midrule",
        ]
        for system, raw, normalised, raw_sd, normalised_sd in metric.rows:
            cells = [latex_escape(system)]
            cells += [_fixed(v, decimals) for v in (*raw, *normalised)]
            cells += [_fixed(raw_sd, decimals), _fixed(normalised_sd, decimals)]
            lines.append(" & ".join(cells) + r" \\")
        lines += [
            r"\midrule",
            "Average"
            + " &" * (2 * n)
            + f" & {_fixed(table.average_raw_stdev, decimals)}"
            + f" & {_fixed(table.average_normalised_stdev, decimals)}"
            + r" \\",
            rf"Improved $\times$ & \multicolumn{{{2 * n + 2}}}{{r}}"
            rf"{{{_fixed(table.improvement, 3)}}} \\",
            r"\bottomrule",
            r"\end{tabular}",
            rf"\caption{{{latex_escape(metric.spec)} across text types, raw and "
            rf"normalised by complexity: $C$ = ASW / ASW of {reference}, "
            rf"measured on the {report.measure_on}, normalised score = score "
            rf"$\times {factor}$ "
            r"(Babych et al., 2005); sample standard deviations across the test "
            r"sets; improvement = average raw / average normalised deviation.}",
            r"\end{table}",
            "",
        ]
    return "\n".join(lines)


def _fixed(value: float, decimals: int) -> str:
    return fixed(None if value is None or math.isnan(value) else value, decimals)


# Exports of a test set's readability, and of the cross-test-set tables, by suffix.
TEST_SET_FORMATS: dict[str, Callable] = {
    "csv": readability_csv,
    "tex": readability_latex,
}
STABILITY_FORMATS: dict[str, Callable[[StabilityReport], str]] = {
    "scores.csv": scores_csv,
    "stability.csv": stability_csv,
    "tex": stability_latex,
}


def stability_dict(report: StabilityReport) -> dict:
    """The API's object: the text types with their readability and C, and
    per metric the library's StabilityTable (NaN as null)."""
    reference = report.reference
    return {
        "measure_on": report.measure_on,
        "reference_test_set": reference.test_set.pk if reference else None,
        "normalisation": "C = ASW(test set) / ASW(reference test set); "
        "normalised BLEU = BLEU * C**2, normalised WNM = WNM * C "
        "(Babych, Elliott & Hartley 2005)",
        "test_sets": [
            {
                "id": text_type.test_set.pk,
                "name": text_type.test_set.name,
                "label": text_type.label,
                "text_type": text_type.test_set.text_type,
                "coefficient": c,
                "is_reference": text_type is reference,
                "readability": text_type.figures.to_dict(),
            }
            for text_type, c, _ in report.type_rows
        ],
        "metrics": [
            {
                "metric": metric.metric,
                "spec": metric.spec,
                "power": metric.power,
                "table": metric.table.to_dict() if metric.table else None,
                "missing": metric.missing or None,
            }
            for metric in report.metrics
        ],
        "correlations": (
            report.correlations.to_dict() if report.correlations else None
        ),
    }
