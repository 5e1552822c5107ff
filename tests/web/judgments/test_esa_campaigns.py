"""ESA campaigns, the services: what an answer stores (an esa judgment, an
error-span annotation and its spans, the batch's counts), the server's
checks of the spans against the texts shown (code points, as the library
counts them), where the damage of a degraded copy is, the attention checks
and agreement on spans and scores."""

from __future__ import annotations

import json

import pytest

from mtdash.judgments.campaigns import judging as service
from mtdash.judgments.campaigns.esa import RatingRefused, record_esa
from mtdash.judgments.campaigns.esa_agreement import esa_agreement
from mtdash.judgments.campaigns.esa_quality import attention_checks
from mtdash.judgments.campaigns.sampling import damage
from mtdash.judgments.error_spans.agreement_jobs import span_imports
from mtdash.judgments.error_spans.sentence_view import sentence_annotations
from mtdash.judgments.models import (
    Assignment,
    ErrorSpan,
    ErrorSpanAnnotation,
    Judgment,
    JudgmentImport,
)
from scoring.spans import Span, SpanAnnotation
from scoring.stats import evaluate_spans
from tests.web.judgments.esa_support import (
    SOURCES,
    SYSTEMS,
    answer_everything,
    build_esa_set,
    make_esa_campaign,
    regular,
    spans_field,
    target_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def esa_set(team, owner, member):
    return build_esa_set(team, owner)


@pytest.mark.parametrize("seed", range(12))
def test_damage_tells_which_characters_were_replaced(seed):
    text = "one two three four five six seven eight nine ten eleven"
    donor = "red green blue yellow black white"
    found = damage(text, donor, seed)
    assert found.start is not None
    words = text.split()
    put_in = found.text[found.start : found.end].split()
    before = found.text[: found.start].split()
    after = found.text[found.end :].split()
    assert " ".join(put_in) in donor
    assert before == words[: len(before)]
    assert after == words[len(words) - len(after) :]
    assert len(before) + len(put_in) + len(after) == len(words)


def test_damage_that_puts_back_the_same_words_marks_nothing():
    found = damage("a a a a", "a a a a a", 1)
    assert found.text == "a a a a"
    assert (found.start, found.end) == (None, None)


def test_degraded_screens_record_where_their_damage_is(owner, member, esa_set):
    campaign = make_esa_campaign(esa_set, owner, [owner, member], controls_per_judge=2)
    degraded = Assignment.objects.filter(campaign=campaign, kind="degraded")
    assert degraded.count() == 4
    for screen in degraded.select_related("item__output__system"):
        original = target_of(screen).split()
        shown = screen.degraded_text
        assert screen.damage_start is not None
        before = shown[: screen.damage_start].split()
        after = shown[screen.damage_end :].split()
        assert before == original[: len(before)]
        assert after == original[len(original) - len(after) :]
        assert shown[screen.damage_start : screen.damage_end].strip()


def test_an_answer_stores_a_judgment_an_annotation_its_spans_and_the_counts(
    owner, member, esa_set
):
    campaign = make_esa_campaign(esa_set, owner, [owner, member])
    screen = regular(campaign, owner)
    text = target_of(screen)
    first_word = len(text.split()[0])
    spans = spans_field(
        (0, first_word, "major", "Accuracy/Mistranslation"),
        (len(text) - 1, len(text), "minor"),
        (0, 3, "minor", "Accuracy/Omission", "source"),
    )
    assert record_esa(campaign, owner, screen.pk, "62", spans)

    screen.refresh_from_db()
    assert screen.value == 62.0 and screen.judged_at is not None
    assert [s["severity"] for s in screen.spans] == ["major", "minor", "minor"]
    judgment = Judgment.objects.get()
    assert (judgment.judge, judgment.criterion.name, judgment.value) == (
        "alice",
        "esa",
        62.0,
    )
    assert judgment.batch_id == campaign.batch_id
    annotation = ErrorSpanAnnotation.objects.get()
    assert (annotation.annotator, annotation.kind, annotation.score) == (
        "alice",
        "human",
        62.0,
    )
    assert (annotation.output_id, annotation.index) == (
        screen.item.output_id,
        screen.item.index,
    )
    stored = list(
        ErrorSpan.objects.order_by("pk").values_list(
            "side", "start", "end", "severity", "category"
        )
    )
    assert stored == [
        ("target", 0, first_word, "major", "Accuracy/Mistranslation"),
        ("target", len(text) - 1, len(text), "minor", ""),
        ("source", 0, 3, "minor", "Accuracy/Omission"),
    ]
    batch = JudgmentImport.objects.get(pk=campaign.batch_id)
    assert (batch.n_annotations, batch.n_spans, batch.n_judgments) == (1, 3, 1)
    # The span-level meta-evaluation's stale check sees the campaign's spans.
    assert (batch.pk, "human", 1, 3) in span_imports(esa_set)
    # The sentence page reads them as an ESA annotation.
    shown = sentence_annotations([screen.item.output_id], [screen.item.index])
    assert [(a.annotator, a.score_name, len(a.spans)) for a in shown] == [
        ("alice", "ESA", 3)
    ]

    # A second answer adds to the counts; a repeated submit changes nothing.
    second = regular(campaign, owner, position__gt=screen.position)
    assert record_esa(campaign, owner, second.pk, "90", "[]")
    assert not record_esa(
        campaign, owner, second.pk, "10", spans_field((0, 1, "minor"))
    )
    batch.refresh_from_db()
    assert (batch.n_annotations, batch.n_spans, batch.n_judgments) == (2, 3, 2)
    assert (
        ErrorSpanAnnotation.objects.get(
            index=second.item.index, output=second.item.output
        ).score
        == 90.0
    )


def test_offsets_are_code_points_as_the_library_counts_them(owner, member, esa_set):
    campaign = make_esa_campaign(esa_set, owner, [owner], judges_per_item=1)
    screen = Assignment.objects.get(
        campaign=campaign,
        kind="regular",
        item__output__system__name="Lingo-1",
        item__index=1,
    )
    text = SYSTEMS["Lingo-1"][1]
    emoji = text.index("🎉")
    assert len(text) + 1 == len(text.encode("utf-16-le")) // 2  # JS counts one more
    with pytest.raises(RatingRefused) as refused:
        record_esa(
            campaign, owner, screen.pk, "50", spans_field((0, len(text) + 1, "minor"))
        )
    assert str(refused.value) == (
        f"spans: span 1: end {len(text) + 1} is past the end of the translation "
        f"({len(text)} characters)"
    )
    assert record_esa(
        campaign, owner, screen.pk, "50", spans_field((emoji, len(text), "minor"))
    )
    span = ErrorSpan.objects.get()
    assert text[span.start : span.end] == "🎉 yesterday."


@pytest.mark.parametrize(
    "score, spans, message",
    [
        ("", "[]", "score: give the translation a score from 0 to 100"),
        ("abc", "[]", "score: give the translation a score from 0 to 100"),
        ("101", "[]", "a esa rating is a whole number in 0–100"),
        ("55.5", "[]", "a esa rating is a whole number in 0–100"),
        ("50", "{", "spans: not JSON (Expecting property name enclosed in double"),
        ("50", '{"start": 0}', "spans: expected a list of spans"),
        ("50", '["x"]', "spans: span 1: expected an object"),
        ("50", spans_field((0, 3, "critical")), "spans: span 1: severity must be"),
        ("50", spans_field((0, 3, "big")), "spans: span 1: unknown severity 'big'"),
        ("50", spans_field((3, 3, "minor")), "spans: span 1: start 3 is not before"),
        ("50", spans_field((-1, 3, "minor")), "spans: span 1: start -1 is negative"),
        ("50", spans_field((0, 3, "minor", "Wrongness")), "unknown category"),
        (
            "50",
            spans_field((0, 3, "minor"), (0, 3, "major")),
            "spans: span 2 marks the same characters as span 1",
        ),
        (
            "50",
            spans_field((0, 3, "minor", "", "margin")),
            "spans: span 1: side must be one of target, source",
        ),
        (
            "50",
            '[{"side": "target", "end": 3, "severity": "minor"}]',
            "spans: span 1: start and end are required",
        ),
        (
            "50",
            spans_field((0, len(SOURCES[0]) + 5, "minor", "", "source")),
            "is past the end of the source",
        ),
        (
            "50",
            json.dumps([{"start": 0, "end": 1, "severity": "minor"}] * 101),
            "at most 100",
        ),
        ("50", " " * 50_001, "spans: the field is 50,001 characters long"),
    ],
)
def test_a_bad_answer_is_refused_with_its_field_and_nothing_is_stored(
    owner, member, esa_set, score, spans, message
):
    campaign = make_esa_campaign(esa_set, owner, [owner], judges_per_item=1)
    screen = regular(campaign, owner, item__index=0)
    with pytest.raises(RatingRefused) as refused:
        record_esa(campaign, owner, screen.pk, score, spans)
    assert message in str(refused.value)
    assert len(str(refused.value)) < 200  # never the whole input
    screen.refresh_from_db()
    assert screen.value is None and screen.spans is None
    assert not Judgment.objects.exists()
    assert not ErrorSpanAnnotation.objects.exists()


def test_a_degraded_screens_spans_are_checked_against_the_degraded_text(
    owner, member, esa_set
):
    campaign = make_esa_campaign(esa_set, owner, [owner], judges_per_item=1)
    screen = Assignment.objects.get(campaign=campaign, judge=owner, kind="degraded")
    Assignment.objects.filter(pk=screen.pk).update(degraded_text="x" * 200)
    assert record_esa(campaign, owner, screen.pk, "5", spans_field((150, 200, "major")))
    screen.refresh_from_db()
    assert screen.spans[0]["end"] == 200 and screen.value == 5
    # A control is no judgment and no annotation.
    assert not Judgment.objects.exists()
    assert not ErrorSpanAnnotation.objects.exists()
    assert JudgmentImport.objects.get(pk=campaign.batch_id).n_annotations == 0


def test_a_rating_cannot_answer_an_esa_screen(owner, member, esa_set):
    campaign = make_esa_campaign(esa_set, owner, [owner], judges_per_item=1)
    screen = regular(campaign, owner)
    with pytest.raises(service.RatingRefused, match="spans and a score"):
        service.record_rating(campaign, owner, screen.pk, 50)
    with pytest.raises(RatingRefused, match="not yours"):
        record_esa(campaign, member, screen.pk, "50", "[]")


def test_attention_checks_need_the_damage_marked_and_a_lower_score(
    owner, member, esa_set
):
    campaign = make_esa_campaign(esa_set, owner, [owner, member], controls_per_judge=3)

    def attentive(screen):
        if screen.kind == "degraded":
            return 20, spans_field((screen.damage_start, screen.damage_end, "major"))
        return 80, "[]"

    def marks_but_scores_high(screen):
        if screen.kind == "degraded":
            return 90, spans_field(
                (screen.damage_start, screen.damage_start + 1, "minor")
            )
        return 80, "[]"

    answer_everything(campaign, owner, attentive)
    answer_everything(campaign, member, marks_but_scores_high)
    checks = {c.judge: c for c in attention_checks(campaign)}
    assert checks["alice"].to_dict() == {
        "judge": "alice",
        "checked": 3,
        "found": 3,
        "dropped": 3,
        "passed": 3,
        "failed": False,
        "min_passed": 0.5,
    }
    bob = checks["bob"]
    assert (bob.checked, bob.found, bob.dropped, bob.passed, bob.failed) == (
        3,
        3,
        0,
        0,
        True,
    )


def test_a_span_beside_the_damage_is_not_finding_it(owner, member, esa_set):
    campaign = make_esa_campaign(esa_set, owner, [owner], judges_per_item=1)

    def beside(screen):
        if screen.kind == "degraded":
            if screen.damage_start > 0:
                return 10, spans_field((0, screen.damage_start, "major"))
            return 10, spans_field(
                (screen.damage_end, len(screen.degraded_text), "major")
            )
        return 70, "[]"

    answer_everything(campaign, owner, beside)
    (check,) = attention_checks(campaign)
    assert (check.checked, check.found, check.dropped, check.failed) == (1, 0, 1, True)


def test_span_agreement_between_two_judges_is_the_librarys_by_hand(
    owner, member, esa_set
):
    campaign = make_esa_campaign(esa_set, owner, [owner, member], controls_per_judge=0)
    first_item = regular(campaign, owner).item

    def alice(screen):
        spans = "[]"
        if screen.item_id == first_item.pk:
            spans = spans_field((0, 10, "major"))
        return 60 + screen.item.index, spans

    def bob(screen):
        spans = "[]"
        if screen.item_id == first_item.pk:
            spans = spans_field((5, 15, "minor"))
        return 50 + 2 * screen.item.index, spans

    answer_everything(campaign, owner, alice)
    answer_everything(campaign, member, bob)
    found = esa_agreement(campaign)
    (pair,) = found.pairs
    assert (pair.first, pair.second, pair.items) == ("alice", "bob", 12)
    assert (pair.spans_first, pair.spans_second) == (1, 1)
    # mpp: one matched pair sharing 5 of 10 characters each way.
    assert pair.figures["mpp"].f1 == pytest.approx(0.5, abs=1e-12)
    # w25: 5 characters marked by both with other severities, half credit.
    assert pair.figures["w25"].precision == pytest.approx(0.25, abs=1e-12)
    assert pair.figures["w25"].f1 == pytest.approx(0.25, abs=1e-12)
    # The same as the library on the same annotations.
    human = [SpanAnnotation(1, "x", "alice", (Span(0, 10, "major"),))]
    metric = [SpanAnnotation(1, "x", "bob", (Span(5, 15, "minor"),))]
    library = evaluate_spans(human, metric, variants=("mpp",))
    assert library.results[0].overall.f1 == pytest.approx(0.5, abs=1e-12)
    assert pair.figures["mpp"].f1_interval is not None
    # Scores: bob gives 50 + 2i where alice gives 60 + i: perfectly correlated.
    assert found.pearson.value == pytest.approx(1.0, abs=1e-9)
    assert found.alpha.value is not None and found.alpha.value < 1.0
    assert found.mean_f1("mpp") == pytest.approx(0.5, abs=1e-12)
