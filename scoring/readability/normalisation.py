"""Complexity-normalised MT scores and their stability (Babych et al. 2005).

A text type's difficulty for MT is measured by the ASW of its source text
(:mod:`scoring.readability.complexity`). Scores obtained on a text type are scaled to a
reference text type (the paper's: DARPA 94 news) with the normalisation
coefficient::

    C = ASW(text) / ASW(reference text type)
    normalised WNM  = WNM  * C      (power 1)
    normalised BLEU = BLEU * C**2   (power 2)

so a harder text (higher ASW, C > 1) has its scores raised. The paper judges
a normalisation by the standard deviation of one system's scores across text
types (the sample formula, n - 1 in the denominator), raw against
normalised: Table 5 averages those deviations over systems and reports the
ratio raw/normalised (3.299 for BLEU, 2.253 for WNM).

Worked example (Tables 3-4): ASW(whitepaper) = 2, ASW(news) = 1.86, so
C = 1.0753; S1's whitepaper BLEU 0.1874 becomes 0.1874 * 1.0753**2 = 0.2167
and its WNM recall 0.3247 becomes 0.3247 * 1.0753 = 0.3491.

Everything here takes arrays and returns frozen dataclasses; scores are on
whatever scale they come in (0-1 or 0-100), which the normalisation keeps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from scoring.errors import ScoringError
from scoring.results import json_safe

#: Exponent of C per metric, as found best by Babych et al. (section 6).
NORMALISATION_POWERS: dict[str, int] = {"bleu": 2, "wnm": 1}


def normalisation_coefficient(
    asw_text: ArrayLike, asw_reference: float
) -> float | np.ndarray:
    """C = ASW(text) / ASW(reference text type); arrays broadcast.

    >>> round(normalisation_coefficient(1.608, 1.86), 4)
    0.8645
    """
    if not asw_reference > 0:
        raise ScoringError(f"the reference ASW must be positive, got {asw_reference!r}")
    result = np.asarray(asw_text, float) / float(asw_reference)
    return float(result) if result.ndim == 0 else result


def normalise_scores(
    scores: ArrayLike, coefficients: ArrayLike, power: int
) -> float | np.ndarray:
    """``scores * coefficients ** power`` (BLEU: power 2; WNM: power 1).

    >>> round(normalise_scores(0.1874, 2 / 1.86, power=2), 4)
    0.2167
    """
    result = np.asarray(scores, float) * np.asarray(coefficients, float) ** power
    return float(result) if result.ndim == 0 else result


def sample_standard_deviation(values: ArrayLike, axis: int = -1) -> np.ndarray:
    """The paper's STDEV, sqrt((n Σx² - (Σx)²) / (n (n - 1))), along ``axis``.

    That is the sample standard deviation, computed here from centred values
    (the same number, without the cancellation of the textbook formula).
    NaNs are left out; NaN where fewer than two values are present.

    >>> round(float(sample_standard_deviation([0.1874, 0.2831, 0.3257])), 4)
    0.0708
    """
    array = np.asarray(values, float)
    present = np.isfinite(array)
    n = present.sum(axis=axis)
    centred = np.where(present, array - _nanmean(array, axis, keepdims=True), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = (centred**2).sum(axis=axis) / (n - 1)
    return np.where(n >= 2, np.sqrt(variance), np.nan)


@dataclass(frozen=True)
class StabilityTable:
    """Raw and complexity-normalised scores of systems across text types.

    Attributes:
        systems: names of the rows.
        text_types: names of the columns.
        reference_type: the text type every score is scaled to (C = 1).
        power: exponent of C (2 for BLEU, 1 for WNM).
        coefficients: C per text type, shape ``(n_types,)``.
        raw: scores, ``(n_systems, n_types)``; NaN = not evaluated.
        normalised: ``raw * coefficients ** power``, same shape.
        raw_stdev, normalised_stdev: per system across its text types
            (sample standard deviation; NaN with fewer than two types).
        average_raw_stdev, average_normalised_stdev: means over the systems
            that have a deviation.
        improvement: average_raw_stdev / average_normalised_stdev (the
            "improved *X" line of Table 5; > 1 means more stable).
    """

    systems: tuple[str, ...]
    text_types: tuple[str, ...]
    reference_type: str
    power: int
    coefficients: tuple[float, ...]
    raw: tuple[tuple[float, ...], ...]
    normalised: tuple[tuple[float, ...], ...]
    raw_stdev: tuple[float, ...]
    normalised_stdev: tuple[float, ...]
    average_raw_stdev: float
    average_normalised_stdev: float
    improvement: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (NaN becomes ``None``)."""
        return json_safe(
            {name: getattr(self, name) for name in self.__dataclass_fields__}
        )


def stability_table(
    raw_scores: ArrayLike,
    asw: ArrayLike,
    reference_type: int | str,
    power: int,
    *,
    systems: Sequence[str] | None = None,
    text_types: Sequence[str] | None = None,
) -> StabilityTable:
    """Normalise ``raw_scores`` and compare their spread before and after.

    Args:
        raw_scores: ``(n_systems, n_types)`` scores; NaN (or None) where a
            system was not run on a text type.
        asw: ``(n_types,)`` ASW of each text type's source text.
        reference_type: column index or name of the reference text type.
        power: exponent of C (``NORMALISATION_POWERS["bleu"]`` = 2).
        systems, text_types: row and column names (default "0", "1", ...).
    """
    raw = np.array(raw_scores, dtype=float, ndmin=2)
    asw_array = np.asarray(asw, dtype=float)
    if raw.ndim != 2 or asw_array.shape != (raw.shape[1],):
        raise ScoringError(
            f"need scores of shape (n_systems, n_types) and one ASW per type; "
            f"got {raw.shape} and {asw_array.shape}"
        )
    systems = tuple(systems) if systems is not None else _names(raw.shape[0])
    text_types = tuple(text_types) if text_types is not None else _names(raw.shape[1])
    if len(systems) != raw.shape[0] or len(text_types) != raw.shape[1]:
        raise ScoringError("the system or text type names do not match the scores")
    column = _column(reference_type, text_types)
    coefficients = normalisation_coefficient(asw_array, asw_array[column])
    normalised = np.asarray(normalise_scores(raw, coefficients, power))
    raw_stdev = sample_standard_deviation(raw, axis=1)
    normalised_stdev = sample_standard_deviation(normalised, axis=1)
    average_raw = _nanmean(raw_stdev, 0)
    average_normalised = _nanmean(normalised_stdev, 0)
    return StabilityTable(
        systems=systems,
        text_types=text_types,
        reference_type=text_types[column],
        power=power,
        coefficients=tuple(coefficients.tolist()),
        raw=tuple(map(tuple, raw.tolist())),
        normalised=tuple(map(tuple, normalised.tolist())),
        raw_stdev=tuple(raw_stdev.tolist()),
        normalised_stdev=tuple(normalised_stdev.tolist()),
        average_raw_stdev=float(average_raw),
        average_normalised_stdev=float(average_normalised),
        improvement=_ratio(float(average_raw), float(average_normalised)),
    )


@dataclass(frozen=True)
class ReadabilityCorrelations:
    """Pearson r of readability parameters with MT scores across text types.

    Table 3 of Babych et al.: one row per score series (``bleu-S1``, ...),
    one column per parameter (FR, FKGL, ASL, ASW), and the plain mean of each
    column over the series.

    Attributes:
        parameters: column names.
        series: row names.
        r: ``(n_series, n_parameters)`` Pearson correlations.
        average: ``(n_parameters,)`` arithmetic means of the columns.
        strongest: the parameter with the largest mean |r|.
    """

    parameters: tuple[str, ...]
    series: tuple[str, ...]
    r: tuple[tuple[float, ...], ...]
    average: tuple[float, ...]
    strongest: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (NaN becomes ``None``)."""
        return json_safe(
            {name: getattr(self, name) for name in self.__dataclass_fields__}
        )


def readability_correlations(
    parameter_values: ArrayLike,
    scores: ArrayLike,
    *,
    parameters: Sequence[str],
    series: Sequence[str],
) -> ReadabilityCorrelations:
    """Pearson r of every parameter with every score series.

    Args:
        parameter_values: ``(n_types, n_parameters)``, e.g. the FR, FKGL, ASL
            and ASW of each text type.
        scores: ``(n_types, n_series)``, e.g. BLEU and WNM of each system on
            each text type (no missing values: r needs every type).
    """
    x = np.asarray(parameter_values, dtype=float)
    y = np.asarray(scores, dtype=float)
    if x.ndim != 2 or y.ndim != 2 or x.shape[0] != y.shape[0] or x.shape[0] < 2:
        raise ScoringError(
            f"need (n_types, n_parameters) and (n_types, n_series) arrays with "
            f"the same n_types >= 2; got {x.shape} and {y.shape}"
        )
    if x.shape[1] != len(parameters) or y.shape[1] != len(series):
        raise ScoringError("the parameter or series names do not match the arrays")
    xc = x - x.mean(axis=0)
    yc = y - y.mean(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (yc.T @ xc) / np.outer(np.sqrt((yc**2).sum(0)), np.sqrt((xc**2).sum(0)))
    average = r.mean(axis=0)
    strongest = ""
    if np.isfinite(average).any():
        strongest = parameters[int(np.nanargmax(np.abs(average)))]
    return ReadabilityCorrelations(
        parameters=tuple(parameters),
        series=tuple(series),
        r=tuple(map(tuple, r.tolist())),
        average=tuple(average.tolist()),
        strongest=strongest,
    )


def _nanmean(array: np.ndarray, axis: int, keepdims: bool = False) -> np.ndarray:
    """Mean of the finite values (NaN where there are none), warning-free."""
    present = np.isfinite(array)
    total = np.where(present, array, 0.0).sum(axis=axis, keepdims=keepdims)
    count = present.sum(axis=axis, keepdims=keepdims)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / count


def _ratio(numerator: float, denominator: float) -> float:
    if math.isnan(numerator) or math.isnan(denominator) or denominator == 0:
        return math.nan
    return numerator / denominator


def _names(count: int) -> tuple[str, ...]:
    return tuple(str(index) for index in range(count))


def _column(reference_type: int | str, text_types: tuple[str, ...]) -> int:
    if isinstance(reference_type, str):
        if reference_type not in text_types:
            raise ScoringError(
                f"unknown reference text type {reference_type!r}; "
                f"choose one of: {', '.join(text_types)}"
            )
        return text_types.index(reference_type)
    if not -len(text_types) <= reference_type < len(text_types):
        raise ScoringError(f"reference text type index {reference_type} out of range")
    return reference_type % len(text_types)
