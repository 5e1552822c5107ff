"""The cutoff curve's step adapted to the n-best size N.

A fixed step of 64 draws a 7-best list as two points (1 and 7) and a
16384-best list as 257 (Figure 1 of the paper); ``ceil(N / 64)`` gives every
list about 64 points (every size when N <= 64), and :func:`curve_points`
always adds 1 and N itself.
"""

from __future__ import annotations

import math

CURVE_POINTS = 64


def auto_curve_step(max_candidates: int) -> int:
    """Step for about ``CURVE_POINTS`` points up to N.

    >>> auto_curve_step(7), auto_curve_step(1024), auto_curve_step(16384)
    (1, 16, 256)
    """
    if max_candidates < 1:
        raise ValueError("the n-best size must be positive")
    return max(1, math.ceil(max_candidates / CURVE_POINTS))
