"""Tables 3, 4 and 5 of Babych, Elliott & Hartley (2005), recomputed.

The inputs are typed in from the paper's printed tables:
Table 2 (raw BLEU r1n4 and WNM recall per system and text type) and Table 3
(readability of the French originals). Our code computes everything else,
which is compared with the published outputs at their printed precision:
three decimals unless printed shorter (``0.19`` is 0.190, ``2`` is 2.000).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scoring.readability.complexity import flesch_kincaid_grade, flesch_reading_ease
from scoring.readability.normalisation import (
    NORMALISATION_POWERS,
    normalisation_coefficient,
    readability_correlations,
    stability_table,
)

TEXT_TYPES = ("wp", "news", "em")  # whitepaper, DARPA 94 news, e-mails
SYSTEMS = ("S1", "S1da", "S2", "S2da")  # "da" = after the dictionary update
NAN = math.nan

# Table 3, readability of the French originals, columns FR, FKGL, ASL, ASW.
READABILITY = {
    "wp": (17.3, 15.7, 19.65, 2.0),
    "news": (27.8, 14.7, 21.4, 1.86),
    "em": (61.44, 6.98, 9.22, 1.608),
}
ASW = np.array([READABILITY[t][3] for t in TEXT_TYPES])

# Table 2, raw scores (rows SYSTEMS, columns TEXT_TYPES); the systems after
# the dictionary update were not run on the news texts.
BLEU = np.array(
    [
        [0.1874, 0.2831, 0.3257],
        [0.2351, NAN, 0.3573],
        [0.1315, 0.1896, 0.2006],
        [0.1701, NAN, 0.326],
    ]
)
WNM = np.array(
    [
        [0.3247, 0.3644, 0.3915],
        [0.3851, NAN, 0.4256],
        [0.2758, 0.3439, 0.3792],
        [0.3172, NAN, 0.4129],
    ]
)


def _printed(value: float, published: float, decimals: int = 3) -> bool:
    """True if ``value`` rounds to ``published`` at the printed precision."""
    return abs(value - published) <= 0.5 * 10**-decimals + 1e-12


# ---------------------------------------------------------------- Table 3


@pytest.mark.parametrize(("text_type", "decimals"), [("news", 1), ("em", 2)])
def test_it_reproduces_the_flesch_figures_of_table_3_from_asl_and_asw(
    text_type: str, decimals: int
) -> None:
    fr, fkgl, asl, asw = READABILITY[text_type]
    assert _printed(flesch_reading_ease(asl, asw), fr, decimals)
    assert _printed(flesch_kincaid_grade(asl, asw), fkgl, decimals)


def test_it_finds_the_one_whitepaper_figure_of_table_3_that_does_not_fit() -> None:
    fr, fkgl, asl, asw = READABILITY["wp"]
    # FKGL fits: 0.39 * 19.65 + 11.8 * 2 - 15.59 = 15.6735, printed 15.7.
    assert _printed(flesch_kincaid_grade(asl, asw), fkgl, 1)
    # FR does not: 206.835 - 1.015 * 19.65 - 84.6 * 2 = 17.69025, printed
    # 17.3. The printed FR needs ASW = 2.0046, but Table 4's C = 1.075
    # (C² = 1.156) with ASW(news) = 1.86 needs ASW(wp) <= 2.0004; so the
    # paper's whitepaper FR was not computed from the ASL and ASW it prints.
    assert flesch_reading_ease(asl, asw) == pytest.approx(17.69025, abs=1e-9)
    assert flesch_reading_ease(asl, asw) - fr == pytest.approx(0.39025, abs=1e-9)


# Published r of each parameter (FR, FKGL, ASL, ASW) with each score series.
PUBLISHED_R = {
    "bleu-S1": (0.872, -0.804, -0.641, -0.928),
    "bleu-S2": (0.785, -0.701, -0.513, -0.859),
    "wnm-S1": (0.92, -0.864, -0.721, -0.963),
    "wnm-S2": (0.889, -0.825, -0.669, -0.941),
}
PUBLISHED_AVERAGE_R = (0.866, -0.799, -0.636, -0.923)


def _table_3():
    parameters = np.array([READABILITY[t] for t in TEXT_TYPES])  # (3 types, 4)
    # S1 and S2 are the systems with a score on every text type.
    scores = np.column_stack([BLEU[0], BLEU[2], WNM[0], WNM[2]])  # (3 types, 4)
    return readability_correlations(
        parameters,
        scores,
        parameters=("FR", "FKGL", "ASL", "ASW"),
        series=tuple(PUBLISHED_R),
    )


def test_it_reproduces_every_correlation_of_table_3() -> None:
    # The paper correlates the *printed* FR and FKGL columns (with the
    # whitepaper's FR of 17.3), so those are the inputs here too.
    table = _table_3()
    for row, published in zip(table.r, PUBLISHED_R.values(), strict=True):
        for value, expected in zip(row, published, strict=True):
            assert _printed(value, expected)


def test_it_reproduces_the_average_row_of_table_3_and_picks_asw() -> None:
    table = _table_3()
    for value, expected in zip(table.average, PUBLISHED_AVERAGE_R, strict=True):
        assert _printed(value, expected)  # a plain mean of the four r values
    assert table.strongest == "ASW"


# ---------------------------------------------------------------- Table 4

PUBLISHED_FACTORS = {  # the C column: C² on the BLEU rows, C on the WNM rows
    "bleu": (1.156, 1, 0.747),
    "wnm": (1.075, 1, 0.865),
}
PUBLISHED_NORMALISED = {
    "bleu": [
        [0.217, 0.283, 0.243],
        [0.272, NAN, 0.267],
        [0.152, 0.19, 0.15],
        [0.197, NAN, 0.244],
    ],
    "wnm": [
        [0.349, 0.364, 0.338],
        [0.414, NAN, 0.368],
        [0.297, 0.344, 0.328],
        [0.341, NAN, 0.357],
    ],
}


@pytest.mark.parametrize("metric", ["bleu", "wnm"])
def test_it_reproduces_the_coefficients_of_table_4(metric: str) -> None:
    coefficients = normalisation_coefficient(ASW, ASW[1])
    factors = coefficients ** NORMALISATION_POWERS[metric]
    for value, expected in zip(factors, PUBLISHED_FACTORS[metric], strict=True):
        assert _printed(value, expected)


@pytest.mark.parametrize(("metric", "raw"), [("bleu", BLEU), ("wnm", WNM)])
def test_it_reproduces_every_normalised_score_of_table_4(
    metric: str, raw: np.ndarray
) -> None:
    table = stability_table(
        raw,
        ASW,
        "news",
        NORMALISATION_POWERS[metric],
        systems=SYSTEMS,
        text_types=TEXT_TYPES,
    )
    published = np.array(PUBLISHED_NORMALISED[metric])
    normalised = np.array(table.normalised)
    assert np.array_equal(np.isnan(normalised), np.isnan(published))
    present = ~np.isnan(published)
    assert np.all(np.abs(normalised[present] - published[present]) <= 0.0005 + 1e-12)


# ---------------------------------------------------------------- Table 5

PUBLISHED_STDEV = {  # per system S1, S1da, S2, S2da, then the average
    "bleu": ((0.071, 0.086, 0.037, 0.11, 0.076), (0.033, 0.003, 0.022, 0.033, 0.023)),
    "wnm": ((0.034, 0.029, 0.053, 0.068, 0.046), (0.013, 0.033, 0.024, 0.011, 0.02)),
}
PUBLISHED_IMPROVEMENT = {"bleu": 3.299, "wnm": 2.253}


@pytest.mark.parametrize(("metric", "raw"), [("bleu", BLEU), ("wnm", WNM)])
def test_it_reproduces_the_standard_deviations_of_table_5(
    metric: str, raw: np.ndarray
) -> None:
    table = stability_table(raw, ASW, 1, NORMALISATION_POWERS[metric])  # 1 = news
    raw_published, normalised_published = PUBLISHED_STDEV[metric]
    # S1da and S2da have two text types each (no news): n - 1 = 1.
    computed_raw = (*table.raw_stdev, table.average_raw_stdev)
    computed_normalised = (*table.normalised_stdev, table.average_normalised_stdev)
    for value, expected in zip(computed_raw, raw_published, strict=True):
        assert _printed(value, expected)
    for value, expected in zip(computed_normalised, normalised_published, strict=True):
        assert _printed(value, expected)


@pytest.mark.parametrize(("metric", "raw"), [("bleu", BLEU), ("wnm", WNM)])
def test_it_reproduces_the_improvement_factors_of_table_5(
    metric: str, raw: np.ndarray
) -> None:
    table = stability_table(raw, ASW, 1, NORMALISATION_POWERS[metric])  # 1 = news
    # The ratio of the unrounded averages: 0.076151 / 0.023086 = 3.2986 for
    # BLEU, 0.045616 / 0.020244 = 2.2534 for WNM. Dividing the printed,
    # rounded averages would give 0.076 / 0.023 = 3.304 and 0.046 / 0.02 = 2.3.
    assert _printed(table.improvement, PUBLISHED_IMPROVEMENT[metric])
    assert _printed(
        table.average_raw_stdev / table.average_normalised_stdev,
        PUBLISHED_IMPROVEMENT[metric],
    )
