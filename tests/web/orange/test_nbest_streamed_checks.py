"""The worker's streamed check of an n-best file says what the whole-file
check said, word for word, whatever the block size.

``parse_nbest_upload`` (the whole file in memory, the request-time check
of before) is the reference; ``checked_sentences`` reads blocks of complete
lines. Both run on every file of ``tests/fixtures/malformed`` and on random
files made of valid and broken pieces, with blocks from one byte up.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from mtdash.common.upload_checks import UploadProblem
from mtdash.orange.nbest import checks as nbest_checks
from mtdash.orange.nbest.uploads import parse_nbest_upload

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "malformed"
BLOCK_SIZES = (1, 2, 7, 64, 1 << 20)
N_SEGMENTS = 3

PIECES = (
    b"0 ||| a b ||| f=1 ||| -1\n", b"1 ||| c ||| |||\n", b"\n", b"  \n",
    b"\xe9", b"\x00", b"\r", b"\r\n", b"2 ||| \xc3\xa9t\xc3\xa9 |||\n",
    b"x ||| y\n", b"3 ||| z\n", b"\xe2\x82", b"1 ||| q ||| ||| nan\n",
    b"0 ||| p\n", b"\xff\xfe", b"2 ||| \xe2\x80\xa8 sep |||\n",
)  # fmt: skip


def whole_file(data: bytes, name: str):
    try:
        return [list(group) for group in parse_nbest_upload(data, name, N_SEGMENTS)
                .sentences]  # fmt: skip
    except UploadProblem as problem:
        return str(problem)


def streamed(data: bytes, name: str, block: int, monkeypatch):
    monkeypatch.setattr(nbest_checks, "BLOCK_BYTES", block)
    try:
        read = io.BytesIO(data).read
        return list(nbest_checks.checked_sentences(read, name, N_SEGMENTS))
    except UploadProblem as problem:
        return str(problem)


FILES = sorted(p for p in CORPUS.iterdir() if p.suffix not in (".md", ".py"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_malformed_fixture_gets_the_whole_file_message(path, monkeypatch):
    data = path.read_bytes()
    expected = whole_file(data, path.name)
    for block in BLOCK_SIZES:
        assert streamed(data, path.name, block, monkeypatch) == expected, block


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xef\xbb\xbf",
        b"0 ||| a ||| ||| x\n" + b"0 ||| b ||| |||\n" * 50 + b"0 ||| \xff |||\n",
        b"zero ||| a |||\n0 ||| b\x00 |||\n",  # a NUL line beats an earlier bad id
        b" \r \n\n",
        b"0 ||| a |||\n0 ||| \xe2\x82",  # ends inside a character
        b"0 ||| a ||| f ||| 1\n0 ||| b |||\n1 ||| c\n2 ||| d ||| ||| 3",
        b"0 ||| a\n5 ||| b\n",
        b"\n\n0 ||| a\n\n1 ||| b\n\n",
        b"0 ||| " + b"y" * 200 + b" ||| |||\n",
    ],
)
def test_edge_files_get_the_whole_file_answer(data, monkeypatch, settings):
    settings.MTDASH_MAX_SEGMENT_CHARS = 100
    expected = whole_file(data, "e.nbest")
    for block in BLOCK_SIZES:
        assert streamed(data, "e.nbest", block, monkeypatch) == expected, block


def test_random_files_get_the_whole_file_answer(monkeypatch):
    # One file in four starts with a byte-order mark: the bad byte's line and
    # column are counted in the file's own bytes either way.
    rng = random.Random(2026)
    for _ in range(1500):
        mark = b"\xef\xbb\xbf" if rng.random() < 0.25 else b""
        data = mark + b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
        expected = whole_file(data, "r.nbest")
        for block in (1, 5, 1 << 20):
            assert streamed(data, "r.nbest", block, monkeypatch) == expected, data
