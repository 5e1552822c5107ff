"""Importing human judgments of a test set's outputs.

The file is read by :func:`scoring.stats.parse_judgments` (its layout told
from the header, see :mod:`.layouts`); then every row is checked against the
test set (known system, segment in range, value in its criterion's range,
not judged twice by the same judge) in line order, and the first problem is
raised naming the file and line. Only a file without problems is stored, in
one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.comparisons import request_comparison
from mtdash.judgments.models import Criterion, Judgment, JudgmentImport
from mtdash.judgments.services.common import (
    TestSetOutputs,
    check_data_size,
    problem_from,
)
from mtdash.judgments.services.layouts import detect_layout
from scoring import InputFileError
from scoring.stats import parse_judgments

Progress = Callable[[int, int], None]  # (rows stored, rows to store)

# Ranges and directions of criteria WMT and the literature use; a criterion
# not listed here takes any value (and higher is better).
KNOWN_CRITERIA: dict[str, tuple[float | None, float | None, bool]] = {
    "adequacy": (1.0, 5.0, True),
    "fluency": (1.0, 5.0, True),
    "usability": (1.0, 5.0, True),
    "da": (0.0, 100.0, True),
    "da-z": (None, None, True),
    "mqm": (None, 0.0, True),  # minus the weighted error score: 0 = no error
}

_BATCH = 2000
_JUDGE_CHARS = Judgment._meta.get_field("judge").max_length
_CRITERION_CHARS = Criterion._meta.get_field("name").max_length


@dataclass(frozen=True)
class JudgmentImportResult:
    import_id: int
    file_name: str
    layout: str
    n_judgments: int
    n_skipped: int  # rows without a value (a segment that was not judged)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # crit -> sys

    def to_dict(self) -> dict:
        return {
            "import_id": self.import_id,
            "file": self.file_name,
            "layout": self.layout,
            "judgments": self.n_judgments,
            "skipped": self.n_skipped,
            "counts": self.counts,
        }


@dataclass(frozen=True)
class _Row:
    line: int
    output_id: int
    system: str
    index: int
    judge: str
    criterion: str
    value: float


def import_judgments(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    data: bytes,
    filename: str,
    *,
    progress: Progress | None = None,
) -> JudgmentImportResult:
    """Check and store a judgments file; raise ``UploadProblem`` on the first
    problem (nothing stored)."""
    check_data_size(data, filename)
    layout = detect_layout(data, filename)
    outputs = TestSetOutputs(test_set, filename)
    rows: list[_Row] = []
    skipped = 0
    for reading in layout.readings:
        try:
            parsed = parse_judgments(data, filename, columns=reading.columns)
        except InputFileError as error:
            raise problem_from(error, filename) from None
        skipped = max(skipped, parsed.skipped)
        for j in range(len(parsed)):
            line = int(parsed.lines[j])
            system = parsed.systems[parsed.system_ids[j]]
            rows.append(
                _Row(
                    line=line,
                    output_id=outputs.output(system, line).pk,
                    system=system,
                    index=outputs.index(int(parsed.segments[j]), line),
                    judge=parsed.judges[parsed.judge_ids[j]],
                    criterion=reading.criterion
                    or parsed.criteria[parsed.criterion_ids[j]],
                    value=float(parsed.values[j]),
                )
            )
    rows.sort(key=lambda row: row.line)  # stable: one line's readings in order
    if not rows:
        raise UploadProblem(
            filename,
            None,
            f"no judgments: all {skipped} rows are without a value"
            if skipped
            else "no judgments: the file has only a header line",
        )
    criteria = _criteria(test_set, {row.criterion for row in rows})
    _check_rows(test_set, filename, rows, criteria)
    result = _store(
        test_set, user, filename, layout.name, rows, criteria, skipped, progress
    )
    request_comparison(test_set.pk)  # the leaderboard's human columns
    return result


def _criteria(test_set: TestSet, names: set[str]) -> dict[str, Criterion]:
    """The test set's criteria of these names; unsaved defaults for new ones."""
    found = {
        c.name: c for c in Criterion.objects.filter(test_set=test_set, name__in=names)
    }
    for name in names - set(found):
        low, high, higher_is_better = KNOWN_CRITERIA.get(
            name.lower(), (None, None, True)
        )
        found[name] = Criterion(
            test_set=test_set,
            name=name,
            minimum=low,
            maximum=high,
            higher_is_better=higher_is_better,
        )
    return found


def _check_rows(
    test_set: TestSet, filename: str, rows: list[_Row], criteria: dict[str, Criterion]
) -> None:
    stored = _stored_keys(test_set, set(criteria))
    seen: dict[tuple[int, int, str, str], int] = {}
    for row in rows:
        for what, text, longest in (
            ("judge", row.judge, _JUDGE_CHARS),
            ("criterion", row.criterion, _CRITERION_CHARS),
        ):
            if len(text) > longest:
                raise UploadProblem(
                    filename,
                    row.line,
                    f"the {what} name is {len(text)} characters long; "
                    f"at most {longest} are allowed",
                )
        criterion = criteria[row.criterion]
        if not criterion.admits(row.value):
            raise UploadProblem(
                filename,
                row.line,
                f"value {row.value:g} is out of range for {row.criterion} "
                f"({criterion.range_label})",
            )
        key = (row.output_id, row.index, row.judge, row.criterion)
        what = (
            f"segment {row.index + 1} of {row.system} by judge {row.judge!r} "
            f"on {row.criterion}"
        )
        if key in seen:
            raise UploadProblem(
                filename,
                row.line,
                f"duplicate judgment: {what} is already on line {seen[key]}",
            )
        if key in stored:
            raise UploadProblem(
                filename,
                row.line,
                f"duplicate judgment: {what} was imported before (from {stored[key]})",
            )
        seen[key] = row.line


def _stored_keys(
    test_set: TestSet, criteria: set[str]
) -> dict[tuple[int, int, str, str], str]:
    judgments = Judgment.objects.filter(
        output__test_set=test_set, criterion__name__in=criteria
    ).values_list("output_id", "index", "judge", "criterion__name", "batch__file_name")
    return {
        (output_id, index, judge, criterion): file_name
        for output_id, index, judge, criterion, file_name in judgments.iterator()
    }


def _store(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    filename: str,
    layout: str,
    rows: list[_Row],
    criteria: dict[str, Criterion],
    skipped: int,
    progress: Progress | None,
) -> JudgmentImportResult:
    counts: dict[str, dict[str, int]] = {}
    for row in rows:
        per_system = counts.setdefault(row.criterion, {})
        per_system[row.system] = per_system.get(row.system, 0) + 1
    counts = {c: dict(sorted(s.items())) for c, s in sorted(counts.items())}
    try:
        with transaction.atomic():
            for criterion in criteria.values():
                if criterion.pk is None:
                    criterion.save()
            batch = JudgmentImport.objects.create(
                test_set=test_set,
                file_name=filename[:255],
                layout=layout,
                imported_by=user,
                n_judgments=len(rows),
                n_skipped=skipped,
                counts=counts,
            )
            for start in range(0, len(rows), _BATCH):
                Judgment.objects.bulk_create(
                    Judgment(
                        output_id=row.output_id,
                        index=row.index,
                        judge=row.judge,
                        criterion=criteria[row.criterion],
                        value=row.value,
                        batch=batch,
                        line=row.line,
                    )
                    for row in rows[start : start + _BATCH]
                )
                if progress:
                    progress(min(start + _BATCH, len(rows)), len(rows))
    except IntegrityError:
        # Another import stored some of the same judgments (or criteria)
        # between our checks and our writes.
        raise UploadProblem(
            filename,
            None,
            "another import stored judgments of this test set at the same time; "
            "nothing of this file was kept, import it again to see what clashes",
        ) from None
    return JudgmentImportResult(
        import_id=batch.pk,
        file_name=filename,
        layout=layout,
        n_judgments=len(rows),
        n_skipped=skipped,
        counts=counts,
    )
