"""Ratings as tables: from ``(item, judge, value)`` triples (as in
:mod:`~scoring.stats.agreement`) to what Fleiss' kappa, weighted kappa and
the ICC need.

Missing ratings are the rule in real judgments (a judge rates part of the
items), and these coefficients each need a shape:

- :func:`first_ratings`: one rating per (item, judge): a judge who rated an
  item twice counts once, with the first value (as
  :func:`~scoring.stats.agreement.pairwise_pearson` does); NaN values are
  left out;
- :func:`equal_count_items`: Fleiss' kappa needs the same number of raters
  for every item: the items rated by the most common number of judges (two
  or more; a tie goes to the larger number), the others left out;
- :func:`complete_panel`: a two-way ICC needs every item rated by the same
  judges: the judges and items of the largest complete items x judges
  table found among the judge sets of the items.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

import numpy as np

# complete_panel tries every subset of an item's judges up to this size
# (2^6 - 7 = 57 subsets), and only pairs and the whole set beyond it.
MAX_SUBSET_JUDGES = 6


@dataclass(frozen=True)
class Ratings:
    """One rating per (item, judge); shapes ``(m,)``."""

    items: np.ndarray  # item codes 0..n_items-1, in the sorted order of the items
    judges: np.ndarray  # judge codes 0..n_judges-1, in the order of str(judge)
    values: np.ndarray  # float64
    n_items: int
    n_judges: int


def first_ratings(items, judges, values) -> Ratings:
    """Each judge's first non-NaN rating of each item.

    >>> r = first_ratings([5, 5, 5, 6], ["b", "a", "b", "a"], [1, 2, 3, 4])
    >>> r.items.tolist(), r.judges.tolist(), r.values.tolist()
    ([0, 0, 1], [1, 0, 0], [1.0, 2.0, 4.0])
    """
    items = np.asarray(items)
    values = np.asarray(values, dtype=np.float64)
    judge_list = list(judges)
    if not (len(items) == len(values) == len(judge_list)):
        raise ValueError("items, judges and values must have one length")
    names = sorted(set(judge_list), key=str)
    code_of = {name: code for code, name in enumerate(names)}
    judge_codes = np.array([code_of[j] for j in judge_list], dtype=np.int64)
    keep = ~np.isnan(values)
    _, item_codes = np.unique(items, return_inverse=True)
    item_codes = item_codes.reshape(-1).astype(np.int64)
    item_codes, judge_codes, values = item_codes[keep], judge_codes[keep], values[keep]
    # np.unique's return_index is the first occurrence of each (item, judge)
    cells = item_codes * max(len(names), 1) + judge_codes
    _, first = np.unique(cells, return_index=True)
    first.sort()
    return Ratings(
        items=item_codes[first],
        judges=judge_codes[first],
        values=values[first],
        n_items=int(item_codes.max()) + 1 if len(item_codes) else 0,
        n_judges=len(names),
    )


def equal_count_items(ratings: Ratings) -> tuple[np.ndarray, int, int]:
    """The items (codes) rated by the most common number of judges m >= 2,
    that m, and how many items had two ratings or more (used or not).

    >>> r = first_ratings([0, 0, 1, 1, 2, 2, 2], [0, 1, 0, 1, 0, 1, 2], [1] * 7)
    >>> kept, m, rated = equal_count_items(r)
    >>> kept.tolist(), m, rated
    ([0, 1], 2, 3)
    """
    per_item = np.bincount(ratings.items, minlength=ratings.n_items)
    counts = Counter(int(c) for c in per_item if c >= 2)
    if not counts:
        return np.zeros(0, dtype=np.int64), 0, 0
    m = max(counts, key=lambda size: (counts[size], size))
    return np.flatnonzero(per_item == m), m, sum(counts.values())


def complete_panel(ratings: Ratings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The largest complete table: ``(matrix (n, k), item codes (n,), judge
    codes (k,))``, empty when no two judges share an item.

    Candidate panels are the judge sets of the items and their subsets (all
    of them up to :data:`MAX_SUBSET_JUDGES` judges, pairs beyond); an item
    counts for every panel its judges include. The panel covering the most
    ratings (items x judges) wins; ties go to more items, then to the lower
    judge codes.

    >>> r = first_ratings(
    ...     [0, 0, 0, 1, 1, 1, 2, 2], [0, 1, 2, 0, 1, 2, 0, 1], [1, 2, 3, 4, 5, 6, 7, 8]
    ... )
    >>> matrix, items, judges = complete_panel(r)
    >>> matrix.tolist(), items.tolist(), judges.tolist()
    ([[1.0, 2.0], [4.0, 5.0], [7.0, 8.0]], [0, 1, 2], [0, 1])
    """
    sets: dict[int, list[int]] = {}
    for item, judge in zip(ratings.items.tolist(), ratings.judges.tolist()):
        sets.setdefault(item, []).append(judge)
    exact = Counter(tuple(sorted(js)) for js in sets.values() if len(js) >= 2)
    covered: Counter = Counter()
    for judges, count in exact.items():
        for panel in _subsets(judges):
            covered[panel] += count
    if not covered:
        return np.zeros((0, 0)), np.zeros(0, np.int64), np.zeros(0, np.int64)
    panel = min(covered, key=lambda p: (-covered[p] * len(p), -covered[p], p))
    members = set(panel)
    chosen = sorted(item for item, js in sets.items() if members <= set(js))
    judge_codes = np.array(panel, dtype=np.int64)
    item_codes = np.array(chosen, dtype=np.int64)
    row = {item: r for r, item in enumerate(chosen)}
    column = {judge: c for c, judge in enumerate(panel)}
    matrix = np.full((len(chosen), len(panel)), np.nan)
    for item, judge, value in zip(
        ratings.items.tolist(), ratings.judges.tolist(), ratings.values.tolist()
    ):
        if item in row and judge in column:
            matrix[row[item], column[judge]] = value
    return matrix, item_codes, judge_codes


def _subsets(judges: tuple[int, ...]):
    """The panels an item with these judges counts for (sizes >= 2)."""
    if len(judges) <= MAX_SUBSET_JUDGES:
        for size in range(2, len(judges) + 1):
            yield from combinations(judges, size)
        return
    yield from combinations(judges, 2)
    yield judges
