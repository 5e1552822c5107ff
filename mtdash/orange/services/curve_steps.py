"""The cutoff curve's step when the user leaves it to the job: adapted to N.

A fixed step of 64 draws a 7-best list as two points (1 and 7) and a
16384-best list as 257; ``ceil(N / 64)`` gives every list about 64 points
(every size for N ≤ 64), and ``scoring.orange.curve_points`` always adds
1 and N itself.
"""

from __future__ import annotations

import math

CURVE_POINTS = 64


def auto_curve_step(max_candidates: int) -> int:
    """Step for about ``CURVE_POINTS`` points up to N.

    >>> auto_curve_step(7), auto_curve_step(1024), auto_curve_step(16384)
    (1, 16, 256)
    """
    return max(1, math.ceil(max_candidates / CURVE_POINTS))
