"""Intraclass correlation of human judges: two-way model, absolute agreement.

For a complete table of n items (rows) rated by the same k judges
(columns), the two-way ANOVA gives the mean squares of the rows (items),
of the columns (judges) and of the residual::

    MSR = k sum_i (mean_i. - mean)^2 / (n - 1)
    MSC = n sum_j (mean_.j - mean)^2 / (k - 1)
    MSE = (SS_total - SS_rows - SS_columns) / ((n - 1) (k - 1))

and, in McGraw & Wong's (1996) names (Shrout & Fleiss's (1979) in
brackets), both of which are reported:

- ``ICC(A,1)`` [ICC(2,1)], one judge's rating: how well a single judge's
  scores agree in absolute value with another's::

      (MSR - MSE) / (MSR + (k - 1) MSE + k (MSC - MSE) / n)

- ``ICC(A,k)`` [ICC(2,k)], the mean of the k judges' ratings: the
  reliability of the average score::

      (MSR - MSE) / (MSR + (MSC - MSE) / n)

"Absolute agreement": a judge who rates every item a point higher lowers
the ICC (MSC grows), unlike the consistency ICC(C,1) [ICC(3,1)].
pingouin's ``intraclass_corr`` gives the same two figures under these names.

With missing ratings the table is not complete: the ICC uses the largest
complete one, the judges and items of
:func:`~scoring.stats.rating_tables.complete_panel` (each judge's first
rating of an item), and the estimate says how much was left out. Intervals:
percentile bootstrap over the table's items (rows), seeded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.stats.agreement import AgreementEstimate, _weight_blocks
from scoring.stats.rating_tables import complete_panel, first_ratings
from scoring.stats.resampling import percentile_interval


@dataclass(frozen=True)
class IntraclassCorrelation:
    """ICC(A,1) and ICC(A,k) of one complete table, with its mean squares."""

    single: float  # ICC(A,1) = Shrout & Fleiss ICC(2,1); NaN when undefined
    average: float  # ICC(A,k) = Shrout & Fleiss ICC(2,k)
    n_items: int
    n_raters: int
    ms_rows: float
    ms_columns: float
    ms_error: float

    def to_dict(self) -> dict:
        def number(x: float) -> float | None:
            return None if np.isnan(x) else float(x)

        return {
            "icc_a1": number(self.single),
            "icc_ak": number(self.average),
            "n_items": self.n_items,
            "n_raters": self.n_raters,
            "ms_rows": number(self.ms_rows),
            "ms_columns": number(self.ms_columns),
            "ms_error": number(self.ms_error),
        }


def intraclass_correlation(matrix) -> IntraclassCorrelation:
    """ICC(A,1) and ICC(A,k) of a complete table ``matrix`` (n items, k
    judges), n, k >= 2; NaN when every value is the same.

    Shrout & Fleiss (1979), Table 2 (6 targets, 4 judges): MSR = 11.24,
    MSC = 32.49, MSE = 1.02, so ICC(A,1) = 10.22 / (11.24 + 3 * 1.02 +
    4 * 31.47 / 6) = 0.29 and ICC(A,k) = 10.22 / (11.24 + 31.47 / 6) = 0.62,
    their Table 4's ICC(2,1) and ICC(2,4):

    >>> table = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6],
    ...          [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> icc = intraclass_correlation(table)
    >>> round(icc.single, 4), round(icc.average, 4)
    (0.2898, 0.6201)
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] < 2 or matrix.shape[1] < 2:
        raise ValueError("the ICC needs a table of 2 items or more x 2 judges or more")
    if np.isnan(matrix).any():
        raise ValueError("the ICC needs a complete table (no missing ratings)")
    n, k = matrix.shape
    squares = _mean_squares(np.ones((1, n)), matrix)
    single, average = _iccs(*squares, n, k)
    ms_rows, ms_columns, ms_error = (float(x[0]) for x in squares)
    return IntraclassCorrelation(
        float(single[0]), float(average[0]), n, k, ms_rows, ms_columns, ms_error
    )


def _mean_squares(weights: np.ndarray, matrix: np.ndarray):
    """MSR, MSC, MSE (R,) each of the tables whose rows are drawn with the
    multiplicities ``weights`` (R, n) from ``matrix`` (n, k)."""
    n, k = matrix.shape
    total = weights.sum(axis=1)  # (R,): n for a bootstrap resample
    row_means = matrix.mean(axis=1)
    grand = weights @ row_means / total  # (R,)
    ss_rows = k * (weights @ row_means**2 - total * grand**2)
    column_means = weights @ matrix / total[:, None]  # (R, k)
    ss_columns = total * ((column_means**2).sum(axis=1) - k * grand**2)
    ss_total = weights @ (matrix**2).sum(axis=1) - total * k * grand**2
    ss_error = ss_total - ss_rows - ss_columns
    return (
        ss_rows / (total - 1),
        ss_columns / (k - 1),
        ss_error / ((total - 1) * (k - 1)),
    )


def _iccs(ms_rows, ms_columns, ms_error, n, k):
    """ICC(A,1) and ICC(A,k) from the mean squares (arrays); NaN where the
    denominator vanishes (no variation at all)."""
    numerator = ms_rows - ms_error
    single = ms_rows + (k - 1) * ms_error + k * (ms_columns - ms_error) / n
    average = ms_rows + (ms_columns - ms_error) / n
    scale = np.maximum(np.abs(ms_rows) + np.abs(ms_columns) + np.abs(ms_error), 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (
            np.where(np.abs(single) > 1e-12 * scale, numerator / single, np.nan),
            np.where(np.abs(average) > 1e-12 * scale, numerator / average, np.nan),
        )


def icc_agreement(
    items,
    judges,
    values,
    *,
    n_samples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> tuple[AgreementEstimate, AgreementEstimate]:
    """ICC(A,1) and ICC(A,k) of the largest complete items x judges table of
    the ratings, each with a percentile bootstrap interval over its items
    (one draw for both)."""
    ratings = first_ratings(items, judges, values)
    matrix, item_codes, judge_codes = complete_panel(ratings)
    n, k = matrix.shape
    single = average = np.array([np.nan])
    bounds = {"icc-a1": (None, None), "icc-ak": (None, None)}
    if n >= 2 and k >= 2:
        single, average = _iccs(*_mean_squares(np.ones((1, n)), matrix), n, k)
        if np.isfinite(single[0]) and n_samples > 0:
            draws = [
                _iccs(*_mean_squares(w, matrix), n, k)
                for w in _weight_blocks(n, n_samples, seed)
            ]
            for method, column in (("icc-a1", 0), ("icc-ak", 1)):
                samples = np.concatenate([d[column] for d in draws])
                samples = samples[np.isfinite(samples)]
                if len(samples):
                    low, high = percentile_interval(samples, confidence)
                    bounds[method] = (float(low), float(high))
    rated = int((np.bincount(ratings.items, minlength=ratings.n_items) >= 2).sum())
    undefined = None
    if n < 2:
        undefined = "no two items rated by the same two judges or more"
    elif not np.isfinite(single[0]):
        undefined = "every rating has the same value: no variation to compare"
    note = None
    if rated > n or ratings.n_judges > k:
        note = (
            f"{n} of {rated} items: those rated by the same {k} judges, the "
            f"largest complete table (a two-way ICC needs one set of judges)"
        )
    estimates = []
    for method, value in (("icc-a1", single[0]), ("icc-ak", average[0])):
        low, high = bounds[method]
        estimates.append(
            AgreementEstimate(
                method=method,
                value=None if not np.isfinite(value) else float(value),
                low=low,
                high=high,
                confidence=confidence,
                n_items=n,
                n_judges=k,
                n_values=n * k,
                n_samples=n_samples,
                seed=seed,
                undefined=undefined,
                note=note if n >= 2 else None,
            )
        )
    return estimates[0], estimates[1]
