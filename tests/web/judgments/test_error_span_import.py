"""Importing error spans: what an MQM TSV, an ESA JSON lines file and a
metric's spans store (annotations, spans with their offsets, the ``mqm`` and
``esa`` judgments and criteria), MQM scores equal to the library's, the
weights, and deleting an import."""

from __future__ import annotations

import pytest

from mtdash.judgments.error_spans import imports
from mtdash.judgments.error_spans.imports import error_span_imports, import_error_spans
from mtdash.judgments.error_spans.options import SpanImportOptions
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import (
    Criterion,
    ErrorSpan,
    ErrorSpanAnnotation,
    Judgment,
    JudgmentImport,
)
from mtdash.judgments.reading import stored_judgments
from scoring.spans import MqmWeights, mqm_scores, parse_mqm_tsv
from scoring.stats import human_scores
from tests.web.judgments.error_span_support import annotated_fixture  # noqa: F401
from tests.web.judgments.span_world import (
    ESA_LINES,
    ESA_SYSTEMS,
    METRIC,
    METRIC_LINES,
    MQM_ROWS,
    MQM_SEGMENTS,
    MQM_SYSTEMS,
    N_ESA_SPANS,
    N_MQM_SPANS,
    OUTPUTS,
    SOURCES,
    jsonl,
    mqm_tsv,
)

pytestmark = pytest.mark.django_db


def marked(annotation: ErrorSpanAnnotation) -> list[tuple[str, str, str, str]]:
    """(side, marked text, severity, category) of the stored spans."""
    hypothesis = OUTPUTS[annotation.output.system.name][annotation.index]
    texts = {"target": hypothesis, "source": SOURCES[annotation.index]}
    return [
        (
            s.side,
            texts[s.side][s.start : s.end] if s.start is not None else "",
            s.severity,
            s.category,
        )
        for s in annotation.spans.order_by("pk")
    ]


def test_an_mqm_file_stores_its_annotations_spans_and_judgments(annotated, owner):
    result = import_error_spans(annotated, owner, mqm_tsv(), "mqm.tsv")

    assert (result.format, result.source, result.criterion) == (
        "mqm-tsv",
        "human",
        "mqm",
    )
    assert result.n_annotations == 18 == ErrorSpanAnnotation.objects.count()
    assert result.n_spans == N_MQM_SPANS == ErrorSpan.objects.count()
    assert result.n_judgments == 18 == Judgment.objects.count()
    batch = JudgmentImport.objects.get()
    assert (batch.layout, batch.span_source) == ("mqm-tsv", "human")
    assert batch.n_spans == N_MQM_SPANS
    assert batch.counts == {"mqm": {"alpha": 6, "beta": 6, "gamma": 6}}
    assert batch.mqm_weights == MqmWeights().to_dict() == result.weights
    # Offsets are into the texts without the markers; the stored texts say so.
    gamma_r1 = ErrorSpanAnnotation.objects.get(
        output__system__name="gamma", index=0, annotator="r1"
    )
    assert marked(gamma_r1) == [
        ("target", "a dog", "major", "Accuracy/Mistranslation"),
        ("source", "chat", "minor", "Accuracy/Omission"),
    ]
    beta_r1 = ErrorSpanAnnotation.objects.get(
        output__system__name="beta", index=0, annotator="r1"
    )
    assert marked(beta_r1) == [
        ("target", "sits", "major", "Accuracy/Mistranslation"),
        ("target", "a", "minor", "Fluency/Grammar"),
    ]
    assert (beta_r1.kind, beta_r1.score, beta_r1.line) == ("human", -6.0, 8)
    # Non-translation marks the whole segment: an error without position.
    (whole,) = ErrorSpan.objects.filter(annotation__index=1, annotation__annotator="r1")
    assert (whole.start, whole.end, whole.severity) == (None, None, "major")


def test_mqm_scores_are_the_librarys_and_the_hand_computed_ones(annotated, owner):
    import_error_spans(annotated, owner, mqm_tsv(), "mqm.tsv")

    library = mqm_scores(parse_mqm_tsv(mqm_tsv(), "mqm.tsv").annotations)
    expected = {
        (library.systems[s], int(n)): v
        for s, n, v in zip(library.system_ids, library.segments, library.values)
    }
    assert expected == pytest.approx(MQM_SEGMENTS, abs=1e-12)
    # The stored rater scores, averaged per segment, and the judgments read
    # as every page reads them (raw means over raters, then segments).
    judged = human_scores(stored_judgments(annotated), "mqm", standardise=False)
    for row, system in enumerate(judged.systems):
        assert judged.system_scores[row] == pytest.approx(
            MQM_SYSTEMS[system], abs=1e-12
        )
        for column, segment in enumerate(judged.segments):
            value = judged.segment_scores[row, column]
            assert value == pytest.approx(MQM_SEGMENTS[system, segment], abs=1e-12)
            stored = ErrorSpanAnnotation.objects.filter(
                output__system__name=system, index=segment - 1
            ).values_list("score", flat=True)
            assert sum(stored) / len(stored) == pytest.approx(value, abs=1e-12)
    # As given: MQM is never standardised per rater (WMT's averages).
    assert human_scores(stored_judgments(annotated), "mqm").system_scores.tolist() == (
        pytest.approx(judged.system_scores.tolist(), abs=1e-12)
    )


def test_the_mqm_criterion_is_created_with_its_range_and_direction(annotated, owner):
    import_error_spans(annotated, owner, mqm_tsv(), "mqm.tsv")
    criterion = Criterion.objects.get(test_set=annotated, name="mqm")
    assert (criterion.minimum, criterion.maximum) == (None, 0.0)
    assert criterion.higher_is_better and criterion.scale == Criterion.Scale.MEAN
    judgment = Judgment.objects.get(
        output__system__name="gamma", index=1, judge="r2", criterion=criterion
    )
    assert (judgment.value, judgment.line) == (-5.0, 20)


def test_weights_given_per_import_score_the_judgments(annotated, owner):
    options = SpanImportOptions.from_fields(
        weights="major=1, minor=0.5, major/non-translation=10"
    )
    result = import_error_spans(annotated, owner, mqm_tsv(), "mqm.tsv", options)

    gamma = Judgment.objects.filter(output__system__name="gamma", index=1)
    assert sorted(gamma.values_list("judge", "value")) == [("r1", -10.0), ("r2", -1.0)]
    assert result.weights["major"] == 1.0 and result.weights["critical"] == 10.0
    weights = MqmWeights.parse("major:1 minor:0.5 major/non-translation:10")
    library = mqm_scores(parse_mqm_tsv(mqm_tsv(), "m").annotations, weights)
    assert {s: r.score for s, r in result.systems.items()} == pytest.approx(
        library.system_scores(), abs=1e-12
    )
    assert JudgmentImport.objects.get().mqm_weights == weights.to_dict()


def test_an_esa_file_stores_its_spans_and_scores_as_judgments(annotated, owner):
    result = import_error_spans(annotated, owner, jsonl(ESA_LINES), "esa.jsonl")

    assert (result.format, result.criterion) == ("spans-jsonl", "esa")
    assert result.n_annotations == len(ESA_LINES) and result.n_spans == N_ESA_SPANS
    assert result.n_judgments == 8  # e2's beta segment 3 has spans, no score
    assert result.weights is None
    criterion = Criterion.objects.get(test_set=annotated, name="esa")
    assert (criterion.minimum, criterion.maximum, criterion.higher_is_better) == (
        0.0,
        100.0,
        True,
    )
    assert criterion.scale == Criterion.Scale.RAW  # standardised per annotator
    scores = human_scores(stored_judgments(annotated), "esa", standardise=False)
    assert dict(zip(scores.systems, scores.system_scores.tolist())) == pytest.approx(
        ESA_SYSTEMS, abs=1e-12
    )
    assert {s: r.score for s, r in result.systems.items()} == pytest.approx(ESA_SYSTEMS)
    beta_e1 = ErrorSpanAnnotation.objects.get(
        output__system__name="beta", index=2, annotator="e1"
    )
    assert beta_e1.score == 70.0 and beta_e1.line == 6
    assert marked(beta_e1) == [
        ("target", "to", "minor", "Fluency"),
        ("source", "jour ", "minor", ""),
    ]
    unscored = ErrorSpanAnnotation.objects.get(annotator="e2", index=2)
    assert unscored.score is None and unscored.spans.count() == 1


def test_a_metrics_spans_are_stored_as_its_own_without_judgments(annotated, owner):
    options = SpanImportOptions.from_fields(source=METRIC)
    result = import_error_spans(
        annotated, owner, jsonl(METRIC_LINES), "xcomet.jsonl", options
    )

    assert (result.source, result.criterion, result.n_judgments) == (METRIC, None, 0)
    assert not Judgment.objects.exists() and not Criterion.objects.exists()
    gamma = ErrorSpanAnnotation.objects.get(output__system__name="gamma")
    assert (gamma.kind, gamma.annotator, gamma.score) == ("metric", METRIC, 0.32)
    spans = list(gamma.spans.order_by("pk").values_list("side", "start", "end"))
    assert spans == [("target", 0, 5), ("source", 3, 7)]
    assert list(gamma.spans.values_list("confidence", flat=True)) == [0.91, 0.4]
    assert result.systems["beta"].score is None


def test_the_same_rater_name_may_be_a_metrics_and_an_annotators(annotated, owner):
    import_error_spans(annotated, owner, mqm_tsv(), "mqm.tsv")
    lines = [{**line, "metric": "r1"} for line in METRIC_LINES]
    options = SpanImportOptions.from_fields(source="r1")
    import_error_spans(annotated, owner, jsonl(lines), "r1.jsonl", options)
    kinds = ErrorSpanAnnotation.objects.filter(annotator="r1").values_list("kind")
    assert sorted({kind for (kind,) in kinds}) == ["human", "metric"]


def test_deleting_an_import_deletes_its_spans_and_judgments(annotated, owner):
    first = import_error_spans(annotated, owner, mqm_tsv(MQM_ROWS[:6]), "a.tsv")
    import_error_spans(annotated, owner, mqm_tsv(MQM_ROWS[6:]), "b.tsv")
    assert ErrorSpanAnnotation.objects.count() == 18

    JudgmentImport.objects.get(pk=first.import_id).delete()

    assert not ErrorSpanAnnotation.objects.filter(output__system__name="alpha").exists()
    assert not Judgment.objects.filter(output__system__name="alpha").exists()
    assert ErrorSpanAnnotation.objects.count() == 12 == Judgment.objects.count()
    assert ErrorSpan.objects.count() == N_MQM_SPANS - 1
    assert Criterion.objects.filter(name="mqm").exists()  # the test set's, kept


def test_the_list_names_every_span_import_and_no_judgments_file(annotated, owner):
    import_error_spans(annotated, owner, mqm_tsv(), "mqm.tsv")
    options = SpanImportOptions.from_fields(source=METRIC, format="spans-jsonl")
    import_error_spans(annotated, owner, jsonl(METRIC_LINES), "x.txt", options)
    JudgmentImport.objects.create(test_set=annotated, file_name="j.csv", layout="csv")

    listed = error_span_imports(annotated)

    assert [(i["file"], i["format"], i["source"]) for i in listed] == [
        ("x.txt", "spans-jsonl", METRIC),
        ("mqm.tsv", "mqm-tsv", "human"),
    ]
    assert (listed[1]["annotations"], listed[1]["spans"], listed[1]["judgments"]) == (
        18,
        N_MQM_SPANS,
        18,
    )
    assert listed[1]["criteria"] == ["mqm"] and listed[0]["criteria"] == []
    assert listed[1]["imported_by"] == owner.username and listed[1]["created"]


def test_an_existing_mqm_criterion_is_joined_as_it_is(annotated, owner):
    # An mqm of judges' values (z-scored), as a CSV or mqm_seg.tsv made it
    # before every route gave MQM as given.
    raw = Criterion.objects.create(
        test_set=annotated, name="mqm", maximum=0.0, scale=Criterion.Scale.RAW
    )
    csv = b"segment,system,judge,criterion,value\n1,alpha,wmt,mqm,-1.5\n"
    import_judgments(annotated, owner, csv, "mqm.csv")

    result = import_error_spans(annotated, owner, mqm_tsv(), "mqm.tsv")

    assert result.criterion == "mqm" and not result.left_out
    assert Criterion.objects.get(name="mqm") == raw
    assert Criterion.objects.get(name="mqm").scale == Criterion.Scale.RAW
    assert Judgment.objects.filter(criterion=raw).count() == 19


def test_an_import_in_many_chunks_links_each_span_to_its_own_annotation(
    annotated, owner, monkeypatch
):
    """Annotations are written as plain rows and their ids read back per
    chunk: with chunks of 4 (18 annotations in 5 chunks), every annotation
    keeps the spans, score and line it had when stored in one chunk."""

    def stored() -> dict[tuple, tuple]:
        return {
            (a.output.system.name, a.index, a.annotator): (a.score, a.line, marked(a))
            for a in ErrorSpanAnnotation.objects.select_related("output__system")
        }

    import_error_spans(annotated, owner, mqm_tsv(), "mqm.tsv")
    in_one_chunk = stored()
    JudgmentImport.objects.get().delete()
    monkeypatch.setattr(imports, "_BATCH", 4)

    result = import_error_spans(annotated, owner, mqm_tsv(), "mqm.tsv")

    assert result.n_annotations == 18 and len(in_one_chunk) == 18
    assert stored() == in_one_chunk
    assert ErrorSpan.objects.count() == N_MQM_SPANS
