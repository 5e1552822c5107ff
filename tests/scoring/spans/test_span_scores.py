"""MQM scores from spans (Freitag et al. 2021 weights, the WMT files' sign)
and ESA's given scores, per segment and per system."""

from __future__ import annotations

import math

import pytest

from scoring.errors import ScoringError
from scoring.spans import (
    MqmWeights,
    Span,
    SpanAnnotation,
    given_scores,
    mqm_scores,
    parse_mqm_tsv,
)
from tests.scoring.support.realdata import WMT21_DIR, read_lines

HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"

# A small hand-written campaign: two systems, three segments, three raters.
# The expected averages below are worked out by hand from Freitag et al.'s
# weights (major 5, minor 1, minor Fluency/Punctuation 0.1, major
# Non-translation 25, neutral 0; critical 10 is this project's default).
HAND_FILE = "\n".join(
    "\t".join(cells)
    for cells in [
        # S1, segment 1: r1 = 5 (major) + 0.1 (minor punctuation) = 5.1;
        # r2 = 1 (minor) + 0 (neutral) = 1; mean 3.05 -> -3.05.
        [
            "S1",
            "d",
            "1",
            "1",
            "r1",
            "Src one.",
            "<v>Eins</v> zwei.",
            "Accuracy/Mistranslation",
            "Major",
        ],
        [
            "S1",
            "d",
            "1",
            "1",
            "r1",
            "Src one.",
            "Eins zwei<v>.</v>",
            "Fluency/Punctuation",
            "Minor",
        ],
        [
            "S1",
            "d",
            "1",
            "1",
            "r2",
            "Src one.",
            "Eins <v>zwei</v>.",
            "Style/Awkward",
            "Minor",
        ],
        [
            "S1",
            "d",
            "1",
            "1",
            "r2",
            "Src one.",
            "<v>Eins</v> zwei.",
            "Style/Awkward",
            "Neutral",
        ],
        # S1, segment 2: r1 no error (0); r3 major punctuation = 5 (the 0.1
        # is for minor punctuation only); mean 2.5 -> -2.5.
        ["S1", "d", "2", "2", "r1", "Src two.", "Drei.", "No-error", "No-error"],
        [
            "S1",
            "d",
            "2",
            "2",
            "r3",
            "Src two.",
            "Drei<v>.</v>",
            "Fluency/Punctuation",
            "Major",
        ],
        # S2, segment 1: r3 Non-translation (25, no span) -> -25.
        ["S2", "d", "1", "1", "r3", "Src one.", "Blabla.", "Non-translation!", "Major"],
        # S2, segment 2: r1 critical (10) + minor (1) = 11; r2 no error;
        # mean 5.5 -> -5.5.
        [
            "S2",
            "d",
            "2",
            "2",
            "r1",
            "Src two.",
            "<v>Vier</v> fünf.",
            "Accuracy/Addition",
            "Critical",
        ],
        [
            "S2",
            "d",
            "2",
            "2",
            "r1",
            "Src <v>two</v>.",
            "Vier fünf.",
            "Accuracy/Omission",
            "Minor",
        ],
        ["S2", "d", "2", "2", "r2", "Src two.", "Vier fünf.", "No-error", "No-error"],
        # S2, segment 3: one rater, no error -> 0 (not -0).
        ["S2", "d", "3", "3", "r2", "Src three.", "Sechs.", "No-error", "No-error"],
    ]
)


def hand_scores(weights: MqmWeights | None = None):
    campaign = parse_mqm_tsv((HEADER + HAND_FILE + "\n").encode(), "hand.tsv")
    return mqm_scores(campaign.annotations, weights)


def test_segment_averages_of_the_hand_campaign() -> None:
    scores = hand_scores()
    rows = [
        (scores.systems[s], int(g), float(v), int(n))
        for s, g, v, n in zip(
            scores.system_ids, scores.segments, scores.values, scores.n_annotators
        )
    ]
    expected = [
        ("S1", 1, -3.05, 2),
        ("S1", 2, -2.5, 2),
        ("S2", 1, -25.0, 1),
        ("S2", 2, -5.5, 2),
        ("S2", 3, 0.0, 1),
    ]
    assert [r[:2] + r[3:] for r in rows] == [e[:2] + e[3:] for e in expected]
    for (_, _, value, _), (_, _, wanted, _) in zip(rows, expected):
        assert value == pytest.approx(wanted, abs=1e-12)
    assert math.copysign(1.0, rows[-1][2]) == 1.0  # 0.0, not -0.0


def test_system_scores_are_the_mean_of_their_segments() -> None:
    systems = hand_scores().system_scores()
    assert systems["S1"] == pytest.approx((-3.05 - 2.5) / 2, abs=1e-12)
    assert systems["S2"] == pytest.approx((-25.0 - 5.5 + 0.0) / 3, abs=1e-12)


def test_weights_are_configurable_and_the_most_specific_rule_wins() -> None:
    weights = MqmWeights.parse("major:10 minor/fluency/punctuation:1 critical:25")
    scores = hand_scores(weights)
    # S1 seg 1: r1 10 + 1, r2 1 + 0 -> -6; S2 seg 2: r1 25 + 1 -> -13.
    assert scores.values.tolist()[0] == pytest.approx(-6.0)
    assert scores.values.tolist()[3] == pytest.approx(-13.0)
    # The Non-translation rule (25) is more specific than major's 10.
    assert scores.values.tolist()[2] == pytest.approx(-25.0)
    assert weights.weight("major", "Non-translation!") == 25.0
    assert weights.weight("Minor", "FLUENCY/Punctuation/Quotes") == 1.0
    assert weights.weight("minor", None) == 1.0


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("major", "expected severity[/category]:weight"),
        ("major:x", "expected severity[/category]:weight"),
        ("huge:3", "a rule starts with a severity"),
        ("minor:-1", "the weight must be a number >= 0"),
    ],
)
def test_bad_weights_are_refused(spec: str, problem: str) -> None:
    with pytest.raises(ScoringError) as caught:
        MqmWeights.parse(spec)
    assert problem in str(caught.value)


def test_weights_must_cover_every_severity() -> None:
    with pytest.raises(ScoringError, match="no weight for critical, neutral"):
        MqmWeights({"major": 5, "minor": 1})


def test_esa_scores_are_the_given_scores_averaged() -> None:
    annotations = [
        SpanAnnotation(1, "A", "a1", (Span(0, 1, "major"),), score=40.0),
        SpanAnnotation(1, "A", "a2", (), score=90.0),
        SpanAnnotation(2, "A", "a1", (), score=None),
        SpanAnnotation(1, "B", "a1", (), score=100.0),
    ]
    scores = given_scores(annotations)
    assert scores.criterion == "esa"
    assert scores.values.tolist() == [65.0, 100.0]
    assert scores.system_scores() == {"A": 65.0, "B": 100.0}
    data = scores.to_dict()
    assert data["systems"]["A"] == {"score": 65.0, "segments": 1}
    assert data["segments"][0] == {
        "system": "A",
        "segment": 1,
        "score": 65.0,
        "annotators": 2,
    }


def test_an_annotator_twice_on_one_segment_is_refused() -> None:
    twice = [SpanAnnotation(1, "A", "a1", ()), SpanAnnotation(1, "A", "a1", ())]
    with pytest.raises(ScoringError, match="annotator 'a1' has two annotations"):
        mqm_scores(twice)


def test_rows_on_real_wmt21_text_read_as_the_published_averages() -> None:
    """The published WMT21 en-de file (mqm_seg.tsv) has only the averages,
    not the spans, so these rows are written by hand on the real segments
    with the weighted totals those averages need (Online-W 16: -5.1, a major
    error and a minor punctuation one; Facebook-AI 1: -5, one major; UEdin
    16: 0, no error). What they check is the sign, the No-error rows and
    marker removal on real text (umlauts, long lines) against the file's
    own numbers, read from it."""
    en_de = WMT21_DIR / "en-de"
    published = {}
    for line in read_lines(en_de / "human" / "mqm_seg.tsv")[1:]:
        system, _, segment, value = line.split("\t")
        if value != "None":
            published[(system, int(segment))] = float(value)
    source = read_lines(en_de / "src.en")
    online_w = read_lines(en_de / "sys" / "Online-W.de")[15]
    facebook = read_lines(en_de / "sys" / "Facebook-AI.de")[0]
    uedin = read_lines(en_de / "sys" / "UEdin.de")[15]

    def mark(text: str, words: str) -> str:
        return text.replace(words, f"<v>{words}</v>", 1)

    rows = [
        [
            "Online-W",
            "16",
            "rater1",
            source[15],
            mark(online_w, "verhaftet"),
            "Accuracy/Mistranslation",
            "Major",
        ],
        [
            "Online-W",
            "16",
            "rater1",
            source[15],
            mark(online_w, ","),
            "Fluency/Punctuation",
            "Minor",
        ],
        [
            "Facebook-AI",
            "1",
            "rater2",
            source[0],
            mark(facebook, "MACED"),
            "Accuracy/Mistranslation",
            "Major",
        ],
        ["UEdin", "16", "rater3", source[15], uedin, "No-error", "No-error"],
    ]
    text = HEADER + "".join(
        "\t".join([r[0], "doc", r[1], r[1], *r[2:]]) + "\n" for r in rows
    )
    scores = mqm_scores(parse_mqm_tsv(text.encode(), "wmt21-by-hand.tsv").annotations)
    for system, segment, value in zip(
        scores.system_ids, scores.segments, scores.values
    ):
        wanted = published[(scores.systems[system], int(segment))]
        assert value == pytest.approx(wanted, abs=1e-9)
    assert sorted(scores.values.tolist()) == pytest.approx([-5.1, -5.0, 0.0])
