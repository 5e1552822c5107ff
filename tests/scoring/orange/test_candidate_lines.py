"""The texts the JSON lists, read again from the n-best file at the end
(``python -m scoring orange --json`` no longer holds the file's bytes):
exactly the texts the reader saw, on unusual lines, gzip and real Moses
lists; a file changed in between is refused naming the line."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

import scoring.orange.nbest_stream as stream
from scoring.cli.main import main
from scoring.errors import InputFileError
from scoring.orange.candidate_lines import read_candidate_texts
from scoring.orange.nbest_stream import read_nbest_words
from tests.scoring.cli.test_orange_cli import RUN
from tests.scoring.orange.test_nbest_stream import MOSES_LISTS, UNUSUAL


def assert_read_again_alike(path, rng: np.random.Generator) -> None:
    kept = read_nbest_words(path)
    chosen = rng.permutation(kept.n_candidates)[: min(200, kept.n_candidates)]
    sentence_of = np.repeat(kept.sentence_ids, np.diff(kept.sentence_offsets))
    texts = read_candidate_texts(
        path, kept.line_numbers[chosen].tolist(), sentence_of[chosen].tolist()
    )
    assert texts == [kept.texts[c] for c in chosen.tolist()]


@pytest.mark.parametrize("compressed", [False, True])
def test_unusual_lines_read_again_as_the_reader_read_them(tmp_path, compressed):
    data = ("\ufeff" + UNUSUAL).encode("utf-8")  # a byte-order mark too
    path = tmp_path / "unusual.nbest"
    path.write_bytes(gzip.compress(data) if compressed else data)
    assert_read_again_alike(path, np.random.default_rng(1))


def test_real_moses_lists_read_again_alike():
    if not MOSES_LISTS:
        pytest.skip("no Moses n-best lists found")
    rng = np.random.default_rng(2)
    for path in MOSES_LISTS[:3]:
        assert_read_again_alike(path, rng)


def test_a_file_changed_in_between_is_refused(tmp_path):
    path = tmp_path / "list.nbest"
    path.write_text("0 ||| a ||| f ||| 1\n1 ||| b ||| f ||| 2\n")
    assert read_candidate_texts(path, [2, 1], [1, 0]) == ["b", "a"]
    with pytest.raises(InputFileError, match=r"list\.nbest: line 2: no longer"):
        read_candidate_texts(path, [2], [0])
    with pytest.raises(InputFileError, match=r"list\.nbest: line 5: missing"):
        read_candidate_texts(path, [5], [1])


def test_the_json_lists_texts_without_keeping_the_files_bytes(
    tmp_path, monkeypatch, capsys
):
    if not RUN.exists():
        pytest.skip(f"real Moses n-best data not found at {RUN}")
    kept = []
    # The command line imports the reader where it uses it.
    original = stream.read_nbest_words

    def recording(path, **options):
        kept.append(options.get("keep_texts", True))
        return original(path, **options)

    monkeypatch.setattr(stream, "read_nbest_words", recording)
    refs = [str(RUN / f"reference.{k}") for k in range(3)]
    arguments = ["orange", "--nbest", str(RUN / "run1.NBEST.out"), "--refs", *refs]
    for spec in ("bleus:n=4", "rouge-l", "wer"):
        arguments += ["--metric", spec]
    arguments += ["--bootstrap", "20", "--json", "--above-reference", "3"]
    assert main(arguments) in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert kept == [False]
    words = original(RUN / "run1.NBEST.out")
    first = dict(zip(words.sentence_ids.tolist(), words.sentence_offsets.tolist()))
    listed = [(int(s), int(j), text) for s, by in data["candidate_texts"].items()
              for j, text in by.items()]  # fmt: skip
    assert listed
    for sentence, index, text in listed:
        assert text == words.texts[first[sentence] + index]
