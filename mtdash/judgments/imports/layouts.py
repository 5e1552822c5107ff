"""Which layout a judgments file has, told from its header line.

- ``csv`` / ``tsv``: ``segment,system,judge,criterion,value`` (any order,
  case-insensitive; ``judge`` and ``criterion`` may be left out), a tab in the
  header makes it TSV;
- ``wmt-mqm``: WMT's expert MQM per segment (``system, mqm_system_name,
  seg_id, mqm_avg_score``, e.g. ``wmt21/en-de/human/mqm_seg.tsv``): criterion
  ``mqm``, aggregated as given (the file's averages; as MQM error spans);
  ``None`` marks a segment that was not rated;
- ``wmt-da-seg``: WMT's crowd DA per segment: WMT22's ``da_seg.tsv``
  (``system da_sys_id seg_id raw z n_judgments``), WMT21 ru-en's line-mapped
  one (``seg_id(txt line, 1-based)``) and the sorted-document ones
  (``da_sid(...)``). Criteria ``da`` (the segment's raw mean, 0–100) and
  ``da-z`` (WMT's z: the mean of the segment's per-annotator z-scores), both
  aggregated as given: the file names no annotator;
- ``wmt-da-raw``: WMT's per-annotator DA judgements (``ad-*-good-stnd.csv``:
  a header separated by spaces, rows by tabs; ``WorkerId``, ``sys_id``
  ``Online-B.4``, ``type``, ``sid``, ``score``). Each annotator is a judge;
  ``SYSTEM`` and ``REPEAT`` items are judgments (WMT averages both), ``REF``
  and ``BAD_REF`` are quality controls and left out. An annotator's
  ``REPEAT`` item, or an item met again in another HIT, is a later look of
  the same judge (``Judgment.look``; ``kind`` ``repeat`` for a REPEAT).
  Scores that are WMT's per-annotator z (the ``-stnd`` files, or any
  negative score) become ``da-z`` as given; raw 0–100 scores become ``da``,
  standardised per annotator over their SYSTEM and REPEAT judgements. WMT
  standardises each annotator over every row, the REF and BAD_REF controls
  too (each annotator's ``-stnd`` scores over all four types have mean 0
  and sample sd 1), which are not stored here: a raw file's figures differ
  from WMT's z (WMT21 ru-en, re-standardising its ``-stnd`` file: 0.02 to
  0.08 lower per system).

Segment ids are line numbers (``line``) or positions in WMT's
sorted-document order (``sorted-document``: documents sorted by id, segments
in their order within a document), which needs the test set's document ids.
Each layout has its default (``seg_id``: lines; ``da_sid`` and ``sid``:
sorted-document order); the user may choose the other.

System-level tables (``da_sys.tsv``, ``da_src_sys.tsv``: no segment column)
are refused with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.services.import_checks import problem_from
from scoring import InputFileError, decode_segments

LINE = "line"
SORTED_DOCUMENT = "sorted-document"
SEGMENT_ORDERS = {
    LINE: "line numbers of the test set (1-based)",
    SORTED_DOCUMENT: "WMT's sorted-document order (documents sorted by id)",
}


@dataclass(frozen=True)
class Reading:
    """One pass over the file: the library's column names for each field,
    the criterion every row gets (``None``: the file's criterion column) and
    the scale a new criterion gets (``Criterion.Scale``).

    ``types``: the file's ``criterion`` column holds an item type (WMT's
    ``type``) and only rows of these types are judgments; a ``REPEAT`` item
    is its judge's second look at a segment (``Judgment.kind`` ``repeat``).
    """

    columns: dict[str, str]
    criterion: str | None = None
    scale: str = "raw"
    types: tuple[str, ...] = ()


@dataclass(frozen=True)
class Layout:
    name: str
    title: str  # what the file is, for the preview
    readings: tuple[Reading, ...]
    segment_order: str = LINE  # the default; the user may choose the other
    space_header: bool = False  # header split on spaces, rows on tabs
    system_suffix: bool = False  # system names end in ".<number>" (WMT sys_id)
    header_line: int = 1

    def mapping(self) -> tuple[tuple[str, str], ...]:
        """(field, where it comes from) for the preview."""
        first = self.readings[0].columns

        def column(field: str, default: str) -> str:
            name = first.get(field)
            return f"column {name}" if name else default

        system = column("system", "column system")
        if self.system_suffix:
            system += " (without its .<number> suffix)"
        if self.readings[0].types:
            criterion = (
                f"{self.readings[0].criterion} (rows of type "
                f"{', '.join(self.readings[0].types)}; other types are quality "
                "controls, left out)"
            )
        elif all(r.criterion for r in self.readings):
            criterion = "; ".join(
                f"{r.criterion} from column {r.columns['value']}" for r in self.readings
            )
        else:
            criterion = column("criterion", "column criterion, else 'score'")
        judge = (
            "none in the file: one anonymous judge '-'"
            if self.name.startswith("wmt-")
            else "column judge, else one anonymous judge '-'"
        )
        value = "; ".join(
            f"column {r.columns.get('value', 'value')}"
            + (f" → {r.criterion}" if r.criterion else "")
            for r in self.readings
        )
        return (
            ("segment", column("segment", "column segment")),
            ("system", system),
            ("judge", column("judge", judge)),
            ("criterion", criterion),
            ("value", value),
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
    words = header.lower().split()
    if "mqm_avg_score" in cells and "seg_id" in cells and "system" in cells:
        return Layout(
            "wmt-mqm",
            "WMT expert MQM per segment (mqm_seg.tsv)",
            # Rater-less per-segment averages: aggregated as given
            # (judgments.MQM_SCALE, which every mqm criterion gets anyway).
            (Reading({"segment": "seg_id", "value": "mqm_avg_score"}, "mqm", "mean"),),
            header_line=number,
        )
    if {"workerid", "sys_id", "type", "sid", "score"} <= set(words):
        columns = {
            "segment": "sid",
            "system": "sys_id",
            "judge": "WorkerId",
            "criterion": "type",
            "value": "score",
        }
        return Layout(
            "wmt-da-raw",
            "WMT DA judgements per annotator (ad-*-good-stnd.csv)",
            (Reading(columns, "da-z", "z", ("SYSTEM", "REPEAT")),),
            segment_order=SORTED_DOCUMENT,
            space_header="\t" not in header,
            system_suffix=True,
            header_line=number,
        )
    segment_column = next(
        (c for c in cells if c.startswith(("seg_id", "da_sid")) or c == "sid"), None
    )
    if segment_column and "system" in cells and {"raw", "z"} <= set(cells):
        return Layout(
            "wmt-da-seg",
            "WMT DA per segment (da_seg.tsv)",
            (
                Reading({"segment": segment_column, "value": "raw"}, "da", "mean"),
                Reading({"segment": segment_column, "value": "z"}, "da-z", "z"),
            ),
            segment_order=SORTED_DOCUMENT if "sorted-doc" in segment_column else LINE,
            header_line=number,
        )
    if "system" in cells and "z" in cells and "segment" not in cells:
        raise UploadProblem(
            file_name,
            number,
            "system-level WMT DA scores (one row per system, no segment column), "
            "not judgments of segments; import a file with a row per segment "
            "(such as WMT's da_seg.tsv)",
        )
    return Layout(
        "tsv" if delimiter == "\t" else "csv",
        "one judgment per row (segment, system, judge, criterion, value)",
        (Reading({}),),
        header_line=number,
    )


def tabbed_header(data: bytes) -> bytes:
    """``data`` (already checked UTF-8) with its header line's spaces made
    tabs: WMT's raw DA files separate the header by spaces and the rows by
    tabs. Every line keeps its number."""
    lines = data.decode("utf-8-sig").split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    lines[first] = "\t".join(lines[first].split())
    return "\n".join(lines).encode("utf-8")
