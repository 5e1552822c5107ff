"""Reading Moses n-best lists and their compact tokenised form."""

import pytest

from scoring.errors import InputFileError
from scoring.orange.nbest import (
    NBestList,
    TokenInterner,
    TokenizedNBest,
    iter_nbest,
    open_nbest,
    tokenize_nbest,
)
from tests.scoring.support.realdata import DATA_DIR, require_full_data

MOSES = DATA_DIR / "moses-nbest"


def parse(text: str) -> list:
    return list(iter_nbest(text.splitlines(), "list.nbest"))


def test_it_reads_ids_hypotheses_features_and_scores():
    entries = parse(
        "0||| a b .  ||| lm: -1 tm: -2 ||| -3.5\n"
        "0 ||| a c ||| lm: -2 ||| -4\n"
        "1 ||| x ||| ||| 0.5 ||| 0-0\n"
    )
    assert [(e.sentence_id, e.hypothesis, e.score) for e in entries] == [
        (0, "a b .", -3.5),
        (0, "a c", -4.0),
        (1, "x", 0.5),
    ]
    assert entries[0].features == "lm: -1 tm: -2"
    assert entries[2].line_number == 3


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "0 ||| a ||| f ||| 1\n1 ||| b ||| f ||| 1\n0 ||| c ||| f ||| 1\n",
            "list.nbest: line 3: sentence 0 comes after sentence 1",
        ),
        (
            "x ||| a ||| f ||| 1\n",
            "list.nbest: line 1: sentence id 'x' is not a whole number",
        ),
        (
            "0 ||| a ||| f ||| high\n",
            "list.nbest: line 1: score 'high' is not a number",
        ),
        ("0 a f 1\n", "list.nbest: line 1: expected 'id ||| hypothesis"),
        ("-1 ||| a ||| f ||| 1\n", "list.nbest: line 1: sentence id -1 is negative"),
        (
            "0 ||| a ||| f ||| 1\n-2 ||| b ||| f ||| 1\n",
            "list.nbest: line 2: sentence id -2 is negative",
        ),
    ],
)
def test_it_names_the_line_of_a_malformed_entry(text, message):
    with pytest.raises(InputFileError, match=message):
        parse(text)


def test_open_nbest_ends_lines_at_newline_only(tmp_path):
    path = tmp_path / "list.nbest"
    path.write_bytes(
        "0 ||| a\u2028b\x85c\x0cd ||| f ||| 1\r\n1 ||| e\x1cf ||| f ||| 2\n".encode()
    )
    entries = list(open_nbest(path))
    assert [(e.sentence_id, e.hypothesis) for e in entries] == [
        (0, "a\u2028b\x85c\x0cd"),
        (1, "e\x1cf"),
    ]
    assert [e.line_number for e in entries] == [1, 2]


def test_it_groups_candidates_by_sentence_in_the_system_order():
    nbest = NBestList.from_entries(parse("3 ||| b\n3 ||| a\n5 ||| c\n"))
    assert nbest.sentence_ids == (3, 5)
    assert nbest.candidates == (("b", "a"), ("c",))


def test_the_tokenised_form_round_trips_through_a_file(tmp_path):
    interner = TokenInterner(["the"])  # e.g. the references' tokens came first
    tokenized = tokenize_nbest(
        parse("0 ||| the cat\n0 ||| a cat\n2 ||| the\n"), str.split, interner
    )
    assert tokenized.vocabulary == ("the", "cat", "a")
    assert tokenized.tokens.tolist() == [0, 1, 2, 1, 0]
    assert tokenized.sentence_ids.tolist() == [0, 2]
    assert list(tokenized.candidates_of(0)) == [0, 1]
    assert tokenized.candidate_tokens(1).tolist() == [2, 1]
    tokenized.save(tmp_path / "list.npz")
    loaded = TokenizedNBest.load(tmp_path / "list.npz")
    assert loaded.vocabulary == tokenized.vocabulary
    for name in ("sentence_ids", "sentence_offsets", "candidate_offsets", "tokens"):
        assert getattr(loaded, name).tolist() == getattr(tokenized, name).tolist()


def test_it_reads_the_moses_test_scorer_list():
    require_full_data("moses-nbest/test_scorer_data/nbest.out (2.2 MB)")
    path = MOSES / "test_scorer_data" / "nbest.out"
    nbest = NBestList.from_entries(open_nbest(path))
    assert nbest.sentence_ids == tuple(range(100))
    assert {len(c) for c in nbest.candidates} == {100}
    assert nbest.candidates[0][0] == "this should also be there is looking further ."


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("\u0660 ||| a ||| f ||| -1", "sentence id '\u0660' is not a whole number"),
        ("0_1 ||| a ||| f ||| -1", "sentence id '0_1' is not a whole number"),
        ("+1 ||| a ||| f ||| -1", "sentence id '+1' is not a whole number"),
        ("0 ||| a ||| f ||| nan", "score 'nan' is not a finite number"),
        ("0 ||| a ||| f ||| -inf", "score '-inf' is not a finite number"),
    ],
)
def test_ids_are_ascii_digits_and_scores_finite(line: str, message: str) -> None:
    with pytest.raises(InputFileError) as error:
        list(iter_nbest([line], "list.nbest"))
    assert str(error.value) == f"list.nbest: line 1: {message}"
