"""MQM has one meaning whichever way it comes in: WMT's per-segment
averages (``mqm_seg.tsv``, the judgments import) and MQM error spans (the
span import) both make criterion ``mqm`` aggregated as given (scale
``mean``: the file's official averages, never standardised per rater), so
either file may follow the other into a test set."""

from __future__ import annotations

import pytest

from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import Criterion, Judgment
from tests.web.judgments.span_world import annotated_outputs, mqm_tsv

pytestmark = pytest.mark.django_db

# WMT's layout: a rater-less average per (system, segment); None: not rated.
MQM_SEG = (
    b"system\tmqm_system_name\tseg_id\tmqm_avg_score\n"
    b"alpha\talpha\t1\t-0.5\n"
    b"alpha\talpha\t2\t0\n"
    b"alpha\talpha\t3\tNone\n"
    b"beta\tbeta\t1\t-6\n"
    b"beta\tbeta\t2\t-1.5\n"
    b"beta\tbeta\t3\t-0.25\n"
)


@pytest.fixture
def outputs(test_set, owner):
    annotated_outputs(test_set, owner)
    return test_set


def mqm(test_set) -> Criterion:
    return Criterion.objects.get(test_set=test_set, name="mqm")


def test_wmt_mqm_seg_makes_mqm_as_given_like_the_span_import(outputs, owner):
    import_judgments(outputs, owner, MQM_SEG, "mqm_seg.tsv")

    criterion = mqm(outputs)
    assert criterion.scale == Criterion.Scale.MEAN
    assert criterion.score_label == "raw mean"


def test_mqm_seg_after_mqm_spans_joins_their_criterion(outputs, owner):
    import_error_spans(outputs, owner, mqm_tsv(), "mqm.tsv")

    result = import_judgments(outputs, owner, MQM_SEG, "mqm_seg.tsv")

    assert result.n_judgments == 5
    assert mqm(outputs).scale == Criterion.Scale.MEAN
    judges = set(Judgment.objects.values_list("judge", flat=True))
    assert judges == {"r1", "r2", "-"}


def test_mqm_spans_after_mqm_seg_join_its_criterion(outputs, owner):
    import_judgments(outputs, owner, MQM_SEG, "mqm_seg.tsv")

    import_error_spans(outputs, owner, mqm_tsv(), "mqm.tsv")

    assert Criterion.objects.filter(test_set=outputs).count() == 1
    assert mqm(outputs).scale == Criterion.Scale.MEAN


def test_an_older_z_scored_mqm_criterion_still_takes_mqm_seg(outputs, owner):
    # Before both routes agreed, mqm_seg.tsv made mqm judges' values
    # (standardised per judge): such a criterion keeps its scale and its
    # judgments, and a later WMT file joins it instead of being refused.
    Criterion.objects.create(
        test_set=outputs, name="mqm", maximum=0.0, scale=Criterion.Scale.RAW
    )

    result = import_judgments(outputs, owner, MQM_SEG, "mqm_seg.tsv")

    assert result.n_judgments == 5
    assert mqm(outputs).scale == Criterion.Scale.RAW


def test_mqm_in_a_csv_of_judges_is_as_given_too(outputs, owner):
    csv = b"segment,system,judge,criterion,value\n1,alpha,j1,mqm,-1\n1,beta,j1,mqm,-5\n"

    import_judgments(outputs, owner, csv, "j.csv")

    assert mqm(outputs).scale == Criterion.Scale.MEAN
