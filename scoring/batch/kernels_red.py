"""Compiled RED features over a :class:`~scoring.batch.grid.PairGrid`.

RED's features (:mod:`scoring.metrics.red.features`) are normalised word
edit distances, with or without the swap operator, after keeping only
content words and/or keywords, optionally with hypothesis content words
replaced by a reference word of the same WordNet synset; each feature is
the minimum over the segment's references. Keywords are the words of at
least two of the segment's references, so they depend on the reference
*subset*: keyword policies are computed per (hypothesis, subset, reference);
the others once per (hypothesis, reference) and reduced over each subset.

Distances are integers (the same dynamic programme as
:func:`scoring.metrics.red.edit_distance.edit_distances_by_swap`: Levenshtein,
and the "optimal string alignment" distance with adjacent swaps costing 1),
normalised as ``d / max(|hyp|, |ref|)`` (0 when both are empty) in float64,
so the features are identical to the per-pair code's.

Inputs describing the policies, ``(P,)`` arrays over distinct policies:
``policy_content``, ``policy_semantic``, ``policy_keywords`` (bool) and
``policy_plain_column`` / ``policy_swap_column`` (feature column, or -1).
``is_content``: ``(V,)`` bool per token id; ``related``: sorted int64 keys
``v * V + u`` of content-word pairs sharing a synset (semantic only).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_lcs import clear_local_ids, local_ids


@njit(cache=True, nogil=True)
def _edit_distance(a, n, b, m, swap, before, previous, current):
    """Levenshtein (``swap`` False) or optimal-string-alignment distance of
    ``a[:n]`` and ``b[:m]``; three scratch rows of at least ``m + 1``."""
    for j in range(m + 1):
        previous[j] = j
        before[j] = j
    for i in range(1, n + 1):
        current[0] = i
        word = a[i - 1]
        for j in range(1, m + 1):
            best = previous[j] + 1
            inserted = current[j - 1] + 1
            if inserted < best:
                best = inserted
            replaced = previous[j - 1] + (0 if word == b[j - 1] else 1)
            if replaced < best:
                best = replaced
            if (
                swap
                and i >= 2
                and j >= 2
                and word == b[j - 2]
                and a[i - 2] == b[j - 1]
                and before[j - 2] + 1 < best
            ):
                best = before[j - 2] + 1
            current[j] = best
        for j in range(m + 1):
            before[j] = previous[j]
            previous[j] = current[j]
    return previous[m]


@njit(cache=True, nogil=True)
def _is_related(related, vocabulary_size, v, u):
    key = np.int64(v) * vocabulary_size + u
    at = np.searchsorted(related, key)
    return at < related.size and related[at] == key


@njit(cache=True, nogil=True)
def _kept(tokens, start, stop, local, is_content, keyword, content, use_keywords, out):
    """Tokens kept by the content/keyword policy into ``out``; returns count."""
    count = 0
    for position in range(start, stop):
        token = tokens[position]
        if content and not is_content[token]:
            continue
        if use_keywords:
            v = local[token]
            if v < 0 or not keyword[v]:
                continue
        out[count] = token
        count += 1
    return count


@njit(cache=True, nogil=True)
def _replace_by_synonyms(
    hyp, n, ref, m, local, is_content, related, vocabulary_size, in_ref, candidates
):
    """Each content word of ``hyp`` absent from ``ref`` becomes the first
    content word of ``ref`` (first appearance order) sharing a synset."""
    n_candidates = 0
    for j in range(m):
        v = local[ref[j]]
        if not in_ref[v]:
            in_ref[v] = True
            if is_content[ref[j]]:
                candidates[n_candidates] = ref[j]
                n_candidates += 1
    for i in range(n):
        word = hyp[i]
        v = local[word]
        if (v >= 0 and in_ref[v]) or not is_content[word]:
            continue
        for c in range(n_candidates):
            if _is_related(related, vocabulary_size, word, candidates[c]):
                hyp[i] = candidates[c]
                break
    for j in range(m):
        in_ref[local[ref[j]]] = False


@njit(cache=True, nogil=True)
def red_subset_features(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    masks,
    is_content,
    related,
    policy_content,
    policy_semantic,
    policy_keywords,
    policy_plain_column,
    policy_swap_column,
    n_features,
):
    """RED features of every hypothesis against every subset:
    ``(H, S, n_features)`` float64 (0 where a subset has no reference)."""
    n_hyps = hyp_offsets.size - 1
    n_subsets = masks.size
    n_policies = policy_content.size
    out = np.zeros((n_hyps, n_subsets, n_features), dtype=np.float64)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    longest = 1
    for h in range(n_hyps):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    for r in range(ref_offsets.size - 1):
        longest = max(longest, ref_offsets[r + 1] - ref_offsets[r])
    hyp_kept = np.empty(longest, dtype=np.int32)
    ref_kept = np.empty(longest, dtype=np.int32)
    candidates = np.empty(longest, dtype=np.int32)
    before = np.empty(longest + 1, dtype=np.int64)
    previous = np.empty(longest + 1, dtype=np.int64)
    current = np.empty(longest + 1, dtype=np.int64)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        n_refs = r1 - r0
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = max(local_ids(ref_tokens, start, stop, local), 1)
        in_ref = np.zeros(n_local, dtype=np.bool_)
        # Keywords of each subset: in >= min(2, refs in the subset) of them.
        keyword = np.zeros((n_subsets, n_local), dtype=np.bool_)
        seen_in = np.zeros(n_local, dtype=np.int64)
        mark = np.full(n_local, -1, dtype=np.int64)
        for s in range(n_subsets):
            seen_in[:] = 0
            n_in = 0
            for k in range(n_refs):
                if (masks[s] >> k) & 1:
                    n_in += 1
                    for position in range(ref_offsets[r0 + k], ref_offsets[r0 + k + 1]):
                        v = local[ref_tokens[position]]
                        if mark[v] != s * n_refs + k:
                            mark[v] = s * n_refs + k
                            seen_in[v] += 1
            for v in range(n_local):
                keyword[s, v] = seen_in[v] >= min(2, n_in)
        # Per-reference results of the policies without keywords.
        pair_plain = np.empty((n_policies, n_refs), dtype=np.float64)
        pair_swap = np.empty((n_policies, n_refs), dtype=np.float64)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            h0, h1 = hyp_offsets[h], hyp_offsets[h + 1]
            for p in range(n_policies):
                content = policy_content[p]
                semantic = policy_semantic[p]
                use_keywords = policy_keywords[p]
                plain_column = policy_plain_column[p]
                swap_column = policy_swap_column[p]
                for s in range(n_subsets if use_keywords else 1):
                    for k in range(n_refs):
                        if use_keywords and not (masks[s] >> k) & 1:
                            continue
                        kw = keyword[s]
                        n = _kept(
                            hyp_tokens,
                            h0,
                            h1,
                            local,
                            is_content,
                            kw,
                            content,
                            use_keywords,
                            hyp_kept,
                        )
                        m = _kept(
                            ref_tokens,
                            ref_offsets[r0 + k],
                            ref_offsets[r0 + k + 1],
                            local,
                            is_content,
                            kw,
                            content,
                            use_keywords,
                            ref_kept,
                        )
                        if semantic:
                            _replace_by_synonyms(
                                hyp_kept,
                                n,
                                ref_kept,
                                m,
                                local,
                                is_content,
                                related,
                                vocabulary_size,
                                in_ref,
                                candidates,
                            )
                        longer = max(n, m)
                        plain = swapped = 0.0
                        if longer > 0 and plain_column >= 0:
                            distance = _edit_distance(
                                hyp_kept,
                                n,
                                ref_kept,
                                m,
                                False,
                                before,
                                previous,
                                current,
                            )
                            plain = float(distance) / float(longer)
                        if longer > 0 and swap_column >= 0:
                            distance = _edit_distance(
                                hyp_kept,
                                n,
                                ref_kept,
                                m,
                                True,
                                before,
                                previous,
                                current,
                            )
                            swapped = float(distance) / float(longer)
                        if not use_keywords:
                            pair_plain[p, k] = plain
                            pair_swap[p, k] = swapped
                            continue
                        first = True
                        for k2 in range(k):
                            if (masks[s] >> k2) & 1:
                                first = False
                                break
                        if plain_column >= 0 and (
                            first or plain < out[h, s, plain_column]
                        ):
                            out[h, s, plain_column] = plain
                        if swap_column >= 0 and (
                            first or swapped < out[h, s, swap_column]
                        ):
                            out[h, s, swap_column] = swapped
                if use_keywords:
                    continue
                for s in range(n_subsets):
                    first = True
                    for k in range(n_refs):
                        if not (masks[s] >> k) & 1:
                            continue
                        if plain_column >= 0 and (
                            first or pair_plain[p, k] < out[h, s, plain_column]
                        ):
                            out[h, s, plain_column] = pair_plain[p, k]
                        if swap_column >= 0 and (
                            first or pair_swap[p, k] < out[h, s, swap_column]
                        ):
                            out[h, s, swap_column] = pair_swap[p, k]
                        first = False
        clear_local_ids(ref_tokens, start, stop, local)
    return out
