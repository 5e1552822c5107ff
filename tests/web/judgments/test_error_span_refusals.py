"""Every refusal of an error-span import: the message names the file, the
line and the problem, and nothing is stored."""

from __future__ import annotations

import pytest

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.external_scores.imports import ExternalMetricProblem
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.error_spans.options import SpanImportOptions
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import (
    Criterion,
    ErrorSpan,
    ErrorSpanAnnotation,
    Judgment,
    JudgmentImport,
)
from tests.web.judgments.error_span_support import annotated_fixture  # noqa: F401
from tests.web.judgments.span_world import (
    ESA_LINES,
    METRIC,
    METRIC_LINES,
    MQM_ROWS,
    OUTPUTS,
    SOURCES,
    jsonl,
    mqm_tsv,
    span,
)

pytestmark = pytest.mark.django_db


def stored() -> tuple[int, ...]:
    return tuple(
        model.objects.count()
        for model in (
            JudgmentImport,
            ErrorSpanAnnotation,
            ErrorSpan,
            Judgment,
            Criterion,
        )
    )


def refused(test_set, data, name, **fields) -> UploadProblem:
    before = stored()
    with pytest.raises(UploadProblem) as caught:
        options = SpanImportOptions.from_fields(**fields)
        import_error_spans(test_set, None, data, name, options)
    assert stored() == before
    return caught.value


def with_row(position: int, row: tuple) -> bytes:
    """The MQM file with ``row`` at ``position`` (file line position + 2)."""
    return mqm_tsv([*MQM_ROWS[:position], row, *MQM_ROWS[position:]])


def with_line(position: int, line: dict) -> bytes:
    return jsonl([*ESA_LINES[:position], line, *ESA_LINES[position:]])


SENTENCE = ("le chat est sur le tapis", "the cat is on the mat")
MQM_CASES = {
    "unknown system": (
        ("delta", 1, "r1", "No-error", "No-error", *SENTENCE),
        "unknown system 'delta': the test set has outputs of alpha, beta, gamma",
    ),
    "segment out of range": (
        ("alpha", 4, "r3", "No-error", "No-error", *SENTENCE),
        "segment 4 is not in the test set (it has 3 segments, numbered 1 to 3)",
    ),
    "bad severity": (
        ("alpha", 2, "r3", "Style", "Severe", None, "<v>it</v> is raining"),
        "unknown severity 'severe' (known: minor, major, critical, neutral, or "
        "No-error)",
    ),
}


@pytest.mark.parametrize("case", MQM_CASES)
def test_an_mqm_file_is_refused_naming_the_line(annotated, case):
    row, message = MQM_CASES[case]
    problem = refused(annotated, with_row(4, row), "mqm.tsv")
    assert (problem.file_name, problem.line, problem.problem) == ("mqm.tsv", 6, message)


def changed(system, segment, side, old, new) -> bytes:
    """The MQM file with ``old`` replaced by ``new`` in the ``side`` text of
    every row of the system's segment (all rows must carry the same texts)."""
    position = 5 if side == "source" else 6
    rows = []
    for row in MQM_ROWS:
        if row[:2] == (system, segment):
            text = (
                row[position]
                or (SOURCES if side == "source" else OUTPUTS[system])[segment - 1]
            )
            row = (*row[:position], text.replace(old, new), *row[position + 1 :])
        rows.append(row)
    return mqm_tsv(rows)


def test_texts_that_are_not_the_stored_ones_are_refused(annotated):
    problem = refused(annotated, changed("alpha", 1, "target", "mat", "rug"), "m.tsv")
    assert (problem.line, problem.problem) == (
        2,
        "the target of system 'alpha', segment 1 (markers removed) is not the "
        "stored hypothesis of that system: they differ from character 19 on (21 "
        "characters here, 21 stored); spans are offsets into the stored text",
    )
    problem = refused(annotated, changed("beta", 2, "source", "pleut", "neige!"), "m")
    assert (problem.line, problem.problem) == (
        10,
        "the source of system 'beta', segment 2 (markers removed) is not the "
        "stored source: they differ from character 4 on (9 characters here, 8 "
        "stored); spans are offsets into the stored text",
    )


JSONL_CASES = {
    "offsets past the target": (
        {"segment": 2, "system": "alpha", "annotator": "e3", "spans": [span(3, 14)]},
        "span 1 of system 'alpha', segment 2: end 14 is past the end of the target "
        "text (13 characters)",
    ),
    "offsets past the source": (
        {"segment": 2, "system": "alpha", "annotator": "e3",
         "spans": [span(0, 2), span(3, 9, side="source")]},
        "span 2 of system 'alpha', segment 2: end 9 is past the end of the source "
        "text (8 characters)",
    ),
    "start not before end": (
        {"segment": 2, "system": "alpha", "annotator": "e3", "spans": [span(3, 3)]},
        "span 1: start 3 is not before end 3 (a span marks at least one character)",
    ),
    "bad severity": (
        {"segment": 2, "system": "alpha", "annotator": "e3",
         "spans": [span(0, 2, "fatal")]},
        "span 1: unknown severity 'fatal' (known: minor, major, critical, neutral)",
    ),
    "score out of range": (
        {"segment": 2, "system": "alpha", "annotator": "e3", "score": 120, "spans": []},
        "system 'alpha', segment 2, annotator 'e3': score 120 is out of range for "
        "esa (0–100)",
    ),
    "unknown system": (
        {"segment": 1, "system": "omega", "annotator": "e3", "spans": []},
        "unknown system 'omega': the test set has outputs of alpha, beta, gamma",
    ),
    "a metric's line": (
        {"segment": 1, "system": "alpha", "metric": "m", "spans": []},
        'a metric\'s spans in a file of annotators\' spans (expected "annotator")',
    ),
    "category too long": (
        {"segment": 1, "system": "alpha", "annotator": "e3",
         "spans": [span(0, 3, category="x" * 201)]},
        "span 1: the category is 201 characters long; at most 200 are allowed",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", JSONL_CASES)
def test_a_spans_file_is_refused_naming_the_line(annotated, case):
    line, message = JSONL_CASES[case]
    problem = refused(annotated, with_line(2, line), "esa.jsonl")
    assert (problem.file_name, problem.line, problem.problem) == (
        "esa.jsonl",
        3,
        message,
    )


def test_the_first_problem_in_the_file_is_named(annotated):
    data = mqm_tsv(
        [
            *MQM_ROWS[:3],
            ("alpha", 4, "r9", "No-error", "No-error", *SENTENCE),
            *MQM_ROWS[3:],
            ("delta", 1, "r1", "No-error", "No-error", "x", "y"),
        ]
    )
    assert refused(annotated, data, "mqm.tsv").line == 5


def test_a_file_imported_again_is_refused(annotated):
    import_error_spans(annotated, None, mqm_tsv(), "mqm.tsv")
    problem = refused(annotated, mqm_tsv(MQM_ROWS[2:]), "again.tsv")
    assert (problem.line, problem.problem) == (
        2,
        "system 'alpha', segment 3, annotator 'r1': its spans were imported before "
        "(from mqm.tsv)",
    )


def test_a_judgment_of_the_same_judge_from_another_file_is_refused(annotated):
    csv = b"segment,system,judge,criterion,value\n1,beta,e2,esa,40\n"
    import_judgments(annotated, None, csv, "esa.csv")
    problem = refused(annotated, jsonl(ESA_LINES), "esa.jsonl")
    assert (problem.line, problem.problem) == (
        8,
        "system 'beta', segment 1, annotator 'e2': a judgment of esa by this judge "
        "was imported before (from esa.csv)",
    )


def test_a_metrics_file_names_its_metric(annotated):
    lines = [*METRIC_LINES, {**METRIC_LINES[0], "segment": 3, "metric": "other"}]
    problem = refused(annotated, jsonl(lines), "m.jsonl", source=METRIC)
    assert (problem.line, problem.problem) == (
        4,
        "spans of metric 'other', but the import is of 'xcomet-xl''s spans (the "
        "field source)",
    )
    problem = refused(annotated, jsonl(ESA_LINES), "esa.jsonl", source=METRIC)
    assert problem.line == 1 and 'expected "metric"' in problem.problem
    problem = refused(annotated, mqm_tsv(), "mqm.tsv", source=METRIC)
    assert (
        problem.problem == "an MQM TSV file holds human ratings, not a metric's spans"
    )


def test_mqm_cannot_join_z_scores_of_the_same_name(annotated):
    Criterion.objects.create(test_set=annotated, name="mqm", scale="z")
    problem = refused(annotated, mqm_tsv(), "mqm.tsv")
    assert problem.line is None and "holds z-scores as given" in problem.problem


def test_an_empty_or_oversized_file_is_refused(annotated, settings):
    assert refused(annotated, b"", "e.tsv").problem == "the file is empty (0 bytes)"
    assert refused(annotated, b"\n\n", "e.jsonl").problem == (
        "no annotations: the file has no rows"
    )
    settings.MTDASH_MAX_UPLOAD_BYTES = 100
    assert refused(annotated, mqm_tsv(), "big.tsv").problem == (
        f"the file is {len(mqm_tsv()):,} bytes; the limit is 100"
    )


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"format": "xml"}, "format", "format must be one of auto, mqm-tsv"),
        ({"source": "bad name!"}, "source", "source is human or a metric's name"),
        ({"weights": "huge=3"}, "weights", "a rule starts with a severity"),
        ({"weights": "major"}, "weights", "expected severity[/category]:weight"),
    ],
)
def test_a_bad_field_is_refused_naming_it(annotated, fields, field, message):
    with pytest.raises(ExternalMetricProblem) as caught:
        SpanImportOptions.from_fields(**fields)
    assert caught.value.field == field and message in str(caught.value)


def test_weights_for_a_file_that_gives_its_scores_are_refused(annotated):
    options = SpanImportOptions.from_fields(weights="major=10")
    with pytest.raises(ExternalMetricProblem) as caught:
        import_error_spans(annotated, None, jsonl(ESA_LINES), "esa.jsonl", options)
    assert caught.value.field == "weights" and "spans-jsonl" in str(caught.value)
    assert stored() == (0, 0, 0, 0, 0)
