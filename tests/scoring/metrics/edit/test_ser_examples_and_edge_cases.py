"""SER: the lecture notes' 60 % example and what counts as an exact match."""

from __future__ import annotations

import pytest

from scoring import __version__ as VERSION
from scoring import get_metric
from scoring.metrics.edit.ser import SER

# Lecture notes 002, "Example - SER": machine and reference translations.
LECTURE_PAIRS = [
    (
        "Kyaa aapko yah pustak Padhne mei mazaa aayaa",
        "Kyaa aapko yah pustak Padhne mei mazaa aayaa",
    ),
    (
        "Dhyaan na de pane ke liye main swayam ko doshi maantaa hoon",
        "Dhyaan na de pane ke liye main swayam ko doshi maantaa hoon",
    ),
    ("Hum karya karnaa ab prarambh honge", "Hum ab kaam karnaa shuru karenge"),
    ("Wah kareeb sau ke varsh lene waalaa hai", "Ismein sainkdhon varsh lagenge"),
    (
        "Kyaa kiyaa jaataa hai rad kiya nahin jaataa hai",
        "Jo kuchh ho chukaa hai uss ke bare mein kuchh nahin kiya jaa saktaa",
    ),
]


def test_it_gives_the_lecture_notes_60_percent() -> None:
    hypotheses = [hypothesis for hypothesis, _ in LECTURE_PAIRS]
    references = [[reference for _, reference in LECTURE_PAIRS]]
    result = SER().score(hypotheses, references, sentence=True)
    assert result.score == pytest.approx(60.0, rel=1e-12)
    assert result.sentence_scores == (0.0, 0.0, 100.0, 100.0, 100.0)
    assert result.statistics.sum(axis=0).tolist() == [3, 5]


def test_a_segment_is_correct_when_any_reference_matches() -> None:
    assert SER().score(["a b"], [["a c"], ["a b"]]).score == 0.0
    assert SER().score(["a b"], [["a c"], [None]]).score == 100.0


def test_spacing_never_matters_and_case_and_tokens_are_choices() -> None:
    assert SER().score(["a  b\u00a0"], [["a b"]]).score == 0.0
    assert SER().score(["A b"], [["a b"]]).score == 100.0
    assert SER(lowercase=True).score(["A b"], [["a b"]]).score == 0.0
    assert SER(tokenize="13a").score(["a b."], [["a b ."]]).score == 0.0
    # ASCII-only splitting keeps the no-break space inside the word.
    assert SER(tokenize="ascii").score(["a\u00a0b"], [["a b"]]).score == 100.0


def test_empty_segments_match_only_empty_references() -> None:
    assert SER().score([""], [[""]]).score == 0.0
    assert SER().score([""], [["a"]]).score == 100.0
    assert SER().score(["好"], [["好"]]).score == 0.0


def test_it_is_an_error_rate_in_percent_with_a_signature() -> None:
    metric = get_metric("ser")
    assert (metric.higher_is_better, metric.scale) == (False, 100.0)
    assert metric.signature(4) == f"ser|nrefs:4|case:mixed|tok:none|version:{VERSION}"
