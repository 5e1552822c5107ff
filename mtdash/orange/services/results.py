"""What the result page shows: the table's best metric and, per metric, the
sentences whose candidates the metric ranked above the references."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.paginator import Paginator

from mtdash.evaluation.models import ReferenceSegment, Segment
from mtdash.orange.models import OrangeJob, OrangeScore
from mtdash.orange.services.artifacts import load_nbest_index, read_candidates

ABOVE_REFERENCE_PER_PAGE = 10


def best_metrics(scores: Sequence[OrangeScore]) -> set[str]:
    """Metrics with the lowest ORANGE (lower is better; ties all count)."""
    if not scores:
        return set()
    lowest = min(score.orange for score in scores)
    return {score.metric for score in scores if score.orange <= lowest + 1e-12}


@dataclass(frozen=True)
class RankedCandidate:
    index: int  # 0-based position in the system's n-best order
    text: str
    score: float

    @property
    def number(self) -> int:
        """1-based position in the n-best list, as people count."""
        return self.index + 1


@dataclass(frozen=True)
class AboveReferenceSentence:
    sentence_id: int  # segment index (Moses id)
    source: str
    references: tuple[tuple[str, str], ...]  # (label, text)
    oracle_score: float
    n_candidates: int  # N_i of this sentence's list
    candidates: tuple[RankedCandidate, ...]  # best first

    @property
    def line(self) -> int:
        return self.sentence_id + 1


@dataclass(frozen=True)
class AboveReferencePage:
    score: OrangeScore
    sentences: tuple[AboveReferenceSentence, ...]
    page: object  # django.core.paginator.Page, for the page links


def above_reference_page(
    job: OrangeJob,
    score: OrangeScore,
    page_number: object,
    per_page: int = ABOVE_REFERENCE_PER_PAGE,
) -> AboveReferencePage:
    """One page of the sentences with candidates above the references, with texts.

    Candidates come from the n-best artifact (only the sentences shown are
    decompressed), sources and references from the database.
    """
    with_candidates = [item for item in score.above_reference if item[2]]
    page = Paginator(with_candidates, per_page).get_page(page_number)
    ids = [int(item[0]) for item in page.object_list]
    test_set = job.nbest.test_set
    sources = dict(
        Segment.objects.filter(test_set=test_set, index__in=ids).values_list(
            "index", "source"
        )
    )
    references: dict[int, list[tuple[str, str]]] = {i: [] for i in ids}
    rows = (
        ReferenceSegment.objects.filter(
            reference_set__test_set=test_set,
            reference_set__label__in=job.reference_labels,
            index__in=ids,
        )
        .order_by("reference_set__label")
        .values_list("index", "reference_set__label", "text")
    )
    for index, label, text in rows:
        references[index].append((label, text))
    index = load_nbest_index(job.nbest.artifact)
    sign = -1.0 if score.higher_is_better else 1.0
    sentences = []
    for sentence_id, oracle, candidates in page.object_list:
        position = index.position_of(int(sentence_id))
        _, texts = read_candidates(job.nbest.artifact, position, position + 1, index)
        ranked = sorted(
            (
                RankedCandidate(int(j), texts[0][int(j)], float(s))
                for j, s in candidates
            ),
            key=lambda c: (sign * c.score, c.index),
        )
        sentences.append(
            AboveReferenceSentence(
                sentence_id=int(sentence_id),
                source=sources.get(int(sentence_id), ""),
                references=tuple(references[int(sentence_id)]),
                oracle_score=float(oracle),
                n_candidates=len(texts[0]),
                candidates=tuple(ranked),
            )
        )
    return AboveReferencePage(score=score, sentences=tuple(sentences), page=page)
