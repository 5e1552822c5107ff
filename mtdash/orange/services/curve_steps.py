"""The cutoff curve's step when the user leaves it to the job: adapted to N
(``scoring.orange.auto_curve_step``, the same rule as the command line's)."""

from scoring.orange import auto_curve_step

__all__ = ["auto_curve_step"]
