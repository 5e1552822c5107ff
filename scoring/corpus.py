"""Checking and reshaping the hypotheses and reference streams of a corpus.

Callers pass references as *streams* (like sacreBLEU): ``references[k][i]`` is
reference ``k`` of segment ``i``. Metrics want them per segment:
``PreparedCorpus.references[i]`` is the tuple of references of segment ``i``.
Segment numbers in error messages are 1-based, like line numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import MetricError


@dataclass(frozen=True)
class PreparedCorpus:
    """Validated input of one scoring call.

    Attributes:
        hypotheses: ``n`` hypothesis strings.
        references: ``n`` tuples, the references of each segment (missing
            references dropped, so the tuples may differ in length).
        nrefs: references per segment, or ``"var"`` when that varies; this is
            the ``nrefs`` field of signatures.
        sources: ``n`` source segments, when given (metrics that read the
            source declare it in ``Metric.requires``).
        document_ids: ``n`` document ids, when given (e.g. WNM's salience
            weights are computed per document).
    """

    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    nrefs: int | str
    sources: tuple[str, ...] | None = None
    document_ids: tuple[str, ...] | None = None


def _is_sequence_not_text(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def prepare_corpus(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    sources: Sequence[str] | None = None,
    document_ids: Sequence[str] | None = None,
) -> PreparedCorpus:
    """Check the input and transpose reference streams into per-segment tuples.

    Raises :class:`MetricError` when hypotheses are not strings, when
    references are not a sequence of streams, when a stream's length differs
    from the number of hypotheses, or when a segment has no reference at all.
    """
    if not _is_sequence_not_text(hypotheses):
        raise MetricError("hypotheses must be a sequence of strings, one per segment")
    hypotheses = tuple(hypotheses)
    for number, hypothesis in enumerate(hypotheses, start=1):
        if not isinstance(hypothesis, str):
            raise MetricError(
                f"hypothesis {number} is a {type(hypothesis).__name__}, not a string"
            )

    if not _is_sequence_not_text(references) or not all(
        _is_sequence_not_text(stream) for stream in references
    ):
        raise MetricError(
            "references must be a sequence of reference streams (one sequence of "
            "strings per reference translation), e.g. [refs_A, refs_B]"
        )
    if len(references) == 0:
        raise MetricError("at least one reference stream is needed")
    for stream_number, stream in enumerate(references, start=1):
        if len(stream) != len(hypotheses):
            raise MetricError(
                f"reference stream {stream_number} has {len(stream)} segments but "
                f"there are {len(hypotheses)} hypotheses; every stream needs one "
                "entry per hypothesis"
            )

    per_segment: list[tuple[str, ...]] = []
    counts: set[int] = set()
    for index in range(len(hypotheses)):
        segment_references = []
        for stream_number, stream in enumerate(references, start=1):
            reference = stream[index]
            if reference is None:  # a missing reference, as in sacreBLEU
                continue
            if not isinstance(reference, str):
                raise MetricError(
                    f"reference stream {stream_number}, segment {index + 1} is a "
                    f"{type(reference).__name__}, not a string"
                )
            segment_references.append(reference)
        if not segment_references:
            raise MetricError(f"segment {index + 1} has no reference (all are None)")
        per_segment.append(tuple(segment_references))
        counts.add(len(segment_references))

    if len(counts) > 1:
        nrefs: int | str = "var"
    else:
        nrefs = counts.pop() if counts else len(references)
    return PreparedCorpus(
        hypotheses,
        tuple(per_segment),
        nrefs,
        _aligned("sources", sources, len(hypotheses)),
        _aligned("document ids", document_ids, len(hypotheses)),
    )


def _aligned(what: str, values: Sequence[str] | None, n: int) -> tuple[str, ...] | None:
    """``values`` as a tuple of ``n`` strings, or None when not given."""
    if values is None:
        return None
    if not _is_sequence_not_text(values) or len(values) != n:
        count = len(values) if _is_sequence_not_text(values) else "no sequence of"
        raise MetricError(
            f"{count} {what} given for {n} hypotheses; one each is needed"
        )
    values = tuple(values)
    for number, value in enumerate(values, start=1):
        if not isinstance(value, str):
            raise MetricError(
                f"{what} {number} is a {type(value).__name__}, not a string"
            )
    return values
