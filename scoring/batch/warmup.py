"""Compile (or load from Numba's on-disk cache) every batch kernel up front.

The first call of a compiled kernel in a process costs seconds (compiling,
or loading the cached machine code); :func:`warm_up` pays it once on a tiny
grid so that timings of real work do not include it, and reports it.
"""

from __future__ import annotations

import time

from scoring.batch import (
    kernels_chrf,
    kernels_edit,
    kernels_gtm,
    kernels_lcs,
    kernels_meteor,
    kernels_ngram,
    kernels_nist,
    kernels_red,
    kernels_skip,
    kernels_subsets,
    kernels_ter,
    kernels_text,
    kernels_wlcs,
    kernels_wnm,
)
from scoring.batch.engine import subset_scores
from scoring.batch.exact_math import _power
from scoring.batch.grid import grid_from_texts
from scoring.batch.subsets import jackknife_masks
from scoring.registry import get_metric

# One metric per kernel (and per counting mode of ROUGE-W).
_WARM_UP_SPECS = (
    "rouge-l",
    "rouge-w",
    "rouge-w:preprocess=rouge155",
    "rouge-s:d=4",
    "rouge-su:d=4",
    "rouge-n:n=2",
    "bleus",
    "nist",
    "wer",
    "per",
    "gtm:e=2",
    "chrf++",
    "ter",
    "red",
    "meteor",
)
_WARM_UP_REFERENCES = (("the cat sat on a mat", "there is a cat on the mat"),)
KERNELS = (
    kernels_lcs.lcs_grid,
    kernels_lcs.wlcs_grid,
    kernels_wlcs.wlcs_grid_all_weights,
    kernels_skip.skip_bigram_hits,
    kernels_subsets.subset_sums_kernel,
    kernels_ngram.clipped_subset_matches,
    kernels_ngram.clipped_pair_matches,
    kernels_ngram.nist_subset_information,
    kernels_nist.nist_fixed_information,
    kernels_edit.levenshtein_grid,
    kernels_edit.bag_matches_grid,
    kernels_chrf.pair_order_matches,
    kernels_chrf.spell_characters,
    kernels_chrf.word_table,
    kernels_gtm.gtm_subset_matching,
    kernels_ter.ter_edits_grid,
    kernels_red.red_subset_features,
    kernels_wnm.wnm_subset_statistics,
    kernels_text.scan_nbest_block,
    kernels_text.merge_vocabulary,
    kernels_text.rehash_vocabulary,
    kernels_text.map_words,
    kernels_meteor.meteor_pair_rows,
    kernels_meteor.build_phrase_hash,
    _power,
)


def warm_up() -> float:
    """Seconds spent making every kernel ready in this process."""
    started = time.perf_counter()
    grid = grid_from_texts(
        [["the cat sat on the mat", "a cat sat"]], _WARM_UP_REFERENCES, str.split
    )
    masks = jackknife_masks(2, all_references=True)
    metrics = [get_metric(spec) for spec in _WARM_UP_SPECS]
    # NIST with a test set's fixed weights has a kernel of its own.
    metrics.append(get_metric("nist").with_reference_corpus(_WARM_UP_REFERENCES))
    # WNM scores only once bound to a test set's documents and sentences.
    wnm = get_metric("wnm").with_test_set(_WARM_UP_REFERENCES, ["d1"])
    metrics.append(wnm.for_sentences([0]))
    subset_scores(metrics, grid, masks)
    kernels_text.scan_example()  # the n-best reader's scanner
    kernels_text.vocabulary_example()  # and its shared vocabulary
    kernels_meteor.hash_example()  # METEOR's paraphrase-table index
    return time.perf_counter() - started


def warm_up_from_cache() -> bool:
    """True when every kernel came from Numba's cache rather than the compiler."""
    hits = misses = 0
    for kernel in KERNELS:
        stats = kernel.stats
        hits += sum(stats.cache_hits.values())
        misses += sum(stats.cache_misses.values())
    return hits > 0 and misses == 0


__all__ = ["KERNELS", "warm_up", "warm_up_from_cache"]
