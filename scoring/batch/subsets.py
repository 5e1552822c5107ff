"""Reference subsets as bit masks, and combining per-pair arrays over them.

ORANGE scores each candidate against K reference subsets ("all but k") and,
with the all-references switch, against all K. A subset is a bit mask over
a group's references (bit k = the k-th reference of the group); bits at or
past the group's own K are ignored, so :data:`ALL_REFERENCES` means "every
reference the group has".

The helpers below take per-pair arrays ``(H, K)`` and give per-subset
arrays ``(H, S)`` with the combination rules of the metrics, visiting the
references in their order exactly as the per-pair code's loops do (so
floating-point sums are formed in the same order).
"""

from __future__ import annotations

import numpy as np

from scoring.batch.kernels_subsets import subset_sums_kernel

ALL_REFERENCES = (1 << 62) - 1


def jackknife_masks(n_refs: int, all_references: bool = False) -> np.ndarray:
    """Masks of "all but k" for k < n_refs, then all references if asked:
    ``(n_refs [+ 1],)`` int64."""
    masks = [ALL_REFERENCES & ~(1 << k) for k in range(n_refs)]
    if all_references:
        masks.append(ALL_REFERENCES)
    return np.asarray(masks, dtype=np.int64)


def membership(
    masks: np.ndarray, refs_per_hyp: np.ndarray, max_refs: int
) -> np.ndarray:
    """``member[h, k, s]``: reference k of h's group is in subset s: ``(H, K, S)``."""
    ks = np.arange(max_refs)
    in_mask = ((masks[None, :] >> ks[:, None]) & 1).astype(bool)  # (K, S)
    exists = ks[None, :] < refs_per_hyp[:, None]  # (H, K)
    return exists[:, :, None] & in_mask[None, :, :]


def subset_sums(values: np.ndarray, member: np.ndarray) -> np.ndarray:
    """``0.0 + v_k1 + v_k2 + ...`` over each subset's references in order:
    ``(H, K), (H, K, S) -> (H, S)`` float64 (as ``total += value`` loops)."""
    return subset_sums_kernel(
        np.ascontiguousarray(values, dtype=np.float64),
        np.ascontiguousarray(member, dtype=np.bool_),
    )


def subset_first_best(selector: np.ndarray, member: np.ndarray) -> np.ndarray:
    """Column of the first reference with the largest selector in each subset
    (a later one must be strictly larger): ``(H, S)`` int64."""
    n_hyps, max_refs, n_subsets = member.shape
    best = np.full((n_hyps, n_subsets), -1, dtype=np.int64)
    best_value = np.full((n_hyps, n_subsets), -np.inf)
    for k in range(max_refs):
        value = selector[:, k : k + 1]
        better = member[:, k, :] & ((best < 0) | (value > best_value))
        best = np.where(better, k, best)
        best_value = np.where(better, value, best_value)
    return best


def subset_min_first(
    values: np.ndarray, member: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Smallest value over each subset and the first column reaching it:
    ``(H, S)`` float64 and int64 (``min()`` / ``errors < best`` loops)."""
    n_hyps, max_refs, n_subsets = member.shape
    best = np.full((n_hyps, n_subsets), -1, dtype=np.int64)
    best_value = np.full((n_hyps, n_subsets), np.inf)
    for k in range(max_refs):
        value = values[:, k : k + 1].astype(np.float64)
        better = member[:, k, :] & ((best < 0) | (value < best_value))
        best = np.where(better, k, best)
        best_value = np.where(better, value, best_value)
    return best_value, best


def take_columns(values: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``values[h, columns[h, s]]``: ``(H, K), (H, S) -> (H, S)``."""
    return np.take_along_axis(values, np.maximum(columns, 0), axis=1)
