"""WNM under ORANGE: saliences from the whole test set, the same bits on both paths.

ORANGE binds WNM to the test set's documents (all references, the document
ids) and each sentence's candidates get its document's weights. Checked
here:

- the binding gives a sentence the weights a corpus-level WNM gives it: a
  bound WNM's statistics for sentence i equal row i of ``segment_statistics``
  over the whole test set with its document ids (WMT21 ru-en, real ids);
- the batch engine's statistics and scores equal the per-pair code's bit for
  bit, for every WNM setting, on WMT21 ru-en system outputs with their real
  document ids, on a real Moses n-best list and on odd inputs;
- ORANGE through the engine equals the per-pair ORANGE (chunked too);
- without document ids both paths stop with the same message.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring.batch.engine import subset_scores, supports, token_view
from scoring.batch.grid import grid_from_texts
from scoring.batch.subsets import jackknife_masks
from scoring.metrics.wnm.metric import WNM
from scoring.orange.dispatch import orange_for_metric, orange_metrics
from scoring.orange.options import OrangeOptions
from scoring.orange.prepare import for_sentences, prepare_metrics
from tests.scoring.support.batch_cases import (
    REGRESSION_RUN,
    jackknife_and_all,
    per_pair_scores,
    regression_run,
)
from tests.scoring.support.realdata import WMT21_DIR, load_test_set, read_lines

SPECS = (
    "wnm",
    "wnm:measure=p",
    "wnm:measure=f,n=2",
    "wnm:weights=none",
    "wnm:weights=none,ngram_weight=sum,n=3",
    "wnm:negative=keep",
    "wnm:negative=keep,ngram_weight=sum",
    "wnm:scope=document,negative=keep,tokenize=wnm",
    "wnm:tokenize=none,lowercase=false",
    "wnm:n=1,ngram_weight=sum",
)
ODD_CANDIDATES = (
    ("", "a", "a a a", "我们 去 公园", "b c b c b c", "the cat the cat"),
    ("x", "", "y y", "a b c d e f g h", "c a t"),
)
ODD_REFERENCES = (
    ("a b", "", "我们 明天 去 公园", "a a b c"),
    ("a b c", "c a t", "", "x y z"),
)
ODD_DOCUMENTS = ("d1", "d2")
# Sentences of the test set beyond the odd ones, so the saliences are not 0.
ODD_CONTEXT = (
    (("the dog ran", "a dog ran"), "d2"),
    (("cats and dogs", "dogs or cats"), "d3"),
    (("b c d", "z z y"), "d3"),
)


@pytest.fixture(scope="module")
def ru_en():
    """WMT21 ru-en: references A and B, the real document ids, and per
    sentence a small n-best list: every system's output, its first half,
    its words reversed, and reference A itself (a candidate that ties)."""
    if not (WMT21_DIR / "ru-en" / "docids").exists():
        pytest.skip(f"WMT21 ru-en with document ids not found under {WMT21_DIR}")
    test_set = load_test_set("ru-en", "AB")
    documents = read_lines(test_set.directory / "docids")
    systems = sorted(path.stem for path in (test_set.directory / "sys").glob("*.en"))
    outputs = [test_set.system(name) for name in systems[:4]]
    references = list(zip(*test_set.references))
    candidates = []
    for i, refs in enumerate(references):
        row = []
        for output in outputs:
            words = output[i].split()
            row += [
                output[i],
                " ".join(words[: len(words) // 2]),
                " ".join(words[::-1]),
            ]
        candidates.append(tuple(row) + (refs[0],))
    return candidates, references, documents


def bound(spec, references, documents):
    (metric,) = prepare_metrics([get_metric(spec)], references, documents)
    return metric


def engine_and_per_pair(metric, candidates, references, sentence_ids, masks):
    grid = grid_from_texts(candidates, references, token_view(metric))
    (engine,) = subset_scores(for_sentences([metric], sentence_ids), grid, masks)
    per_pair = np.concatenate(
        [
            per_pair_scores(
                for_sentences([metric], [sentence])[0], [group], [refs], masks
            )
            for sentence, group, refs in zip(sentence_ids, candidates, references)
        ]
    )
    return engine, per_pair


def test_a_bound_sentence_gets_the_weights_corpus_scoring_gives_it(ru_en):
    _, references, documents = ru_en
    hypotheses = [refs[1] for refs in references]  # B against A
    for spec in ("wnm", "wnm:negative=keep,ngram_weight=sum", "wnm:tokenize=wnm"):
        metric = bound(spec, references, documents)
        # Salience counts every reference of the document: A and B together.
        both = get_metric(spec).segment_statistics(
            hypotheses,
            [[refs[0] for refs in references], [refs[1] for refs in references]],
            document_ids=documents,
        )
        for i in (0, 1, 7, len(references) - 1):
            (sentence_metric,) = for_sentences([metric], [i])
            row = sentence_metric.segment_statistics(
                [hypotheses[i]], [[references[i][0]], [references[i][1]]]
            )[0]
            np.testing.assert_array_equal(row[:4], both[i, :4])
        assert np.count_nonzero(both[:, 0]) > len(references) // 2


@pytest.mark.parametrize("spec", SPECS)
def test_engine_equals_per_pair_bit_for_bit_on_wmt21_ru_en(spec, ru_en):
    candidates, references, documents = ru_en
    metric = bound(spec, references, documents)
    assert supports(metric)
    chosen = list(range(0, len(candidates), max(1, len(candidates) // 40)))
    masks = jackknife_and_all(2)
    engine, per_pair = engine_and_per_pair(
        metric,
        [candidates[i] for i in chosen],
        [references[i] for i in chosen],
        chosen,
        masks,
    )
    np.testing.assert_array_equal(engine, per_pair)
    if "weights=none" not in spec:
        assert np.count_nonzero(engine) > engine.size // 4  # real saliences


@pytest.mark.parametrize("spec", SPECS)
def test_engine_equals_per_pair_on_odd_inputs(spec):
    context_refs = [refs for refs, _ in ODD_CONTEXT]
    references = [*ODD_REFERENCES, *context_refs]
    documents = [*ODD_DOCUMENTS, *(doc for _, doc in ODD_CONTEXT)]
    metric = bound(spec, references, documents)
    masks = jackknife_masks(4, all_references=True)
    engine, per_pair = engine_and_per_pair(
        metric, ODD_CANDIDATES, ODD_REFERENCES, [0, 1], masks
    )
    np.testing.assert_array_equal(engine, per_pair)


@pytest.fixture(scope="module")
def regression():
    if not REGRESSION_RUN.exists():
        pytest.skip(f"real Moses n-best data not found at {REGRESSION_RUN}")
    return regression_run()


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all-refs"])
@pytest.mark.parametrize(
    "spec", ["wnm", "wnm:negative=keep,ngram_weight=sum", "wnm:tokenize=wnm"]
)
def test_orange_of_wnm_is_the_same_on_both_paths_on_regression_run1(
    spec, all_references, regression
):
    documents = ["doc-a", "doc-a", "doc-b", "doc-b", "doc-c"]
    options = OrangeOptions(all_references=all_references, n_bootstrap=50)
    metric = get_metric(spec)
    args = (metric, spec, regression.candidates, regression.references, options)
    engine = orange_for_metric(*args, document_ids=documents, chunk_size=2)
    per_pair = orange_for_metric(*args, document_ids=documents, per_pair=True)
    assert engine == per_pair


def test_orange_of_wnm_on_wmt21_ru_en_is_the_same_on_both_paths(ru_en):
    candidates, references, documents = ru_en
    metrics = {"wnm": get_metric("wnm"), "bleus": get_metric("bleus")}
    results = [
        orange_metrics(
            metrics,
            candidates,
            references,
            OrangeOptions(n_bootstrap=100),
            document_ids=documents,
            per_pair=per_pair,
        )
        for per_pair in (False, True)
    ]
    assert results[0] == results[1]
    assert 0 < results[0]["wnm"].orange < 100


def test_sentence_ids_name_the_sentences_of_the_bound_test_set():
    references = [("a b c", "a b d"), ("e f", "e g"), ("a x", "b y")]
    documents = ["d1", "d2", "d1"]
    candidates = [("a b", "x"), ("e", "f g"), ("a", "y b")]
    ids = [10, 11, 12]
    metric = prepare_metrics(
        [get_metric("wnm:negative=keep")], references, documents, ids
    )[0]
    with pytest.raises(MetricError, match="sentence 0 is not in the test set"):
        for_sentences([metric], [0])
    results = [
        orange_for_metric(
            metric,
            "wnm",
            candidates,
            references,
            OrangeOptions(n_bootstrap=10),
            sentence_ids=ids,
            per_pair=per_pair,
        )
        for per_pair in (False, True)
    ]
    assert results[0] == results[1]


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all-refs"])
def test_without_document_ids_both_paths_stop_with_the_same_message(
    all_references, regression
):
    options = OrangeOptions(all_references=all_references, n_bootstrap=10)
    messages = []
    for per_pair in (False, True):
        with pytest.raises(MetricError) as raised:
            orange_metrics(
                {"bleus": get_metric("bleus"), "wnm": get_metric("wnm")},
                regression.candidates,
                regression.references,
                options,
                per_pair=per_pair,
            )
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert "wnm needs document ids" in messages[0] and "--docs" in messages[0]


def test_unweighted_wnm_needs_no_document_ids(regression):
    spec = "wnm:weights=none"
    args = (get_metric(spec), spec, regression.candidates, regression.references)
    engine = orange_for_metric(*args, OrangeOptions(n_bootstrap=10))
    per_pair = orange_for_metric(*args, OrangeOptions(n_bootstrap=10), per_pair=True)
    assert engine == per_pair


def test_an_unbound_wnm_is_refused_by_the_engine_as_by_its_own_input_check():
    metric = get_metric("wnm")
    grid = grid_from_texts([["a"]], [["a", "b"]], metric.tokenizer)
    with pytest.raises(MetricError, match="needs document ids"):
        subset_scores([metric], grid, np.array([-1], dtype=np.int64))
    unweighted = get_metric("wnm:weights=none")  # no document ids needed
    with pytest.raises(MetricError, match="bind it to the test set's sentences"):
        subset_scores([unweighted], grid, np.array([-1], dtype=np.int64))


def test_binding_keeps_the_metric_hashable_and_named_by_its_test_set(ru_en):
    _, references, documents = ru_en
    first = bound("wnm", references, documents)
    again = bound("wnm", references, documents)
    assert isinstance(first, WNM) and first == again and hash(first) == hash(again)
    assert first != bound("wnm", references, documents[::-1])
    assert "salience:testset-" in first.sentence_signature(2)
    assert first.for_sentences([3]).requires == ()
    assert get_metric("wnm").requires == ("document_ids",)
