"""Human judgments: reading CSV/TSV files of (segment, system, judge,
criterion, value) rows.

File format (UTF-8, one judgment per line, a header line first)::

    segment,system,judge,criterion,value
    1,online-B,j1,adequacy,4
    1,online-B,j1,fluency,3
    2,online-B,j2,adequacy,5

- The delimiter is a tab when the header line contains one, else a comma
  (or give ``delimiter``). Fields may be quoted as in CSV; a quoted field
  cannot span lines (line numbers in messages are file lines).
- Columns are found by name, in any order, case-insensitively; other
  columns are ignored. ``segment``, ``system`` and ``value`` are required;
  ``judge`` defaults to one anonymous judge and ``criterion`` to ``score``.
  ``columns`` maps these names to other header names, e.g.
  ``{"segment": "sid", "system": "sys_id", "judge": "WorkerId",
  "value": "score"}`` for WMT's raw DA files.
- ``segment`` is the 1-based line number of the segment in the system's
  output (as WMT's ``seg_id``); ``value`` is a number on any scale (1-5
  adequacy, 0-100 DA, negative MQM penalties...). An empty value or
  ``None``/``NA``/``NaN`` marks a segment that was not judged: the row is
  skipped and counted in ``skipped``.
- Blank lines are ignored. A line with the wrong number of fields, a
  segment that is not a positive integer or a value that is not a number
  raises :class:`~scoring.errors.InputFileError` naming the file and line.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from scoring.errors import InputFileError
from scoring.stats.arrays import freeze_arrays
from scoring.textfiles import decode_segments

FIELDS = ("segment", "system", "judge", "criterion", "value")
REQUIRED = ("segment", "system", "value")
DEFAULT_JUDGE = "-"
DEFAULT_CRITERION = "score"
MISSING_VALUES = frozenset({"", "none", "na", "nan", "n/a", "null"})


@dataclass(frozen=True, eq=False)
class Judgments:
    """Judgments as parallel arrays, one entry per judgment (``J`` of them).

    ``systems``, ``judges`` and ``criteria`` list the names in order of first
    appearance; the ``*_ids`` arrays index into them.
    """

    systems: tuple[str, ...]
    judges: tuple[str, ...]
    criteria: tuple[str, ...]
    segments: np.ndarray  # (J,) int64, 1-based segment (line) numbers
    system_ids: np.ndarray  # (J,) int64
    judge_ids: np.ndarray  # (J,) int64
    criterion_ids: np.ndarray  # (J,) int64
    values: np.ndarray  # (J,) float64
    lines: np.ndarray  # (J,) int64, line of each judgment in its file
    skipped: int = 0  # rows without a value (not judged)
    source: str = ""
    # Criteria aggregated as given, never standardised per judge: values that
    # are z-scores already (WMT's own), or per-segment means of unnamed judges.
    as_given: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def __len__(self) -> int:
        return int(self.values.shape[0])


def read_judgments(
    path: str | os.PathLike[str],
    *,
    delimiter: str | None = None,
    columns: Mapping[str, str] | None = None,
) -> Judgments:
    """Read a judgments file (format in the module docstring)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise InputFileError(
            f"{name}: cannot read file: {error.strerror}", name
        ) from None
    return parse_judgments(data, name, delimiter=delimiter, columns=columns)


def parse_judgments(
    data: bytes,
    name: str,
    *,
    delimiter: str | None = None,
    columns: Mapping[str, str] | None = None,
) -> Judgments:
    """Parse the bytes of a judgments file called ``name`` (for messages)."""
    lines = decode_segments(data, name, strip_byte_order_mark=True)
    header_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_index is None:
        raise InputFileError(f"{name}: no header line (the file is empty)", name, 1)
    header_line = lines[header_index]
    if delimiter is None:
        delimiter = "\t" if "\t" in header_line else ","
    header = [
        cell.strip() for cell in _split(header_line, delimiter, name, header_index + 1)
    ]
    positions = _column_positions(header, columns or {}, name, header_index + 1)

    names: dict[str, dict[str, int]] = {
        field: {} for field in ("system", "judge", "criterion")
    }
    rows: list[tuple[int, int, int, int, float, int]] = []
    skipped = 0
    for index in range(header_index + 1, len(lines)):
        line_number = index + 1
        if not lines[index].strip():
            continue
        cells = _split(lines[index], delimiter, name, line_number)
        if len(cells) != len(header):
            raise InputFileError(
                f"{name}: line {line_number}: expected {len(header)} fields "
                f"(as in the header), found {len(cells)}",
                name,
                line_number,
            )
        value = _value(cells[positions["value"]], name, line_number)
        if value is None:
            skipped += 1
            continue
        segment = _segment(cells[positions["segment"]], name, line_number)
        ids = []
        for field, default in (
            ("system", None),
            ("judge", DEFAULT_JUDGE),
            ("criterion", DEFAULT_CRITERION),
        ):
            text = cells[positions[field]].strip() if field in positions else default
            if not text:
                raise InputFileError(
                    f"{name}: line {line_number}: empty {field} name", name, line_number
                )
            ids.append(names[field].setdefault(text, len(names[field])))
        rows.append((segment, ids[0], ids[1], ids[2], value, line_number))

    table = np.array(rows, dtype=np.float64).reshape(-1, 6)
    return Judgments(
        systems=tuple(names["system"]),
        judges=tuple(names["judge"]),
        criteria=tuple(names["criterion"]),
        segments=table[:, 0].astype(np.int64),
        system_ids=table[:, 1].astype(np.int64),
        judge_ids=table[:, 2].astype(np.int64),
        criterion_ids=table[:, 3].astype(np.int64),
        values=table[:, 4],
        lines=table[:, 5].astype(np.int64),
        skipped=skipped,
        source=name,
    )


def _split(line: str, delimiter: str, name: str, line_number: int) -> list[str]:
    try:
        return next(csv.reader([line], delimiter=delimiter, strict=True))
    except csv.Error as error:
        raise InputFileError(
            f"{name}: line {line_number}: cannot split the line: {error}",
            name,
            line_number,
        ) from None


def _column_positions(
    header: list[str], columns: Mapping[str, str], name: str, line_number: int
) -> dict[str, int]:
    unknown = set(columns) - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown judgment fields {sorted(unknown)}; valid: {FIELDS}")
    lowered = [cell.lower() for cell in header]
    positions = {}
    for field in FIELDS:
        wanted = columns.get(field, field).lower()
        if lowered.count(wanted) > 1:
            raise InputFileError(
                f"{name}: line {line_number}: column {wanted!r} appears twice",
                name,
                line_number,
            )
        if wanted in lowered:
            positions[field] = lowered.index(wanted)
        elif field in REQUIRED:
            raise InputFileError(
                f"{name}: line {line_number}: no {wanted!r} column in the header "
                f"(found: {', '.join(header)})",
                name,
                line_number,
            )
    return positions


def _value(text: str, name: str, line_number: int) -> float | None:
    text = text.strip()
    if text.lower() in MISSING_VALUES:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise InputFileError(
            f"{name}: line {line_number}: value {text!r} is not a number",
            name,
            line_number,
        )
    return value


def _segment(text: str, name: str, line_number: int) -> int:
    text = text.strip()
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise InputFileError(
            f"{name}: line {line_number}: segment {text!r} is not a line number "
            f"(a positive integer)",
            name,
            line_number,
        )
    return int(text)
