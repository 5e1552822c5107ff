"""Per-segment statistics of a whole system output through the compiled
kernels: the rows ``Metric.segment_statistics`` gives, for the metrics whose
per-pair Python is slow on a test set (METEOR, TER, chrF/chrF++, BLEU,
NIST, WER, PER, ROUGE).

A scoring job and the per-reference diagnostics score one hypothesis per
segment against that segment's references; the metric's own code does so
pair by pair in Python (METEOR with paraphrases: about 10 ms a segment,
TER's shift search about 5 ms). Here every segment is a group of the batch
engine's grid (:mod:`scoring.batch.grid`) holding its one hypothesis and its
references, the family's kernel computes the row of every (hypothesis,
reference) pair, and each segment keeps the row the metric keeps:

- METEOR and chrF: the row of the first reference with the best sentence
  score (both metrics' ``segment_row`` loops keep a later reference only
  when it is strictly better);
- TER: the fewest edits over the references and their mean length
  (``ClosestEditRate.closest_row``);
- BLEU/BLEUS, NIST, WER, PER and ROUGE-N/L/W/S/SU: the row their family
  builds for a subset of references (``statistics_rows`` of
  :class:`BleuFamily`, :class:`NistFamily`, :class:`ErrorRateFamily`,
  :class:`RougeFamily`), the subset being all of the segment's references (BLEU clips by the largest count in any one of them,
  which pairwise rows cannot give).

The rows equal the metric's own (tests compare them on real data);
:func:`segment_statistics` returns None for any other metric, and the
caller runs the metric's own code.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from scoring.base import Metric
from scoring.batch.chrf_family import ChrfFamily, _pair_statistics, _Spellings
from scoring.batch.chrf_family import _symbol_grid as symbol_grid
from scoring.batch.error_family import ErrorRateFamily
from scoring.batch.grid import PairGrid, TokenInterner, offsets_of, pack
from scoring.batch.meteor_family import MeteorFamily, pair_rows
from scoring.batch.ngram_family import BleuFamily, NistFamily, subset_mean_lengths
from scoring.batch.rouge_family import RougeFamily
from scoring.batch.subsets import (
    ALL_REFERENCES,
    membership,
    subset_first_best,
    subset_min_first,
)
from scoring.batch.ter_family import TerFamily, ter_grid_edits
from scoring.metrics.edit.per import PER
from scoring.metrics.edit.wer import WER
from scoring.metrics.ngram.bleu import BLEU, BLEUS
from scoring.metrics.ngram.nist import NIST
from scoring.metrics.rouge.metrics import RougeL, RougeN, RougeS, RougeSU, RougeW

# Segments per grid: bounds the (H, K, n_stats) arrays of a long test set.
BLOCK_SEGMENTS = 20_000
# A long output is computed in about this many grids, each at least
# PROGRESS_MIN_SEGMENTS long, with a progress report after each: a job's
# report is also where it learns that its output was deleted.
PROGRESS_STEPS, PROGRESS_MIN_SEGMENTS = 20, 250

# Metrics whose family builds ``segment_row``'s statistics per subset itself
# (:meth:`statistics_rows`); the one subset here is a segment's references.
# Exact classes (SER, which the error family also handles, is not checked
# against its own rows, so it keeps its Python).
_SUBSET_ROWS = {BLEU: BleuFamily, BLEUS: BleuFamily, WER: ErrorRateFamily,
                PER: ErrorRateFamily, RougeN: RougeFamily, RougeL: RougeFamily,
                RougeW: RougeFamily, RougeS: RougeFamily,
                RougeSU: RougeFamily, NIST: NistFamily}  # fmt: skip
_PAIR_FAMILIES = (MeteorFamily, TerFamily, ChrfFamily)


def supports_rows(metric: Metric) -> bool:
    """True when :func:`segment_statistics` computes this metric's rows."""
    return type(metric) in _SUBSET_ROWS or any(
        family.handles(metric) for family in _PAIR_FAMILIES
    )


def segment_statistics(
    metric: Metric,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    progress: Callable[[float], None] | None = None,
) -> np.ndarray | None:
    """``(n, n_stats)`` statistics of ``hypotheses[i]`` against the tuple of
    references ``references[i]`` (a prepared corpus's layout: per segment,
    not per stream), in the metric's dtype; None when the metric is not one
    of these or a segment has no reference. ``progress`` gets the fraction
    of segments done after each grid."""
    if not supports_rows(metric) or any(len(refs) == 0 for refs in references):
        return None
    n_stats = len(metric.statistics_names)
    blocks = [np.zeros((0, n_stats), dtype=metric.statistics_dtype)]
    computing = _with_corpus_weights(metric, references)
    n = len(hypotheses)
    step = min(BLOCK_SEGMENTS, max(PROGRESS_MIN_SEGMENTS, -(-n // PROGRESS_STEPS)))
    for start in range(0, n, step):
        stop = start + step
        grid = _grid(computing, hypotheses[start:stop], references[start:stop])
        blocks.append(_rows(computing, grid).astype(metric.statistics_dtype))
        if progress is not None:
            progress(min(stop, n) / n)
    if progress is not None and n == 0:
        progress(1.0)
    return np.concatenate(blocks, axis=0)


def _with_corpus_weights(metric: Metric, references) -> Metric:
    """An unbound NIST scoring a corpus weighs n-grams by all the corpus's
    references (``NIST._statistics``), not by each segment's: here it is
    bound to those weights, and the kernel looks them up
    (:func:`scoring.batch.kernels_nist.nist_fixed_information`)."""
    if type(metric) is NIST and metric.reference_weights is None:
        return metric.with_reference_corpus(references)
    return metric


def _token_view(metric: Metric):
    subset_family = _SUBSET_ROWS.get(type(metric))
    if subset_family is not None:
        return subset_family.token_view(metric)
    for family in _PAIR_FAMILIES:
        if family.handles(metric):
            return family.token_view(metric)
    raise ValueError(f"no rows for {metric.name}")


def _grid(
    metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
) -> PairGrid:
    """One group per segment: its hypothesis and its references."""
    view = _token_view(metric)
    reference_texts = tuple(text for refs in references for text in refs)
    pieces = _pieces(view, hypotheses) + _reference_pieces(view, reference_texts)
    interner = TokenInterner()
    ids = [np.asarray(interner.intern(piece), dtype=np.int32) for piece in pieces]
    n = len(hypotheses)
    hyp_tokens, hyp_offsets = pack(ids[:n])
    ref_tokens, ref_offsets = pack(ids[n:])
    return PairGrid(
        hyp_tokens=hyp_tokens,
        hyp_offsets=hyp_offsets,
        ref_tokens=ref_tokens,
        ref_offsets=ref_offsets,
        group_hyps=np.arange(n + 1, dtype=np.int64),
        group_refs=offsets_of(len(refs) for refs in references),
        vocabulary_size=max(1, len(interner.vocabulary)),
        vocabulary=interner.vocabulary,
    )


def _pieces(view, texts: Sequence[str]) -> list[Sequence[str]]:
    """``[view(text) for text in texts]``, each distinct text once."""
    many = getattr(view, "many", None)  # METEOR normalises many texts at once
    if many is not None:
        return list(many(list(texts)))
    seen: dict[str, Sequence[str]] = {}
    return [seen[t] if t in seen else seen.setdefault(t, view(t)) for t in texts]


# Every system of a test set is scored against the same references, by
# several metrics reading text alike (BLEU and NIST; WER and PER): their
# tokens are kept for the last few (view, references), which saved about a
# tenth of a scoring job of ten metrics. Token views are frozen values.
_KEPT_REFERENCES = 64  # grids of a few test sets' outputs
_kept: OrderedDict[tuple, list[Sequence[str]]] = OrderedDict()
_kept_lock = threading.Lock()


def _reference_pieces(view, texts: tuple[str, ...]) -> list[Sequence[str]]:
    key = (view, texts)
    with _kept_lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found
    pieces = _pieces(view, texts)
    with _kept_lock:
        _kept[key] = pieces
        while len(_kept) > _KEPT_REFERENCES:
            _kept.popitem(last=False)
    return pieces


def _all_references(grid: PairGrid) -> np.ndarray:
    """``member[h, k, 0]``: reference k exists in h's segment: ``(H, K, 1)``."""
    masks = np.asarray([ALL_REFERENCES], dtype=np.int64)
    return membership(masks, grid.refs_per_group[grid.hyp_groups], grid.max_refs)


def _rows(metric: Metric, grid: PairGrid) -> np.ndarray:
    subset_family = _SUBSET_ROWS.get(type(metric))
    if subset_family is not None:
        masks = np.asarray([ALL_REFERENCES], dtype=np.int64)
        return subset_family([metric]).statistics_rows(grid, masks)[0][:, 0, :]
    member = _all_references(grid)
    if TerFamily.handles(metric):
        mean_length = subset_mean_lengths(grid.pair_ref_lengths(), member)
        fewest, _ = subset_min_first(ter_grid_edits(grid), member)
        return np.stack([fewest[:, 0], mean_length[:, 0]], axis=-1)
    pairs = _meteor_pairs(metric, grid) if MeteorFamily.handles(metric) else None
    if pairs is None:
        pairs = _chrf_pairs(metric, grid)
    pair_scores = np.asarray(metric.sentence_scores_from_statistics(pairs))
    best = subset_first_best(pair_scores, member)[:, 0]  # (H,)
    return pairs[np.arange(grid.n_hyps), best]


def _meteor_pairs(metric, grid: PairGrid) -> np.ndarray:
    return pair_rows(metric, grid)  # (H, K, n_stats)


def _chrf_pairs(metric, grid: PairGrid) -> np.ndarray:
    """chrF's ``[hyp, ref, match]`` per order, characters then words, of
    every pair: ``(H, K, n_stats)``, as :class:`ChrfFamily` computes them."""
    spellings = _Spellings(grid)
    hyp = (grid.hyp_tokens, grid.hyp_offsets)
    ref = (grid.ref_tokens, grid.ref_offsets)
    characters = symbol_grid(
        grid,
        spellings.characters(*hyp, metric.whitespace),
        spellings.characters(*ref, metric.whitespace),
        spellings.alphabet_size,
    )
    parts = [_pair_statistics(characters, metric.char_order)]
    if metric.word_order:
        words = symbol_grid(
            grid,
            spellings.words(*hyp),
            spellings.words(*ref),
            spellings.word_alphabet_size,
        )
        parts.append(_pair_statistics(words, metric.word_order))
    return np.concatenate(parts, axis=-1)
