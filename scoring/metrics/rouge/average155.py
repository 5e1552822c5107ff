"""ROUGE-1.5.5's printed corpus average, reproduced from the segment scores.

ROUGE-1.5.5 (``-t 0``, the default) does not print the plain mean of the
per-unit scores as ``Average_R/P/F``: it prints the mean of its ``-r``
bootstrap resamples (1000 by default) and their ``-c`` confidence interval.
Resample ``i`` (i = 0 ... r - 1) calls Perl's ``srand(i)`` and draws N units
with replacement, ``int(rand(N))``, from the units sorted *as strings* by their
ids ``"<line>.<system>"`` (``1``, ``10``, ``100``, ``1000``, ``101``, ...);
each resample mean is the sum of the drawn 5-decimal scores, in drawing
order, divided by N; the resample means are sorted, summed in ascending order
and divided by r, and that is printed with 5 decimals. Since Perl 5.20
``rand`` is Perl's own ``drand48`` (48-bit linear congruential generator,
seeded as ``0x330E + (seed << 16)``), so the draws are the same on every
platform and the procedure can be replayed exactly.

The plain mean (the mtdash corpus score, a function of summed statistics)
and this figure differ by up to a few 1e-4 on 1000 segments; use this
function when a number must equal ROUGE-1.5.5's printout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from scoring.metrics.rouge.stats import round5

_MULTIPLIER = np.uint64(0x5DEECE66D)
_INCREMENT = np.uint64(0xB)
_MASK = np.uint64((1 << 48) - 1)
_SEED_LOW_BITS = 0x330E


@dataclass(frozen=True)
class Rouge155Average:
    """ROUGE-1.5.5's ``Average`` line: ``average (cf%-conf.int. lower - upper)``
    on 0-1, each rounded to 5 decimals like the script prints them."""

    average: float
    lower: float
    upper: float


@lru_cache(maxsize=8)
def perl_bootstrap_indices(n_units: int, samples: int) -> np.ndarray:
    """The units ROUGE-1.5.5 draws: ``(samples, n_units)`` indices into the
    string-sorted unit list; row ``i`` after Perl's ``srand(i)``.

    Perl's drand48 state is 48 bits; unsigned 64-bit products wrap modulo
    2**64, which keeps them exact modulo 2**48.
    """
    seeds = np.arange(samples, dtype=np.uint64)
    state = np.uint64(_SEED_LOW_BITS) + (seeds << np.uint64(16))
    indices = np.empty((samples, n_units), dtype=np.int64)
    with np.errstate(over="ignore"):
        for draw in range(n_units):
            state = (state * _MULTIPLIER + _INCREMENT) & _MASK
            # rand(N) = N * (state / 2**48); int() truncates.
            uniform = state.astype(np.float64) * 2.0**-48
            indices[:, draw] = (float(n_units) * uniform).astype(np.int64)
    indices.setflags(write=False)
    return indices


def rouge155_unit_order(n_units: int) -> list[int]:
    """Segment indices (0-based) in the order ROUGE-1.5.5 sorts its unit ids.

    >>> rouge155_unit_order(11)
    [0, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8]
    """
    return sorted(range(n_units), key=lambda index: f"{index + 1}.X")


def rouge155_bootstrap_average(
    segment_scores: Sequence[float], samples: int = 1000, confidence: float = 95.0
) -> Rouge155Average:
    """ROUGE-1.5.5's printed average and confidence interval of one measure.

    Args:
        segment_scores: the per-segment scores in line order, as ROUGE-1.5.5
            prints them (5 decimals: ``preprocess=rouge155`` sentence scores).
        samples: ``-r`` (default 1000).
        confidence: ``-c`` in percent (default 95).
    """
    n_units = len(segment_scores)
    if n_units == 0 or samples < 1:
        return Rouge155Average(0.0, 0.0, 0.0)
    order = rouge155_unit_order(n_units)
    units = np.asarray(segment_scores, dtype=np.float64)[order]
    drawn = units[perl_bootstrap_indices(n_units, samples)]
    # cumsum adds left to right, like the Perl loop (np.sum would pair up).
    means = np.sort(np.cumsum(drawn, axis=1)[:, -1] / n_units)
    average = round5(float(np.cumsum(means)[-1]) / samples)
    delta = samples * ((100 - confidence) / 2.0) / 100.0
    upper_index = int(samples - delta - 1)
    lower_index = int(delta)
    fraction = samples - delta - 1 - upper_index

    def interpolate(index: int) -> float:
        above = means[min(index + 1, samples - 1)]
        return round5(float(means[index] + (above - means[index]) * fraction))

    return Rouge155Average(average, interpolate(lower_index), interpolate(upper_index))
