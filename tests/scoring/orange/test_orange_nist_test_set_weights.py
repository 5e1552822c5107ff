"""ORANGE scores NIST with the information weights of every reference of the
test set (SPEC section 2, mteval-v13a), in the per-pair path and the batch
engine alike, however the sentences are chunked.

Data: the Moses regression run (5 sentences x 200 candidates, 3 reference
files of 5 lines, so the test set's weights come from 15 reference
segments), the batch edge cases, and a synthetic token-id corpus.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring.bench.synthetic import CorpusShape, make_corpus
from scoring.cli.main import build_parser
from scoring.cli.orange import run_orange
from scoring.orange.batched import orange_batch
from scoring.orange.dispatch import orange_for_metric, rank_chunk_metrics
from scoring.orange.options import OrangeOptions
from scoring.orange.pairwise import rank_chunk_pairwise
from scoring.orange.prepare import (
    prepare_metrics,
    prepare_metrics_for_source,
)
from scoring.orange.ranking import curve_points, merge_rankings, summarise
from scoring.orange.sources import TextSource, TokenSource
from tests.scoring.batch.test_batch_edge_cases import GROUPS
from tests.scoring.support.batch_cases import (
    REGRESSION_RUN,
    engine_scores,
    jackknife_and_all,
    per_pair_scores,
)
from tests.scoring.support.realdata import read_lines

OPTIONS = OrangeOptions(curve_step=20, n_bootstrap=100, seed=5)
NIST_SPECS = ("nist", "nist:n=3", "nist:tokenize=mteval13a,lowercase=true")
REFERENCE_FILES = [REGRESSION_RUN / f"reference.{k}" for k in range(3)]


def every_reference_line():
    """Every line of every reference file: the test set's references."""
    return list(zip(*(read_lines(path) for path in REFERENCE_FILES)))


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all"])
@pytest.mark.parametrize("spec", NIST_SPECS)
def test_per_pair_and_batch_orange_agree_with_the_test_sets_weights(
    spec, all_references, regression
):
    data = regression.first(60)
    metric = get_metric(spec).with_reference_corpus(every_reference_line())
    assert metric.reference_weights.n_segments == 15
    options = OrangeOptions(all_references=all_references, curve_step=20)
    args = (metric, spec, data.candidates, data.references, options)
    batch = orange_for_metric(*args, sentence_ids=data.sentence_ids)
    per_pair = orange_for_metric(*args, sentence_ids=data.sentence_ids, per_pair=True)
    assert batch.to_dict() == per_pair.to_dict()


@pytest.mark.parametrize("per_pair", [False, True], ids=["engine", "per-pair"])
def test_a_chunked_run_equals_the_unchunked_one(per_pair, regression):
    data = regression.first(40)
    metric = get_metric("nist")
    args = (metric, "nist", data.candidates, data.references, OPTIONS)
    kwargs = {"sentence_ids": data.sentence_ids, "per_pair": per_pair}
    whole = orange_for_metric(*args, **kwargs).to_dict()
    for chunk_size in (1, 2):
        chunked = orange_for_metric(*args, chunk_size=chunk_size, **kwargs)
        assert chunked.to_dict() == whole, chunk_size
    source = TextSource(data.candidates, data.references)
    for chunk_candidates in (1, 70):
        threaded = orange_batch(
            {"nist": metric},
            source,
            OPTIONS,
            sentence_ids=data.sentence_ids,
            chunk_candidates=chunk_candidates,
            workers=2,
        )
        assert threaded["nist"].to_dict() == whole, chunk_candidates


def test_weights_from_each_chunk_would_give_other_scores(regression):
    # The check above can fail: one-sentence chunks bound to their own
    # references (what scoring chunk by chunk used to amount to) move the
    # oracle scores.
    data = regression.first(40)
    whole = orange_for_metric(
        get_metric("nist"), "nist", data.candidates, data.references, OPTIONS
    )
    curve_n = curve_points(40, OPTIONS.curve_step)
    parts = [
        rank_chunk_pairwise(
            get_metric("nist").with_reference_corpus(data.references[i : i + 1]),
            data.candidates[i : i + 1],
            data.references[i : i + 1],
            sentence_ids=data.sentence_ids[i : i + 1],
            curve_n=curve_n,
            options=OPTIONS,
        )
        for i in range(len(data.candidates))
    ]
    per_chunk = summarise(
        merge_rankings(parts), metric="nist", n_bootstrap=100, seed=OPTIONS.seed
    )
    oracles = [item["oracle_score"] for item in whole.above_reference]
    assert oracles != [item["oracle_score"] for item in per_chunk.above_reference]


def test_a_chunk_refuses_a_nist_not_bound_to_the_test_set(regression):
    data = regression.first(10)
    chunk = {
        "candidates": data.candidates[:2],
        "references": data.references[:2],
        "sentence_ids": data.sentence_ids[:2],
        "curve_n": np.array([1, 10]),
        "options": OPTIONS,
    }
    with pytest.raises(MetricError, match="every reference of the test set"):
        rank_chunk_metrics([get_metric("bleus"), get_metric("nist")], **chunk)
    bound = prepare_metrics([get_metric("nist")], every_reference_line())
    assert len(rank_chunk_metrics(bound, **chunk)) == 1


def test_preparing_binds_only_nist_and_keeps_a_metric_already_bound():
    references = [("a b c", "a b d"), ("b c d", "c d e")]
    larger = references + [("x y z", "x y w")]
    metrics = {"bleu": get_metric("bleu"), "nist": get_metric("nist")}
    prepared = prepare_metrics(metrics, larger)
    assert list(prepared) == ["bleu", "nist"]
    assert prepared["bleu"] is metrics["bleu"]
    assert prepared["nist"].reference_weights.n_segments == 6
    again = prepare_metrics(prepared, references)  # e.g. an entry point's own call
    assert again["nist"] is prepared["nist"]


@pytest.mark.parametrize("spec", ["nist", "nist:n=2"])
def test_odd_inputs_give_the_per_pair_scores_with_fixed_weights(spec):
    hypotheses = [group[0] for group in GROUPS]
    references = [group[1] for group in GROUPS]
    metric = get_metric(spec).with_reference_corpus(references)
    masks = jackknife_and_all(4)
    ours = engine_scores(metric, hypotheses, references, masks)
    expected = per_pair_scores(metric, hypotheses, references, masks)
    assert np.array_equal(ours, expected), np.abs(ours - expected).max()
    # References of another corpus are refused, as in the per-pair code.
    other = get_metric(spec).with_reference_corpus([("a b", "c d")])
    with pytest.raises(MetricError, match="in no reference of the corpus"):
        engine_scores(other, hypotheses, references, masks)


def test_token_ids_bind_the_same_weights_as_their_text():
    corpus = make_corpus(
        CorpusShape(n_sentences=4, n_candidates=5, vocabulary_size=200), seed=3
    )
    texts = [[corpus.text(r) for r in refs] for refs in corpus.references]
    source = TokenSource(corpus.nbest, corpus.references)
    from_ids = prepare_metrics_for_source({"nist": get_metric("nist")}, source)
    from_texts = prepare_metrics({"nist": get_metric("nist")}, texts)
    weights = from_ids["nist"].reference_weights
    assert weights == from_texts["nist"].reference_weights
    assert weights.as_mapping() == from_texts["nist"].reference_weights.as_mapping()


def command_line(tmp_path, *extra):
    """``python -m scoring orange`` in process on the first 3 sentences'
    n-best lists, with the 5-line reference files."""
    lines = read_lines(REGRESSION_RUN / "run1.NBEST.out")
    nbest = tmp_path / "three.nbest"
    kept = [line for line in lines if int(line.split(" ||| ")[0]) < 3]
    nbest.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    arguments = ["orange", "--nbest", str(nbest), "--refs", *map(str, REFERENCE_FILES)]
    arguments += ["--metric", "nist", "--bootstrap", "100", "--seed", "5"]
    arguments += ["--curve-step", "20", *extra]
    return run_orange(build_parser().parse_args(arguments))["nist"]


def test_the_command_line_counts_the_weights_over_whole_reference_files(
    regression, tmp_path
):
    candidates, references = regression.candidates[:3], regression.references[:3]
    ids = regression.sentence_ids[:3]
    bound = get_metric("nist").with_reference_corpus(every_reference_line())
    expected = orange_for_metric(
        bound, "nist", candidates, references, OPTIONS, sentence_ids=ids
    )
    assert command_line(tmp_path).to_dict() == expected.to_dict()
    assert command_line(tmp_path, "--per-pair").to_dict() == expected.to_dict()
    assert command_line(tmp_path, "--paired-test").to_dict() == expected.to_dict()
    # Only the 3 ranked sentences' references would be other weights.
    narrower = orange_for_metric(
        get_metric("nist"), "nist", candidates, references, OPTIONS, sentence_ids=ids
    )
    assert narrower.to_dict() != expected.to_dict()


def test_a_source_without_its_references_needs_the_metrics_bound_first():
    class IdsOnly:  # e.g. a streaming source that keeps no texts
        pass

    metrics = {"nist": get_metric("nist"), "bleu": get_metric("bleu")}
    with pytest.raises(MetricError, match="prepare_metrics first"):
        prepare_metrics_for_source(metrics, IdsOnly())
    bound = prepare_metrics(metrics, [("a b", "a c")])
    assert prepare_metrics_for_source(bound, IdsOnly()) is bound
    assert prepare_metrics_for_source({"bleu": metrics["bleu"]}, IdsOnly())
