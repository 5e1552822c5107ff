"""Importing human judgments of a test set's outputs.

The file is read by :func:`scoring.stats.parse_judgments` (its layout told
from the header, see :mod:`.layouts`); then every row is checked against the
test set (known system, segment in range, value in its criterion's range,
not judged twice by the same judge, except a WMT raw file's later looks:
:func:`_looks`) in line order, and the first problem is
raised naming the file and line. Only a file without problems is stored, in
one transaction.

:func:`preview_judgments` reads and checks the file the same way and stores
nothing: the column mapping, the counts, the systems matched or not, the
first rows and the first problem, for the browser's preview page and the
API's and command's dry runs. Rows of ``HUMAN-*`` systems (references WMT
judged as systems) are kept or skipped as the user chooses
(:class:`ImportOptions`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from mtdash.common.bulk_insert import insert_rows
from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.import_checks import (
    Progress,
    TestSetOutputs,
    check_data_size,
    problem_from,
)
from mtdash.judgments.imports.layouts import (
    LINE,
    detect_layout,
    tabbed_header,
)
from mtdash.judgments.imports.results import (
    CriterionInFile,
    ImportOptions,
    JudgmentImportResult,
    JudgmentPreview,
    PreviewRow,
    SystemInFile,
    is_human_system,
)
from mtdash.judgments.models import Criterion, Judgment, JudgmentImport
from mtdash.judgments.sources import criterion_sources, keep_apart
from scoring import InputFileError
from scoring.stats import parse_judgments

# Ranges and directions of criteria WMT and the literature use; a criterion
# not listed here takes any value (and higher is better).
KNOWN_CRITERIA: dict[str, tuple[float | None, float | None, bool]] = {
    "adequacy": (1.0, 5.0, True),
    "fluency": (1.0, 5.0, True),
    "usability": (1.0, 5.0, True),
    "da": (0.0, 100.0, True),
    "da-z": (None, None, True),
    "mqm": (None, 0.0, True),  # minus the weighted error score: 0 = no error
    "esa": (0.0, 100.0, True),  # Error Span Annotation's score (Kocmi et al. 2024)
}

# MQM has one scale whichever file brings it (WMT's mqm_seg.tsv, a CSV, MQM
# error spans): aggregated as given, as WMT does (raw means over the
# raters, then the segments; never standardised per rater), so a file's
# official averages read the same here. A test set's ``mqm`` of the older
# scale (judges' values, z-scored) keeps it, and later MQM files join it.
MQM_SCALE = Criterion.Scale.MEAN
_JOINS_OLDER = {("mqm", Criterion.Scale.RAW, MQM_SCALE)}

_BATCH = 2000
_JUDGE_CHARS = Judgment._meta.get_field("judge").max_length
_CRITERION_CHARS = Criterion._meta.get_field("name").max_length


_SUFFIX = re.compile(r"\.[0-9]+$")
_PREVIEW_ROWS = 10


@dataclass(frozen=True)
class _Row:
    line: int
    output_id: int
    system: str
    index: int
    judge: str
    criterion: str
    value: float
    look: int = 1
    kind: str = Judgment.Kind.REGULAR


@dataclass(frozen=True)
class _Read:
    preview: JudgmentPreview
    rows: list[_Row]
    criteria: dict[str, Criterion]


def preview_judgments(
    test_set: TestSet,
    data: bytes,
    filename: str,
    options: ImportOptions = ImportOptions(),
) -> JudgmentPreview:
    """What :func:`import_judgments` would store, without storing anything.
    A file that cannot be read at all (size, encoding, header, a malformed
    line) raises ``UploadProblem``; any other problem is the preview's
    ``problem``."""
    return _read(test_set, data, filename, options).preview


def import_judgments(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    data: bytes,
    filename: str,
    *,
    options: ImportOptions = ImportOptions(),
    progress: Progress | None = None,
) -> JudgmentImportResult:
    """Check and store a judgments file; raise ``UploadProblem`` on the first
    problem (nothing stored)."""
    read = _read(test_set, data, filename, options)
    if read.preview.problem is not None:
        raise read.preview.problem
    result = _store(test_set, user, read, progress)
    request_comparison(test_set.pk)  # the leaderboard's human columns
    return result


def _read(
    test_set: TestSet, data: bytes, filename: str, options: ImportOptions
) -> _Read:
    check_data_size(data, filename)
    layout = detect_layout(data, filename)
    order = options.segment_order or layout.segment_order
    text = tabbed_header(data) if layout.space_header else data
    # (line, system, file segment, judge, criterion, value, scale, item type)
    # per judgment; the item type is WMT's (SYSTEM, REPEAT), else ""
    found: list[tuple[int, str, int, str, str, float, str, str]] = []
    skipped = other_items = 0
    for reading in layout.readings:
        try:
            parsed = parse_judgments(text, filename, columns=reading.columns)
        except InputFileError as error:
            raise problem_from(error, filename) from None
        skipped = max(skipped, parsed.skipped)
        criterion, scale = reading.criterion, reading.scale
        types = reading.types
        if types and not _wmt_z(parsed.values, filename):
            # Raw 0-100 judgements: standardised per annotator (over their
            # SYSTEM and REPEAT judgements, as the aggregates read them).
            criterion, scale = "da", "raw"
        names = (
            [_SUFFIX.sub("", n) for n in parsed.systems]
            if layout.system_suffix
            else parsed.systems
        )
        for j in range(len(parsed)):
            judge = parsed.judges[parsed.judge_ids[j]]
            item_type = ""
            if types:
                item_type = parsed.criteria[parsed.criterion_ids[j]]
                if item_type not in types:
                    other_items += 1
                    continue
            name = criterion or parsed.criteria[parsed.criterion_ids[j]]
            found.append(
                (
                    int(parsed.lines[j]),
                    names[parsed.system_ids[j]],
                    int(parsed.segments[j]),
                    judge,
                    name,
                    float(parsed.values[j]),
                    MQM_SCALE if name.lower() == "mqm" else scale,
                    item_type,
                )
            )
    found.sort(key=lambda row: row[0])  # stable: one line's readings in order
    looks = _looks(found)
    outputs = TestSetOutputs(test_set, filename)
    # File rows per system (a row of da_seg.tsv gives two judgments).
    per_system = Counter(system for _, system in {(r[0], r[1]) for r in found})
    humans = [name for name in per_system if is_human_system(name)]
    keep_humans = options.human_rows == "keep" or (
        options.human_rows == "auto"
        and all(name in outputs.by_system for name in humans)
    )
    dropped = set() if keep_humans else set(humans)
    systems = tuple(
        SystemInFile(
            name=name,
            rows=count,
            matched=name in outputs.by_system,
            human=name in humans,
            kept=name not in dropped,
        )
        for name, count in sorted(per_system.items())
    )
    human_skipped = {name: per_system[name] for name in sorted(dropped)}
    kept = [(*row, *look) for row, look in zip(found, looks) if row[1] not in dropped]
    problem = None
    rows: list[_Row] = []
    scales = {row[4]: row[6] for row in kept}
    criteria = criteria_named(test_set, set(scales), scales)
    try:
        if not kept:
            raise UploadProblem(filename, None, _nothing_left(skipped, human_skipped))
        segment_index = _segment_index(
            test_set, outputs, order, filename, layout.header_line
        )
        for line, system, segment, judge, criterion, value, *_, look, kind in kept:
            rows.append(
                _Row(
                    line=line,
                    output_id=outputs.output(system, line).pk,
                    system=system,
                    index=segment_index(segment, line),
                    judge=judge,
                    criterion=criterion,
                    value=value,
                    look=look,
                    kind=kind,
                )
            )
        _check_scales(filename, criteria, scales)
        _check_rows(test_set, filename, rows, criteria)
    except UploadProblem as found_problem:
        problem = found_problem
    first_rows = tuple(
        PreviewRow(
            line=line,
            segment=segment,
            test_set_line=rows[k].index + 1 if k < len(rows) else None,
            system=system,
            judge=judge,
            criterion=criterion,
            value=value,
            look=look,
            kind=kind,
        )
        for k, (line, system, segment, judge, criterion, value, *_, look, kind) in (
            enumerate(kept[:_PREVIEW_ROWS])
        )
    )
    judged = Counter(row[4] for row in kept)
    preview = JudgmentPreview(
        file_name=filename,
        layout=layout.name,
        title=layout.title,
        mapping=layout.mapping(),
        segment_order=order,
        default_segment_order=layout.segment_order,
        human_rows=options.human_rows,
        rows_read=sum(per_system.values()),
        n_skipped=skipped,
        n_other_items=other_items,
        human_skipped=human_skipped,
        systems=systems,
        criteria=tuple(
            CriterionInFile(
                name=name,
                judgments=judged[name],
                scale=criteria[name].score_label,
                new=criteria[name].pk is None,
                left_out=criteria[name].pk is not None
                and any(
                    s.in_use and s.kind == "campaign"
                    for s in criterion_sources(criteria[name])
                ),
            )
            for name in sorted(judged)
        ),
        n_judgments=len(kept),
        first_rows=first_rows,
        problem=problem,
    )
    return _Read(preview, rows, criteria)


def _looks(found) -> list[tuple[int, str]]:
    """(look, kind) of each judgment (``Judgment.look``, ``Judgment.kind``).

    In a WMT raw file an annotator may meet a translation again: a
    ``REPEAT`` control (1,412 in WMT21 ru-en) or the item in another HIT
    (62 items there). Each is a judgment of the same annotator, which WMT
    averages in: its regular items are looks 1, 2... in file order, then its
    repeats (the file lists a REPEAT before its SYSTEM item about half the
    time, so file order alone would make a repeat the first look). Every
    other layout's judgment is look 1: a second is a duplicate."""
    order = sorted(
        (k for k, row in enumerate(found) if row[7]),
        key=lambda k: (found[k][7] == "REPEAT", found[k][0]),
    )
    looks = [(1, Judgment.Kind.REGULAR)] * len(found)
    seen: Counter = Counter()  # (judge, system, segment, criterion) -> looks
    for k in order:
        _, system, segment, judge, criterion, *_, item_type = found[k]
        seen[judge, system, segment, criterion] += 1
        kind = Judgment.Kind.REPEAT if item_type == "REPEAT" else Judgment.Kind.REGULAR
        looks[k] = (seen[judge, system, segment, criterion], kind)
    return looks


def _wmt_z(values, filename: str) -> bool:
    """WMT's raw DA files hold per-annotator z-scores (``-stnd``) or raw
    0-100 scores; a negative score can only be a z-score."""
    return "stnd" in filename.lower() or bool((values < 0).any())


def _nothing_left(skipped: int, human_skipped: dict[str, int]) -> str:
    if human_skipped:
        return (
            f"no judgments: every row is of {', '.join(human_skipped)}, which are "
            "skipped (references judged as systems); keep them to import them"
        )
    if skipped:
        return f"no judgments: all {skipped} rows are without a value"
    return "no judgments: the file has only a header line"


def _segment_index(
    test_set: TestSet,
    outputs: TestSetOutputs,
    order: str,
    filename: str,
    header_line: int,
):
    """segment id, file line -> 0-based index of the test set's segment."""
    if order == LINE:
        return outputs.index
    documents = list(
        test_set.segments.order_by("index").values_list("document_id", flat=True)
    )
    if not all(documents):
        raise UploadProblem(
            filename,
            header_line,
            "its segment ids count segments in WMT's sorted-document order "
            "(documents sorted by id), which needs the test set's document ids; "
            "this test set has none (upload it as WMT XML/SGML with <doc docid>), "
            "or choose line numbers if the ids are lines",
        )
    # Stable: segments keep their order within a document.
    position = sorted(range(len(documents)), key=lambda i: documents[i])

    def index(segment: int, line: int) -> int:
        if not 1 <= segment <= len(position):
            raise UploadProblem(
                filename,
                line,
                f"segment {segment} is not in the test set (it has "
                f"{len(position)} segments in sorted-document order)",
            )
        return position[segment - 1]

    return index


def _check_scales(
    filename: str, criteria: dict[str, Criterion], scales: dict[str, str]
) -> None:
    """A criterion's values are all of one kind: a file's WMT z never joins
    judges' ratings of the same name, nor the reverse."""
    for name, criterion in criteria.items():
        if (name.lower(), criterion.scale, scales[name]) in _JOINS_OLDER:
            continue
        if criterion.pk is not None and criterion.scale != scales[name]:
            given = Criterion.Scale(scales[name]).label
            raise UploadProblem(
                filename,
                None,
                f"criterion {name} of this test set holds "
                f"{criterion.get_scale_display()}; this file gives {given}",
            )


def criteria_named(
    test_set: TestSet, names: set[str], scales: dict[str, str]
) -> dict[str, Criterion]:
    """The test set's criteria of these names; unsaved defaults for new ones
    (of the scale the file gives them)."""
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
            scale=scales[name],
        )
    return found


def _check_rows(
    test_set: TestSet, filename: str, rows: list[_Row], criteria: dict[str, Criterion]
) -> None:
    stored = stored_judgment_keys(test_set, set(criteria))
    seen: dict[tuple[int, int, str, str, int], int] = {}
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
        if (*key, row.look) in seen:
            raise UploadProblem(
                filename,
                row.line,
                f"duplicate judgment: {what} is already on line "
                f"{seen[(*key, row.look)]}",
            )
        # Any look clashes with a stored one: a file is imported once.
        if key in stored:
            raise UploadProblem(
                filename,
                row.line,
                f"duplicate judgment: {what} was imported before (from {stored[key]})",
            )
        seen[(*key, row.look)] = row.line


def stored_judgment_keys(
    test_set: TestSet, criteria: set[str]
) -> dict[tuple[int, int, str, str], str]:
    """(output id, index, judge, criterion) -> the file name of every stored
    judgment of these criteria: a judge judges a segment once."""
    judgments = Judgment.objects.filter(
        output__test_set=test_set, criterion__name__in=criteria
    ).values_list("output_id", "index", "judge", "criterion__name", "batch__file_name")
    return {
        (output_id, index, judge, criterion): file_name
        for output_id, index, judge, criterion, file_name in judgments.iterator()
    }


JUDGMENT_FIELDS = (
    "output", "index", "judge", "criterion", "value", "batch", "line", "look", "kind"
)  # fmt: skip


def _store(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    read: _Read,
    progress: Progress | None,
) -> JudgmentImportResult:
    rows, criteria, preview = read.rows, read.criteria, read.preview
    filename = preview.file_name
    counts: dict[str, dict[str, int]] = {}
    for row in rows:
        per_system = counts.setdefault(row.criterion, {})
        per_system[row.system] = per_system.get(row.system, 0) + 1
    counts = {c: dict(sorted(s.items())) for c, s in sorted(counts.items())}
    left_out = []
    try:
        with transaction.atomic():
            existing = [c for c in criteria.values() if c.pk is not None]
            for criterion in criteria.values():
                if criterion.pk is None:
                    criterion.save()
            batch = JudgmentImport.objects.create(
                test_set=test_set,
                file_name=filename[:255],
                layout=preview.layout,
                imported_by=user,
                n_judgments=len(rows),
                n_skipped=preview.n_skipped,
                counts=counts,
            )
            for criterion in existing:
                if keep_apart(criterion, batch):
                    left_out.append(criterion.name)
            for start in range(0, len(rows), _BATCH):
                # Plain rows (no ids read back): through bulk_create they
                # were most of a large import's time.
                insert_rows(
                    Judgment,
                    JUDGMENT_FIELDS,
                    (
                        (
                            row.output_id,
                            row.index,
                            row.judge,
                            criteria[row.criterion].pk,
                            float(row.value),
                            batch.pk,
                            row.line,
                            row.look,
                            str(row.kind),
                        )
                        for row in rows[start : start + _BATCH]
                    ),
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
        layout=preview.layout,
        n_judgments=len(rows),
        n_skipped=preview.n_skipped,
        counts=counts,
        human_skipped=preview.human_skipped,
        segment_order=preview.segment_order,
        left_out=tuple(sorted(left_out)),
    )
