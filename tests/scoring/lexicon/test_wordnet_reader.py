"""The WordNet 3.0 reader and METEOR's synonym sets built on it.

Expected values are read by eye from Debian's ``wordnet-base`` files
(``index.noun``: "dog n 7 5 @ ~ #m #p %p 7 1 02084071 ...";
``noun.exc``: "geese goose"; ``verb.exc``: "sitting sit").
"""

from __future__ import annotations

import pytest

from scoring.lexicon.wordnet import DEFAULT_WORDNET_DIR, load_wordnet, wordnet_available
from scoring.metrics.meteor.stages import synonym_sets

NOUN, VERB = 0, 1


@pytest.fixture(scope="module")
def wordnet():
    if not wordnet_available(DEFAULT_WORDNET_DIR):
        pytest.skip(f"WordNet files not found in {DEFAULT_WORDNET_DIR} (wordnet-base)")
    return load_wordnet(DEFAULT_WORDNET_DIR)


def test_it_reads_lemmas_and_their_synset_offsets(wordnet) -> None:
    assert wordnet.version == "3.0"
    dog = wordnet.synsets["dog"]
    assert 2084071 * 4 + NOUN in dog  # the first noun sense
    assert 2001876 * 4 + VERB in dog  # "dog" as a verb (index.verb)
    assert len(dog) == 7 + 1
    assert "hot_dog" in wordnet.synsets  # multi-word lemmas keep "_"


def test_it_reads_the_exception_lists(wordnet) -> None:
    assert wordnet.exceptions["geese"] == ("goose",)
    assert wordnet.exceptions["sitting"] == ("sit",)


def test_meteor_synonym_sets_add_the_base_form(wordnet) -> None:
    # "cars": no lemma of its own; METEOR's first suffix rule gives "car".
    assert synonym_sets("cars", wordnet) == wordnet.synsets["car"]
    # Irregular forms come from the exception lists.
    assert wordnet.synsets["goose"] <= synonym_sets("geese", wordnet)
    # A word ending in "ss" is its own base form.
    assert synonym_sets("glass", wordnet) == wordnet.synsets["glass"]
    assert synonym_sets("qwxz", wordnet) == frozenset()


def test_car_and_automobile_share_a_synset(wordnet) -> None:
    assert synonym_sets("car", wordnet) & synonym_sets("automobile", wordnet)


def test_a_directory_without_the_files_gives_no_wordnet(tmp_path) -> None:
    assert load_wordnet(str(tmp_path)) is None
