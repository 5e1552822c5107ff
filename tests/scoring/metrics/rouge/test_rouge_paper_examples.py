"""ROUGE-L/W/S/SU/N on the worked examples of Lin & Och 2004 (seed 000) and the
lecture notes (seed 002), the F-measure's alpha/beta relation, and the
ROUGE-1.5.5 counting rules, all checked by hand."""

from __future__ import annotations

import doctest
import importlib
import math

import pytest

from scoring import MetricError, get_metric
from scoring import __version__ as VERSION
from scoring.metrics.rouge.lcs import lcs_length, rouge155_wlcs_hits, wlcs_table
from scoring.metrics.rouge.metrics import RougeL, RougeN, RougeS, RougeSU, RougeW
from scoring.metrics.rouge.preprocess import wordnet_exceptions
from scoring.metrics.rouge.skip import skip_bigram_counts

S1 = "police killed the gunman"
S2 = "police kill the gunman"
S3 = "the gunman kill police"
S4 = "the gunman police killed"


def sentence_scores(metric, hypotheses, reference):
    result = metric.score(hypotheses, [[reference] * len(hypotheses)], sentence=True)
    return result.sentence_scores


def test_rouge_l_gives_the_papers_0_75_and_0_5_with_beta_1() -> None:
    scores = sentence_scores(get_metric("rouge-l:beta=1"), [S2, S3], S1)
    assert scores == pytest.approx([0.75, 0.5], abs=1e-12)


def test_rouge_l_cannot_tell_the_lectures_two_lcs_of_five_apart() -> None:
    reference = "The boy who came here is my student"
    first = "The boy who came here studies with me"
    second = "The is my boy who came study here"
    scores = sentence_scores(get_metric("rouge-l"), [first, second], reference)
    assert scores == pytest.approx([5 / 8, 5 / 8], abs=1e-12)


def test_rouge_w_with_k_squared_gives_the_papers_0_571_and_0_286() -> None:
    reference = "A B C D E F G"
    metric = get_metric("rouge-w:w=2")
    scores = sentence_scores(metric, ["A B C D H I K", "A H B K C I D"], reference)
    # R = P = sqrt(16 / 49) = 4 / 7 and sqrt(4 / 49) = 2 / 7.
    assert scores == pytest.approx([4 / 7, 2 / 7], abs=1e-12)
    assert round(scores[0], 3) == 0.571 and round(scores[1], 3) == 0.286


def test_rouge_w_with_weight_1_is_rouge_l() -> None:
    hypotheses = [S2, S3, S4, "gunman police the killed police"]
    assert sentence_scores(get_metric("rouge-w:w=1"), hypotheses, S1) == (
        pytest.approx(sentence_scores(get_metric("rouge-l"), hypotheses, S1), rel=1e-12)
    )


def test_rouge_s_star_gives_the_papers_0_5_0_167_and_0_333() -> None:
    scores = sentence_scores(get_metric("rouge-s:d=*"), [S2, S3, S4], S1)
    assert scores == pytest.approx([3 / 6, 1 / 6, 2 / 6], abs=1e-12)
    assert [round(score, 3) for score in scores] == [0.5, 0.167, 0.333]


def test_rouge_s0_is_bigram_rouge_2_and_limits_count_allowed_pairs_only() -> None:
    hypotheses = [S2, S3, S4, "police the killed gunman the"]
    assert sentence_scores(get_metric("rouge-s:d=0"), hypotheses, S1) == (
        pytest.approx(
            sentence_scores(get_metric("rouge-n:n=2"), hypotheses, S1), rel=1e-12
        )
    )
    # "police the gunman" vs "police killed the gunman" with d = 1: the
    # reference has 3 + 2 = 5 pairs with at most one word between (police
    # killed, police the, killed the, killed gunman, the gunman), the
    # hypothesis 2 + 1 = 3 (police the, police gunman, the gunman); 2 match.
    metric = get_metric("rouge-s:d=1,measure=r")
    assert sentence_scores(metric, ["police the gunman"], S1) == pytest.approx(
        [2 / 5], rel=1e-12
    )
    metric = get_metric("rouge-s:d=1,measure=p")
    assert sentence_scores(metric, ["police the gunman"], S1) == pytest.approx(
        [2 / 3], rel=1e-12
    )


def test_rouge_su_adds_every_unigram_by_default_and_all_but_the_last_in_rouge155() -> (
    None
):
    # Default: 6 skip-bigrams + 4 unigrams on each side; S2 matches 3 + 3.
    default = sentence_scores(get_metric("rouge-su:d=*"), [S2], S1)
    assert default == pytest.approx([6 / 10], rel=1e-12)
    # ROUGE-1.5.5: unigrams of tokens 1-3 only (police killed the / police
    # kill the): 6 + 3 units, 3 + 2 match.
    official = sentence_scores(get_metric("rouge-su:d=*,preprocess=rouge155"), [S2], S1)
    assert official == (round(5 / 9, 5),)
    assert sum(skip_bigram_counts("a", None, "all-but-last").values()) == 0


def test_rouge_n_clips_matches_and_pools_several_references() -> None:
    # Lecture: both "police kill the gunman" and "the gunman kill police"
    # share "police", "the gunman" with the reference: 3 unigrams, 1 bigram.
    assert sentence_scores(get_metric("rouge-n:n=1"), [S2, S3], S1) == (
        pytest.approx([3 / 4, 3 / 4], rel=1e-12)
    )
    assert sentence_scores(get_metric("rouge-n:n=2"), [S2, S3], S1) == (
        pytest.approx([1 / 3, 1 / 3], rel=1e-12)
    )
    # "the the the" vs refs "the cat" and "the the": average pools hits
    # (1 + 2), reference counts (2 + 2) and hypothesis counts (3 + 3).
    metric = get_metric("rouge-n:n=1,measure=r", tokenize="none")
    result = metric.score(["the the the"], [["the cat"], ["the the"]], sentence=True)
    assert result.sentence_scores == pytest.approx([3 / 4], rel=1e-12)
    metric = get_metric("rouge-n:n=1,measure=p", tokenize="none")
    result = metric.score(["the the the"], [["the cat"], ["the the"]], sentence=True)
    assert result.sentence_scores == pytest.approx([3 / 6], rel=1e-12)
    best = get_metric("rouge-n:n=1,measure=p,multiref=best", tokenize="none")
    result = best.score(["the the the"], [["the cat"], ["the the"]], sentence=True)
    assert result.sentence_scores == pytest.approx([2 / 3], rel=1e-12)


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 3.0])
def test_beta_and_alpha_give_the_same_f_measure(beta: float) -> None:
    # "police the gunman" vs S1: R = 3 / 4, P = 3 / 3.
    recall, precision = 0.75, 1.0
    paper = (1 + beta**2) * recall * precision / (recall + beta**2 * precision)
    by_beta = get_metric(f"rouge-l:beta={beta}")
    by_alpha = get_metric(f"rouge-l:alpha={1 / (1 + beta**2)}")
    for metric in (by_beta, by_alpha):
        scores = sentence_scores(metric, ["police the gunman"], S1)
        assert scores == pytest.approx([paper], abs=1e-12)
    assert by_beta.effective_alpha == pytest.approx(1 / (1 + beta**2), rel=1e-12)


def test_rouge_w_in_rouge155_mode_reproduces_the_scripts_two_quirks() -> None:
    # Hit: the back-traced LCS of S1/S2 marks reference positions 1, 3, 4
    # (police, the, gunman): runs of 1 and 2 -> 1 + 2^2 = 5 (the paper's
    # c(m, n) is 1 + 1 + 3 = 5 here too). Recall divides by f(f(4)) = 4^4.
    metric = RougeW(weight=2.0, preprocess="rouge155", measure="r")
    assert sentence_scores(metric, [S2], S1) == (round(math.sqrt(5 / 256), 5),)
    metric = RougeW(weight=2.0, preprocess="rouge155", measure="p")
    assert sentence_scores(metric, [S2], S1) == (round(math.sqrt(5 / 16), 5),)
    # "a x b" vs reference "a b": adjacent in the reference, not in the
    # hypothesis: one run of 2 for ROUGE-1.5.5 (4), two matches for the DP (2).
    assert rouge155_wlcs_hits("ab", "axb", 2.0) == 4.0
    assert wlcs_table("ab", "axb", 2.0)[0] == 2.0


def test_lcs_length_is_symmetric_and_handles_repeats() -> None:
    assert lcs_length("abcbdab", "bdcaba") == 4
    assert lcs_length("bdcaba", "abcbdab") == 4
    assert lcs_length((1, 1, 1), (1, 1)) == 2
    assert lcs_length((), (1,)) == 0


@pytest.mark.parametrize(
    ("spec", "signature"),
    [
        (
            "rouge-l",
            "rouge-l|nrefs:1|case:lc|tok:13a|punct:no|stem:no|multiref:avg"
            f"|measure:f|alpha:0.5|version:{VERSION}",
        ),
        (
            "rouge-n:n=4,measure=r",
            "rouge-n|nrefs:1|case:lc|tok:13a|punct:no|stem:no|n:4|multiref:avg"
            f"|measure:r|version:{VERSION}",
        ),
        (
            "rouge-w:w=1.2,preprocess=rouge155,multiref=best",
            "rouge-w|nrefs:1|pre:rouge155|stem:no|w:1.2|multiref:best|measure:f"
            f"|alpha:0.5|version:{VERSION}",
        ),
        (
            "rouge-s:d=*,beta=2",
            "rouge-s|nrefs:1|case:lc|tok:13a|punct:no|stem:no|d:*|multiref:avg"
            f"|measure:f|alpha:0.2|version:{VERSION}",
        ),
        (
            "rouge-su:d=4,tokenize=none,lowercase=false,punct=true",
            "rouge-su|nrefs:1|case:mixed|tok:none|punct:yes|stem:no|d:4"
            f"|multiref:avg|measure:f|alpha:0.5|version:{VERSION}",
        ),
    ],
)
def test_signatures_name_every_setting_that_changes_the_number(
    spec: str, signature: str
) -> None:
    metric = get_metric(spec)
    assert metric.signature(nrefs=1) == signature
    assert metric.sentence_signature(nrefs=1) == signature
    assert (metric.scale, metric.higher_is_better) == (1.0, True)


def test_stemming_is_named_in_the_signature() -> None:
    label = get_metric("rouge-l:stem=true,preprocess=rouge155").signature()
    # "+wn": WordNet's exception lists are installed and used.
    stemmer = "porter+wn" if wordnet_exceptions() is not None else "porter"
    assert f"|stem:{stemmer}|" in label


@pytest.mark.parametrize(
    ("spec", "complaint"),
    [
        ("rouge-n:n=0", "n=0 is out of range; allowed: from 1 to 9"),
        ("rouge-w:w=0", "w=0.0 is out of range; allowed: more than 0"),
        ("rouge-w:w=inf", "w=inf is out of range"),
        ("rouge-s:d=-1", "d=-1 is out of range; allowed: from 0 to 100"),
        ("rouge-su:d=two", "integer >= 0 or \\*"),
        ("rouge-l:beta=1,alpha=0.5", "not both"),
        ("rouge-l:alpha=1.5", "alpha=1.5 is out of range; allowed: from 0 to 1"),
        ("rouge-l:beta=-1", "beta=-1.0 is out of range; allowed: from 0 to 100"),
        ("rouge-l:multiref=max", "expected one of: average, best"),
        ("rouge-l:preprocess=perl", "expected one of: default, rouge155"),
        ("rouge-l:measure=x", "expected one of: f, r, p"),
    ],
)
def test_bad_configurations_are_refused_with_a_reason(
    spec: str, complaint: str
) -> None:
    with pytest.raises(MetricError, match=complaint):
        get_metric(spec)


def test_the_classes_can_be_built_directly_with_typed_values() -> None:
    assert RougeS(skip=4).skip == "4"
    assert RougeSU(skip="*").max_skip is None
    assert RougeN(order=3).signature().count("|n:3|") == 1
    assert RougeL(alpha=0.0).effective_alpha == 0.0


@pytest.mark.parametrize(
    "module_name",
    [
        "scoring.metrics.rouge.porter",
        "scoring.metrics.rouge.metrics",
        "scoring.metrics.rouge.lcs",
        "scoring.metrics.rouge.preprocess",
        "scoring.metrics.rouge.skip",
        "scoring.metrics.rouge.average155",
    ],
)
def test_the_docstring_examples_of_the_rouge_modules_hold(module_name: str) -> None:
    module = importlib.import_module(module_name)
    outcome = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0
    assert outcome.failed == 0
