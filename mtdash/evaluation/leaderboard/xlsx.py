"""``leaderboard.xlsx``: the CSV's table for Excel and ``pandas.read_excel``.

Three sheets: ``leaderboard`` (the columns of ``leaderboard.csv``, numbers
stored as numbers), ``signatures`` (the sidecar's rows) and ``provenance``
(what the file was made from). Text is stored as text cells, never as
formulas: a system named ``=HYPERLINK(…)`` is a string cell with Excel's
quote prefix (the ``'`` a user would type), so it reads back exactly and
never runs.
"""

from __future__ import annotations

import io
import math
import numbers
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from mtdash.common.exports import FORMULA_STARTS, Cell, one_line
from mtdash.evaluation.leaderboard.build import Leaderboard
from mtdash.evaluation.leaderboard.table import (
    SIGNATURE_HEADER,
    leaderboard_table,
    signature_rows,
)
from scoring import __version__


def leaderboard_xlsx(leaderboard: Leaderboard) -> bytes:
    """The workbook's bytes (the sheets are described in the module docstring)."""
    workbook = Workbook()
    table = workbook.active
    table.title = "leaderboard"
    _write(table, *leaderboard_table(leaderboard))
    table.freeze_panes = "D2"  # rank, rank range and system stay in view
    _write(
        workbook.create_sheet("signatures"),
        SIGNATURE_HEADER,
        signature_rows(leaderboard),
    )
    _write(
        workbook.create_sheet("provenance"),
        ["item", "value"],
        _provenance(leaderboard),
    )
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _provenance(leaderboard: Leaderboard) -> list[list[Cell]]:
    return [
        ["test set id", leaderboard.test_set_id],
        ["ranked by", leaderboard.primary_metric],
        ["significance test of the clusters", leaderboard.test],
        ["multiple-comparison correction", leaderboard.correction_text],
        [
            "intervals",
            "two-sided percentile bootstrap intervals over segments; resamples, "
            "seed and confidence per metric on the sheet 'signatures'",
        ],
        ["mtdash version", __version__],
        ["exported at (UTC)", datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")],
    ]


def _write(sheet: Worksheet, header: Sequence[str], rows: Sequence[Sequence[Cell]]):
    sheet.append([_value(name) for name in header])
    for row in rows:
        sheet.append([_value(value) for value in row])
    for row in sheet.iter_rows():
        for cell in row:
            if cell.data_type == "f":  # text that openpyxl took for a formula
                cell.data_type = "s"
            if isinstance(cell.value, str) and cell.value.startswith(FORMULA_STARTS):
                cell.quotePrefix = True  # Excel keeps it text even when edited


def _value(value: Cell) -> str | int | float | bool | None:
    """Numbers as numbers (NaN and infinities, which a workbook cannot hold,
    as empty cells), text on one line (a workbook's strings allow no control
    characters), ``None`` empty."""
    if isinstance(value, np.generic):  # NumPy's bool_, int64, float32, ...
        value = value.item()
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        return number if math.isfinite(number) else None
    raise TypeError(f"a workbook cell is text, a number or None, not {value!r}")
