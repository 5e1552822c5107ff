"""Matched n-gram orders per token, worked by hand."""

import pytest

from scoring.analysis.highlight import highlight_sentence, matched_orders, ngram_set


def test_it_gives_each_token_its_longest_matched_order():
    hypothesis = "the cat sat on the mat".split()
    reference = "the cat is on the mat".split()
    result = highlight_sentence(hypothesis, [reference])
    # "on the mat" is a matched trigram; "the cat" a bigram; "sat" nothing.
    assert result.hypothesis.orders == (2, 2, 0, 3, 3, 3)
    # In the reference: "is" occurs nowhere in the hypothesis.
    assert result.references[0].orders == (2, 2, 0, 3, 3, 3)


def test_a_four_gram_beats_its_shorter_parts():
    hypothesis = "a b c d e".split()
    result = highlight_sentence(hypothesis, ["x a b c d".split()])
    assert result.hypothesis.orders == (4, 4, 4, 4, 0)


def test_orders_stop_at_max_order():
    tokens = "a b c d e f".split()
    result = highlight_sentence(tokens, [tokens], max_order=4)
    assert result.hypothesis.orders == (4,) * 6
    assert highlight_sentence(tokens, [tokens], max_order=2).hypothesis.orders == (
        (2,) * 6
    )


def test_the_hypothesis_matches_against_any_reference():
    hypothesis = "it is raining today".split()
    references = ["it rains".split(), "is raining now".split()]
    result = highlight_sentence(hypothesis, references)
    assert result.hypothesis.orders == (1, 2, 2, 0)
    # Each reference shows what the hypothesis matched in it.
    assert result.references[0].orders == (1, 0)
    assert result.references[1].orders == (2, 2, 0)


def test_css_pairs_name_a_class_per_token():
    result = highlight_sentence(["<script>", "x"], [["<script>"]])
    assert result.hypothesis.css_pairs() == [("<script>", "match-1"), ("x", "match-0")]


def test_empty_sentences_have_no_tokens():
    result = highlight_sentence([], [[], ["a"]])
    assert result.hypothesis.orders == ()
    assert result.references[1].orders == (0,)


def test_ngram_set_and_matched_orders_helpers():
    assert ngram_set(["a", "b"], 2) == {("a",), ("b",), ("a", "b")}
    assert matched_orders(["a", "b", "a"], {("a",)}, 4) == (1, 0, 1)


def test_max_order_must_be_positive():
    with pytest.raises(ValueError):
        highlight_sentence(["a"], [["a"]], max_order=0)
