"""Where the real evaluation data is, and how the scoring tests read it.

The data lives outside the repository in ``../shared/data`` relative to the
project root and is never copied in. Plain helpers (no pytest), imported by
``conftest.py`` and by tests that need a path or a type.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"
WMT21_DIR = DATA_DIR / "wmt21"


def read_lines(path: Path) -> list[str]:
    """Segments of a data file, split on "\\n" only (as sacreBLEU reads them)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


@dataclass(frozen=True)
class WmtTestSet:
    """One WMT21 language pair: reference streams and system outputs."""

    pair: str
    references: tuple[tuple[str, ...], ...]  # (n_refs, n_segments)
    directory: Path

    def system(self, name: str) -> tuple[str, ...]:
        """Hypotheses of the system called ``name`` (file ``sys/<name>.<tl>``)."""
        target_language = self.pair.split("-")[1]
        return tuple(read_lines(self.directory / "sys" / f"{name}.{target_language}"))


@cache
def load_test_set(pair: str, reference_ids: str) -> WmtTestSet:
    """Load (once per session) a WMT21 pair with the given reference ids."""
    directory = WMT21_DIR / pair
    target_language = pair.split("-")[1]
    references = tuple(
        tuple(read_lines(directory / f"ref.{reference_id}.{target_language}"))
        for reference_id in reference_ids
    )
    return WmtTestSet(pair, references, directory)
