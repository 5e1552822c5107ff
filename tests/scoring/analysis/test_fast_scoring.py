"""The compiled route of a system output's statistics equals the metric's own
per-pair code, row for row, on real WMT21 outputs: one reference (zh-en, with
its empty lines), three (en-de) and two (de-en, as the per-reference
diagnostics score them), for METEOR (with paraphrases when the table is
here), TER, chrF and chrF++; and ``score_output`` returns what
``metric.score`` returns."""

import numpy as np
import pytest

from scoring import get_metric
from scoring.analysis.fast_scoring import score_output, statistics
from scoring.analysis.references import score_references, score_system
from tests.scoring.batch.test_meteor_family import paraphrase_table
from tests.scoring.support.realdata import load_test_set, segment_count

CASES = [("zh-en", "A", "Online-W", 400), ("en-de", "ACD", "Online-W", 150),
         ("de-en", "AB", "Online-W", 200)]  # fmt: skip
SPECS = [
    "meteor",
    "ter",
    "chrf",
    "chrf++",
    "ter:normalize=true",
    "chrf:whitespace=true",
]


def corpus(pair: str, refs: str, system: str, n: int):
    data = load_test_set(pair, refs)
    n = min(n, segment_count(f"wmt21/{pair}", n))
    hypotheses = list(data.system(system)[:n])
    return hypotheses, [list(stream[:n]) for stream in data.references]


def metric_of(spec: str, pair: str):
    language = pair.split("-")[1]
    if spec == "meteor":
        table = paraphrase_table() if language == "en" else None
        defaults = {"paraphrase": table} if table else {}
        return get_metric(f"meteor:lang={language}", defaults=defaults)
    return get_metric(spec)


@pytest.mark.parametrize("pair, refs, system, n", CASES)
@pytest.mark.parametrize("spec", SPECS)
def test_the_rows_equal_the_metrics_own(spec, pair, refs, system, n):
    hypotheses, references = corpus(pair, refs, system, n)
    metric = metric_of(spec, pair)

    fast = statistics(metric, hypotheses, references)

    own = metric.segment_statistics(hypotheses, references)
    assert fast.dtype == own.dtype
    assert fast.shape == own.shape
    np.testing.assert_array_equal(fast, own)


def test_score_output_returns_what_score_returns():
    hypotheses, references = corpus("en-de", "ACD", "Online-W", 120)
    metric = get_metric("chrf")
    fractions = []

    fast = score_output(metric, hypotheses, references, True, fractions.append)

    own = metric.score(hypotheses, references, sentence=True)
    assert fast.score == pytest.approx(own.score, abs=1e-12)
    assert fast.signature == own.signature and "refs:" in fast.signature
    assert fast.sentence_signature == own.sentence_signature
    assert fast.sentence_scores == pytest.approx(own.sentence_scores, abs=1e-12)
    assert fast.details == own.details
    assert fractions[-1] == 1.0


def test_a_metric_without_kernel_rows_is_scored_by_its_own_code():
    hypotheses, references = corpus("de-en", "AB", "Online-W", 50)
    metric = get_metric("ser")  # BLEU and NIST have kernel rows now
    fast = score_output(metric, hypotheses, references, True)
    own = metric.score(hypotheses, references, sentence=True)
    assert fast.score == pytest.approx(own.score, abs=1e-12)
    np.testing.assert_array_equal(fast.statistics, own.statistics)


def test_the_diagnostics_jackknife_through_the_kernels_equals_scoring_each_subset():
    hypotheses, references = corpus("en-de", "ACD", "Online-W", 100)
    ter = get_metric("ter")
    held_out = score_references(ter, references)
    system = score_system(ter, hypotheses, references)
    for k in range(3):
        others = [stream for j, stream in enumerate(references) if j != k]
        expected = ter.score(references[k], others).score
        assert held_out.corpus[k] == pytest.approx(expected, abs=1e-9)
        mine = ter.score(hypotheses, others).score
        assert system.held_out[k] == pytest.approx(mine, abs=1e-9)
