"""The Porter stemmer of ROUGE-1.5.5 and its ``-m`` rule (WordNet exceptions).

Expected stems were printed by ROUGE-1.5.5.pl's own Perl ``stem`` routine
(Perl 5.36), an independent reference implementation; the full vocabulary of
the BLEND, WMT21 and compare-mt English files (49,569 words) was compared the
same way during development with no difference, and the BLEND oracle test
(``test_rouge_blend_agreement.py``) checks the stemmer on 5,360 real segments.
"""

from __future__ import annotations

import hashlib

import pytest

from scoring.metrics.rouge.porter import porter_stem
from scoring.metrics.rouge.preprocess import rouge155_stem, wordnet_exceptions

# word -> stem, as printed by ROUGE-1.5.5.pl's stem().
PERL_STEMS = {
    "killed": "kill",
    "generalizations": "gener",
    "fundamental": "fundam",  # CYL's step 4: -al, then -ent
    "agreement": "agreem",  # -ement is tried, m("agr") = 1 so it stays
    "replacement": "replac",
    "adjustment": "adjust",
    "embodiment": "embodi",
    "government": "govern",
    "dependent": "depend",
    "adoption": "adopt",
    "yelling": "yell",  # a leading y is a consonant
    "yttrium": "yttrium",
    "yes": "ye",
    "hopping": "hop",
    "filing": "file",
    "failing": "fail",
    "conditional": "condit",
    "rationalization": "ration",
    "relational": "relat",
    "digitizer": "digit",
    "happy": "happi",
    "sky": "sky",
    "ponies": "poni",
    "caresses": "caress",
    "cats": "cat",
    "feed": "feed",
    "agreed": "agre",
    "plastered": "plaster",
    "motoring": "motor",
    "sing": "sing",
    "conflated": "conflat",
    "troubled": "troubl",
    "sized": "size",
    "hopeful": "hope",
    "goodness": "good",
    "electrical": "electr",
    "probate": "probat",
    "rate": "rate",
    "controll": "control",
    "roll": "roll",
    "analogous": "analog",
    "believes": "believ",
    "meeting": "meet",
    "logically": "logic",
    "2015": "2015",
    "as": "as",
}


@pytest.mark.parametrize(("word", "stem"), sorted(PERL_STEMS.items()))
def test_it_stems_like_the_perl_stemmer_of_rouge_1_5_5(word: str, stem: str) -> None:
    assert porter_stem(word) == stem


def test_words_shorter_than_three_characters_are_left_alone() -> None:
    assert [porter_stem(word) for word in ["", "a", "is", "ys"]] == [
        "",
        "a",
        "is",
        "ys",
    ]


def test_rouge_stems_only_tokens_longer_than_three_characters() -> None:
    # The stemmer alone would turn "was" into "wa"; ROUGE-1.5.5 leaves
    # 3-letter tokens alone, and "cats" (4 letters) is stemmed.
    assert porter_stem("was") == "wa"
    assert rouge155_stem("was") == "was"
    assert rouge155_stem("has") == "has"
    assert rouge155_stem("cats") == "cat"


needs_wordnet = pytest.mark.skipif(
    wordnet_exceptions() is None,
    reason="WordNet exception lists (Debian wordnet-base) not installed",
)


@needs_wordnet
def test_the_exception_table_is_exactly_wordnet_2_0_as_rouge_1_5_5_builds_it() -> None:
    # Digest of "key value\n" lines sorted by key, computed from the WordNet
    # 2.0 adj/adv/noun/verb.exc files shipped with ROUGE-1.5.5 (first base form
    # per line, files in alphabetical order, later files win); the same table
    # as the 5,930-entry dump of the official WordNet-2.0.exc.db in py-rouge.
    table = wordnet_exceptions()
    assert table is not None and len(table) == 5930
    dump = "".join(f"{key} {table[key]}\n" for key in sorted(table))
    assert hashlib.sha256(dump.encode()).hexdigest() == (
        "3a4bb83017adaa453bcde932613158bdf4a0c58eda73120ce0d70315c1d63559"
    )


@needs_wordnet
def test_exceptions_win_over_porter_and_the_last_file_wins_a_collision() -> None:
    # adj.exc says better -> good, adv.exc better -> well: adv is read later.
    # BLEND's ROUGE scores confirm "well" (2 segments differ with "good").
    assert rouge155_stem("better") == "well"
    assert rouge155_stem("best") == "well"
    assert rouge155_stem("children") == "child"
    assert rouge155_stem("went") == "go"
    assert porter_stem("went") == "went"
