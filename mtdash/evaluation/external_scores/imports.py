"""Importing per-segment scores of a metric computed elsewhere (COMET,
MetricX, BLEURT...).

The file has one ``system<TAB>segment<TAB>score`` row per segment (segment =
1-based line; an optional header line ``system segment score``). Every
system in the file must have a score for every segment of the test set: the
corpus score is the mean of the segment scores, comparable across systems
only over the same segments. A metric may be imported again for outputs it
has no scores of yet, with the same description and direction.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import (
    ExternalCorpusScore,
    ExternalMetric,
    ExternalSegmentScore,
    TestSet,
)
from mtdash.evaluation.services.import_checks import (
    Progress,
    TestSetOutputs,
    check_data_size,
    problem_from,
)
from scoring import InputFileError, MetricError, decode_segments, get_metric

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
_NAME_CHARS = ExternalMetric._meta.get_field("name").max_length
_DESCRIPTION_CHARS = ExternalMetric._meta.get_field("description").max_length
_HEADER = ["system", "segment", "score"]
_BATCH = 2000


class ExternalMetricProblem(ValueError):
    """A refused metric name or description (not a problem of the file)."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name


@dataclass(frozen=True)
class ExternalScoresResult:
    metric: str
    description: str
    higher_is_better: bool
    file_name: str
    n_scores: int
    systems: dict[str, float] = field(default_factory=dict)  # system -> mean

    def to_dict(self) -> dict:
        return {
            "metric": self.metric,
            "description": self.description,
            "higher_is_better": self.higher_is_better,
            "file": self.file_name,
            "scores": self.n_scores,
            "systems": self.systems,
        }


def check_metric_name(name: str) -> str:
    """The stripped name, or ``ExternalMetricProblem``: a name must not read
    as a metric of the registry (its column would be taken for that metric's)."""
    name = name.strip()
    if not name:
        raise ExternalMetricProblem("metric", "give the metric a name, e.g. comet-22")
    if len(name) > _NAME_CHARS or not _NAME.fullmatch(name):
        raise ExternalMetricProblem(
            "metric",
            f"{name[:_NAME_CHARS]!r} is not a valid metric name: use at most "
            f"{_NAME_CHARS} letters, digits and . _ + - (starting with a letter "
            "or digit), e.g. comet-22",
        )
    try:
        registered = get_metric(name)
    except MetricError:
        return name
    raise ExternalMetricProblem(
        "metric",
        f"{name!r} is the name of mtdash's own metric {registered.name!r}; "
        "name the external metric differently, e.g. "
        f"{name.lower()}-external",
    )


def check_description(description: str) -> str:
    description = description.strip()
    if not description:
        raise ExternalMetricProblem(
            "description",
            "describe the metric (model and version, e.g. Unbabel/wmt22-comet-da "
            "with comet 2.2.2): it is the metric's signature",
        )
    if len(description) > _DESCRIPTION_CHARS or any(
        not c.isprintable() for c in description
    ):
        raise ExternalMetricProblem(
            "description",
            f"the description must be one line of at most {_DESCRIPTION_CHARS} "
            "printable characters",
        )
    return description


def import_external_scores(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    metric: str,
    description: str,
    higher_is_better: bool,
    data: bytes,
    filename: str,
    *,
    progress: Progress | None = None,
) -> ExternalScoresResult:
    """Check and store an external metric's segment scores; raise
    ``ExternalMetricProblem`` or ``UploadProblem`` (nothing stored)."""
    name = check_metric_name(metric)
    description = check_description(description)
    existing = ExternalMetric.objects.filter(test_set=test_set, name=name).first()
    if existing and (existing.description, existing.higher_is_better) != (
        description,
        higher_is_better,
    ):
        direction = "higher" if existing.higher_is_better else "lower"
        raise ExternalMetricProblem(
            "metric",
            f"the test set already has an external metric {name!r} "
            f"({existing.description!r}, {direction} is better); give new scores "
            "the same description and direction, or another name",
        )
    check_data_size(data, filename)
    scores = _read_scores(test_set, filename, data, existing)
    result = _store(
        test_set, user, name, description, higher_is_better, filename, scores, progress
    )
    request_comparison(test_set.pk)  # the column's intervals and clusters
    return result


def _read_scores(
    test_set: TestSet, filename: str, data: bytes, existing: ExternalMetric | None
) -> dict[str, tuple[int, list[float]]]:
    """system -> (output id, scores in segment order)."""
    try:
        lines = decode_segments(data, filename, strip_byte_order_mark=True)
    except InputFileError as error:
        raise problem_from(error, filename) from None
    outputs = TestSetOutputs(test_set, filename)
    scored_before = (
        set(existing.corpus_scores.values_list("output__system__name", flat=True))
        if existing
        else set()
    )
    found: dict[str, dict[int, tuple[float, int]]] = {}
    first = True
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        cells = [cell.strip() for cell in line.split("\t")]
        if first and [cell.lower() for cell in cells] == _HEADER:
            first = False
            continue
        first = False
        if len(cells) != 3:
            raise UploadProblem(
                filename,
                number,
                f"expected 3 tab-separated fields (system, segment, score), "
                f"found {len(cells)}",
            )
        system, segment_text, score_text = cells
        outputs.output(system, number)  # a known system, or the problem
        if system in scored_before:
            raise UploadProblem(
                filename,
                number,
                f"{system} already has scores of {existing.name}; import only "
                "systems without them",
            )
        if not (segment_text.isascii() and segment_text.isdigit()):
            raise UploadProblem(
                filename,
                number,
                f"segment {segment_text!r} is not a line number (a positive integer)",
            )
        index = outputs.index(int(segment_text), number)
        score = _score(score_text, filename, number)
        per_segment = found.setdefault(system, {})
        if index in per_segment:
            raise UploadProblem(
                filename,
                number,
                f"duplicate score: segment {index + 1} of {system} is already on "
                f"line {per_segment[index][1]}",
            )
        per_segment[index] = (score, number)
    if not found:
        raise UploadProblem(filename, None, "no scores: the file has no data lines")
    result = {}
    for system, per_segment in found.items():
        if len(per_segment) < outputs.n_segments:
            missing = next(i for i in range(outputs.n_segments) if i not in per_segment)
            raise UploadProblem(
                filename,
                None,
                f"{system} has scores for {len(per_segment)} of the test set's "
                f"{outputs.n_segments} segments (none for segment {missing + 1}); "
                "a corpus score needs every segment",
            )
        result[system] = (
            outputs.by_system[system].pk,
            [per_segment[i][0] for i in range(outputs.n_segments)],
        )
    return result


def _score(text: str, filename: str, number: int) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise UploadProblem(filename, number, f"score {text!r} is not a number")
    return value


def _store(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    name: str,
    description: str,
    higher_is_better: bool,
    filename: str,
    scores: dict[str, tuple[int, list[float]]],
    progress: Progress | None,
) -> ExternalScoresResult:
    total = sum(len(values) for _, values in scores.values())
    means = {system: math.fsum(v) / len(v) for system, (_, v) in scores.items()}
    done = 0
    try:
        with transaction.atomic():
            metric, _ = ExternalMetric.objects.get_or_create(
                test_set=test_set,
                name=name,
                defaults={
                    "description": description,
                    "higher_is_better": higher_is_better,
                    "created_by": user,
                },
            )
            for system, (output_id, values) in sorted(scores.items()):
                corpus = ExternalCorpusScore.objects.create(
                    metric=metric,
                    output_id=output_id,
                    score=means[system],
                    n_segments=len(values),
                    file_name=filename[:255],
                    imported_by=user,
                )
                ExternalSegmentScore.objects.bulk_create(
                    (
                        ExternalSegmentScore(corpus_score=corpus, index=i, score=s)
                        for i, s in enumerate(values)
                    ),
                    batch_size=_BATCH,
                )
                done += len(values)
                if progress:
                    progress(done, total)
    except IntegrityError:
        raise UploadProblem(
            filename,
            None,
            f"another import stored scores of {name} at the same time; nothing "
            "of this file was kept, import it again to see what clashes",
        ) from None
    return ExternalScoresResult(
        metric=name,
        description=description,
        higher_is_better=higher_is_better,
        file_name=filename,
        n_scores=total,
        systems=dict(sorted(means.items())),
    )
