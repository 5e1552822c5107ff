"""Chunks of sentences merge into the same ORANGE as one run, whatever the
chunk size and number of threads; metrics that read text differently are
scored together; ``python -m scoring orange`` gives the same JSON through
the engine as pair by pair, also when some metrics are not supported."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from scoring import get_metric
from scoring.bench.synthetic import CorpusShape, make_corpus
from scoring.orange.batched import chunk_bounds, orange_batch
from scoring.orange.dispatch import (
    orange_for_metric,
    orange_metrics,
    rank_chunk_metrics,
)
from scoring.orange.options import OrangeOptions
from scoring.orange.pairwise import rank_chunk_pairwise
from scoring.orange.sources import TextSource, TokenSource
from tests.scoring.support.batch_cases import REGRESSION_RUN
from tests.scoring.support.realdata import PROJECT_ROOT

OPTIONS = OrangeOptions(curve_step=16, n_bootstrap=100, seed=3)
MIXED = (
    "bleus:n=4",
    "bleu:tokenize=none,lowercase=true",
    "rouge-l",
    "rouge-s:d=4,preprocess=rouge155",
    "wer",
    "nist",
)


def test_chunk_bounds_cover_every_sentence_once():
    assert chunk_bounds(np.array([5, 5, 5, 5, 1]), 10) == [(0, 2), (2, 4), (4, 5)]
    assert chunk_bounds(np.array([50]), 10) == [(0, 1)]


@pytest.mark.parametrize(
    ("chunk_candidates", "workers"), [(1, 1), (7, 2), (64, 2), (10_000, 1)]
)
def test_chunked_runs_merge_into_the_one_run_result(chunk_candidates, workers):
    corpus = make_corpus(
        CorpusShape(n_sentences=6, n_candidates=16, vocabulary_size=300), seed=5
    )
    metrics = {spec: get_metric(spec) for spec in ("bleus:n=4", "rouge-w:w=1.3", "per")}
    source = TokenSource(corpus.nbest, corpus.references)
    whole = orange_batch(metrics, source, OPTIONS, chunk_candidates=10**9, workers=1)
    chunked = orange_batch(
        metrics, source, OPTIONS, chunk_candidates=chunk_candidates, workers=workers
    )
    assert {k: v.to_dict() for k, v in chunked.items()} == {
        k: v.to_dict() for k, v in whole.items()
    }


def test_metrics_with_different_tokenisations_are_scored_together(regression):
    data = regression.first(40)
    metrics = {spec: get_metric(spec) for spec in MIXED}
    source = TextSource(data.candidates, data.references)
    together = orange_batch(
        metrics, source, OPTIONS, sentence_ids=data.sentence_ids, chunk_candidates=70
    )
    for spec, metric in metrics.items():
        alone = orange_for_metric(
            metric,
            spec,
            data.candidates,
            data.references,
            OPTIONS,
            sentence_ids=data.sentence_ids,
            per_pair=True,
        )
        assert together[spec].to_dict() == alone.to_dict(), spec


def test_unsupported_metrics_go_pair_by_pair_in_the_same_call(regression):
    data = regression.first(10)
    metrics = {spec: get_metric(spec) for spec in ("chrf", "rouge-l")}
    results = orange_metrics(
        metrics,
        data.candidates,
        data.references,
        OPTIONS,
        sentence_ids=data.sentence_ids,
    )
    assert list(results) == ["chrf", "rouge-l"]
    expected = orange_for_metric(
        get_metric("chrf"),
        "chrf",
        data.candidates,
        data.references,
        OPTIONS,
        sentence_ids=data.sentence_ids,
        per_pair=True,
    )
    assert results["chrf"].to_dict() == expected.to_dict()


def run_cli(*args):
    refs = [REGRESSION_RUN / f"reference.{k}" for k in range(3)]
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "orange",
            "--nbest",
            REGRESSION_RUN / "run1.NBEST.out",
            "--refs",
            *refs,
            "--json",
            "--bootstrap",
            "50",
            *map(str, args),
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def test_the_command_line_gives_the_same_json_with_and_without_the_engine(regression):
    metrics = ["--metric", "rouge-w:w=1.2", "--metric", "chrf", "--metric", "bleus:n=4"]
    engine = run_cli(*metrics)
    per_pair = run_cli(*metrics, "--per-pair")
    assert list(engine["metrics"]) == ["rouge-w:w=1.2", "chrf", "bleus:n=4"]
    assert engine == per_pair


def test_a_job_chunk_of_several_metrics_ranks_like_each_metric_pair_by_pair(regression):
    data = regression.first(30)
    specs = ("chrf", "bleus:n=2", "rouge-w:w=1.4", "per")
    curve_n = np.array([1, 10, 30])
    ranked = rank_chunk_metrics(
        [get_metric(spec) for spec in specs],
        data.candidates[1:4],
        data.references[1:4],
        sentence_ids=data.sentence_ids[1:4],
        curve_n=curve_n,
        options=OPTIONS,
        chunk_candidates=40,
    )
    for spec, rankings in zip(specs, ranked, strict=True):
        expected = rank_chunk_pairwise(
            get_metric(spec),
            data.candidates[1:4],
            data.references[1:4],
            sentence_ids=data.sentence_ids[1:4],
            curve_n=curve_n,
            options=OPTIONS,
        )
        for field in (
            "sentence_ids",
            "oracle_scores",
            "better",
            "tied",
            "curve_better",
        ):
            assert np.array_equal(getattr(rankings, field), getattr(expected, field))
        assert rankings.above_reference == expected.above_reference
