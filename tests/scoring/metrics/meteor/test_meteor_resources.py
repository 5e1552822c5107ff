"""METEOR 1.5's word lists: the function words are the jar's own file.

``data/function-words-en.txt`` is ``function/english.words`` from
``meteor-1.5.jar`` (in PyPI's ``pycocoevalcap`` 1.2 wheel), byte for byte; its
checksum is the one ``scoring/metrics/meteor/data/README.md`` states.
"""

from __future__ import annotations

import hashlib

import pytest

from scoring.metrics.meteor.metric import Meteor
from scoring.metrics.meteor.resources import (
    FUNCTION_WORDS,
    FUNCTION_WORDS_FILE,
    read_function_words,
)

JAR_FILE_MD5 = "0bdd0980b195aea3003fa14ca2754b6c"  # function/english.words


def test_the_shipped_list_is_the_jars_file_byte_for_byte() -> None:
    data = FUNCTION_WORDS_FILE.read_bytes()
    assert len(data) == 373 and hashlib.md5(data).hexdigest() == JAR_FILE_MD5
    assert FUNCTION_WORDS_FILE.name in (
        FUNCTION_WORDS_FILE.parent / "README.md"
    ).read_text(encoding="utf-8")


def test_it_has_the_jars_93_words_including_dashes_brackets_and_quotes() -> None:
    words = FUNCTION_WORDS["en"]
    assert len(words) == 93
    assert {"—", "-lrb-", "-rrb-", "(", ")", "’", "“", "”", "'s", "the"} <= words
    assert all(word == word.lower() and word.strip() == word for word in words)


def test_german_uses_the_english_list_as_the_jar_does() -> None:
    assert FUNCTION_WORDS["de"] == FUNCTION_WORDS["en"]


def test_a_list_file_is_read_line_by_line_like_javas_readline(tmp_path) -> None:
    path = tmp_path / "words"
    path.write_bytes(b"the\r\na \n\nof\rend")
    assert read_function_words(path) == {"the", "a ", "", "of", "end"}
    path.write_bytes(b"")
    assert read_function_words(path) == frozenset()


def test_an_em_dash_counts_as_a_function_word() -> None:
    # hyp "prices rose — sharply ." vs ref "prices rose sharply — again .":
    # all 5 hyp words match, in 4 chunks; function words "—" and "." on each
    # side. delta 0.75: P = 1, R = (0.75*3 + 0.25*2) / (0.75*4 + 0.25*2).
    metric = Meteor(modules="exact")
    result = metric.score(
        ["prices rose — sharply ."], [["prices rose sharply — again ."]], sentence=True
    )
    names = metric.statistics_names
    row = dict(zip(names, result.statistics[0].tolist(), strict=True))
    assert (row["hyp_function_words"], row["ref_function_words"]) == (2, 2)
    recall = 2.75 / 3.5
    fmean = recall / (0.85 + 0.15 * recall)
    expected = fmean * (1 - 0.6 * (4 / 5) ** 0.2)
    assert result.score == pytest.approx(expected, rel=1e-12)
    # Were "—" a content word, R would be 3.25 / 4: a different score.
    assert result.score != pytest.approx(
        (0.8125 / (0.85 + 0.15 * 0.8125)) * (1 - 0.6 * 0.8**0.2), rel=1e-3
    )
