"""Compiled METEOR statistics of every (hypothesis, reference) pair of a grid.

Per pair, as :meth:`scoring.metrics.meteor.metric.Meteor.pair_row`: the
candidate matches of each module in METEOR's order (exact, stem and synonym
for every reference word j, hypothesis words i ascending; paraphrases
reference-to-hypothesis then hypothesis-to-reference), the beam search of
:mod:`scoring.batch.kernels_meteor_align` (for sentences of up to 63 words,
the same search on a leaner path: :mod:`scoring.batch.kernels_meteor_beam`),
then the statistics row of :func:`scoring.metrics.meteor.formula.alignment_row`.
One-word candidates come from an index of the hypothesis built once for all
its references (:func:`_index_hypothesis`).

Words are the grid's token ids; what METEOR knows about each word comes in
per-vocabulary arrays (:mod:`scoring.batch.meteor_lexicon`): function-word
flags ``(V,)``, stem ids ``(V,)``, sorted WordNet synset ids (CSR
``syn_offsets (V + 1,)``, ``syn_ids``) and the word's id in the paraphrase
table (``table_ids (V,)``, -1 when the table never uses it); the table
itself and its lookups are in :mod:`scoring.batch.kernels_meteor_paraphrase`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_lcs import _max_refs
from scoring.batch.kernels_meteor_align import count_chunks, resolve_stage
from scoring.batch.kernels_meteor_beam import narrow_fits, resolve_narrow
from scoring.batch.kernels_meteor_paraphrase import (
    _grow,
    _occurrences,
    _phrase_paths,
    build_phrase_hash,
    hash_example,
)

EXACT, STEM, SYNONYM, PARAPHRASE = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def _synonyms(a, b, syn_offsets, syn_ids):
    """Whether words a and b share a synset (sorted id lists)."""
    x, x1 = syn_offsets[a], syn_offsets[a + 1]
    y, y1 = syn_offsets[b], syn_offsets[b + 1]
    while x < x1 and y < y1:
        if syn_ids[x] == syn_ids[y]:
            return True
        if syn_ids[x] < syn_ids[y]:
            x += 1
        else:
            y += 1
    return False


@njit(cache=True, nogil=True)
def _index_hypothesis(hyp, stem_ids, syn_offsets, mark, word_seen, word_first,
                      stem_seen, stem_first, chains):  # fmt: skip
    """Where each word and each stem of the hypothesis occurs, once for all
    its references: ``word_first[w]`` / ``stem_first[s]`` (valid where
    ``*_seen == mark``) is its first position, ``chains[0, i]`` /
    ``chains[1, i]`` the next position of the same word / stem (-1: none),
    and ``chains[2, :count]`` (count returned) the positions of words that
    have synsets, all ascending."""
    for i in range(hyp.size - 1, -1, -1):
        word, stem = hyp[i], stem_ids[hyp[i]]
        chains[0, i] = word_first[word] if word_seen[word] == mark else -1
        word_seen[word], word_first[word] = mark, i
        chains[1, i] = stem_first[stem] if stem_seen[stem] == mark else -1
        stem_seen[stem], stem_first[stem] = mark, i
    count = 0
    for i in range(hyp.size):
        if syn_offsets[hyp[i]] != syn_offsets[hyp[i] + 1]:
            chains[2, count] = i
            count += 1
    return count


@njit(cache=True, nogil=True)
def _word_matches(hyp, ref, kind, module, stem_ids, syn_offsets, syn_ids,
                  slots, memo, candidates, n_cand, mark, word_seen, word_first,
                  stem_seen, stem_first, chains, n_synonymous):  # fmt: skip
    """Append one-word candidates of one module for every (reference word j,
    hypothesis word i), in METEOR's order (j, then i ascending), reading the
    hypothesis's index (:func:`_index_hypothesis`) instead of trying every i.
    Synonymy is remembered per group in ``memo[hyp slot, ref slot]`` (-1
    unknown; ``slots[0]`` / ``slots[1]`` map words to the group's hypothesis
    / reference word slots)."""
    # Room for every pair first: growing inside the loop makes it ~20x slower.
    candidates = _grow(candidates, n_cand + hyp.size * ref.size)
    for j in range(ref.size):
        r = ref[j]
        if kind == EXACT:
            i = word_first[r] if word_seen[r] == mark else -1
            while i >= 0:
                candidates[n_cand, 0], candidates[n_cand, 1] = j, 1
                candidates[n_cand, 2], candidates[n_cand, 3] = i, 1
                candidates[n_cand, 4] = module
                n_cand += 1
                i = chains[0, i]
        elif kind == STEM:
            stem = stem_ids[r]
            i = stem_first[stem] if stem_seen[stem] == mark else -1
            while i >= 0:
                if hyp[i] != r:
                    candidates[n_cand, 0], candidates[n_cand, 1] = j, 1
                    candidates[n_cand, 2], candidates[n_cand, 3] = i, 1
                    candidates[n_cand, 4] = module
                    n_cand += 1
                i = chains[1, i]
        else:
            # A word without synsets shares none (memo not needed).
            if syn_offsets[r] == syn_offsets[r + 1]:
                continue
            ref_slot = slots[1, r]
            for k in range(n_synonymous):
                i = chains[2, k]
                h = hyp[i]
                if h == r:
                    continue
                known = memo[slots[0, h], ref_slot]
                if known < 0:
                    known = 1 if _synonyms(h, r, syn_offsets, syn_ids) else 0
                    memo[slots[0, h], ref_slot] = known
                if known == 0:
                    continue
                candidates[n_cand, 0], candidates[n_cand, 1] = j, 1
                candidates[n_cand, 2], candidates[n_cand, 3] = i, 1
                candidates[n_cand, 4] = module
                n_cand += 1
    return candidates, n_cand


@njit(cache=True, nogil=True)
def _align_stage(candidates, n_cand, n, m, half, alignment, work, aux):
    """Coverage, METEOR's per-reference-start order, then the search.
    ``aux``: int64 scratch for the coverage and order (grown if too small,
    returned), so that a pair allocates none of them."""
    need = n + 3 * m + 1 + n_cand
    if aux.size < need:
        aux = np.empty(max(need, 2 * aux.size), dtype=np.int64)
    hyp_cov = aux[:n]
    ref_cov = aux[n : n + m]
    starts = aux[n + m : n + 2 * m + 1]
    filled = aux[n + 2 * m + 1 : n + 3 * m + 1]
    order = aux[n + 3 * m + 1 : need]
    hyp_cov[:] = 0
    ref_cov[:] = 0
    starts[:] = 0
    for c in range(n_cand):
        for k in range(candidates[c, 1]):
            ref_cov[candidates[c, 0] + k] += 1
        for k in range(candidates[c, 3]):
            hyp_cov[candidates[c, 2] + k] += 1
        starts[candidates[c, 0] + 1] += 1
    for j in range(m):
        starts[j + 1] += starts[j]
    for j in range(m):  # not ``filled[:] = starts[:m]``: see
        filled[j] = starts[j]  # kernels_meteor_paraphrase._grow
    for c in range(n_cand):  # stable: generation order within a start
        j = candidates[c, 0]
        order[filled[j]] = c
        filled[j] += 1
    if narrow_fits(n, m, n_cand):  # the same search on a leaner path
        failed, work = resolve_narrow(
            candidates, order, starts, hyp_cov, ref_cov, n, m, half, alignment, work
        )
    else:
        failed, work = resolve_stage(
            candidates, order, starts, hyp_cov, ref_cov, n, m, half, alignment, work
        )
    return failed, work, aux


@njit(cache=True, nogil=True)
def _statistics_row(hyp, ref, alignment, is_function, n_modules, pool_like, row):
    n, m = hyp.size, ref.size
    row[:] = 0
    row[0], row[1] = n, m
    for i in range(n):
        row[2] += is_function[hyp[i]]
    for j in range(m):
        row[3] += is_function[ref[j]]
    hyp_matched = ref_matched = 0
    for j in range(m):
        ref_len = alignment[j, 0]
        if ref_len == 0:
            continue
        hyp_start, hyp_len, base = (
            alignment[j, 1],
            alignment[j, 2],
            4 + 4 * alignment[j, 3],
        )
        for i in range(hyp_start, hyp_start + hyp_len):
            row[base + (2 if is_function[hyp[i]] else 0)] += 1
        for k in range(j, j + ref_len):
            row[base + (3 if is_function[ref[k]] else 1)] += 1
        hyp_matched += hyp_len
        ref_matched += ref_len
    chunks = count_chunks(alignment, m)
    if pool_like and hyp_matched == n and ref_matched == m and chunks == 1:
        chunks = 0  # METEOR 1.5 pools no chunk for a perfect match
    base = 4 + 4 * n_modules
    row[base], row[base + 1], row[base + 2] = chunks, hyp_matched, ref_matched


@njit(cache=True, nogil=True)
def _group_slots(hyp_tokens, h0, h1, ref_tokens, r0, r1, slots):
    """Number the group's distinct hypothesis and reference words
    (``slots[0]``, ``slots[1]``) and return an empty synonymy memo
    ``(hyp words, ref words)`` int8, -1 = unknown."""
    counts = np.zeros(2, dtype=np.int64)
    for side, tokens, start, stop in ((0, hyp_tokens, h0, h1), (1, ref_tokens, r0, r1)):
        for t in range(start, stop):
            if slots[side, tokens[t]] < 0:
                slots[side, tokens[t]] = counts[side]
                counts[side] += 1
    return np.full((max(counts[0], 1), max(counts[1], 1)), -1, dtype=np.int8)


@njit(cache=True, nogil=True)
def _clear_slots(tokens, start, stop, slots):
    for t in range(start, stop):
        slots[tokens[t]] = -1


@njit(cache=True, nogil=True)
def meteor_pair_rows(hyp_tokens, hyp_offsets, ref_tokens, ref_offsets, group_hyps,
                     group_refs, kinds, half, stagewise, pool_like, is_function,
                     stem_ids, syn_offsets, syn_ids, table_ids, table):  # fmt: skip
    """Statistics rows of every pair: ``(H, K, 7 + 4M)`` int64, and a status
    ``(H, K)`` int8 (-1: the pair needs the Python code, see
    :func:`~scoring.batch.kernels_meteor_align.resolve_stage`).

    ``kinds (M,)``: the module kinds in order; ``half (M,)``: search weight
    0.5 (else 1.0); ``stagewise``: the 2005 stage-by-stage alignment;
    ``pool_like``: a perfect match records no chunk.
    """
    n_modules = kinds.size
    n_hyps = hyp_offsets.size - 1
    max_refs = _max_refs(group_refs)
    rows = np.zeros((n_hyps, max_refs, 7 + 4 * n_modules), dtype=np.int64)
    status = np.zeros((n_hyps, max_refs), dtype=np.int8)
    has_paraphrase = False
    for kind in kinds:
        has_paraphrase = has_paraphrase or kind == PARAPHRASE
    n_table_words = table[4].max() + 1 if table[4].size else 1
    # Stamps over the table's words: in this hypothesis / reference (per
    # pair), in any hypothesis / reference of the group.
    in_hyp = np.zeros(n_table_words, dtype=np.int64)
    in_ref = np.zeros(n_table_words, dtype=np.int64)
    in_group_hyps = np.zeros(n_table_words, dtype=np.int64)
    in_group_refs = np.zeros(n_table_words, dtype=np.int64)
    hyp_paths = np.empty((64, 5), dtype=np.int64)
    ref_paths = np.empty((64, 5), dtype=np.int64)
    candidates = np.empty((256, 5), dtype=np.int64)
    work = np.empty(1 << 16, dtype=np.int64)
    aux = np.empty(1 << 10, dtype=np.int64)
    slots = np.full((2, stem_ids.size), -1, dtype=np.int64)
    # The hypothesis's word and stem index (_index_hypothesis).
    word_seen = np.zeros(stem_ids.size, dtype=np.int64)
    word_first = np.zeros(stem_ids.size, dtype=np.int64)
    n_stems = stem_ids.max() + 1 if stem_ids.size else 1
    stem_seen = np.zeros(n_stems, dtype=np.int64)
    stem_first = np.zeros(n_stems, dtype=np.int64)
    chains = np.empty((3, 64), dtype=np.int64)
    marker = 0
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        # Phrases of the references with their paraphrases, once per group.
        ref_path_offsets = np.zeros(r1 - r0 + 1, dtype=np.int64)
        n_ref_paths = 0
        if has_paraphrase:
            for t in range(hyp_offsets[group_hyps[g]], hyp_offsets[group_hyps[g + 1]]):
                if table_ids[hyp_tokens[t]] >= 0:
                    in_group_hyps[table_ids[hyp_tokens[t]]] = g + 1
            for t in range(ref_offsets[r0], ref_offsets[r1]):
                if table_ids[ref_tokens[t]] >= 0:
                    in_group_refs[table_ids[ref_tokens[t]]] = g + 1
        for r in range(r0, r1):
            if has_paraphrase:
                words = table_ids[ref_tokens[ref_offsets[r] : ref_offsets[r + 1]]]
                ref_paths, n_ref_paths = _phrase_paths(
                    words, words.size, table, in_group_hyps, g + 1, ref_paths,
                    n_ref_paths,
                )  # fmt: skip
            ref_path_offsets[r - r0 + 1] = n_ref_paths
        memo = _group_slots(hyp_tokens, hyp_offsets[group_hyps[g]],
                            hyp_offsets[group_hyps[g + 1]], ref_tokens,
                            ref_offsets[r0], ref_offsets[r1], slots)  # fmt: skip
        for h in range(group_hyps[g], group_hyps[g + 1]):
            hyp = hyp_tokens[hyp_offsets[h] : hyp_offsets[h + 1]]
            n = hyp.size
            hyp_words = table_ids[hyp]
            if chains.shape[1] < n:
                chains = np.empty((3, 2 * n), dtype=np.int64)
            n_synonymous = _index_hypothesis(
                hyp, stem_ids, syn_offsets, h + 1, word_seen, word_first,
                stem_seen, stem_first, chains,
            )  # fmt: skip
            n_hyp_paths = 0
            marker += 1
            hyp_marker = marker
            if has_paraphrase:
                hyp_paths, n_hyp_paths = _phrase_paths(
                    hyp_words, n, table, in_group_refs, g + 1, hyp_paths, 0
                )
                for word in hyp_words:
                    if word >= 0:
                        in_hyp[word] = hyp_marker
            for r in range(r0, r1):
                ref = ref_tokens[ref_offsets[r] : ref_offsets[r + 1]]
                m = ref.size
                ref_words = table_ids[ref]
                marker += 1
                if has_paraphrase:
                    for word in ref_words:
                        if word >= 0:
                            in_ref[word] = marker
                identical = n == m
                if identical:
                    for k in range(n):
                        identical = identical and hyp[k] == ref[k]
                alignment = np.zeros((m, 4), dtype=np.int64)
                n_cand = 0
                for module in range(n_modules):
                    # METEOR: identical sentences are matched by the first
                    # module only (rank task).
                    if identical and not stagewise and module > 0:
                        break
                    kind = kinds[module]
                    if kind == PARAPHRASE:
                        e0, e1 = ref_path_offsets[r - r0], ref_path_offsets[r - r0 + 1]
                        candidates, n_cand = _occurrences(
                            ref_paths, e0, e1, hyp_words, n, in_hyp, hyp_marker,
                            table, candidates, n_cand, True, module,
                        )  # fmt: skip
                        candidates, n_cand = _occurrences(
                            hyp_paths, 0, n_hyp_paths, ref_words, m, in_ref, marker,
                            table, candidates, n_cand, False, module,
                        )  # fmt: skip
                    else:
                        candidates, n_cand = _word_matches(
                            hyp, ref, kind, module, stem_ids, syn_offsets, syn_ids,
                            slots, memo, candidates, n_cand, h + 1, word_seen,
                            word_first, stem_seen, stem_first, chains, n_synonymous,
                        )  # fmt: skip
                    if stagewise:
                        failed, work, aux = _align_stage(
                            candidates, n_cand, n, m, half, alignment, work, aux
                        )
                        if failed:
                            status[h, r - r0] = -1
                        n_cand = 0
                if not stagewise:
                    failed, work, aux = _align_stage(
                        candidates, n_cand, n, m, half, alignment, work, aux
                    )
                    if failed:
                        status[h, r - r0] = -1
                _statistics_row(hyp, ref, alignment, is_function, n_modules,
                                pool_like, rows[h, r - r0])  # fmt: skip
        _clear_slots(hyp_tokens, hyp_offsets[group_hyps[g]],
                     hyp_offsets[group_hyps[g + 1]], slots[0])  # fmt: skip
        _clear_slots(ref_tokens, ref_offsets[r0], ref_offsets[r1], slots[1])
    return rows, status


__all__ = ["build_phrase_hash", "hash_example", "meteor_pair_rows"]
