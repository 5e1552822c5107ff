"""A chunk ranked from word ids (what the web's chunks do) equals the same
chunk ranked from its texts (``rank_chunk_metrics``): the tokens made once per
distinct word give the same rankings, for the engine's metrics and for those
that go pair by pair, on the real Moses lists and on unusual lines."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from scoring import get_metric
from scoring.bench.suites import PAPER_34
from scoring.orange.dispatch import rank_chunk_metrics, rank_nbest_chunk
from scoring.orange.nbest import NBestList, iter_nbest
from scoring.orange.nbest_stream import nbest_words_from_bytes
from scoring.orange.options import OrangeOptions
from scoring.orange.prepare import prepare_metrics
from scoring.orange.ranking import curve_points
from tests.scoring.support.batch_cases import REGRESSION_RUN
from tests.scoring.support.realdata import read_lines

OPTIONS = OrangeOptions(curve_step=3, n_bootstrap=10)
SPECS = (*PAPER_34.values(), "chrf++", "ter", "gtm:e=2", "wnm:weights=none")


def assert_same_rankings(got, expected):
    assert len(got) == len(expected)
    for one, other in zip(got, expected):
        for field in dataclasses.fields(one):
            a, b = getattr(one, field.name), getattr(other, field.name)
            if isinstance(a, np.ndarray):
                np.testing.assert_array_equal(a, b, err_msg=field.name)
            else:
                assert a == b, field.name


def both_ways(metrics, data: bytes, references, per_pair=False):
    entries = NBestList.from_entries(
        iter_nbest(data.decode("utf-8").split("\n"), "chunk")
    )
    refs = [references[i] for i in entries.sentence_ids]
    curve_n = curve_points(max(map(len, entries.candidates)), OPTIONS.curve_step)
    common = {"curve_n": curve_n, "options": OPTIONS, "per_pair": per_pair}
    from_texts = rank_chunk_metrics(
        metrics,
        entries.candidates,
        refs,
        sentence_ids=list(entries.sentence_ids),
        **common,
    )
    from_words = rank_nbest_chunk(
        metrics, nbest_words_from_bytes(data, "chunk"), refs, **common
    )
    return from_texts, from_words


def test_the_moses_list_ranks_alike_both_ways():
    if not REGRESSION_RUN.exists():
        pytest.skip(f"real Moses n-best data not found at {REGRESSION_RUN}")
    references = list(
        zip(*(read_lines(REGRESSION_RUN / f"reference.{k}") for k in range(3)))
    )
    metrics = prepare_metrics([get_metric(spec) for spec in SPECS], references)
    data = (REGRESSION_RUN / "run1.NBEST.out").read_bytes()
    from_texts, from_words = both_ways(metrics, data, references)
    assert_same_rankings(from_words, from_texts)


UNUSUAL = (
    "0 ||| the cat\u2028sat ||| f ||| 1\n"  # Unicode whitespace: the exact reader
    "0 ||| The Cat sat, on the mat. ||| f ||| 2\n"
    "0 |||  ||| f ||| 3\n"
    "2 ||| ünï cödé — ΣΑΣ ||| f ||| 1\n"
    "2 ||| a\u00a0b c ||| f ||| 2\n"
)
REFERENCES = [
    ("the cat sat on the mat", "a cat sat on a mat", "the cat is on the mat"),
    ("unused", "unused", "unused"),
    ("ünï cödé σας", "a b c", "ΣΑΣ code"),
]


@pytest.mark.parametrize("per_pair", [False, True], ids=["engine", "per-pair"])
def test_unusual_lines_rank_alike_both_ways(per_pair):
    metrics = prepare_metrics([get_metric(spec) for spec in SPECS], REFERENCES)
    from_texts, from_words = both_ways(
        metrics, UNUSUAL.encode("utf-8"), REFERENCES, per_pair=per_pair
    )
    assert_same_rankings(from_words, from_texts)
