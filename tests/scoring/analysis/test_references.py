"""Per-reference diagnostics on hand-worked examples."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring.analysis import references as module
from scoring.analysis.references import (
    all_but,
    closest_references,
    find_outliers,
    robust_z,
    score_references,
    score_system,
    statistics_of,
)

# Three references of four sentences; C is garbage in the third one.
REFERENCES = [
    [
        "the cat sat on the mat",
        "it is raining today",
        "the meeting starts at noon",
        "we bought fresh bread",
    ],
    [
        "the cat sat on a mat",
        "it rains today",
        "the meeting begins at noon",
        "we bought some fresh bread",
    ],
    [
        "a cat sat on the mat",
        "it is raining now",
        "zzqx vvbn kkpl",
        "we purchased fresh bread",
    ],
]
SYSTEMS = [
    [
        "the cat sat on the mat",
        "it is raining",
        "the meeting is at noon",
        "fresh bread",
    ],
    ["a cat is on the mat", "raining today", "meeting starts noon", "we buy bread"],
]


def test_all_but_leaves_out_one_stream_in_order():
    assert all_but([["a"], ["b"], ["c"]], 1) == [["a"], ["c"]]


def test_each_reference_is_scored_against_the_others_as_orange_does():
    chrf = get_metric("chrf")
    held_out = score_references(chrf, REFERENCES, sentence=True)
    assert held_out.sentences.shape == (3, 4)
    for k in range(3):
        others = [REFERENCES[j] for j in range(3) if j != k]
        expected = chrf.score(REFERENCES[k], others, sentence=True)
        assert held_out.corpus[k] == pytest.approx(expected.score, abs=1e-9)
        assert held_out.sentences[k] == pytest.approx(expected.sentence_scores)
    assert "nrefs:2" in held_out.signature
    # The garbage sentence drags C's corpus score below A's and B's.
    assert held_out.corpus[2] < min(held_out.corpus[:2])
    assert held_out.to_dict()["corpus"] == list(held_out.corpus)


def test_identical_references_score_perfectly_and_different_ones_not():
    chrf = get_metric("chrf")
    refs = [["a b c d"], ["a b c d"], ["w x y z"]]
    corpus = score_references(chrf, refs).corpus
    assert corpus[0] == pytest.approx(100.0) and corpus[1] == pytest.approx(100.0)
    assert corpus[2] == pytest.approx(0.0)


def test_a_system_is_scored_against_the_same_reduced_sets():
    bleu = get_metric("bleu")
    scores = score_system(bleu, SYSTEMS[0], REFERENCES)
    assert len(scores.held_out) == 3 and scores.agreement is None
    expected = bleu.score(SYSTEMS[0], [REFERENCES[0], REFERENCES[1]]).score
    assert scores.held_out[2] == pytest.approx(expected, abs=1e-9)


def test_one_reference_is_refused():
    with pytest.raises(MetricError, match="two or more"):
        score_references(get_metric("chrf"), REFERENCES[:1])


def test_agreement_scores_the_system_against_each_reference_alone():
    chrf = get_metric("chrf")
    agreement = score_system(chrf, SYSTEMS[0], REFERENCES, agreement=True).agreement
    assert agreement.shape == (3, 4)
    for k in range(3):
        alone = chrf.score(SYSTEMS[0], [REFERENCES[k]], sentence=True)
        assert agreement[k] == pytest.approx(alone.sentence_scores)
    assert agreement[0, 0] == pytest.approx(100.0)
    assert agreement[2, 2] < 10.0


@pytest.mark.parametrize("spec", ["bleu", "chrf", "ter", "nist"])
def test_blocks_of_segments_give_the_rows_of_one_whole_run(spec, monkeypatch):
    # Blocks of one segment at a time; NIST (whole-corpus weights) runs whole.
    monkeypatch.setattr(module, "CACHE_FRIENDLY_REFERENCES", 1)
    metric = get_metric(spec)
    jobs = [(SYSTEMS[1], REFERENCES[:2]), (REFERENCES[2], [SYSTEMS[0]])]
    for rows, (hypotheses, references) in zip(statistics_of(metric, jobs), jobs):
        whole = metric.score(hypotheses, references)
        assert np.array_equal(rows, whole.statistics)


def test_held_out_scores_equal_the_metric_on_each_reduced_set():
    ter = get_metric("ter")
    held_out = score_system(ter, SYSTEMS[1], REFERENCES).held_out
    for k in range(3):
        others = [REFERENCES[j] for j in range(3) if j != k]
        assert held_out[k] == pytest.approx(ter.score(SYSTEMS[1], others).score)


def test_closest_counts_the_hand_worked_example():
    scores = np.array([[60, 50, 70], [62, 50, 68], [58, 40, 5]], dtype=float)
    closest = closest_references(scores)
    assert closest.counts == (1, 1, 0)
    assert closest.ties == 1
    assert closest.closest.tolist() == [1, -1, 0]
    assert closest.to_dict() == {"counts": [1, 1, 0], "ties": 1}


def test_closest_follows_the_metric_direction():
    ter_like = np.array([[10.0, 80.0], [30.0, 20.0]])
    assert closest_references(ter_like, higher_is_better=False).counts == (1, 1)
    assert closest_references(ter_like, higher_is_better=True).counts == (1, 1)
    assert closest_references(ter_like, higher_is_better=False).closest.tolist() == [
        0,
        1,
    ]


def test_robust_z_uses_the_sentence_median_and_the_corpus_mad():
    values = np.array([[60, 50, 70, 40], [62, 52, 68, 41], [58, 51, 5, 43]], float)
    z, scale = robust_z(values)
    assert scale == pytest.approx(1.4826)
    assert z[2, 2] == pytest.approx(-63 / 1.4826)
    assert z[0, 0] == pytest.approx(0.0)


def test_robust_z_never_divides_by_less_than_the_floor():
    z, scale = robust_z(np.array([[50.0, 50.0], [50.0, 50.0], [50.0, 10.0]]), 2.0)
    assert scale == 2.0
    assert z[2, 1] == pytest.approx(-20.0)


def test_the_hand_worked_example_flags_only_the_garbage_reference():
    agreement = np.array(
        [[60, 50, 70, 40], [62, 52, 68, 41], [58, 51, 5, 43]], dtype=float
    )
    report = find_outliers(agreement)
    assert report.evidence == "references"
    assert [(o.segment, o.reference) for o in report.outliers] == [(2, 2)]
    assert report.outliers[0].score == pytest.approx(63 / 1.4826)
    assert report.outliers[0].z_systems is None


def test_an_outlier_needs_both_the_references_and_the_systems_to_agree():
    agreement = np.array(
        [[60, 50, 70, 40], [62, 52, 68, 41], [58, 51, 5, 43]], dtype=float
    )
    # The systems agree with C at the 3rd sentence: not an outlier there.
    systems = np.array([[50, 40, 30, 30], [52, 41, 31, 31], [49, 42, 60, 33]], float)
    assert find_outliers(agreement, systems).outliers == ()
    # The systems are far from C too: flagged, scored by the weaker evidence.
    systems[2, 2] = 1.0
    report = find_outliers(agreement, systems)
    assert report.evidence == "references and systems"
    (outlier,) = report.outliers
    assert (outlier.segment, outlier.reference) == (2, 2)
    assert outlier.score == pytest.approx(
        min(-outlier.z_references, -outlier.z_systems)
    )


def test_with_two_references_only_the_systems_can_tell_which_is_off():
    agreement = np.array([[50, 60, 10, 55], [51, 59, 12, 54]], dtype=float)
    assert find_outliers(agreement).evidence == "none"
    assert find_outliers(agreement).outliers == ()
    systems = np.array([[50, 60, 40, 55], [50, 60, 2, 55]], dtype=float)
    report = find_outliers(agreement, systems, min_scale=1.0)
    assert report.evidence == "systems"
    assert [(o.segment, o.reference) for o in report.outliers] == [(2, 1)]


def test_garbage_text_end_to_end_is_flagged():
    chrf = get_metric("chrf")
    held_out = score_references(chrf, REFERENCES, sentence=True)
    systems = np.mean(
        [score_system(chrf, h, REFERENCES, agreement=True).agreement for h in SYSTEMS],
        axis=0,
    )
    report = find_outliers(held_out.sentences, systems)
    assert (report.outliers[0].segment, report.outliers[0].reference) == (2, 2)
    assert {(o.segment, o.reference) for o in report.outliers} == {(2, 2)}
    assert closest_references(held_out.sentences).counts[2] == 0
