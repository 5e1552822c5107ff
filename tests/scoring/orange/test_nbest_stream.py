"""The compiled n-best reader reads exactly what ``iter_nbest`` reads: the
same ids, texts and words on real Moses lists and on unusual lines, plain
or gzip, in one block or many; and refuses what it refuses, naming the line."""

from __future__ import annotations

import gzip
from itertools import accumulate
from pathlib import Path

import pytest

from scoring.errors import InputFileError
from scoring.orange.nbest import NBestList, open_nbest
from scoring.orange.nbest_stream import nbest_words_from_bytes, read_nbest_words
from tests.scoring.support.realdata import DATA_DIR

MOSES_LISTS = sorted(
    path
    for pattern in ("*/*NBEST*", "*/nbest.out", "*/*.nbest.nbest")
    for path in (DATA_DIR / "moses-nbest").glob(pattern)
)


def assert_reads_like_iter_nbest(path: Path, **options) -> None:
    expected = NBestList.from_entries(open_nbest(path))
    got = read_nbest_words(path, **options)
    assert tuple(got.sentence_ids.tolist()) == expected.sentence_ids
    sizes = [len(c) for c in expected.candidates]
    assert got.sentence_offsets.tolist()[1:] == list(accumulate(sizes))
    texts = [text for candidates in expected.candidates for text in candidates]
    assert [got.texts[c] for c in range(got.n_candidates)] == texts
    for c, text in enumerate(texts):
        start, stop = got.word_offsets[c : c + 2].tolist()
        words = [got.vocabulary[w] for w in got.words[start:stop].tolist()]
        assert words == text.split()


def test_real_moses_lists_read_alike():
    if not MOSES_LISTS:
        pytest.skip(f"no Moses n-best lists under {DATA_DIR / 'moses-nbest'}")
    for path in MOSES_LISTS:
        assert_reads_like_iter_nbest(path)


def test_many_small_blocks_and_gzip_read_alike(tmp_path):
    if not MOSES_LISTS:
        pytest.skip(f"no Moses n-best lists under {DATA_DIR / 'moses-nbest'}")
    source = MOSES_LISTS[0]
    packed = tmp_path / "list.nbest.gz"
    packed.write_bytes(gzip.compress(source.read_bytes()))
    plain = read_nbest_words(source)
    for path, block_bytes in ((source, 1000), (packed, 1 << 20), (packed, 777)):
        assert_reads_like_iter_nbest(path, block_bytes=block_bytes)
        again = read_nbest_words(path, block_bytes=block_bytes, workers=2)
        assert again.line_numbers.tolist() == plain.line_numbers.tolist()


def test_a_leading_byte_order_mark_is_dropped_by_both_readers(tmp_path):
    # As the web upload and scoring.decode_segments drop it: without this the
    # first sentence id read "\ufeff0" and the list was refused.
    text = "0 ||| a b ||| f: 1 ||| -1\n0 ||| c ||| f: 1 ||| -2\n1 ||| d e ||| f: 1 ||| -3\n"
    plain = tmp_path / "plain.nbest"
    plain.write_bytes(text.encode())
    marked = tmp_path / "marked.nbest"
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    packed = tmp_path / "marked.nbest.gz"
    packed.write_bytes(gzip.compress(marked.read_bytes()))
    expected = read_nbest_words(plain)
    for path, block_bytes in ((marked, 1 << 20), (marked, 2), (packed, 5)):
        got = read_nbest_words(path, block_bytes=block_bytes)
        assert got.sentence_ids.tolist() == expected.sentence_ids.tolist()
        assert [got.texts[c] for c in range(got.n_candidates)] == ["a b", "c", "d e"]
        assert got.line_numbers.tolist() == expected.line_numbers.tolist()
        entries = list(open_nbest(path))
        assert [(e.sentence_id, e.hypothesis) for e in entries] == [
            (0, "a b"),
            (0, "c"),
            (1, "d e"),
        ]


UNUSUAL = (
    "0 ||| a b .  ||| lm: -1 ||| -3.5\n"
    "\n"  # blank lines are skipped
    "0 ||| two fields only\n"
    "0 ||| a\u2028b\u00a0c\td ||| f ||| 1e5\n"  # Unicode whitespace in the text
    "0 |||   ||| f ||| \n"  # empty hypothesis, empty score
    "007 ||| one ||| f ||| 1_000 ||| 0-0 1-1\n"  # float() reads 1_000
    "7 ||| x|y || z ||| f ||| +.5E-3\r\n"
    "7 ||| ünï cödé ΣΑΣ ||| f ||| 2.\r\r\n"
    "9 ||| \x1cseparated\x1fwords ||| ||| 0\n"
    "9 ||| last line without a line end ||| f ||| -1"
)


@pytest.mark.parametrize("block_bytes", [7, 64, 1 << 20])
def test_unusual_lines_read_alike(tmp_path, block_bytes):
    path = tmp_path / "unusual.nbest"
    path.write_bytes(UNUSUAL.encode("utf-8"))
    assert_reads_like_iter_nbest(path, block_bytes=block_bytes)
    words = read_nbest_words(path, block_bytes=block_bytes)
    assert words.line_numbers.tolist() == [1, 3, 4, 5, 6, 7, 8, 9, 10]


GOOD = "".join(f"{i // 3} ||| words of line {i} ||| f ||| -{i}.5\n" for i in range(300))
LATER = "".join(f"{i // 3} ||| more words {i} ||| f ||| {i}\n" for i in range(600, 900))
BAD_LINES = [
    "x ||| a ||| f ||| 1",
    "-1 ||| a ||| f ||| 1",
    "100 ||| a ||| f ||| high",
    "100 ||| a ||| f ||| nan",
    "100 ||| a ||| b ||| 1e999",
    "100 a f 1",
    "3 ||| back to an earlier sentence ||| f ||| 1",
    "100 ||| a ||| f ||| x ||| 2",  # the hint about a '|||' in the text
]


@pytest.mark.parametrize("bad", BAD_LINES)
@pytest.mark.parametrize("block_bytes", [50, 1 << 20])
def test_a_bad_line_is_named_as_iter_nbest_names_it(tmp_path, bad, block_bytes):
    path = tmp_path / "bad.nbest"
    path.write_text(GOOD + bad + "\n" + LATER)
    with pytest.raises(InputFileError) as expected:
        NBestList.from_entries(open_nbest(path))
    with pytest.raises(InputFileError) as got:
        read_nbest_words(path, block_bytes=block_bytes)
    assert str(got.value) == str(expected.value)
    assert got.value.line == expected.value.line == 301


def test_the_first_problem_wins_across_blocks(tmp_path):
    path = tmp_path / "two.nbest"
    path.write_text(GOOD + "0 ||| goes back ||| f ||| 1\n" + "x ||| a ||| f ||| 1\n")
    with pytest.raises(
        InputFileError, match="line 301: sentence 0 comes after sentence 99"
    ):
        read_nbest_words(path, block_bytes=64)


def test_invalid_utf8_is_named_with_its_line(tmp_path):
    path = tmp_path / "latin1.nbest"
    path.write_bytes(GOOD.encode() + "0 ||| caf\xe9 ||| f ||| 1\n".encode("latin-1"))
    for block_bytes in (100, 1 << 20):
        with pytest.raises(InputFileError) as error:
            read_nbest_words(path, block_bytes=block_bytes)
        assert error.value.line == 301
        assert str(error.value).startswith(f"{path}: line 301: invalid UTF-8")


def test_a_broken_gzip_file_and_a_missing_file_are_named(tmp_path):
    path = tmp_path / "cut.nbest.gz"
    path.write_bytes(gzip.compress(GOOD.encode())[:-20])
    with pytest.raises(InputFileError, match="not a readable gzip file"):
        read_nbest_words(path)
    with pytest.raises(InputFileError, match="cannot read file"):
        read_nbest_words(tmp_path / "missing.nbest")


def test_lines_in_memory_read_as_the_file_does(tmp_path):
    path = tmp_path / "unusual.nbest"
    path.write_bytes(UNUSUAL.encode("utf-8"))
    from_file = read_nbest_words(path)
    in_memory = nbest_words_from_bytes(UNUSUAL.encode("utf-8"), str(path))
    for field in ("sentence_ids", "sentence_offsets", "line_numbers", "word_offsets"):
        assert getattr(in_memory, field).tolist() == getattr(from_file, field).tolist()
    assert in_memory.vocabulary == from_file.vocabulary
    assert in_memory.words.tolist() == from_file.words.tolist()
    texts = [in_memory.texts[c] for c in range(in_memory.n_candidates)]
    assert texts == [from_file.texts[c] for c in range(from_file.n_candidates)]
    assert nbest_words_from_bytes(b"", "empty").n_candidates == 0
    with pytest.raises(InputFileError, match=r"chunk\.nbest: line 2"):
        nbest_words_from_bytes(b"0 ||| a ||| f ||| 1\nx ||| b\n", "chunk.nbest")


def test_texts_can_be_dropped_as_the_blocks_are_read(tmp_path):
    path = tmp_path / "unusual.nbest"
    path.write_bytes(UNUSUAL.encode("utf-8"))
    kept = read_nbest_words(path, block_bytes=64)
    dropped = read_nbest_words(path, block_bytes=64, keep_texts=False)
    assert dropped.words.tolist() == kept.words.tolist()
    assert dropped.vocabulary == kept.vocabulary
    assert len(dropped.texts) == len(kept.texts) == kept.n_candidates
    with pytest.raises(RuntimeError, match="texts were not kept"):
        dropped.texts[0]


def test_many_distinct_words_keep_their_first_appearance_ids(tmp_path):
    # More distinct words than the shared vocabulary first holds (its table,
    # hashes and byte arena grow while blocks arrive), words of up to seven
    # bytes (packed keys) and longer ones (hashed, compared byte by byte)
    # that differ only after their eighth byte, and multi-byte UTF-8.
    words = [f"w{i}" for i in range(40_000)]
    words += [f"longword{i:06d}" for i in range(20_000)]
    words += ["naïve", "naïveté", "日本語", "日本語です", "abcdefg", "abcdefgh"]
    lines = []
    for sentence in range(500):
        for candidate in range(4):
            chosen = [
                words[(sentence * 131 + candidate * 17 + k * 977) % len(words)]
                for k in range(60)
            ]
            lines.append(f"{sentence} ||| {' '.join(chosen)} ||| f= 0 ||| -1")
    path = tmp_path / "nbest"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    first_seen = list(
        dict.fromkeys(word for line in lines for word in line.split(" ||| ")[1].split())
    )
    assert len(first_seen) > 1 << 15  # beyond the first capacity
    for block_bytes in (1 << 20, 5000):
        got = read_nbest_words(path, block_bytes=block_bytes, workers=2)
        assert list(got.vocabulary) == first_seen
        assert_reads_like_iter_nbest(path, block_bytes=block_bytes)
