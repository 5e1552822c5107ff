"""The compiled TER (TERCOM's shift search in Numba) counts the per-pair code's
edits on every pair, and the engine's TER scores and ORANGE equal the
per-pair path's.

Edits are integers computed along the same search, so they are compared
for equality; scores come from the same rows through the metric's own
``sentence_scores_from_statistics``, so they are compared for equality too.

Data: the Moses n-best lists (regression-mert-moses-new run1, mert-example;
the committed fixtures hold their first candidates), WMT21 en-de and ru-en
system outputs against their references, constructed stress cases and the
benchmark's synthetic corpus.
"""

from __future__ import annotations

import dataclasses
import functools
import random

import numpy as np
import pytest

from scoring import get_metric
from scoring.batch.engine import supports, token_view
from scoring.batch.grid import grid_from_texts
from scoring.batch.ter_family import ter_grid_edits
from scoring.bench.synthetic import PAPER_1024_BEST, make_corpus
from scoring.bench.ter_suite import corpus_as_text
from scoring.bench.ter_suite import main as ter_suite_main
from scoring.metrics.ter.shifts import ter_edits
from scoring.orange.batched import orange_batch
from scoring.orange.dispatch import orange_for_metric
from scoring.orange.options import OrangeOptions
from scoring.orange.sources import TextSource
from tests.scoring.support.batch_cases import (
    engine_scores,
    jackknife_and_all,
    per_pair_scores,
)
from tests.scoring.support.oracles import oracle_references, oracle_text
from tests.scoring.support.realdata import segment_count

# Every text setting of TER (asian_support needs normalize or no_punct to
# change anything, and excludes tercom).
VARIANTS = (
    "ter",
    "ter:lowercase=false",
    "ter:normalize=true",
    "ter:no_punct=true",
    "ter:normalize=true,no_punct=true,asian_support=true",
    "ter:tercom=true",
    "ter:tercom=true,normalize=true,no_punct=true,lowercase=false",
)


@functools.cache
def per_pair_edits(hyp: tuple[str, ...], ref: tuple[str, ...]) -> int:
    """``ter_edits`` of two word sequences, remembered for the module: it is
    a pure function of the two sequences, and the settings compared here
    often give the same words (99 of the stress cases' 101 pairs under both
    of their settings), so a pair searched once need not be searched again."""
    return ter_edits(hyp, ref)


def compiled_and_per_pair_edits(spec, hypotheses, references):
    """``(H, K)`` edits of the kernel and of ``ter_edits``, on the metric's
    words; ``hypotheses[g]`` against ``references[g]``."""
    preprocess = token_view(get_metric(spec))
    grid = grid_from_texts(hypotheses, references, preprocess)
    compiled = ter_grid_edits(grid)
    expected = np.zeros_like(compiled)
    row = 0
    for group, refs in zip(hypotheses, references):
        words = [tuple(preprocess(ref)) for ref in refs]
        for hypothesis in group:
            hyp = tuple(preprocess(hypothesis))
            for k, ref in enumerate(words):
                expected[row, k] = per_pair_edits(hyp, ref)
            row += 1
    return compiled, expected


def assert_same_edits(spec, hypotheses, references):
    compiled, expected = compiled_and_per_pair_edits(spec, hypotheses, references)
    differ = np.argwhere(compiled != expected)
    assert differ.size == 0, (
        f"{spec}: {len(differ)} pairs differ, first (row, reference) "
        f"{differ[0].tolist()}: {compiled[tuple(differ[0])]} != "
        f"{expected[tuple(differ[0])]}"
    )


def test_ter_runs_in_the_engine_in_every_setting():
    for spec in VARIANTS:
        assert supports(get_metric(spec)), spec


@pytest.mark.parametrize("spec", ["ter", "ter:tercom=true,normalize=true"])
def test_edits_equal_the_per_pair_search_on_every_pair_of_regression_run1(
    spec, regression
):
    assert_same_edits(spec, regression.candidates, regression.references)
    assert_same_edits(spec, regression.references, regression.references)


def test_edits_equal_the_per_pair_search_on_every_pair_of_the_mert_example(mert):
    assert_same_edits("ter", mert.candidates, mert.references)


@pytest.mark.parametrize(
    "pair, system",
    [("en-de", "sys/Facebook-AI.de"), ("ru-en", "sys/Online-Y.en")],
)
def test_edits_equal_the_per_pair_search_on_wmt21_outputs(pair, system):
    count = segment_count(f"wmt21/{pair}", 300)
    outputs = oracle_text(pair, system)[:count]
    streams = oracle_references(pair)
    references = [tuple(stream[i] for stream in streams) for i in range(count)]
    assert_same_edits("ter", [[line] for line in outputs], references)
    # The references against each other, as ORANGE's oracle scores them.
    assert_same_edits("ter:normalize=true", references, references)


def _stress_cases():
    """(hypothesis, references) built to exercise the search's corners."""
    rng = random.Random(13)
    long_ref = [f"w{rng.randrange(40)}" for _ in range(130)]
    long_hyp = long_ref[60:] + long_ref[:60]
    long_hyp[5] = "new"
    repeated = "the the a the a a the of the a the".split()
    sentence = "saudi arabia denied this week information published in the "
    sentence += "american new york times"
    cases = [
        ("", ("a b c", "")),
        ("a b c", ("", "c b a")),
        ("", ("", "")),
        ("word", ("word", "other")),
        ("a", ("b",)),
        (sentence, (sentence,)),
        (" ".join(reversed(sentence.split())), (sentence, sentence.upper())),
        (" ".join(repeated), (" ".join(reversed(repeated)), "the a " * 12)),
        ("a a a a b b b b a a a a", ("b b b b a a a a a a a a", "a b " * 6)),
        (" ".join(long_hyp), (" ".join(long_ref), " ".join(long_ref[::-1]))),
        (" ".join(long_ref[:70] * 2), (" ".join(long_ref[:100]),)),
        ("ça va très bien , merci 東京 へ", ("merci , ça va très bien 東京 へ",)),
        ("A b C d", ("a B c D",)),
    ]
    vocabulary = "the a of and to in it is x y".split()
    for _ in range(40):
        ref = [rng.choice(vocabulary) for _ in range(rng.randint(1, 60))]
        hyp = ref[:]
        for _ in range(rng.randint(0, 8)):
            i, j = rng.randrange(len(hyp)), rng.randrange(len(hyp))
            hyp[i : i + 3], hyp[j : j + 3] = hyp[j : j + 3], hyp[i : i + 3]
        if rng.random() < 0.5:
            hyp.insert(rng.randint(0, len(hyp)), "unseen")
        cases.append((" ".join(hyp), (" ".join(ref), " ".join(ref[::-1]))))
    return cases


# The search is the same whatever the text settings; two settings that
# split the cases' words differently are enough (the others: above).
@pytest.mark.parametrize("spec", ["ter", "ter:tercom=true,lowercase=false"])
def test_edits_equal_the_per_pair_search_on_stress_cases(spec):
    cases = _stress_cases()
    # Every case its own group, with its own references.
    assert_same_edits(spec, [[hyp] for hyp, _ in cases], [refs for _, refs in cases])


@pytest.mark.parametrize("spec", VARIANTS)
def test_scores_equal_the_per_pair_code_on_every_subset(spec, regression):
    data = regression.first(12)
    masks = jackknife_and_all(3)
    metric = get_metric(spec)
    ours = engine_scores(metric, data.candidates, data.references, masks)
    expected = per_pair_scores(metric, data.candidates, data.references, masks)
    assert np.array_equal(ours, expected), spec
    masks = masks[:3]
    ours = engine_scores(metric, data.references, data.references, masks)
    expected = per_pair_scores(metric, data.references, data.references, masks)
    assert np.array_equal(ours, expected), spec


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all-refs"])
def test_orange_through_the_engine_equals_the_per_pair_orange(
    all_references, regression
):
    data = regression.first(60)
    options = OrangeOptions(
        all_references=all_references, curve_step=20, n_bootstrap=100
    )
    metric = get_metric("ter")
    args = (metric, "ter", data.candidates, data.references, options)
    batch = orange_for_metric(*args, sentence_ids=data.sentence_ids)
    per_pair = orange_for_metric(*args, sentence_ids=data.sentence_ids, per_pair=True)
    assert batch.to_dict() == per_pair.to_dict()


def test_edits_equal_the_per_pair_search_on_the_benchmark_corpus():
    corpus = make_corpus(dataclasses.replace(PAPER_1024_BEST, n_sentences=3))
    candidates, references = corpus_as_text(corpus)
    assert_same_edits("ter", [c[:40] for c in candidates], references)


def test_the_ter_benchmark_runs_scaled_down(capsys):
    assert (
        ter_suite_main(["--sentences", "2", "--bootstrap", "10", "--check", "1"]) == 0
    )
    printed = capsys.readouterr().out
    assert "engine vs per-pair ORANGE on 1 sentences: identical" in printed
    assert "ter: ORANGE" in printed


def test_orange_on_two_threads_in_small_chunks_equals_the_per_pair_orange(regression):
    data = regression.first(60)
    options = OrangeOptions(curve_step=20, n_bootstrap=100)
    metric = get_metric("ter:normalize=true")
    threaded = orange_batch(
        {"ter": metric},
        TextSource(data.candidates, data.references),
        options,
        sentence_ids=data.sentence_ids,
        chunk_candidates=100,
        workers=2,
    )["ter"]
    per_pair = orange_for_metric(
        metric,
        "ter",
        data.candidates,
        data.references,
        options,
        sentence_ids=data.sentence_ids,
        per_pair=True,
    )
    assert threaded.to_dict() == per_pair.to_dict()
