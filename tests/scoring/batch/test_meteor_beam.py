"""The lean beam search for short sentences
(:func:`scoring.batch.kernels_meteor_beam.resolve_narrow`) finds the same
alignment as the general one
(:func:`scoring.batch.kernels_meteor_align.resolve_stage`) on random
stages: one-word and phrase candidates (paraphrase-like, overlapping),
repeated candidates, many candidates at one reference word (the beam
full), half-weight modules, matches fixed by an earlier stage, empty sides
and sentences of 63 words. The engine's end-to-end equality with the
per-pair code is in ``test_meteor_family.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring.batch.kernels_meteor_align import resolve_stage
from scoring.batch.kernels_meteor_beam import (
    NARROW_WORDS,
    narrow_fits,
    resolve_narrow,
)


def _stage_inputs(candidates: np.ndarray, n: int, m: int):
    """Coverage, start offsets and METEOR's per-start order, as
    :func:`scoring.batch.kernels_meteor._align_stage` builds them."""
    hyp_cov = np.zeros(n, dtype=np.int64)
    ref_cov = np.zeros(m, dtype=np.int64)
    for rs, rl, hs, hl, _ in candidates:
        ref_cov[rs : rs + rl] += 1
        hyp_cov[hs : hs + hl] += 1
    order = np.argsort(candidates[:, 0], kind="stable").astype(np.int64)
    starts = np.searchsorted(candidates[order, 0], np.arange(m + 1)).astype(np.int64)
    return order, starts, hyp_cov, ref_cov


def _random_stage(rng: np.random.Generator, n: int, m: int, n_cand: int, phrases: bool):
    rows = []
    for _ in range(n_cand if n and m else 0):
        rl = int(rng.integers(1, 4)) if phrases and rng.random() < 0.3 else 1
        hl = int(rng.integers(1, 4)) if phrases and rng.random() < 0.3 else 1
        rl, hl = min(rl, m), min(hl, n)
        rs = int(rng.integers(0, m - rl + 1))
        hs = int(rng.integers(0, n - hl + 1))
        rows.append((rs, rl, hs, hl, int(rng.integers(0, 4))))
    if rows and rng.random() < 0.3:  # repeated candidates (paraphrase tables do)
        rows += rows[: int(rng.integers(1, len(rows) + 1))]
    return np.array(rows, dtype=np.int64).reshape(-1, 5)


def _fixed_by_earlier_stage(rng: np.random.Generator, n: int, m: int) -> np.ndarray:
    alignment = np.zeros((m, 4), dtype=np.int64)
    used_hyp = np.zeros(n, dtype=bool)
    for j in range(m):
        if rng.random() < 0.15:
            free = np.flatnonzero(~used_hyp)
            if free.size:
                i = int(rng.choice(free))
                used_hyp[i] = True
                alignment[j] = (1, i, 1, 0)
    return alignment


def _both(candidates, n, m, half, alignment):
    inputs = _stage_inputs(candidates, n, m)
    general = alignment.copy()
    status, _ = resolve_stage(
        candidates, *inputs, n, m, half, general, np.empty(16, dtype=np.int64)
    )
    narrow = alignment.copy()
    narrow_status, _ = resolve_narrow(
        candidates, *inputs, n, m, half, narrow, np.empty(16, dtype=np.int64)
    )
    return status, general, narrow_status, narrow


@pytest.mark.parametrize("seed", range(6))
def test_the_narrow_search_finds_the_general_searchs_alignment(seed):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        n = int(rng.integers(0, NARROW_WORDS + 1))
        m = int(rng.integers(0, NARROW_WORDS + 1))
        if rng.random() < 0.2:
            n = m = NARROW_WORDS
        n_cand = int(rng.integers(0, 3 * max(n, m) + 1))
        candidates = _random_stage(rng, n, m, n_cand, phrases=rng.random() < 0.5)
        half = rng.random(4) < 0.5
        alignment = (
            _fixed_by_earlier_stage(rng, n, m)
            if rng.random() < 0.3
            else np.zeros((m, 4), dtype=np.int64)
        )
        assert narrow_fits(n, m, len(candidates))
        status, general, narrow_status, narrow = _both(
            candidates, n, m, half, alignment
        )
        assert status == narrow_status == 0
        np.testing.assert_array_equal(narrow, general)


def test_a_sentence_of_repeated_words_fills_the_beam_alike():
    # Every hypothesis word matches every reference word: the beam is full
    # at every step and ties decide.
    n = m = 12
    candidates = np.array(
        [(j, 1, i, 1, 0) for j in range(m) for i in range(n)], dtype=np.int64
    )
    for half in (np.array([False] * 4), np.array([True] * 4)):
        status, general, narrow_status, narrow = _both(
            candidates, n, m, half, np.zeros((m, 4), dtype=np.int64)
        )
        assert status == narrow_status == 0
        assert general[:, 0].sum() > 0
        np.testing.assert_array_equal(narrow, general)


def test_more_candidates_at_one_word_than_the_path_list_can_number():
    # 1,700 candidates at reference word 0: the step's list outgrows the
    # places the narrow search packs below its keys, so it hands over.
    n, m = 20, 5
    rng = np.random.default_rng(7)
    candidates = np.array(
        [(0, 1, int(rng.integers(0, n)), 1, 0) for _ in range(1700)]
        + [(j, 1, j, 1, 0) for j in range(1, m)],
        dtype=np.int64,
    )
    half = np.zeros(4, dtype=np.bool_)
    status, general, narrow_status, narrow = _both(
        candidates, n, m, half, np.zeros((m, 4), dtype=np.int64)
    )
    assert status == narrow_status == 0
    np.testing.assert_array_equal(narrow, general)


def test_longer_sentences_are_not_narrow():
    assert narrow_fits(NARROW_WORDS, NARROW_WORDS, 100)
    assert not narrow_fits(NARROW_WORDS + 1, 10, 100)
    assert not narrow_fits(10, NARROW_WORDS + 1, 100)
