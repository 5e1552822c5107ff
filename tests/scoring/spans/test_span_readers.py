"""Reading span files: the WMT MQM TSV layout and spans JSON lines (and
writing JSON lines back), with every refusal naming the file, the line and
the problem."""

from __future__ import annotations

import json

import pytest

from scoring.errors import InputFileError, ScoringError
from scoring.spans import (
    Span,
    SpanAnnotation,
    check_offsets,
    detect_span_format,
    load_span_file,
    parse_mqm_tsv,
    parse_spans_jsonl,
    read_span_file,
    write_spans_jsonl,
)

HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def mqm(*rows: str, header: str = HEADER) -> bytes:
    return (header + "".join(row + "\n" for row in rows)).encode("utf-8")


def row(
    target: str,
    category: str = "Accuracy/Mistranslation",
    severity: str = "Major",
    *,
    system: str = "A",
    segment: str = "1",
    rater: str = "r1",
    source: str = "The cat sat.",
) -> str:
    return "\t".join(
        [system, "d1", "1", segment, rater, source, target, category, severity]
    )


# --- MQM TSV -----------------------------------------------------------------


def test_it_computes_offsets_in_the_text_without_markers() -> None:
    result = parse_mqm_tsv(
        mqm(
            row("Die <v>Katze</v> saß.", severity="Minor"),
            row("Die Katze <v>saß</v>.", "Fluency/Grammar", "Major"),
        ),
        "mqm.tsv",
    )
    (annotation,) = result.annotations
    text = annotation.target_text
    assert text == "Die Katze saß."
    assert [(s.start, s.end, s.severity, s.side) for s in annotation.spans] == [
        (4, 9, "minor", "target"),
        (10, 13, "major", "target"),
    ]
    assert [text[s.start : s.end] for s in annotation.spans] == ["Katze", "saß"]
    assert result.rows == 2 and result.kind == "human" and result.format == "mqm-tsv"


def test_a_span_marked_in_the_source_is_a_source_span() -> None:
    result = parse_mqm_tsv(
        mqm(row("Die Katze.", "Accuracy/Omission", source="The cat <v>sat</v>.")),
        "mqm.tsv",
    )
    (span,) = result.annotations[0].spans
    assert (span.side, span.start, span.end) == ("source", 8, 11)
    assert result.annotations[0].source_text == "The cat sat."


def test_no_error_rows_give_an_annotation_without_spans() -> None:
    result = parse_mqm_tsv(
        mqm(row("Die Katze saß.", "No-error", "No-error", rater="r2")), "mqm.tsv"
    )
    (annotation,) = result.annotations
    assert annotation.annotator == "r2" and annotation.spans == ()


def test_a_row_without_markers_is_an_error_without_position() -> None:
    result = parse_mqm_tsv(
        mqm(
            row("Kauderwelsch.", "Non-translation!", "Major"),
            row("Kauderwelsch<v></v>.", "Accuracy/Omission", "Minor"),
        ),
        "mqm.tsv",
    )
    spans = result.annotations[0].spans
    assert [(s.start, s.end, s.has_position) for s in spans] == [
        (None, None, False),
        (None, None, False),
    ]
    assert spans[0].category == "Non-translation!"


def test_rows_group_by_system_segment_and_rater_in_file_order() -> None:
    result = parse_mqm_tsv(
        mqm(
            row("<v>X</v> y.", rater="r1"),
            row("X <v>y</v>.", rater="r2"),
            row("<v>Z</v>.", segment="2", source="Other."),
            row("X y<v>.</v>", "Fluency/Punctuation", "Minor", rater="r1"),
        ),
        "mqm.tsv",
    )
    assert [a.key for a in result.annotations] == [
        ("A", 1, "r1"),
        ("A", 1, "r2"),
        ("A", 2, "r1"),
    ]
    assert len(result.annotations[0].spans) == 2
    assert result.annotations[0].line == 2  # the header is line 1


def test_quotes_are_text_and_a_missing_trailing_column_is_fine() -> None:
    header = HEADER.rstrip("\n") + "\tcomment\n"
    result = parse_mqm_tsv(
        mqm(row('Er sagte "<v>ja</v>.', severity="Minor"), header=header), "mqm.tsv"
    )
    (annotation,) = result.annotations
    assert annotation.target_text == 'Er sagte "ja.'
    assert (annotation.spans[0].start, annotation.spans[0].end) == (10, 12)


def test_severities_are_lower_cased_and_critical_is_kept() -> None:
    result = parse_mqm_tsv(mqm(row("<v>X</v>.", severity="CRITICAL")), "mqm.tsv")
    assert result.annotations[0].spans[0].severity == "critical"


def test_both_sides_marked_keeps_the_target_and_warns() -> None:
    result = parse_mqm_tsv(
        mqm(row("Die <v>Katze</v>.", source="The <v>cat</v> sat.")), "mqm.tsv"
    )
    assert result.annotations[0].spans[0].side == "target"
    assert result.warnings == (
        "line 2: both source and target are marked; the target's span is kept",
    )


@pytest.mark.parametrize(
    ("rows", "line", "problem"),
    [
        ([row("<v>a</v> <v>b</v>")], 2, "the target has 2 <v> and 2 </v>"),
        ([row("a</v> <v>b")], 2, "the target has </v> before <v>"),
        ([row("<v>a b")], 2, "the target has 1 <v> and 0 </v>"),
        ([row("x", severity="Huge")], 2, "unknown severity 'huge'"),
        ([row("x", segment="0")], 2, "seg_id '0' is not a segment number"),
        ([row("x", segment="1.5")], 2, "seg_id '1.5' is not a segment number"),
        ([row("x", rater=" ")], 2, "empty rater name"),
        (
            [row("x") + "\textra\tfields"],
            2,
            "11 tab-separated fields, the header has 9",
        ),
        (["A\td1"], 2, "2 tab-separated fields, the header has 9"),
        (
            [row("<v>Die</v> Katze."), "", row("Der <v>Hund</v>.", rater="r2")],
            4,
            "the target of system 'A', segment 1 (markers removed) differs from line 2's",
        ),
    ],
)
def test_bad_rows_are_refused_with_file_line_and_problem(
    rows: list[str], line: int, problem: str
) -> None:
    with pytest.raises(InputFileError) as caught:
        parse_mqm_tsv(mqm(*rows), "ratings.tsv")
    assert caught.value.line == line
    assert caught.value.path == "ratings.tsv"
    assert problem in caught.value.problem
    assert str(caught.value).startswith(f"ratings.tsv: line {line}: ")


def test_a_header_without_a_required_column_is_refused() -> None:
    with pytest.raises(InputFileError, match="line 1: no 'rater' column"):
        parse_mqm_tsv(mqm(header=HEADER.replace("rater", "annotator")), "x.tsv")
    with pytest.raises(InputFileError, match="the file is empty"):
        parse_mqm_tsv(b"\n\n", "x.tsv")


def test_messages_never_echo_long_input() -> None:
    with pytest.raises(InputFileError) as caught:
        parse_mqm_tsv(mqm(row("x", severity="y" * 5000)), "x.tsv")
    assert len(str(caught.value)) < 200


# --- JSON lines --------------------------------------------------------------

HUMAN_LINE = {
    "segment": 2,
    "system": "online-B",
    "annotator": "a1",
    "score": 71,
    "spans": [
        {"start": 0, "end": 4, "severity": "Major", "category": "Accuracy"},
        {"start": 6, "end": 9, "severity": "minor", "side": "source"},
    ],
}


def jsonl(*records: object) -> bytes:
    return "".join(
        (r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records
    ).encode()


def test_it_reads_annotators_spans() -> None:
    result = parse_spans_jsonl(jsonl(HUMAN_LINE, ""), "esa.jsonl")
    (annotation,) = result.annotations
    assert result.kind == "human" and result.format == "spans-jsonl"
    assert annotation.key == ("online-B", 2, "a1") and annotation.score == 71.0
    assert annotation.spans == (
        Span(0, 4, "major", "Accuracy"),
        Span(6, 9, "minor", None, "source"),
    )


def test_it_reads_metric_spans_with_confidence() -> None:
    line = {
        "segment": 1,
        "system": "S",
        "metric": "xcomet",
        "spans": [{"start": 3, "end": 5, "severity": "minor", "confidence": 0.4}],
    }
    result = parse_spans_jsonl(jsonl(line), "m.jsonl", kind="metric")
    assert result.kind == "metric" and result.annotators == ("xcomet",)
    assert result.annotations[0].spans[0].confidence == 0.4


def test_the_writer_round_trips() -> None:
    annotations = (
        SpanAnnotation(
            3,
            "sys",
            "a1",
            (
                Span(0, 2, "minor", "Fluency/Punctuation"),
                Span(None, None, "major", "Non-translation"),
                Span(1, 4, "critical", None, "source"),
            ),
            score=55.5,
            line=1,
        ),
        SpanAnnotation(4, "sys", "a1", (), line=2),
        SpanAnnotation(1, "sÿs «2»", "a2", (Span(0, 1, "neutral"),), line=3),
    )
    text = write_spans_jsonl(annotations)
    assert parse_spans_jsonl(text.encode(), "x.jsonl").annotations == annotations
    metric = tuple(
        SpanAnnotation(a.segment, a.system, "m", a.spans, a.score, line=a.line)
        for a in annotations
    )
    again = parse_spans_jsonl(write_spans_jsonl(metric, "metric").encode(), "m.jsonl")
    assert again.annotations == metric and again.kind == "metric"


def test_an_mqm_file_converts_to_json_lines_and_back() -> None:
    result = parse_mqm_tsv(
        mqm(row("Die <v>Katze</v>.", severity="Minor"), row("Die Katze.", rater="r2")),
        "mqm.tsv",
    )
    again = parse_spans_jsonl(write_spans_jsonl(result.annotations).encode(), "x")
    assert [(a.key, a.spans) for a in again.annotations] == [
        (a.key, a.spans) for a in result.annotations
    ]


def bad(**changes: object) -> dict[str, object]:
    record = json.loads(json.dumps(HUMAN_LINE))
    for key, value in changes.items():
        if value is ...:
            del record[key]
        else:
            record[key] = value
    return record


def bad_span(**changes: object) -> dict[str, object]:
    span = {"start": 0, "end": 4, "severity": "major"}
    span.update(changes)
    return bad(spans=[span])


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "expected a JSON object per line"),
        (bad(metric="m"), 'give exactly one of "annotator" and "metric"'),
        (bad(annotator=...), 'give exactly one of "annotator" and "metric"'),
        (bad(segment=0), '"segment" must be a positive integer'),
        (bad(segment=True), '"segment" must be a positive integer'),
        (bad(system=""), '"system" must be a non-empty string'),
        (bad(score="high"), '"score" must be a number or null'),
        (bad(spans=None), '"spans" must be a list'),
        (bad_span(start=4), "span 1: start 4 is not before end 4"),
        (bad_span(start=-1), "span 1: start -1 is negative"),
        (bad_span(start=1.5), "span 1: start must be an integer"),
        (bad_span(end=None), "span 1: start and end must both be given"),
        (bad_span(severity="fatal"), "span 1: unknown severity 'fatal'"),
        (bad_span(side="left"), "span 1: side must be one of target, source"),
        (bad_span(confidence="sure"), "span 1: confidence must be a number"),
        (bad(spans=[{"start": 0, "end": 1}]), 'span 1: "severity" is missing'),
    ],
)
def test_bad_lines_are_refused_with_file_line_and_problem(
    line: object, problem: str
) -> None:
    with pytest.raises(InputFileError) as caught:
        parse_spans_jsonl(jsonl(HUMAN_LINE, "", line), "spans.jsonl")
    assert caught.value.line == 3
    assert problem in caught.value.problem
    assert str(caught.value).startswith("spans.jsonl: line 3: ")


def test_a_repeated_key_and_a_mixed_file_are_refused() -> None:
    with pytest.raises(InputFileError, match="line 2: .*again \\(first on line 1\\)"):
        parse_spans_jsonl(jsonl(HUMAN_LINE, HUMAN_LINE), "x.jsonl")
    metric_line = bad(annotator=..., metric="m")
    with pytest.raises(InputFileError, match="line 2: a metric's spans in a file of"):
        parse_spans_jsonl(jsonl(HUMAN_LINE, metric_line), "x.jsonl")
    with pytest.raises(InputFileError, match="line 1: an annotator's spans"):
        parse_spans_jsonl(jsonl(HUMAN_LINE), "x.jsonl", kind="metric")


def test_offsets_are_checked_against_the_texts_when_given() -> None:
    texts = {("online-B", 2, "target"): "abcd", ("online-B", 2, "source"): "0123456789"}

    def lookup(system: str, segment: int, side: str) -> str | None:
        return texts.get((system, segment, side))

    assert parse_spans_jsonl(jsonl(HUMAN_LINE), "x.jsonl", texts=lookup)
    texts[("online-B", 2, "source")] = "short"
    with pytest.raises(InputFileError) as caught:
        parse_spans_jsonl(jsonl("", HUMAN_LINE), "x.jsonl", texts=lookup)
    assert caught.value.line == 2
    assert caught.value.problem == (
        "span 2 of system 'online-B', segment 2: end 9 is past the end of the "
        "source text (5 characters)"
    )
    # Unknown texts (None) are not checked.
    check_offsets(
        parse_spans_jsonl(jsonl(HUMAN_LINE), "x").annotations, lambda *_: None, "x"
    )


def test_spans_refuse_bad_fields_when_built_in_code() -> None:
    with pytest.raises(ScoringError, match="not before end"):
        Span(5, 5, "minor")


# --- detection ---------------------------------------------------------------


def test_the_format_is_detected_by_extension_then_content(tmp_path) -> None:
    assert detect_span_format(b"{}", "x.tsv") == "mqm-tsv"
    assert detect_span_format(b"system\t", "x.jsonl") == "spans-jsonl"
    assert detect_span_format(b'\xef\xbb\xbf\n {"a": 1}', "upload") == "spans-jsonl"
    assert detect_span_format(HEADER.encode(), "upload") == "mqm-tsv"
    path = tmp_path / "human.tsv"
    path.write_bytes(mqm(row("<v>X</v>.")))
    assert len(load_span_file(path).annotations) == 1
    with pytest.raises(InputFileError, match="holds human ratings"):
        read_span_file(mqm(row("X.")), "h.tsv", kind="metric")
    with pytest.raises(InputFileError, match="cannot read file"):
        load_span_file(tmp_path / "missing.jsonl")
