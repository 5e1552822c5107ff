"""``python -m scoring orange --json`` at any size: the K best candidates
above the references per sentence by index and score, their texts once,
the same numbers as ranking the texts directly, plain or gzip input."""

from __future__ import annotations

import gzip
import json

import pytest

from scoring.orange.dispatch import orange_metrics
from scoring.orange.nbest import NBestList, open_nbest
from scoring.orange.options import OrangeOptions
from scoring.orange.prepare import prepare_metrics
from scoring.registry import get_metric
from scoring.textfiles import read_segments
from tests.scoring.cli.test_orange_cli import RUN, run, run_in_process

SPECS = ["bleus:n=4", "rouge-l", "wer", "chrf"]


@pytest.fixture
def moses(tmp_path):
    if not RUN.exists():
        pytest.skip(f"real Moses n-best data not found at {RUN}")
    refs = [RUN / f"reference.{k}" for k in range(3)]
    return RUN / "run1.NBEST.out", refs


def orange_json(nbest, refs, *extra):
    # In this process: these tests read what the command computes; the
    # refused limit below goes through ``python -m scoring`` itself.
    metric_args = [arg for spec in SPECS for arg in ("--metric", spec)]
    completed = run_in_process(
        "--nbest", nbest, "--refs", *refs, *metric_args,
        "--bootstrap", "30", "--curve-step", "16", "--json", *extra,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def texts_by_sentence(nbest):
    listing = NBestList.from_entries(open_nbest(nbest))
    return dict(zip(listing.sentence_ids, listing.candidates))


@pytest.mark.parametrize("limit", ["0", "3", "all"])
def test_each_sentence_lists_its_best_candidates_with_their_texts_once(moses, limit):
    nbest, refs = moses
    data = orange_json(nbest, refs, "--above-reference", limit)
    assert list(data) == [
        "metrics",
        "above_reference_limit",
        "candidate_texts",
        "interval",
        "warnings",
    ]
    assert data["above_reference_limit"] == (int(limit) if limit != "all" else "all")
    candidates = texts_by_sentence(nbest)
    listed = set()
    for spec in SPECS:
        entry = data["metrics"][spec]
        higher = get_metric(spec).higher_is_better
        assert entry["n_candidates_above"] == sum(
            s["n_above"] for s in entry["above_reference"]
        )
        for sentence in entry["above_reference"]:
            pairs = sentence["candidates"]
            wanted = sentence["n_above"] if limit == "all" else int(limit)
            assert len(pairs) == min(wanted, sentence["n_above"])
            scores = [score for _, score in pairs]
            assert scores == sorted(scores, reverse=higher)
            for index, score in pairs:
                assert (score > sentence["oracle_score"]) == higher
                listed.add((sentence["sentence"], index))
    texts = data["candidate_texts"]
    assert {(int(s), int(j)) for s in texts for j in texts[s]} == listed
    for s, by_index in texts.items():
        for j, text in by_index.items():
            assert text == candidates[int(s)][int(j)]


def test_none_keeps_the_counts_and_drops_lists_and_texts(moses):
    nbest, refs = moses
    data = orange_json(nbest, refs, "--above-reference", "none")
    everything = orange_json(nbest, refs, "--above-reference", "all")
    assert data["candidate_texts"] == {}
    for spec in SPECS:
        entry, full = data["metrics"][spec], everything["metrics"][spec]
        assert "above_reference" not in entry
        del full["above_reference"]
        assert entry == full


def test_the_default_lists_ten(moses):
    nbest, refs = moses
    data = orange_json(nbest, refs)
    assert data["above_reference_limit"] == 10
    assert (
        max(
            len(s["candidates"])
            for entry in data["metrics"].values()
            for s in entry["above_reference"]
        )
        <= 10
    )


def test_a_bad_limit_is_refused(moses):
    nbest, refs = moses
    completed = run("--nbest", nbest, "--refs", *refs, "--above-reference", "many")
    assert completed.returncode == 2
    assert "--above-reference" in completed.stderr


def test_the_numbers_equal_ranking_the_texts_and_gzip_changes_nothing(moses, tmp_path):
    nbest, refs = moses
    packed = tmp_path / "run1.NBEST.out.gz"
    packed.write_bytes(gzip.compress(nbest.read_bytes()))
    data = orange_json(nbest, refs, "--above-reference", "all")
    assert orange_json(packed, refs, "--above-reference", "all") == data
    streams = [read_segments(path) for path in refs]
    listing = NBestList.from_entries(open_nbest(nbest))
    references = [tuple(s[i] for s in streams) for i in listing.sentence_ids]
    metrics = prepare_metrics(
        {spec: get_metric(spec) for spec in SPECS}, list(zip(*streams))
    )
    expected = orange_metrics(
        metrics,
        listing.candidates,
        references,
        OrangeOptions(curve_step=16, n_bootstrap=30, seed=1),
        sentence_ids=listing.sentence_ids,
    )
    for spec in SPECS:
        entry, result = data["metrics"][spec], expected[spec]
        for key in ("orange", "avg_rank", "ci_low", "ci_high", "n_short"):
            assert entry[key] == getattr(result, key)
        assert entry["curve"] == [list(point) for point in result.curve]
        above = {
            (item["sentence"], c["index"]): c["score"]
            for item in result.above_reference
            for c in item["candidates"]
        }
        assert {
            (s["sentence"], index): score
            for s in entry["above_reference"]
            for index, score in s["candidates"]
        } == above


def test_the_paired_test_ranks_engine_and_per_pair_metrics_as_the_plain_run(moses):
    nbest, refs = moses
    plain = orange_json(nbest, refs)["metrics"]
    tested = orange_json(nbest, refs, "--paired-test")["metrics"]
    for spec in SPECS:  # chrf pair by pair or in the engine, the others in it
        entry = dict(tested[spec])
        assert set(entry.pop("paired_test")) >= {"best", "equivalent", "p_value"}
        assert entry == plain[spec]
