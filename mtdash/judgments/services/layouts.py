"""Which layout a judgments file has, told from its header line.

- ``csv`` / ``tsv``: ``segment,system,judge,criterion,value`` (any order,
  case-insensitive; ``judge`` and ``criterion`` may be left out), a tab in the
  header makes it TSV;
- ``wmt-mqm``: WMT's expert MQM per segment (``system, mqm_system_name,
  seg_id, mqm_avg_score``, e.g. ``wmt21/en-de/human/mqm_seg.tsv``): criterion
  ``mqm``; ``None`` marks a segment that was not rated;
- ``wmt-da-seg``: WMT's crowd DA per segment mapped to lines (``system, ...,
  seg_id(txt line, 1-based), ..., raw, z, n_judgments``, e.g.
  ``wmt21/ru-en/human/da_seg.tsv``): criteria ``da`` (raw, 0–100) and
  ``da-z`` (WMT's mean of per-judge z-scores), one anonymous judge.

WMT files that cannot be matched to lines are refused with the reason:
segment ids in sorted-document order (``da_seg_UNMAPPED.tsv``, the raw
``ad-*-good-stnd.csv``) and system-level tables (``da_sys.tsv``).
"""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.common.upload_checks import UploadProblem
from mtdash.judgments.services.common import problem_from
from scoring import InputFileError, decode_segments


@dataclass(frozen=True)
class Reading:
    """One pass over the file: the library's column names for each field,
    and the criterion every row gets (``None``: the file's criterion column)."""

    columns: dict[str, str]
    criterion: str | None = None


@dataclass(frozen=True)
class Layout:
    name: str
    readings: tuple[Reading, ...]


_SORTED_ORDER = (
    "its segment ids count segments in WMT's sorted-document order, not lines "
    "of the test set, so they cannot be matched to segments; use a file whose "
    "seg_id is the line number (such as WMT21 ru-en human/da_seg.tsv)"
)


def detect_layout(data: bytes, file_name: str) -> Layout:
    """The layout of a judgments file (module docstring), or an UploadProblem."""
    try:
        lines = decode_segments(data, file_name, strip_byte_order_mark=True)
    except InputFileError as error:
        raise problem_from(error, file_name) from None
    number, header = next(
        ((n, line) for n, line in enumerate(lines, start=1) if line.strip()),
        (1, ""),
    )
    if not header:
        raise UploadProblem(file_name, None, "the file is empty: no header line")
    delimiter = "\t" if "\t" in header else ","
    cells = [cell.strip().lower() for cell in header.split(delimiter)]
    if "mqm_avg_score" in cells and "seg_id" in cells and "system" in cells:
        return Layout(
            "wmt-mqm",
            (Reading({"segment": "seg_id", "value": "mqm_avg_score"}, "mqm"),),
        )
    line_column = next((c for c in cells if c.startswith("seg_id(txt line")), None)
    if line_column and {"system", "raw", "z"} <= set(cells):
        return Layout(
            "wmt-da-seg",
            (
                Reading({"segment": line_column, "value": "raw"}, "da"),
                Reading({"segment": line_column, "value": "z"}, "da-z"),
            ),
        )
    words = header.lower().split()
    if any(c.startswith("da_sid") for c in cells) or {"workerid", "sid"} <= set(words):
        raise UploadProblem(
            file_name,
            number,
            f"a WMT DA file in sorted-document order: {_SORTED_ORDER}",
        )
    if "system" in cells and {"z", "raw"} <= set(cells) and "segment" not in cells:
        raise UploadProblem(
            file_name,
            number,
            "system-level WMT DA scores (one row per system), not judgments of "
            "segments; import a file with a row per segment",
        )
    return Layout("tsv" if delimiter == "\t" else "csv", (Reading({}),))
