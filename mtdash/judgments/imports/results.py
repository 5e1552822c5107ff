"""What importing a judgments file takes and tells: the user's choices
(:class:`ImportOptions`), the preview shown before anything is stored
(:class:`JudgmentPreview`) and the result of an import
(:class:`JudgmentImportResult`). :mod:`.judgments` reads and stores."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mtdash.common.upload_checks import UploadProblem
from mtdash.judgments.imports.layouts import LINE, SEGMENT_ORDERS


@dataclass(frozen=True)
class ImportOptions:
    """The user's choices for one file (the preview page, ``human_rows`` and
    ``segment_order`` of the API, the command's options).

    ``human_rows``: what to do with rows of ``HUMAN`` / ``HUMAN-*`` systems
    (reference translations WMT judged as systems): ``keep`` (each needs an
    output of that name), ``skip``, or ``auto`` (keep them when the test set
    has outputs of those names, else skip them). ``segment_order``: ``line``,
    ``sorted-document`` or ``""`` for the layout's default.
    """

    human_rows: str = "auto"
    segment_order: str = ""

    def __post_init__(self) -> None:
        if self.human_rows not in HUMAN_ROWS:
            raise ValueError(
                f"human_rows must be one of {', '.join(HUMAN_ROWS)}, "
                f"not {self.human_rows!r}"
            )
        if self.segment_order not in ("", *SEGMENT_ORDERS):
            raise ValueError(
                f"segment_order must be one of {', '.join(SEGMENT_ORDERS)}, "
                f"not {self.segment_order!r}"
            )


HUMAN_ROWS = ("auto", "keep", "skip")
_HUMAN = re.compile(r"HUMAN(?:$|[-_.])")


def is_human_system(name: str) -> bool:
    """``HUMAN``, ``HUMAN-refB``...: a reference translation judged as a system."""
    return bool(_HUMAN.match(name))


@dataclass(frozen=True)
class JudgmentImportResult:
    import_id: int
    file_name: str
    layout: str
    n_judgments: int
    n_skipped: int  # rows without a value (a segment that was not judged)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # crit -> sys
    human_skipped: dict[str, int] = field(default_factory=dict)  # system -> rows
    segment_order: str = LINE
    # Criteria this import does not feed yet: their judgments in use come
    # from a campaign (sources never merge silently; the user chooses).
    left_out: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {
            "import_id": self.import_id,
            "file": self.file_name,
            "layout": self.layout,
            "judgments": self.n_judgments,
            "skipped": self.n_skipped,
            "counts": self.counts,
            "human_rows_skipped": self.human_skipped,
            "segment_order": self.segment_order,
            "left_out_of": list(self.left_out),
        }


@dataclass(frozen=True)
class PreviewRow:
    line: int  # in the file
    segment: int  # the file's segment id
    test_set_line: int | None  # the segment it names (None: not in the test set)
    system: str
    judge: str
    criterion: str
    value: float
    look: int = 1  # the judge's n-th judgment of the segment (Judgment.look)
    kind: str = "regular"  # or "repeat" (Judgment.kind)

    def to_dict(self) -> dict:
        return {
            "line": self.line,
            "segment": self.segment,
            "test_set_line": self.test_set_line,
            "system": self.system,
            "judge": self.judge,
            "criterion": self.criterion,
            "value": self.value,
            "look": self.look,
            "kind": self.kind,
        }


@dataclass(frozen=True)
class SystemInFile:
    name: str
    rows: int
    matched: bool  # the test set has an output of this name
    human: bool  # HUMAN / HUMAN-*: a reference judged as a system
    kept: bool

    def to_dict(self) -> dict:
        return {
            "system": self.name,
            "rows": self.rows,
            "matched": self.matched,
            "human": self.human,
            "kept": self.kept,
        }


@dataclass(frozen=True)
class CriterionInFile:
    name: str
    judgments: int
    scale: str  # "mean z", "WMT z" or "raw mean": what its system score is
    new: bool  # created by this import
    left_out: bool  # its judgments in use come from a campaign

    def to_dict(self) -> dict:
        return {
            "criterion": self.name,
            "judgments": self.judgments,
            "score": self.scale,
            "new": self.new,
            "left_out": self.left_out,
        }


@dataclass(frozen=True)
class JudgmentPreview:
    """What an import of the file would store, before anything is stored:
    the column mapping, counts, systems matched or not, the first rows, and
    the first problem (``None``: the file can be imported as it is)."""

    file_name: str
    layout: str
    title: str
    mapping: tuple[tuple[str, str], ...]  # (field, where it comes from)
    segment_order: str
    default_segment_order: str
    human_rows: str  # the option asked for
    rows_read: int  # data rows with a value (judgment items, for WMT raw files)
    n_skipped: int  # rows without a value
    n_other_items: int  # WMT quality-control items (REF, BAD_REF) left out
    human_skipped: dict[str, int]
    systems: tuple[SystemInFile, ...]
    criteria: tuple[CriterionInFile, ...]
    n_judgments: int  # what would be stored
    first_rows: tuple[PreviewRow, ...]
    problem: UploadProblem | None

    @property
    def key(self) -> str:
        """The options this preview shows, as the page posts them back."""
        return f"{self.human_rows}|{self.segment_order}"

    def to_dict(self) -> dict:
        return {
            "file": self.file_name,
            "layout": self.layout,
            "title": self.title,
            "mapping": dict(self.mapping),
            "segment_order": self.segment_order,
            "human_rows": self.human_rows,
            "rows_read": self.rows_read,
            "skipped": self.n_skipped,
            "quality_control_items_left_out": self.n_other_items,
            "human_rows_skipped": self.human_skipped,
            "systems": [s.to_dict() for s in self.systems],
            "criteria": [c.to_dict() for c in self.criteria],
            "judgments": self.n_judgments,
            "first_rows": [r.to_dict() for r in self.first_rows],
            "problem": None
            if self.problem is None
            else {
                "file": self.problem.file_name,
                "line": self.problem.line,
                "message": self.problem.problem,
            },
        }
