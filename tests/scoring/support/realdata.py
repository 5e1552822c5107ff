"""Where the real evaluation data is, and how the scoring tests read it.

The full data lives outside the repository, in ``../shared/data`` relative to
the project root, or wherever ``MTDASH_TEST_DATA`` points; it is never copied
in. Without it (a user's fresh clone) the tests read ``tests/fixtures/data``:
a miniature mirror with the same layout holding the first segments of each
file and the official tools' figures for them (``tests/fixtures/README.md``).

A test written for the full data keeps running on the fixtures wherever it
can: sizes come from :func:`segment_count`, documented lines from
:func:`kept_lines`, values measured on each data from :func:`measured`, and
corpus figures of the full files are replaced by a live reference
implementation's on the kept segments (see the agreement tests). What needs
the whole data (NIST's information weights, training on all of BLEND,
systems the fixtures do not hold) skips with the reason:
:func:`require_full_data`, or :func:`full_data_params` for a parametrised
test (one skip for all its parameters).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[3]
FIXTURE_DATA_DIR = PROJECT_ROOT / "tests" / "fixtures" / "data"
FIXTURE_MANIFEST = PROJECT_ROOT / "tests" / "fixtures" / "manifest.json"


def _data_dir() -> Path:
    chosen = os.environ.get("MTDASH_TEST_DATA")
    if chosen:
        return Path(chosen).resolve()
    shared = PROJECT_ROOT.parent / "shared" / "data"
    return shared.resolve() if shared.is_dir() else FIXTURE_DATA_DIR


DATA_DIR = _data_dir()
# False on the committed fixtures: only their first segments are there.
FULL_DATA = DATA_DIR != FIXTURE_DATA_DIR


def _needs_full_data(what: str) -> str:
    return (
        f"full data needed for {what} (../shared/data or MTDASH_TEST_DATA); "
        "the committed fixtures hold only the first segments"
    )


def require_full_data(what: str) -> None:
    """Skip the calling test unless the full data is there (not the fixtures)."""
    __tracebackhide__ = True  # report the skip at the caller's line
    if not FULL_DATA:
        pytest.skip(_needs_full_data(what))


def full_data_params(params: Sequence[Any], what: str) -> list[Any]:
    """Parameters of a test that checks figures of the full data only.

    On the full data: ``params``. On the fixtures: a single stand-in,
    skipped with the reason, which says how many runs it stands for (one
    visible skip rather than one per parameter).
    """
    if FULL_DATA:
        return list(params)
    first = params[0]
    values = first.values if hasattr(first, "values") else first
    values = values if isinstance(values, tuple) else (values,)
    reason = _needs_full_data(f"{what} ({len(params)} runs)")
    return [pytest.param(*values, marks=pytest.mark.skip(reason=reason), id="full")]


@cache
def _fixture_segments() -> dict[str, int]:
    segments = json.loads(FIXTURE_MANIFEST.read_text(encoding="utf-8"))["segments"]
    return {name: n for name, n in segments.items() if isinstance(n, int)}


def segment_count(dataset: str, full: int) -> int:
    """How many segments of ``dataset`` (e.g. ``"wmt21/en-de"``) the tests
    read: ``full`` on the full data, the number kept on the fixtures."""
    return full if FULL_DATA else _fixture_segments()[dataset]


def measured(full: Any, fixtures: Any) -> Any:
    """A value measured on the data read: ``full`` on the full data,
    ``fixtures`` on the committed fixtures."""
    return full if FULL_DATA else fixtures


def kept_lines(lines: Sequence[int], dataset: str) -> list[int]:
    """The 1-based ``lines`` of ``dataset`` that the data read holds: all of
    them on the full data, on the fixtures those within the kept segments."""
    last = segment_count(dataset, full=max(lines, default=0))
    return [line for line in lines if line <= last]


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
