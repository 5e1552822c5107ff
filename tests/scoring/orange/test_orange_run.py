"""ORANGE over real Moses n-best lists, checked against sacreBLEU sentence BLEU."""

import numpy as np
import pytest

from scoring import get_metric
from scoring.orange.dispatch import orange_for_metric
from scoring.orange.nbest import NBestList, open_nbest
from scoring.orange.options import OrangeOptions
from scoring.orange.ranking import rank_sentences, summarise
from tests.scoring.support.realdata import DATA_DIR, measured, read_lines

RUN = DATA_DIR / "moses-nbest" / "regression-mert-moses-new"
# Candidates per sentence (the fixtures keep the first 64 of each list).
CANDIDATES = measured(full=200, fixtures=64)


@pytest.fixture(scope="module")
def moses():
    if not RUN.exists():
        pytest.skip(f"real Moses n-best data not found at {RUN}")
    nbest = NBestList.from_entries(open_nbest(RUN / "run1.NBEST.out"))
    streams = [read_lines(RUN / f"reference.{k}") for k in range(3)]
    references = [tuple(stream[i] for stream in streams) for i in nbest.sentence_ids]
    return nbest, references


def sacrebleu_orange(nbest, references, all_references=False):
    """The same definition written directly on sacreBLEU's sentence_bleu."""
    from sacrebleu.metrics import BLEU

    bleu = BLEU(effective_order=True, smooth_method="add-k", smooth_value=1)
    scores, oracles = [], []
    for candidates, refs in zip(nbest.candidates, references):

        def score(text, others):
            return bleu.sentence_score(text, list(others)).score

        held_out = [[r for j, r in enumerate(refs) if j != k] for k in range(len(refs))]
        oracles.append(np.mean([score(refs[k], held_out[k]) for k in range(len(refs))]))
        if all_references:
            scores.append(np.array([score(c, refs) for c in candidates]))
        else:
            scores.append(
                np.array([np.mean([score(c, o) for o in held_out]) for c in candidates])
            )
    rankings = rank_sentences(
        scores, oracles, higher_is_better=True, curve_n=np.array([1, 64, CANDIDATES])
    )
    return summarise(rankings, metric="bleu", n_bootstrap=200, seed=1)


@pytest.mark.parametrize("all_references", [False, True])
def test_it_matches_orange_computed_on_sacrebleu_sentence_bleu(moses, all_references):
    nbest, references = moses
    options = OrangeOptions(
        all_references=all_references, curve_step=64, n_bootstrap=200
    )
    ours = orange_for_metric(
        get_metric("bleu"), "bleu", nbest.candidates, references, options
    )
    expected = sacrebleu_orange(nbest, references, all_references)
    assert ours.n_sentences == 5 and ours.max_candidates == CANDIDATES
    assert ours.orange == pytest.approx(expected.orange, abs=1e-9)
    assert ours.avg_rank == expected.avg_rank
    assert (ours.ci_low, ours.ci_high) == (expected.ci_low, expected.ci_high)
    curve = measured(full=[1, 64, 128, 192, 200], fixtures=[1, 64])
    assert [p[0] for p in ours.curve] == curve
    assert ours.curve[-1][1] == pytest.approx(ours.orange, rel=1e-12)


def test_chunked_runs_give_the_same_answer(moses):
    nbest, references = moses
    options = OrangeOptions(n_bootstrap=100, curve_step=50)
    whole = orange_for_metric(
        get_metric("bleu:n=2"), "bleu:n=2", nbest.candidates, references, options
    )
    chunked = orange_for_metric(
        get_metric("bleu:n=2"),
        "bleu:n=2",
        nbest.candidates,
        references,
        options,
        chunk_size=2,
    )
    assert chunked.to_dict() == whole.to_dict()


def test_it_needs_two_references(moses):
    nbest, references = moses
    from scoring import MetricError

    with pytest.raises(MetricError, match="at least two references"):
        orange_for_metric(
            get_metric("bleu"), "bleu", nbest.candidates[:1], [references[0][:1]]
        )
