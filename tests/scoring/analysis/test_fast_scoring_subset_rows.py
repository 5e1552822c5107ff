"""BLEU/BLEUS, NIST, WER, PER and ROUGE through the kernels (the families' rows for the
subset of all a segment's references) equal the metrics' own code: every
statistic, the corpus score, the sentence scores, the signatures and the
details, on real WMT21 outputs with one, two and three references and on
odd text (empty lines, one word, long lines, a word repeated)."""

import numpy as np
import pytest

from scoring import get_metric
from scoring.analysis.fast_scoring import score_output, statistics
from scoring.batch.segment_rows import supports_rows
from tests.scoring.analysis.test_fast_scoring import CASES, corpus

SPECS = [
    "bleu",
    "bleus",
    "bleu:n=2",
    "bleu:lowercase=true",
    "bleu:tokenize=char",
    "wer",
    "wer:lowercase=true",
    "per",
    "per:pool_lengths=true",
    "rouge-l",
    "rouge-n",
    "rouge-n:n=1",
    "rouge-w",
    "rouge-s",
    "rouge-su",
    "rouge-l:multiref=best",
    "rouge-n:multiref=best",
    "nist",
    "nist:n=3",
    "nist:lowercase=true",
]


def _not_the_metrics_own_code(*args, **kwargs):
    raise AssertionError("the metric's own per-pair code ran")


def assert_same_result(fast, own) -> None:
    np.testing.assert_array_equal(fast.statistics, own.statistics)
    assert fast.statistics.dtype == own.statistics.dtype
    assert fast.score == pytest.approx(own.score, abs=1e-12)
    assert fast.signature == own.signature
    assert fast.sentence_signature == own.sentence_signature
    assert fast.sentence_scores == pytest.approx(own.sentence_scores, abs=1e-12)
    assert fast.details == own.details


@pytest.mark.parametrize("spec", SPECS)
def test_these_metrics_take_the_kernels(spec):
    assert supports_rows(get_metric(spec))


@pytest.mark.parametrize("pair, refs, system, n", CASES)
@pytest.mark.parametrize("spec", SPECS)
def test_the_rows_and_results_equal_the_metrics_own(
    spec, pair, refs, system, n, monkeypatch
):
    hypotheses, references = corpus(pair, refs, system, n)
    metric = get_metric(spec)
    own = metric.score(hypotheses, references, sentence=True)
    for name in ("score", "segment_statistics", "_statistics", "segment_row"):
        monkeypatch.setattr(type(metric), name, _not_the_metrics_own_code)

    rows = statistics(metric, hypotheses, references)
    fast = score_output(metric, hypotheses, references, sentence=True)

    assert rows.dtype == own.statistics.dtype
    np.testing.assert_array_equal(rows, own.statistics)
    assert_same_result(fast, own)


LONG = " ".join(f"w{i % 37}" for i in range(600))
ODD_HYPOTHESES = ["", "word", LONG, "the the the the", "a b", "", "x y z ."]
ODD_REFERENCES = [
    ["", "word", LONG[:900], "the", "", "some words here", "x y z ."],
    ["one", "", LONG, "the the cat", "a b", "", "X Y Z ."],
]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("n_refs", [1, 2])
def test_odd_text_gives_the_metrics_own_rows(spec, n_refs, monkeypatch):
    metric = get_metric(spec)
    references = ODD_REFERENCES[:n_refs]
    own = metric.score(ODD_HYPOTHESES, references, sentence=True)
    for name in ("score", "segment_statistics", "_statistics", "segment_row"):
        monkeypatch.setattr(type(metric), name, _not_the_metrics_own_code)

    fast = score_output(metric, ODD_HYPOTHESES, references, sentence=True)

    assert_same_result(fast, own)


def test_a_single_one_word_segment():
    for spec in SPECS:
        metric = get_metric(spec)
        fast = score_output(metric, ["word"], [["word"]], sentence=True)
        assert_same_result(fast, metric.score(["word"], [["word"]], sentence=True))


def test_the_progress_ends_at_one():
    fractions = []
    score_output(get_metric("bleu"), ["a b"], [["a b"]], True, fractions.append)
    assert fractions == [1.0]


def test_references_are_tokenised_once_for_the_systems_of_a_test_set(monkeypatch):
    from collections import Counter

    from scoring.batch.segment_rows import _token_view

    metric = get_metric("wer")
    view_class = type(_token_view(metric))
    calls = Counter()
    real = view_class.__call__

    def counting(self, text):
        calls[text] += 1
        return real(self, text)

    monkeypatch.setattr(view_class, "__call__", counting)
    references = [["kept reference one", "kept reference two"]]
    first = score_output(metric, ["system one", "system two"], references)
    second = score_output(metric, ["other one", "other two"], references)

    assert calls["kept reference one"] == calls["kept reference two"] == 1
    assert calls["system one"] == calls["other one"] == 1
    monkeypatch.undo()
    for hypotheses, fast in ((["system one", "system two"], first),
                             (["other one", "other two"], second)):  # fmt: skip
        assert_same_result(fast, metric.score(hypotheses, references))


def test_a_changed_reference_is_tokenised_again():
    metric = get_metric("bleu")
    hypotheses = ["a b c d", "e f g h"]
    before = [["a b c d", "e f g h"]]
    after = [["a b c d", "e f x h"]]
    score_output(metric, hypotheses, before, sentence=True)

    fast = score_output(metric, hypotheses, after, sentence=True)

    assert_same_result(fast, metric.score(hypotheses, after, sentence=True))
    assert fast.sentence_scores[1] < 100


@pytest.mark.parametrize("spec", ["bleu", "ter", "nist"])
def test_a_long_output_reports_progress_after_each_grid(spec):
    # A job learns at its progress reports that its output was deleted: a
    # long output must report while the kernels work, not only at the end.
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(50)]

    def text():
        return " ".join(rng.choice(words, size=int(rng.integers(1, 12))))

    hypotheses = [text() for _ in range(600)]
    references = [[text() for _ in hypotheses]]
    metric = get_metric(spec)
    fractions = []
    result = score_output(metric, hypotheses, references, progress=fractions.append)
    assert fractions[:3] == pytest.approx([250 / 600, 500 / 600, 1.0])
    whole = metric.score(hypotheses, references)
    assert result.score == pytest.approx(whole.score, rel=1e-12)
    assert np.array_equal(result.statistics, whole.statistics)
