"""Per-segment counts of span-level precision and recall, for every variant.

The definitions (Perrella, Morales Agostinho & Zaragoza 2026; WMT25) are in
:mod:`scoring.stats.span_agreement`; this module computes, for each item (a
system's segment), the four sufficient statistics

    ``(tp_precision, tp_recall, n_predicted, n_gold)``

so that precision = tp_precision / n_predicted and recall = tp_recall /
n_gold, summed over items (micro) or per item (macro). For ``em``, ``mp``
and ``mpp`` the counts are spans; for ``w25`` they are characters.

Spans come as :class:`SpanTable` arrays, one row per span, with no Python
loop over spans: the candidate pairs of each item are its gold x predicted
spans on the same side (built with ``repeat``), kept where they overlap;
an item where no span overlaps two others is matched outright, and only the
items with competing pairs go through the Hungarian algorithm
(``scipy.optimize.linear_sum_assignment``, one small matrix each). ``w25``
sweeps the span boundaries of each item and side once (sorted events,
cumulative sums), never a per-character array.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scoring.errors import ScoringError
from scoring.spans import SpanAnnotation
from scoring.stats.arrays import freeze_arrays

VARIANTS = ("em", "mp", "mpp", "w25")
MATCHING_VARIANTS = ("em", "mp", "mpp")
# WMT25's credit for a character marked by both sides with other severities.
W25_PARTIAL_CREDIT = 0.5


@dataclass(frozen=True, eq=False)
class SpanTable:
    """Positioned spans as parallel arrays, ``(n,)`` each, sorted by item.

    ``item`` indexes the items (system segments); ``source`` is True for a
    span on the source side; ``major`` is True for major and critical
    spans, False for minor ones (neutral spans are left out before).
    """

    item: np.ndarray  # (n,) int64
    source: np.ndarray  # (n,) bool
    start: np.ndarray  # (n,) int64
    end: np.ndarray  # (n,) int64, > start
    major: np.ndarray  # (n,) bool

    def __post_init__(self) -> None:
        order = np.lexsort((self.start, self.item))
        for name in ("item", "source", "start", "end", "major"):
            object.__setattr__(self, name, np.asarray(getattr(self, name))[order])
        if np.any(self.end <= self.start):
            raise ScoringError("every span must mark at least one character")
        freeze_arrays(self)

    def __len__(self) -> int:
        return int(self.item.shape[0])

    @property
    def length(self) -> np.ndarray:
        return self.end - self.start


def span_table(
    annotations: Sequence[SpanAnnotation], left_out: dict[str, int]
) -> SpanTable:
    """The positioned, non-neutral spans of ``annotations`` (item k is
    ``annotations[k]``); ``left_out`` counts the others by reason."""
    rows = []
    for item, annotation in enumerate(annotations):
        for span in annotation.spans:
            if span.severity == "neutral":
                left_out["neutral"] += 1
            elif span.start is None or span.end is None:
                left_out["no_position"] += 1
            else:
                rows.append(
                    (
                        item,
                        span.side == "source",
                        span.start,
                        span.end,
                        span.severity != "minor",
                    )
                )
    columns = list(zip(*rows)) if rows else [(), (), (), (), ()]
    return SpanTable(
        item=np.array(columns[0], dtype=np.int64),
        source=np.array(columns[1], dtype=bool),
        start=np.array(columns[2], dtype=np.int64),
        end=np.array(columns[3], dtype=np.int64),
        major=np.array(columns[4], dtype=bool),
    )


def item_statistics(
    gold: SpanTable,
    predicted: SpanTable,
    n_items: int,
    variant: str,
    severity_penalty: float = 0.0,
) -> np.ndarray:
    """``(n_items, 4)`` float64: tp_precision, tp_recall, n_predicted, n_gold.

    ``severity_penalty`` p (0-1) scales a matched pair of different
    severities by 1 - p in ``em``, ``mp`` and ``mpp`` (0, the paper's
    default, ignores severity); ``w25`` has its own fixed partial credit.
    """
    if variant not in VARIANTS:
        raise ScoringError(
            f"unknown variant {variant!r}; variants: {', '.join(VARIANTS)}"
        )
    if not 0.0 <= severity_penalty <= 1.0:
        raise ScoringError("the severity penalty must lie in [0, 1]")
    if variant == "w25":
        return _character_statistics(gold, predicted, n_items)
    stats = np.zeros((n_items, 4))
    stats[:, 2] = np.bincount(predicted.item, minlength=n_items)
    stats[:, 3] = np.bincount(gold.item, minlength=n_items)
    g, p = _overlapping_pairs(gold, predicted, n_items)
    overlap = np.minimum(gold.end[g], predicted.end[p]) - np.maximum(
        gold.start[g], predicted.start[p]
    )
    factor = np.where(gold.major[g] == predicted.major[p], 1.0, 1.0 - severity_penalty)
    if variant == "em":
        exact = (gold.start[g] == predicted.start[p]) & (
            gold.end[g] == predicted.end[p]
        )
        objective = exact * factor
        reward_precision = reward_recall = objective
    elif variant == "mp":
        objective = reward_precision = reward_recall = factor
    else:  # mpp: the pair's F-score (Dice) is matched on, each side's share credited
        lengths_g, lengths_p = gold.length[g], predicted.length[p]
        objective = 2.0 * overlap / (lengths_g + lengths_p) * factor
        reward_precision = overlap / lengths_p * factor
        reward_recall = overlap / lengths_g * factor
    matched = _optimal_matching(
        g, p, gold.item[g], objective, len(gold), len(predicted)
    )
    items = gold.item[g[matched]]
    stats[:, 0] = np.bincount(items, reward_precision[matched], minlength=n_items)
    stats[:, 1] = np.bincount(items, reward_recall[matched], minlength=n_items)
    return stats


def _overlapping_pairs(
    gold: SpanTable, predicted: SpanTable, n_items: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every (gold row, predicted row) of one item and side that overlap."""
    per_item = np.bincount(predicted.item, minlength=n_items)
    first = np.concatenate([[0], np.cumsum(per_item)[:-1]])
    repeats = per_item[gold.item]  # (n_gold,) predicted spans beside each gold
    g = np.repeat(np.arange(len(gold)), repeats)
    run_start = np.repeat(np.cumsum(repeats) - repeats, repeats)
    p = first[gold.item[g]] + (np.arange(g.shape[0]) - run_start)
    keep = (gold.source[g] == predicted.source[p]) & (
        np.minimum(gold.end[g], predicted.end[p])
        > np.maximum(gold.start[g], predicted.start[p])
    )
    return g[keep], p[keep]


def _optimal_matching(
    g: np.ndarray,
    p: np.ndarray,
    item: np.ndarray,
    objective: np.ndarray,
    n_gold: int,
    n_predicted: int,
) -> np.ndarray:
    """Which candidate pairs a maximum-``objective`` one-to-one matching keeps.

    Pairs of objective 0 are never kept. An item none of whose spans is in
    two positive pairs keeps all of its pairs (the only optimal matching);
    the others are solved one item at a time.
    """
    positive = objective > 0.0
    g_degree = np.bincount(g[positive], minlength=n_gold)
    p_degree = np.bincount(p[positive], minlength=n_predicted)
    competing = positive & ((g_degree[g] > 1) | (p_degree[p] > 1))
    matched = positive.copy()
    hard_items = np.unique(item[competing])
    matched[np.isin(item, hard_items)] = False
    if hard_items.size:
        from scipy.optimize import linear_sum_assignment  # lazily: see scoring.stats

        order = np.flatnonzero(np.isin(item, hard_items) & positive)
        order = order[np.argsort(item[order], kind="stable")]
        bounds = np.flatnonzero(np.diff(item[order])) + 1
        for rows in np.split(order, bounds):
            rows_g, local_g = np.unique(g[rows], return_inverse=True)
            rows_p, local_p = np.unique(p[rows], return_inverse=True)
            matrix = np.zeros((rows_g.size, rows_p.size))
            matrix[local_g, local_p] = objective[rows]
            chosen_g, chosen_p = linear_sum_assignment(matrix, maximize=True)
            lookup = {
                (int(a), int(b)): row for a, b, row in zip(local_g, local_p, rows)
            }
            for a, b in zip(chosen_g, chosen_p):
                row = lookup.get((int(a), int(b)))
                if row is not None:
                    matched[row] = True
    return matched


def _character_statistics(
    gold: SpanTable, predicted: SpanTable, n_items: int
) -> np.ndarray:
    """WMT25's character counts per item, by a sweep over span boundaries.

    Between two consecutive boundaries of one item and side every character
    is covered by the same numbers of gold major, gold minor, predicted
    major and predicted minor spans; each contributes ``min`` of the same
    severity's counts, plus half of ``min`` of what is left on each side.
    """
    stats = np.zeros((n_items, 4))
    stats[:, 2] = np.bincount(predicted.item, predicted.length, minlength=n_items)
    stats[:, 3] = np.bincount(gold.item, gold.length, minlength=n_items)
    if not len(gold) or not len(predicted):
        return stats
    # One +1 event at each span's start and one -1 at its end, in one of
    # four classes: gold major, gold minor, predicted major, predicted minor.
    tables = (gold, predicted)
    item = np.concatenate([np.tile(t.item, 2) for t in tables])
    side = np.concatenate([np.tile(t.source, 2) for t in tables])
    position = np.concatenate([np.concatenate([t.start, t.end]) for t in tables])
    kind = np.concatenate(
        [
            np.tile(np.where(t.major, 0, 1) + 2 * offset, 2)
            for offset, t in enumerate(tables)
        ]
    )
    delta = np.concatenate(
        [np.concatenate([np.ones(len(t)), -np.ones(len(t))]) for t in tables]
    )
    order = np.lexsort((position, side, item))
    item, side, position = item[order], side[order], position[order]
    changes = np.zeros((order.size, 4))
    changes[np.arange(order.size), kind[order]] = delta[order]
    counts = np.cumsum(changes, axis=0)  # coverage after each event
    # Each run lasts to the next event of the same item and side.
    same_run = (item[1:] == item[:-1]) & (side[1:] == side[:-1])
    width = np.where(same_run, position[1:] - position[:-1], 0)
    gold_major, gold_minor, pred_major, pred_minor = counts[:-1].T
    exact = np.minimum(gold_major, pred_major) + np.minimum(gold_minor, pred_minor)
    gold_left = np.maximum(gold_major - pred_major, 0) + np.maximum(
        gold_minor - pred_minor, 0
    )
    pred_left = np.maximum(pred_major - gold_major, 0) + np.maximum(
        pred_minor - gold_minor, 0
    )
    credit = exact + W25_PARTIAL_CREDIT * np.minimum(gold_left, pred_left)
    true_positive = np.bincount(item[:-1], width * credit, minlength=n_items)
    stats[:, 0] = stats[:, 1] = true_positive
    return stats
