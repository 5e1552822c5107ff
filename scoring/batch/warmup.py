"""Compile (or load from Numba's on-disk cache) every batch kernel up front.

The first call of a compiled kernel in a process costs seconds (compiling,
or loading the cached machine code); :func:`warm_up` pays it once on a tiny
grid so that timings of real work do not include it, and reports it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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

_WARM_UP_REFERENCES = (("the cat sat on a mat", "there is a cat on the mat"),)


@dataclass(frozen=True)
class WarmUpPart:
    """Metrics (registry specs, or ``nist-fixed`` and ``wnm-bound`` for the
    test-set-bound kernels) scored on a tiny grid, and example calls of the
    kernels outside the engine, that together compile a share of the kernels."""

    metrics: tuple[str, ...]
    examples: tuple[Callable[[], object], ...]


# Every kernel (and each counting mode and weights path of ROUGE-W), in
# two parts of about equal compiling cost (cold, alone: 28.5 and 25.9 s on
# a 2-core Xeon; at once in two processes 28.3 s, against 54.3 s for all of
# them in one). Each family stays in one part, so the two never wait on each
# other's compile lock for a kernel they share.
WARM_UP_PARTS = (
    WarmUpPart(
        # WNM scores only once bound to a test set (``wnm-bound``).
        ("meteor", "ter", "wnm-bound"),
        (kernels_meteor.hash_example,),  # the paraphrase table's index
    ),
    WarmUpPart(
        (
            "rouge-l",
            "rouge-w",
            # With four weights or more, ROUGE-W walks the table once for all.
            "rouge-w:w=1.3",
            "rouge-w:w=1.4",
            "rouge-w:w=1.5",
            "rouge-w:preprocess=rouge155",
            "rouge-s:d=4",
            "rouge-su:d=4",
            "rouge-n:n=2",
            "bleus",
            "nist",
            "nist-fixed",  # NIST with a test set's fixed weights
            "wer",
            "per",
            "gtm:e=2",
            "chrf++",
            "red",
        ),
        # The n-best reader's scanner and its shared vocabulary.
        (kernels_text.scan_example, kernels_text.vocabulary_example),
    ),
)

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


def _warm_up_metric(spec: str):
    if spec == "nist-fixed":
        return get_metric("nist").with_reference_corpus(_WARM_UP_REFERENCES)
    if spec == "wnm-bound":
        wnm = get_metric("wnm").with_test_set(_WARM_UP_REFERENCES, ["d1"])
        return wnm.for_sentences([0])
    return get_metric(spec)


def warm_up(parts: Sequence[WarmUpPart] = WARM_UP_PARTS) -> float:
    """Seconds spent making the kernels of ``parts`` (by default every
    kernel) ready in this process."""
    started = time.perf_counter()
    grid = grid_from_texts(
        [["the cat sat on the mat", "a cat sat"]], _WARM_UP_REFERENCES, str.split
    )
    masks = jackknife_masks(2, all_references=True)
    for part in parts:
        subset_scores([_warm_up_metric(spec) for spec in part.metrics], grid, masks)
        for example in part.examples:
            example()
    return time.perf_counter() - started


def warm_up_from_cache() -> bool:
    """True when every kernel came from Numba's cache rather than the compiler."""
    hits = misses = 0
    for kernel in KERNELS:
        stats = kernel.stats
        hits += sum(stats.cache_hits.values())
        misses += sum(stats.cache_misses.values())
    return hits > 0 and misses == 0


__all__ = ["KERNELS", "WARM_UP_PARTS", "WarmUpPart", "warm_up", "warm_up_from_cache"]
