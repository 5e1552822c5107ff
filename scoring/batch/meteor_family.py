"""METEOR in the batch engine, equal to :mod:`scoring.metrics.meteor.metric`.

METEOR scores a hypothesis against several references by keeping the
reference with the best segment score (the first on ties) and its
statistics row; so a subset's score follows from the per-pair rows: the
kernel (:func:`scoring.batch.kernels_meteor.meteor_pair_rows`) computes the
row of every (hypothesis, reference) pair once, the metric's own formula
scores them, each subset keeps its first best reference
(:func:`scoring.batch.subsets.subset_first_best`), and the metric's
``sentence_scores_from_statistics`` scores the kept rows.

Words are METEOR's own (:class:`MeteorWords`: ``-norm`` and lower case as
configured): :meth:`MeteorFamily.token_view`, which
:func:`scoring.batch.engine.token_view` hands to the grid builders. Pairs
the kernel cannot take (a search key overflowing, e.g. thousands of words)
are scored by the metric's Python code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.kernels_meteor import meteor_pair_rows
from scoring.batch.meteor_lexicon import lexicon_for
from scoring.batch.subsets import membership, subset_first_best
from scoring.metrics.meteor.metric import Meteor
from scoring.metrics.meteor.normalize import (
    _java_trim,
    java_tokens,
    meteor_words,
    normalize_line,
)
from scoring.metrics.meteor.stages import EXACT


@dataclass(frozen=True)
class MeteorWords:
    """Text -> the words METEOR aligns (hashable: one tokenisation for all
    METEOR variants that read text alike)."""

    lang: str
    norm: bool
    lowercase: bool

    def __call__(self, text: str) -> tuple[str, ...]:
        return meteor_words(text, self.lang, self.norm, self.lowercase)

    def many(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        """``[self(text) for text in texts]``, normalising many texts in one
        pass (:func:`normalize_many`): METEOR's ``-norm`` one text at a time
        cost about 70 us a candidate."""
        if not self.norm:
            return [self(text) for text in texts]
        lines = normalize_many(texts, self.lang)
        return [_split_normalized(line.lower()) for line in lines]


# Normalised text has single spaces between words and none at the ends, so
# StringTokenizer's split is str.split(" ") unless it holds its other four.
_OTHER_SPLITS = re.compile("[\t\n\r\f]")


def _split_normalized(line: str) -> tuple[str, ...]:
    """``java_tokens(line)`` of a normalised line."""
    if _OTHER_SPLITS.search(line):
        return java_tokens(line)
    return tuple(line.split(" ")) if line else ()


# Joins texts for one normalisation pass; METEOR's rules make it a word of
# its own, which no rule reads (see normalize_many).
_SEPARATOR = "\x00"
_NORMALIZE_ONE = normalize_line.__wrapped__  # uncached: joined texts are big


def normalize_many(
    texts: Sequence[str], language: str, block_characters: int = 1 << 22
) -> list[str]:
    """``normalize_line(text, language)`` of each text, the texts joined by
    ``" \\x00 "`` and normalised together (blocks of about
    ``block_characters``). Exact because every rule of METEOR's ``-norm`` reads
    at most one character either side of what it rewrites, and each text sits
    between spaces as ``normalize_line`` pads it: the separator is split off
    as a word of its own (it is not alphanumeric), is no word's final period's
    follower that any rule cares about (it starts with neither a lowercase
    letter nor a digit, as a text's last word has no follower at all), and
    the spaces around it keep one text's matches from reaching the next.
    Texts holding the separator are normalised one by one."""
    results: list[str | None] = [None] * len(texts)
    block: list[int] = []
    size = 0

    def flush() -> None:
        if not block:
            return
        joined = _NORMALIZE_ONE(
            f" {_SEPARATOR} ".join(texts[i] for i in block), language
        )
        pieces = joined.split(_SEPARATOR)
        if len(pieces) != len(block):  # cannot happen (see above); be exact anyway
            for i in block:
                results[i] = normalize_line(texts[i], language)
        else:
            for i, piece in zip(block, pieces):
                results[i] = _java_trim(piece)
        block.clear()

    for index, text in enumerate(texts):
        if _SEPARATOR in text:
            results[index] = normalize_line(text, language)
            continue
        block.append(index)
        size += len(text) + 3
        if size >= block_characters:
            flush()
            size = 0
    flush()
    return results  # type: ignore[return-value]


def pair_rows(metric: Meteor, grid: PairGrid) -> np.ndarray:
    """Statistics row of every pair: ``(H, K, n_stats)`` int64 (unused
    columns past a group's references are zero rows)."""
    config = metric.config
    lexicon = lexicon_for(config)
    vocabulary = grid.vocabulary
    if len(vocabulary) < grid.vocabulary_size:
        raise ValueError("METEOR in the batch engine needs the grid's vocabulary")
    kinds = np.asarray(config.module_kinds, dtype=np.int64)
    if config.stagewise:
        half = np.zeros(kinds.size, dtype=np.bool_)
    else:
        half = kinds != EXACT  # search weight 0.5 for every non-exact module
    syn_offsets, syn_ids = lexicon.synsets(vocabulary)
    table_ids, table = lexicon.table_ids(vocabulary)
    rows, status = meteor_pair_rows(
        grid.hyp_tokens, grid.hyp_offsets, grid.ref_tokens, grid.ref_offsets,
        grid.group_hyps, grid.group_refs, kinds, half, config.stagewise,
        config.formula.perfect_unpenalised, lexicon.function_flags(vocabulary),
        lexicon.stem_ids(vocabulary), syn_offsets, syn_ids, table_ids, table,
    )  # fmt: skip
    for h, k in zip(*np.nonzero(status)):
        rows[h, k] = _python_row(metric, grid, int(h), int(k))
    return rows


def _python_row(metric: Meteor, grid: PairGrid, h: int, k: int) -> list[int]:
    vocabulary = grid.vocabulary
    group = int(grid.hyp_groups[h])
    r = int(grid.group_refs[group]) + k
    hyp = grid.hyp_tokens[grid.hyp_offsets[h] : grid.hyp_offsets[h + 1]]
    ref = grid.ref_tokens[grid.ref_offsets[r] : grid.ref_offsets[r + 1]]
    return metric.pair_row(
        [vocabulary[t] for t in hyp.tolist()], [vocabulary[t] for t in ref.tolist()]
    )


class MeteorFamily(MetricFamily[Meteor]):
    """METEOR metrics (any parameters) of one word view."""

    @staticmethod
    def handles(metric: object) -> bool:
        return type(metric) is Meteor

    @staticmethod
    def token_view(metric: Meteor) -> MeteorWords:
        return MeteorWords(metric.lang, metric.norm, metric.lowercase)

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence METEOR (0-1) of every hypothesis against every subset:
        one ``(H, S)`` array per metric."""
        member = membership(masks, grid.refs_per_group[grid.hyp_groups], grid.max_refs)
        results = []
        for metric in self.metrics:
            rows = pair_rows(metric, grid)  # (H, K, n)
            pair_scores = metric.sentence_scores_from_statistics(rows)  # (H, K)
            best = subset_first_best(np.asarray(pair_scores), member)  # (H, S)
            kept = np.take_along_axis(rows, np.maximum(best, 0)[:, :, None], axis=1)
            results.append(
                np.asarray(
                    metric.sentence_scores_from_statistics(kept), dtype=np.float64
                )
            )
        return results
