"""Confirmed, improving and worsening n-grams of two hypotheses, worked by hand."""

from scoring.analysis.pairwise import (
    classify_ngrams,
    highlight_pair,
    ngram_table,
    reference_max_counts,
)


def t(text: str) -> list[str]:
    return text.split()


def labels(marked, n: int) -> list[str]:
    return [token.labels[n - 1] for token in marked]


def test_an_ngram_counts_as_often_as_the_reference_that_has_it_most():
    clip = reference_max_counts([t("the cat the dog"), t("the the the end")], 1)
    assert clip[("the",)] == 3
    assert clip[("cat",)] == 1


def test_any_of_several_references_confirms_an_ngram():
    # "cat" is only in reference 1, "feline" only in reference 2.
    refs = [t("the cat sat"), t("a feline sat down")]
    pair = classify_ngrams(t("the feline sat"), t("a cat sat"), refs, 1)
    assert pair.confirmed == {("sat",): 1}
    assert pair.improving == {("a",): 1, ("cat",): 1}
    assert pair.worsening == {("feline",): 1, ("the",): 1}


def test_bigrams_across_references_are_not_glued_together():
    # "the feline" is in no single reference, so it matches nothing.
    refs = [t("the cat"), t("a feline")]
    pair = classify_ngrams(t("the feline"), t("the cat"), refs, 2)
    assert pair.confirmed == {}
    assert pair.improving == {("the", "cat"): 1}
    assert pair.worsening == {}


def test_repeated_ngrams_are_clipped_by_the_reference():
    refs = [t("the cat and the dog")]  # "the" twice
    # A repeats "the" three times: only two match. B has it once.
    pair = classify_ngrams(t("the the the cat"), t("the cat"), refs, 1)
    assert pair.confirmed == {("cat",): 1, ("the",): 1}
    assert pair.worsening == {("the",): 1}
    assert pair.improving == {}
    marked = highlight_pair(t("the the the cat"), t("the cat"), refs, 1)
    # The first "the" is confirmed, the second worsening, the third unmatched.
    assert labels(marked.hypothesis_a, 1) == ["confirmed", "worsening", "", "confirmed"]
    assert labels(marked.hypothesis_b, 1) == ["confirmed", "confirmed"]
    assert labels(marked.references[0], 1) == [
        "confirmed",
        "confirmed",
        "",
        "worsening",
        "",
    ]


def test_an_empty_hypothesis_makes_every_match_of_the_other_one_count():
    refs = [t("hello world"), t("hi world")]
    pair = classify_ngrams([], t("hello world"), refs, 1)
    assert pair.confirmed == {}
    assert pair.worsening == {}
    assert pair.improving == {("hello",): 1, ("world",): 1}
    marked = highlight_pair([], t("hello world"), refs)
    assert marked.hypothesis_a == ()
    assert labels(marked.hypothesis_b, 2) == ["improving", "improving"]
    assert labels(marked.references[1], 1) == ["", "improving"]
    assert labels(marked.references[1], 2) == ["", ""]  # "hi world" is not in B


def test_a_token_shows_the_strongest_label_of_the_ngrams_covering_it():
    refs = [t("the cat sat")]
    marked = highlight_pair(t("the dog sat"), t("the cat sat"), refs, 3)
    b = marked.hypothesis_b
    assert [token.token for token in b] == ["the", "cat", "sat"]
    assert labels(b, 1) == ["confirmed", "improving", "confirmed"]
    # Every bigram of B matches, none of A: "the" is part of "the cat".
    assert labels(b, 2) == ["improving", "improving", "improving"]
    assert labels(b, 3) == ["improving", "improving", "improving"]
    assert labels(marked.hypothesis_a, 2) == ["", "", ""]


def test_the_whole_set_table_adds_sentences_and_ranks_by_net_count():
    sentences = [
        # "cat": B right, A wrong (improving); "sat" confirmed.
        (t("the dog sat"), t("the cat sat"), [t("the cat sat")]),
        # "cat" again improving, "dog" worsening.
        (t("a dog"), t("a cat"), [t("a cat"), t("a dog")]),
        # "dog": only A has it and it is in the reference: worsening.
        (t("my dog"), t("my cat"), [t("my dog")]),
        # Empty hypotheses and an empty reference do not break anything.
        ([], [], [[]]),
    ]
    table = ngram_table(sentences, max_order=2, top=5)
    assert table.n_sentences == 4
    unigrams = table.orders[0]
    assert [(x.ngram, x.improving, x.worsening) for x in unigrams.improving] == [
        ("cat", 2, 0)
    ]
    # Sentence 2's references have both: "a dog" and "a cat" are each matched.
    assert [(x.ngram, x.improving, x.worsening) for x in unigrams.worsening] == [
        ("dog", 0, 2)
    ]
    bigrams = table.orders[1]
    assert [(x.ngram, x.net) for x in bigrams.improving] == [
        ("a cat", 1),
        ("cat sat", 1),
        ("the cat", 1),
    ]
    assert [x.ngram for x in bigrams.worsening] == ["a dog", "my dog"]
    assert bigrams.total_improving == 3 and bigrams.total_worsening == 2


def test_a_ngram_that_improves_as_often_as_it_worsens_is_in_neither_list():
    sentences = [
        (t("x"), t("y"), [t("y")]),
        (t("y"), t("x"), [t("y")]),
    ]
    order = ngram_table(sentences, max_order=1).orders[0]
    assert order.improving == () and order.worsening == ()
    assert order.total_improving == 1 and order.total_worsening == 1


def test_the_table_survives_a_round_trip_through_json():
    table = ngram_table([(t("a b"), t("a c"), [t("a c")])], max_order=2)
    assert type(table).from_dict(table.to_dict()) == table


def test_only_the_top_ngrams_are_kept():
    sentences = [((), (f"w{i}",), [(f"w{i}",)]) for i in range(15)]
    order = ngram_table(sentences, max_order=1, top=10).orders[0]
    assert len(order.improving) == 10
    assert order.improving[0].ngram == "w0"  # ties: alphabetical
    assert order.total_improving == 15
