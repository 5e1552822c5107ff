"""BLEU against the worked examples of Papineni et al. 2002 (seed 003) and the
MT-evaluation lecture notes (seed 002). Expected values are the documents'
own figures or hand computations from them."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from scoring import get_metric
from scoring.metrics.ngram.bleu import BLEU

# Papineni et al. 2002, Example 1. The paper counts words and ignores case;
# its counts (18 and 14 words) leave out the final period, so it is left out.
EXAMPLE_1_CANDIDATE_1 = (
    "It is a guide to action which ensures that the military always obeys the "
    "commands of the party"
)
EXAMPLE_1_CANDIDATE_2 = (
    "It is to insure the troops forever hearing the activity guidebook that party "
    "direct"
)
EXAMPLE_1_REFERENCES = (
    "It is a guide to action that ensures that the military will forever heed "
    "Party commands",
    "It is the guiding principle which guarantees the military forces always "
    "being under the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
)

# Example 2 (the paper's candidate ends in a period that is not counted).
EXAMPLE_2_CANDIDATE = "the the the the the the the"
EXAMPLE_2_REFERENCES = ("The cat is on the mat", "There is a cat on the mat")

LECTURE_CANDIDATE = "the gunman was shot dead by police ."
LECTURE_REFERENCES = (
    "The gunman was shot dead by the police .",
    "The gunman was shot to death by the police .",
    "The gunman was shot to death by the police .",
    "The Police has killed the gunman .",
)


def modified_precisions(
    metric: BLEU, candidate: str, references: tuple[str, ...]
) -> list[Fraction]:
    """Modified n-gram precisions p_1..p_N as exact fractions, read from the
    metric's sufficient statistics (matches_n / totals_n)."""
    row = metric.segment_statistics([candidate], [[ref] for ref in references])[0]
    stats = dict(zip(metric.statistics_names, row.tolist()))
    return [
        Fraction(stats[f"matches_{n}"], stats[f"totals_{n}"])
        for n in range(1, metric.max_order + 1)
    ]


PAPER_BLEU = BLEU(max_order=2, tokenize="none", lowercase=True)


def test_it_gives_the_papers_modified_precisions_for_example_1() -> None:
    references = EXAMPLE_1_REFERENCES
    first = modified_precisions(PAPER_BLEU, EXAMPLE_1_CANDIDATE_1, references)
    second = modified_precisions(PAPER_BLEU, EXAMPLE_1_CANDIDATE_2, references)
    assert first == [Fraction(17, 18), Fraction(10, 17)]
    assert second == [Fraction(8, 14), Fraction(1, 13)]


def test_it_clips_example_2_to_the_max_count_in_a_single_reference() -> None:
    # "the" occurs twice in reference 1 and once in reference 2: 2/7, not 3/7
    # (summed over references) and not 7/7 (unclipped); no bigram matches.
    references = EXAMPLE_2_REFERENCES
    precisions = modified_precisions(PAPER_BLEU, EXAMPLE_2_CANDIDATE, references)
    assert precisions == [Fraction(2, 7), Fraction(0, 6)]


def test_it_gives_the_short_example_3_inflated_precisions() -> None:
    # "of the": modified unigram precision 2/2, bigram precision 1/1.
    assert modified_precisions(PAPER_BLEU, "of the", EXAMPLE_1_REFERENCES) == [
        Fraction(2, 2),
        Fraction(1, 1),
    ]


def test_it_gives_the_lecture_precisions_with_case_folding() -> None:
    metric = BLEU(max_order=4, tokenize="13a", lowercase=True)
    assert modified_precisions(metric, LECTURE_CANDIDATE, LECTURE_REFERENCES) == [
        Fraction(8, 8),
        Fraction(6, 7),
        Fraction(4, 6),
        Fraction(3, 5),
    ]


def test_it_gives_the_lecture_bleu_of_0_68_when_the_closest_length_is_9() -> None:
    # The lecture takes r = 9, BP = exp(1 - 9/8) = 0.8825, BLEU = 0.68. With
    # references 1-3 (9, 10 and 10 tokens) the closest length is 9 as well;
    # the precisions come from reference 1 alone, so they do not change.
    metric = get_metric("bleu", lowercase=True)
    streams = [[reference] for reference in LECTURE_REFERENCES[:3]]
    result = metric.score([LECTURE_CANDIDATE], streams)
    assert result.details["brevity_penalty"] == pytest.approx(0.8825, abs=5e-5)
    assert result.details["ref_len"] == 9
    assert round(result.score / 100, 2) == 0.68
    expected = math.exp(1 - 9 / 8) * (1 * 6 / 7 * 4 / 6 * 3 / 5) ** (1 / 4)
    assert result.score == pytest.approx(100 * expected, abs=1e-9)


def test_it_breaks_the_lectures_length_tie_towards_the_shorter_reference() -> None:
    # With all four references, 9 (ref 1) and 7 (ref 4) are both one token
    # from the candidate's 8. mteval-v13a and sacreBLEU (and SPEC section 2)
    # take the shorter, 7, so there is no brevity penalty; the lecture's 0.68
    # took 9. Hand computation: BLEU = (1 * 6/7 * 4/6 * 3/5) ** (1/4) = 0.7653.
    result = get_metric("bleu", lowercase=True).score(
        [LECTURE_CANDIDATE], [[ref] for ref in LECTURE_REFERENCES]
    )
    assert result.details["ref_len"] == 7
    assert result.details["brevity_penalty"] == 1.0
    expected = 100 * (6 / 7 * 4 / 6 * 3 / 5) ** 0.25
    assert result.score == pytest.approx(expected, abs=1e-9)


def test_it_pools_the_counts_of_all_segments_before_dividing() -> None:
    # Papineni 2.1.1: corpus p_n = summed clipped matches / summed n-grams.
    # Bigrams: 1 of 2 and 0 of 3 pool to 1/5 (the mean of ratios would be 1/4);
    # unigrams: 2 of 3 and 1 of 4 pool to 3/7. Lengths 7 = 7, so BP = 1.
    metric = BLEU(max_order=2, tokenize="none")
    result = metric.score(["a b x", "c y z w"], [["a b q", "c d e f"]])
    assert result.details["matches"] == [3, 1]
    assert result.details["totals"] == [7, 5]
    assert result.score == pytest.approx(100 * math.sqrt(3 / 7 * 1 / 5), abs=1e-12)
    assert np.asarray(result.statistics).sum(axis=0).tolist() == [7, 7, 3, 1, 7, 5]
