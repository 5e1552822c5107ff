"""TER's building blocks: the fast paths equal TERCOM's pruned programme,
shifts move words as TERCOM does, preprocessing equals sacreBLEU's.

The pruned programme (:mod:`scoring.metrics.ter.beam`) is the literal reading of
TERCOM's ``MinEditDist``; the bit-parallel shortcuts of
:mod:`scoring.metrics.ter.alignment` must give the same costs and traces whenever
they are used, including with beams narrow enough to prune often.
"""

from __future__ import annotations

import doctest
import importlib
import itertools
import random

import pytest

from scoring.metrics.ter.alignment import BeamEditCost, beam_alignment
from scoring.metrics.ter.beam import pruned_alignment
from scoring.metrics.ter.preprocess import TerPreprocessor
from scoring.metrics.ter.shifts import perform_shift, ter_edits
from tests.scoring.support.realdata import DATA_DIR, read_lines

Pair = tuple[tuple[int, ...], tuple[int, ...]]


def random_pairs(count: int, seed: int) -> list[Pair]:
    """Random hypothesis/reference pairs over small vocabularies (many
    repeated words, so many ties) and lengths up to 70 (so the beam bites)."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        vocabulary = rng.choice([2, 4, 12, 60])
        hyp = tuple(rng.randrange(vocabulary) for _ in range(rng.randint(1, 70)))
        ref = tuple(rng.randrange(vocabulary) for _ in range(rng.randint(1, 70)))
        pairs.append((hyp, ref))
    return pairs


@pytest.mark.parametrize("beam_width", [20, 6, 2])
def test_fast_alignments_equal_the_pruned_programme(beam_width: int) -> None:
    for hyp, ref in random_pairs(600, seed=beam_width):
        expected = pruned_alignment(hyp, ref, beam_width)
        assert beam_alignment(hyp, ref, beam_width) == expected
        assert BeamEditCost(ref, beam_width)(hyp) == expected[0]


def test_cached_costs_of_shifted_hypotheses_equal_fresh_computations() -> None:
    # One BeamEditCost serves every shifted version of a hypothesis; its
    # trie of prefix columns must never leak one candidate into another.
    rng = random.Random(11)
    for hyp, ref in random_pairs(150, seed=5):
        costs = BeamEditCost(ref, 3)
        for _ in range(8):
            start = rng.randrange(len(hyp))
            end = min(len(hyp) - 1, start + rng.randrange(3))
            destination = rng.choice([-1, *range(len(hyp))])
            if destination == start:
                continue
            shifted = perform_shift(hyp, start, end, destination)
            assert sorted(shifted) == sorted(hyp)
            assert costs(shifted) == pruned_alignment(shifted, ref, 3)[0]


def test_a_cost_bound_only_hides_costs_at_or_above_it() -> None:
    for hyp, ref in random_pairs(300, seed=3):
        exact = pruned_alignment(hyp, ref, 4)[0]
        bounded = BeamEditCost(ref, 4)(hyp, below=exact)
        assert bounded >= exact
        assert BeamEditCost(ref, 4)(hyp, below=exact + 1) == exact


@pytest.mark.parametrize(
    ("start", "end", "destination", "expected"),
    [
        (2, 3, -1, "c d a b e f"),  # to the front
        (3, 4, 0, "a d e b c f"),  # left, after word 0
        (0, 1, 3, "c d a b e f"),  # right, after word 3
        (0, 1, 5, "c d e f a b"),  # right, to the end
        (1, 2, 2, "a d b c e f"),  # destination inside the block: TERCOM
        (1, 2, 5, "a d e f b c"),  # moves it right by destination - start
    ],
)
def test_shifts_move_blocks_where_tercom_puts_them(
    start: int, end: int, destination: int, expected: str
) -> None:
    words = tuple("a b c d e f".split())
    assert perform_shift(words, start, end, destination) == tuple(expected.split())


def test_an_empty_side_needs_no_search() -> None:
    assert ter_edits((), ("a", "b")) == 2
    assert ter_edits(("a",), ()) == 1
    assert ter_edits((), ()) == 0


def wmt21_lines() -> list[str]:
    directory = DATA_DIR / "wmt21"
    if not directory.is_dir():
        pytest.skip(f"real WMT21 data not found at {directory} (../shared/data)")
    lines: list[str] = []
    for path in sorted(directory.glob("*/ref.*")) + sorted(directory.glob("*/src.*")):
        lines += read_lines(path)[:60]
    return lines + [
        "Hello&amp;World's test's &quot;x&quot; <skipped>",
        "It's 3.50, ok-5 10-20 a.b,c",
        "中文，测试。「引号」ｈ１ ㈠ ｶﾀｶﾅ こんにちは",
        "a\u00a0b\u3000c\td",
    ]


def test_the_default_text_handling_equals_sacrebleus_for_every_option(
    sacrebleu,
) -> None:
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    lines = wmt21_lines()
    for normalize, no_punct, asian, cased in itertools.product([False, True], repeat=4):
        ours = TerPreprocessor(
            lowercase=not cased,
            normalize=normalize,
            no_punct=no_punct,
            asian_support=asian,
        )
        theirs = TercomTokenizer(
            normalized=normalize,
            no_punct=no_punct,
            asian_support=asian,
            case_sensitive=cased,
        )
        for line in lines:
            # sacreBLEU's TER strips the end of the line, then tokenizes.
            assert ours(line) == tuple(theirs(line.rstrip()).split()), line


@pytest.mark.parametrize(
    "module_name",
    [
        "scoring.metrics.common.edit_distance",
        "scoring.metrics.ter.beam",
        "scoring.metrics.ter.alignment",
        "scoring.metrics.ter.shifts",
    ],
)
def test_the_docstring_examples_hold(module_name: str) -> None:
    outcome = doctest.testmod(importlib.import_module(module_name))
    assert outcome.attempted > 0
    assert outcome.failed == 0
