"""A span file's annotations matched to a test set: each to its system's
output and its segment, its texts and offsets checked against the stored
ones.

Systems and segment numbers are matched as every judgments import matches
them (:class:`~mtdash.evaluation.services.import_checks.TestSetOutputs`:
``segment`` is the 1-based line of the test set). An MQM TSV carries the
texts it was annotated on: they must equal the stored source and the stored
hypothesis of that system's segment, since the spans are offsets into them.
Every span must end inside the text of its side (the library's
:func:`scoring.spans.check_offsets`). Every refusal is an ``UploadProblem``
naming the file, the annotation's (first) line and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.models import Hypothesis, TestSet
from mtdash.evaluation.services.import_checks import TestSetOutputs, problem_from
from mtdash.judgments.models import ErrorSpan, ErrorSpanAnnotation
from scoring import InputFileError
from scoring.spans import SpanAnnotation, check_offsets

_NAME_CHARS = ErrorSpanAnnotation._meta.get_field("annotator").max_length
_CATEGORY_CHARS = ErrorSpan._meta.get_field("category").max_length


@dataclass(frozen=True)
class MatchedAnnotation:
    """A file's annotation and the segment it is of: ``output_id`` and the
    0-based ``index`` of the segment."""

    annotation: SpanAnnotation
    output_id: int
    index: int


class StoredTexts:
    """The test set's sources, and each output's hypotheses (read once per
    output, when the file first names it)."""

    def __init__(self, test_set: TestSet) -> None:
        self.sources = list(
            test_set.segments.order_by("index").values_list("source", flat=True)
        )
        self._hypotheses: dict[int, list[str]] = {}

    def target(self, output_id: int, index: int) -> str:
        if output_id not in self._hypotheses:
            self._hypotheses[output_id] = list(
                Hypothesis.objects.filter(output_id=output_id)
                .order_by("index")
                .values_list("text", flat=True)
            )
        return self._hypotheses[output_id][index]


class SpanMatcher:
    """Matches the annotations of the file ``file_name`` to ``test_set``."""

    def __init__(self, test_set: TestSet, file_name: str) -> None:
        self.file_name = file_name
        self.outputs = TestSetOutputs(test_set, file_name)
        self.texts = StoredTexts(test_set)

    def match(self, annotation: SpanAnnotation) -> MatchedAnnotation:
        """The annotation's output and segment, or an ``UploadProblem``."""
        line = annotation.line
        output_id = self.outputs.output(annotation.system, line).pk
        index = self.outputs.index(annotation.segment, line)
        stored = {
            "target": self.texts.target(output_id, index),
            "source": self.texts.sources[index],
        }
        for side, given in (
            ("target", annotation.target_text),
            ("source", annotation.source_text),
        ):
            if given is not None and given != stored[side]:
                raise UploadProblem(
                    self.file_name, line, _differs(annotation, side, given, stored)
                )
        try:
            check_offsets(
                [annotation], lambda _s, _n, side: stored[side], self.file_name
            )
        except InputFileError as error:
            raise problem_from(error, self.file_name) from None
        self._check_lengths(annotation)
        return MatchedAnnotation(annotation, output_id, index)

    def _check_lengths(self, annotation: SpanAnnotation) -> None:
        if len(annotation.annotator) > _NAME_CHARS:
            raise UploadProblem(
                self.file_name,
                annotation.line,
                f"the annotator's name is {len(annotation.annotator)} characters "
                f"long; at most {_NAME_CHARS} are allowed",
            )
        for number, span in enumerate(annotation.spans, start=1):
            if span.category and len(span.category) > _CATEGORY_CHARS:
                raise UploadProblem(
                    self.file_name,
                    annotation.line,
                    f"span {number}: the category is {len(span.category)} "
                    f"characters long; at most {_CATEGORY_CHARS} are allowed",
                )


def _differs(
    annotation: SpanAnnotation, side: str, given: str, stored: dict[str, str]
) -> str:
    text = stored[side]
    first = next(
        (k for k, (a, b) in enumerate(zip(given, text)) if a != b),
        min(len(given), len(text)),
    )
    what = "hypothesis of that system" if side == "target" else "source"
    return (
        f"the {side} of system {short(annotation.system)!r}, segment "
        f"{annotation.segment} (markers removed) is not the stored {what}: they "
        f"differ from character {first + 1} on ({len(given)} characters here, "
        f"{len(text)} stored); spans are offsets into the stored text"
    )


def short(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters: messages never echo long input."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
