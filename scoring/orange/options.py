"""Options of an ORANGE run, shared by the per-pair and batch paths."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

ProgressCallback = Callable[[float], None]


@dataclass(frozen=True)
class OrangeOptions:
    all_references: bool = False  # score candidates against all K references
    curve_step: int = 64
    n_bootstrap: int = 1000
    seed: int = 1
