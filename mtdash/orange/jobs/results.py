"""What the result page shows: the table's best metric and, per metric, the
sentences whose candidates the metric ranked above the references."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator

from mtdash.evaluation.models import ReferenceSegment, Segment
from mtdash.orange.jobs.artifacts import load_nbest_index, read_nbest_entries
from mtdash.orange.jobs.metric_significance import best_metrics  # noqa: F401 (re-export)
from mtdash.orange.models import OrangeJob, OrangeScore

ABOVE_REFERENCE_PER_PAGE = 10


# Distinct candidate texts shown per sentence; the rest are counted.
CANDIDATES_PER_SENTENCE = 25


@dataclass(frozen=True)
class RankedCandidate:
    """A distinct candidate text above the references, with its copies in the
    list collapsed: ``indices`` of every identical candidate ranked above."""

    index: int  # 0-based position of its first copy in the system's n-best order
    text: str
    score: float
    features: str  # Moses feature values of the first copy
    indices: tuple[int, ...] = ()

    @property
    def number(self) -> int:
        """1-based position in the n-best list, as people count."""
        return self.index + 1

    @property
    def copies(self) -> int:
        return max(1, len(self.indices))

    @property
    def other_numbers(self) -> str:
        """1-based positions of the other copies, for the page."""
        return ", ".join(str(i + 1) for i in self.indices[1:])


@dataclass(frozen=True)
class AboveReferenceSentence:
    sentence_id: int  # segment index (Moses id)
    source: str
    references: tuple[tuple[str, str], ...]  # (label, text)
    oracle_score: float
    n_candidates: int  # N_i of this sentence's list
    candidates: tuple[RankedCandidate, ...]  # distinct texts, best first
    n_above: int = 0  # candidates above the references, copies included
    n_hidden: int = 0  # distinct texts beyond CANDIDATES_PER_SENTENCE

    @property
    def n_distinct(self) -> int:
        return len(self.candidates) + self.n_hidden

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
        entries = read_nbest_entries(job.nbest.artifact, position, position + 1, index)
        entries = entries[0]
        ranked = collapse_identical(entries, candidates, sign)
        sentences.append(
            AboveReferenceSentence(
                sentence_id=int(sentence_id),
                source=sources.get(int(sentence_id), ""),
                references=tuple(references[int(sentence_id)]),
                oracle_score=float(oracle),
                n_candidates=len(entries),
                candidates=tuple(ranked[:CANDIDATES_PER_SENTENCE]),
                n_above=len(candidates),
                n_hidden=max(0, len(ranked) - CANDIDATES_PER_SENTENCE),
            )
        )
    return AboveReferencePage(score=score, sentences=tuple(sentences), page=page)


def collapse_identical(
    entries: Sequence[Any], candidates: Sequence[Sequence[float]], sign: float
) -> list[RankedCandidate]:
    """Candidates above the references as distinct texts, best first; each
    keeps the n-best indices of its identical copies (a 1024-best list often
    holds one string several times, with different derivations).

    ``entries`` are the sentence's n-best entries, ``candidates`` its
    ``[index, score]`` pairs above the references.
    """
    by_text: dict[str, list] = {}
    for j, score in candidates:
        entry = entries[int(j)]
        by_text.setdefault(entry.hypothesis, []).append((int(j), float(score)))
    ranked = []
    for text, copies in by_text.items():
        copies.sort(key=lambda copy: copy[0])
        first, score = copies[0]
        ranked.append(
            RankedCandidate(
                index=first,
                text=text,
                score=score,
                features=entries[first].features,
                indices=tuple(j for j, _ in copies),
            )
        )
    ranked.sort(key=lambda c: (sign * c.score, c.index))
    return ranked
