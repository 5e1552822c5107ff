"""The settings of a span-level meta-evaluation (bootstrap resamples and
seed), their limits, and how pages and exports describe them.

Every variant (em, mp, mpp, w25) and both averagings are computed in one
job; the settings are only what changes the intervals. The gold is the
library's: each segment's first human annotator by name; spans of different
severities count alike in em, mp and mpp (the paper's default).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.stats import SPAN_AVERAGES as AVERAGES
from scoring.stats import SPAN_VARIANTS as VARIANTS

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 1
MAX_SAMPLES = 10_000
MAX_SEED = 2**32 - 1
# The bootstrap holds resamples x segments counts three times over (draws,
# counts, float counts; 8 bytes each): 10 million is about 240 MB.
MAX_DRAWS = 10_000_000
CONFIDENCE = 0.95
# What a page shows first: the library's defaults (micro mpp, the paper's
# recommendation).
DEFAULT_VARIANT, DEFAULT_AVERAGE = "mpp", "micro"
# The query parameters that choose them on the metric-evaluation page.
VARIANT_PARAMETER, AVERAGE_PARAMETER = "span_variant", "span_average"

VARIANT_LABELS = {
    "em": "exact match",
    "mp": "partial overlap",
    "mpp": "partial overlap, partial credit",
    "w25": "WMT25 severity-aware (characters)",
}
AVERAGE_LABELS = {"micro": "micro (pooled counts)", "macro": "macro (per segment)"}
assert set(VARIANT_LABELS) == set(VARIANTS) and set(AVERAGE_LABELS) == set(AVERAGES)


class SettingsProblem(Exception):
    """A setting out of range; ``field`` names it."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class AgreementSettings:
    n_samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED

    def to_dict(self) -> dict[str, Any]:
        return {"bootstrap": self.n_samples, "seed": self.seed}


def checked_settings(n_samples: int, seed: int, n_segments: int) -> AgreementSettings:
    """The settings, or :class:`SettingsProblem` naming the field at fault
    (``n_segments``: the test set's, which bounds the bootstrap's memory)."""
    if not 0 <= n_samples <= MAX_SAMPLES:
        raise SettingsProblem(
            "bootstrap", f"{n_samples} is not between 0 and {MAX_SAMPLES:,}"
        )
    if n_samples * n_segments > MAX_DRAWS:
        most = MAX_DRAWS // max(n_segments, 1)
        raise SettingsProblem(
            "bootstrap",
            f"{n_samples:,} resamples of {n_segments:,} segments need too much "
            f"memory; at most {most:,} for this test set",
        )
    if not 0 <= seed <= MAX_SEED:
        raise SettingsProblem("seed", f"{seed} is not between 0 and {MAX_SEED}")
    return AgreementSettings(n_samples, seed)


def chosen(value: str | None, allowed: tuple[str, ...], default: str) -> str:
    return value if value in allowed else default


def chosen_view(variant: str | None, average: str | None) -> tuple[str, str]:
    """The (variant, average) asked for, the defaults (micro mpp, the
    paper's recommendation) for anything else."""
    return (
        chosen(variant, VARIANTS, DEFAULT_VARIANT),
        chosen(average, AVERAGES, DEFAULT_AVERAGE),
    )


def describe(settings: dict[str, Any]) -> str:
    """The settings a stored result carries, in the words of the pages
    (``settings``: ``SpanEvaluation.settings``)."""
    if settings.get("bootstrap"):
        resampled = (
            f"{settings['bootstrap']:,} bootstrap resamples of segments (every "
            f"system's item of a drawn segment together), seed {settings['seed']}, "
            f"{settings['confidence']:.0%} percentile intervals"
        )
    else:
        resampled = "no bootstrap (no intervals)"
    return f"gold: {settings['gold']}; {resampled}"
