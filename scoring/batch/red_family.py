"""RED in the batch engine, equal to :mod:`scoring.metrics.red.metric`.

RED scores a segment by running its trained decision tree on a vector of
edit distances to the references (:mod:`scoring.metrics.red.features`).
The distances are computed by :func:`scoring.batch.kernels_red.red_subset_features`
for every hypothesis against every reference subset (keywords, the words
of two or more references, depend on the subset), giving the same feature
matrix as the model's own ``feature_matrix``; the model's own ``scores``
(the tree's expected grade) and the metric's ``sentence_scores_from_statistics``
then make the scores, so the values are the per-pair code's.

Token ids are the model's tokenizer's (:meth:`RedFamily.token_view`); whether a
token is a content word and which content words share a WordNet synset are
looked up once per token (per grid) from the grid's vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.kernels_red import red_subset_features
from scoring.metrics.red.features import Variant, is_content_word
from scoring.metrics.red.metric import RED
from scoring.metrics.red.semantic import load_synonyms
from scoring.tokenizers import get_tokenizer


def policy_arrays(variants: Sequence[Variant]) -> tuple[np.ndarray, ...]:
    """The distinct (content, semantic, keywords) policies of the variants
    and the feature column of each one's plain and swap distance (-1: not
    asked): five ``(P,)`` arrays, see :mod:`scoring.batch.kernels_red`."""
    policies: dict[tuple[bool, bool, bool], list[int]] = {}
    for column, variant in enumerate(variants):
        key = (variant.content, variant.semantic, variant.keywords)
        columns = policies.setdefault(key, [-1, -1])
        columns[1 if variant.swap else 0] = column
    keys = list(policies)
    return (
        np.array([key[0] for key in keys], dtype=np.bool_),
        np.array([key[1] for key in keys], dtype=np.bool_),
        np.array([key[2] for key in keys], dtype=np.bool_),
        np.array([policies[key][0] for key in keys], dtype=np.int64),
        np.array([policies[key][1] for key in keys], dtype=np.int64),
    )


@lru_cache(maxsize=8)
def content_flags(vocabulary: tuple[str, ...], language: str) -> np.ndarray:
    """``is_content_word`` of every token id: ``(V,)`` bool (read-only; cached,
    since the chunks of one n-best list may share one vocabulary)."""
    flags = np.fromiter(
        (is_content_word(token, language) for token in vocabulary),
        dtype=np.bool_,
        count=len(vocabulary),
    )
    flags.flags.writeable = False
    return flags


def related_content_words(
    grid: PairGrid, is_content: np.ndarray, synonyms: Callable[[str], frozenset[int]]
) -> np.ndarray:
    """Sorted keys ``v * V + u``: hypothesis content word v and reference
    content word u of the same group share a WordNet synset (all pairs a
    synonym replacement can ask about): ``(n_pairs,)`` int64."""
    vocabulary = grid.vocabulary
    size = grid.vocabulary_size
    synsets: dict[int, frozenset[int]] = {}

    def of(token: int) -> frozenset[int]:
        found = synsets.get(token)
        if found is None:
            found = synsets[token] = synonyms(vocabulary[token])
        return found

    keys: set[int] = set()
    for g in range(grid.n_groups):
        refs = grid.ref_tokens[
            grid.ref_offsets[grid.group_refs[g]] : grid.ref_offsets[
                grid.group_refs[g + 1]
            ]
        ]
        hyps = grid.hyp_tokens[
            grid.hyp_offsets[grid.group_hyps[g]] : grid.hyp_offsets[
                grid.group_hyps[g + 1]
            ]
        ]
        by_synset: dict[int, list[int]] = {}
        for u in np.unique(refs).tolist():
            if is_content[u]:
                for synset in of(u):
                    by_synset.setdefault(synset, []).append(u)
        if not by_synset:
            continue
        for v in np.unique(hyps).tolist():
            if is_content[v]:
                for synset in of(v):
                    for u in by_synset.get(synset, ()):
                        keys.add(v * size + u)
    return np.array(sorted(keys), dtype=np.int64)


class RedFamily(MetricFamily[RED]):
    """RED metrics (any model and feature set) of one tokenizer."""

    @staticmethod
    def handles(metric: object) -> bool:
        return type(metric) is RED

    @staticmethod
    def token_view(metric: RED) -> Callable[[str], Sequence[str]]:
        """The tokenizer of the metric's model (hashable, shared by equal ones)."""
        model = metric.trained_model
        return get_tokenizer(model.tokenize, model.lowercase)

    def features(self, metric: RED, grid: PairGrid, masks: np.ndarray) -> np.ndarray:
        """The model's feature vectors: ``(H, S, n_features)`` float64."""
        model = metric.trained_model
        variants = model.variants
        if any(variant.semantic for variant in variants):
            # The model's own check: the per-pair path's MetricError without
            # WordNet.
            model.feature_matrix([], [], metric.wordnet)
        if len(grid.vocabulary) < grid.vocabulary_size:
            raise ValueError("RED in the batch engine needs the grid's vocabulary")
        is_content = content_flags(tuple(grid.vocabulary), model.language)
        policies = policy_arrays(variants)
        related = np.zeros(0, dtype=np.int64)
        if policies[1].any():
            synonyms = load_synonyms(metric.wordnet)
            related = related_content_words(grid, is_content, synonyms)
        return red_subset_features(
            grid.hyp_tokens,
            grid.hyp_offsets,
            grid.ref_tokens,
            grid.ref_offsets,
            grid.group_hyps,
            grid.group_refs,
            grid.vocabulary_size,
            np.asarray(masks, dtype=np.int64),
            is_content,
            related,
            *policies,
            len(variants),
        )

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence RED (expected grade, 0–1): one ``(H, S)`` array per metric."""
        results = []
        for metric in self.metrics:
            matrix = self.features(metric, grid, masks)
            n_hyps, n_subsets, n_features = matrix.shape
            statistics = np.ones((n_hyps * n_subsets, 2), dtype=np.float64)
            statistics[:, 0] = metric.trained_model.scores(
                matrix.reshape(-1, n_features)
            )
            scores = metric.sentence_scores_from_statistics(statistics)
            results.append(
                np.asarray(scores, dtype=np.float64).reshape(n_hyps, n_subsets)
            )
        return results
