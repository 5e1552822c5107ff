"""One sentence of an output: source, every reference, the hypothesis, each
metric's sentence score, and the n-grams the hypothesis shares with the
references highlighted (:mod:`scoring.analysis.highlight`).

One sentence is tokenised per request (the hypothesis and its references,
with the test set's target-language tokenizer): a few small queries and
microseconds of work. Highlighted text is a list of ``(token, css class)``
pairs that the template renders, so every token is escaped like any text.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.evaluation.leaderboard.build import metric_decimals
from mtdash.evaluation.models import (
    CorpusScore,
    Hypothesis,
    ReferenceSegment,
    Segment,
    SegmentScore,
    SystemOutput,
)
from mtdash.evaluation.systems.analyses import tokenizer_name
from mtdash.evaluation.systems.page import output_columns
from scoring import get_tokenizer
from scoring.analysis.highlight import DEFAULT_MAX_ORDER, highlight_sentence


class NoSuchSentence(LookupError):
    """The output has no segment of that number."""


@dataclass(frozen=True)
class SentenceScore:
    column: str
    value: float | None
    decimals: int
    signature: str  # the sentence-level signature


@dataclass(frozen=True)
class HighlightedText:
    label: str  # "hypothesis" or the reference's translator label
    text: str  # as uploaded, for the title and copying
    pairs: tuple[tuple[str, str], ...]  # (token, "match-<order>")


@dataclass(frozen=True)
class SentenceView:
    number: int  # 1-based
    n_segments: int
    source: str
    document_id: str
    hypothesis: HighlightedText
    references: tuple[HighlightedText, ...]
    scores: tuple[SentenceScore, ...]
    tokenizer: str
    max_order: int

    @property
    def previous_number(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next_number(self) -> int | None:
        return self.number + 1 if self.number < self.n_segments else None

    @property
    def orders(self) -> range:
        """The n-gram orders a legend explains, 1..max_order."""
        return range(1, self.max_order + 1)


def build_sentence_view(
    output: SystemOutput, number: int, max_order: int = DEFAULT_MAX_ORDER
) -> SentenceView:
    """The sentence numbered ``number`` (1-based) of ``output``; raises
    :class:`NoSuchSentence` when there is none."""
    index = number - 1
    hypothesis = (
        Hypothesis.objects.filter(output=output, index=index)
        .values_list("text", flat=True)
        .first()
    )
    segment = (
        Segment.objects.filter(test_set_id=output.test_set_id, index=index)
        .values_list("source", "document_id")
        .first()
    )
    if index < 0 or hypothesis is None or segment is None:
        raise NoSuchSentence(number)
    references = list(
        ReferenceSegment.objects.filter(
            reference_set__test_set_id=output.test_set_id, index=index
        )
        # A human translation is shown against the references it is scored
        # against: its own would match every word.
        .exclude(reference_set_id=output.reference_id)
        .order_by("reference_set__label")
        .values_list("reference_set__label", "text")
    )
    name = tokenizer_name(output.test_set)
    tokenize = get_tokenizer(name)
    highlight = highlight_sentence(
        tokenize(hypothesis), [tokenize(text) for _, text in references], max_order
    )
    return SentenceView(
        number=number,
        n_segments=Hypothesis.objects.filter(output=output).count(),
        source=segment[0],
        document_id=segment[1],
        hypothesis=HighlightedText(
            "hypothesis", hypothesis, tuple(highlight.hypothesis.css_pairs())
        ),
        references=tuple(
            HighlightedText(label, text, tuple(marked.css_pairs()))
            for (label, text), marked in zip(references, highlight.references)
        ),
        scores=_scores(output, index),
        tokenizer=name,
        max_order=max_order,
    )


def _scores(output: SystemOutput, index: int) -> tuple[SentenceScore, ...]:
    columns = output_columns(output)
    values = dict(
        SegmentScore.objects.filter(
            corpus_score_id__in=list(columns.values()), index=index
        ).values_list("corpus_score_id", "score")
    )
    about = {
        pk: (metric, sentence_signature)
        for pk, metric, sentence_signature in CorpusScore.objects.filter(
            pk__in=columns.values()
        ).values_list("pk", "metric", "sentence_signature")
    }
    return tuple(
        SentenceScore(
            column,
            values.get(pk),
            metric_decimals(about[pk][0]),
            about[pk][1],
        )
        for column, pk in columns.items()
    )
