"""METEOR's paraphrase table through its cache file: the same lookups and
scores as the table parsed into a dict of tuples (what the metric held
before), a stale, truncated or corrupted cache rebuilt, and two processes
starting together building it once, never reading half a file.

With ``METEOR_PARAPHRASE_TABLE`` set, the real table's every key is checked
too (about 30 s)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from mtdash.common.rows import collector_paused
from scoring.batch.kernels_meteor_paraphrase import build_phrase_hash
from scoring.metrics.meteor import config as meteor_config
from scoring.metrics.meteor import paraphrase_store
from scoring.metrics.meteor.metric import Meteor
from scoring.metrics.meteor.paraphrase_table import ParaphraseTable
from scoring.metrics.meteor.stages import PARAPHRASE, Stage, match_paraphrase

ARRAYS = ("slot_keys", "para_offsets", "para_phrases", "phrase_offsets",
          "phrase_tokens")  # fmt: skip

# Blocks of probability, phrase, paraphrase: repeated keys (file order of
# their paraphrases matters), keys that are paraphrases of other keys,
# paraphrases that are no key, multi-word phrases, non-ASCII words.
TOY = [
    ("0.5", "the cat", "the feline"),
    ("0.4", "sat", "was sitting"),
    ("0.3", "the cat", "a cat"),
    ("0.3", "was sitting", "sat"),
    ("0.2", "on the mat", "on the rug"),
    ("0.2", "mat", "rug"),
    ("0.1", "the cat", "the kitty"),
    ("0.1", "größer", "larger"),
    ("0.1", "big", "large"),
    ("0.1", "big", "größer"),
    ("0.1", "a b c d e", "e"),
]
SENTENCES = [
    ("the feline was sitting on the rug", "the cat sat on the mat"),
    ("a cat sat on a rug", "the kitty was sitting on the mat"),
    ("the big dog is larger", "the large dog is größer"),
    ("e", "a b c d e"),
    ("nothing here matches", "the cat sat"),
]


def write_table(path: Path, blocks=TOY) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for block in blocks:
            handle.write("\n".join(block) + "\n")
    return path


def dict_table(path: Path) -> SimpleNamespace:
    """The table as the metric held it before its cache: a dict of tuples."""
    phrases: dict = {}
    max_len = 0
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for _probability in lines:
            source = tuple(next(lines).split())
            target = tuple(next(lines).split())
            phrases.setdefault(source, []).append(target)
            max_len = max(max_len, len(source))
    return SimpleNamespace(
        phrases={key: tuple(value) for key, value in phrases.items()},
        max_len=max_len,
    )


def absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def the_cache(path: Path) -> Path:
    found = paraphrase_store.cache_path(absolute(path))
    assert found is not None
    return found


@pytest.fixture(autouse=True)
def no_cache_dir_setting(monkeypatch):
    monkeypatch.delenv(paraphrase_store.CACHE_DIR_ENV, raising=False)


@pytest.fixture
def parses(monkeypatch) -> list[Path]:
    """Every parse of a gzipped table this test makes."""
    seen: list[Path] = []
    parse = paraphrase_store.parse_table

    def counted(path):
        seen.append(Path(path))
        return parse(path)

    monkeypatch.setattr(paraphrase_store, "parse_table", counted)
    return seen


def assert_same_lookups(table: ParaphraseTable, reference: SimpleNamespace) -> None:
    assert table.max_len == reference.max_len
    assert list(table.phrases) == list(reference.phrases)
    assert len(table.phrases) == len(reference.phrases)
    for key, paraphrases in reference.phrases.items():
        assert table.phrases.get(key) == paraphrases
        assert table.phrases[key] == paraphrases
        assert key in table.phrases
    words = sorted({w for key in reference.phrases for w in key} | {"unknown"})
    for first in words:
        for second in words:
            phrase = (first, second)
            assert table.phrases.get(phrase, ()) == reference.phrases.get(phrase, ())


def assert_same_arrays(one: ParaphraseTable, other: ParaphraseTable) -> None:
    for name in ARRAYS:
        assert np.array_equal(getattr(one, name), getattr(other, name)), name
        assert getattr(one, name).dtype == np.int64
    assert one.words == other.words
    assert (one.max_len, one.n_keys) == (other.max_len, other.n_keys)


def test_the_arrays_answer_as_the_dict_did(tmp_path):
    path = write_table(tmp_path / "toy.gz")
    table = paraphrase_store.parse_table(path)
    reference = dict_table(path)
    assert_same_lookups(table, reference)
    assert table.phrases[("the", "cat")] == (
        ("the", "feline"), ("a", "cat"), ("the", "kitty"))  # fmt: skip
    assert table.phrases.get(("the", "feline")) is None
    with pytest.raises(KeyError):
        table.phrases[("the", "feline")]


def test_the_hash_is_the_kernels_hash(tmp_path):
    table = paraphrase_store.parse_table(write_table(tmp_path / "toy.gz"))
    kernels = build_phrase_hash(
        table.phrase_offsets,
        table.phrase_tokens,
        np.arange(table.n_keys, dtype=np.int64),
        table.slot_keys.size,
    )
    assert np.array_equal(table.slot_keys, kernels)


def test_the_matcher_finds_the_same_candidates(tmp_path):
    path = write_table(tmp_path / "toy.gz")
    table, reference = paraphrase_store.load_table(path), dict_table(path)
    found = 0
    for hyp, ref in SENTENCES:
        ours = Stage(tuple(hyp.split()), tuple(ref.split()))
        before = Stage(tuple(hyp.split()), tuple(ref.split()))
        match_paraphrase(ours, PARAPHRASE, table)
        match_paraphrase(before, PARAPHRASE, reference)
        assert ours.matches == before.matches
        assert (ours.hyp_coverage, ours.ref_coverage) == (
            before.hyp_coverage, before.ref_coverage)  # fmt: skip
        found += sum(map(len, ours.matches))
    assert found >= 10


def test_a_second_load_reads_the_cache_and_scores_the_same(tmp_path, parses):
    path = write_table(tmp_path / "toy.gz")
    first = score_with_fresh_config(path)
    assert parses == [absolute(path)]
    assert the_cache(path).is_file()
    second = score_with_fresh_config(path)
    assert parses == [absolute(path)]  # not parsed again
    assert second == first
    assert_same_arrays(
        paraphrase_store.load_table(path), paraphrase_store.parse_table(path)
    )


def score_with_fresh_config(path: Path) -> list[float]:
    meteor_config.load_paraphrase_table.cache_clear()
    meteor_config.build_config.cache_clear()
    metric = Meteor(modules="exact+paraphrase", paraphrase=str(path))
    assert metric.config.paraphrase_table is not None
    hyps = [hyp for hyp, _ in SENTENCES]
    refs = [[ref for _, ref in SENTENCES]]
    result = metric.score(hyps, refs, sentence=True)
    return [*result.sentence_scores, result.score]


def test_a_changed_table_is_parsed_again(tmp_path, parses):
    path = write_table(tmp_path / "toy.gz")
    paraphrase_store.load_table(path)
    write_table(path, [*TOY, ("0.1", "dog", "hound")])
    stamp = path.stat().st_mtime_ns + 1_000_000_000
    os.utime(path, ns=(stamp, stamp))
    table = paraphrase_store.load_table(path)
    assert table.phrases[("dog",)] == (("hound",),)
    assert len(parses) == 2
    assert_same_lookups(paraphrase_store.load_table(path), dict_table(path))
    assert len(parses) == 2  # the rebuilt cache is current


@pytest.mark.parametrize("damage", ["truncated", "corrupted", "empty", "garbage"])
def test_a_damaged_cache_is_ignored_and_rebuilt(tmp_path, parses, damage):
    path = write_table(tmp_path / "toy.gz")
    paraphrase_store.load_table(path)
    cache = the_cache(path)
    data = cache.read_bytes()
    if damage == "truncated":
        cache.write_bytes(data[: len(data) // 2])
    elif damage == "corrupted":  # a flipped byte inside the last array
        position = data.rindex(b"PK\x01\x02") - 20
        cache.write_bytes(
            data[:position] + bytes([data[position] ^ 0xFF]) + data[position + 1 :]
        )
    elif damage == "empty":
        cache.write_bytes(b"")
    else:
        cache.write_bytes(b"not a zip file at all" * 10)
    table = paraphrase_store.load_table(path)
    assert_same_lookups(table, dict_table(path))
    assert len(parses) == 2
    identity = paraphrase_store._identity(absolute(path))
    assert paraphrase_store.read_cache(cache, identity) is not None  # rewritten
    paraphrase_store.load_table(path)
    assert len(parses) == 2


def test_an_inconsistent_cache_is_ignored(tmp_path, parses):
    path = write_table(tmp_path / "toy.gz")
    table = paraphrase_store.load_table(path)
    identity = paraphrase_store._identity(absolute(path))
    broken = ParaphraseTable(
        words=table.words[:2], **{n: getattr(table, n) for n in ARRAYS},
        max_len=table.max_len, n_keys=table.n_keys,
    )  # fmt: skip
    paraphrase_store.write_cache(the_cache(path), broken, identity)
    assert paraphrase_store.read_cache(the_cache(path), identity) is None
    assert_same_lookups(paraphrase_store.load_table(path), dict_table(path))


def test_the_cache_directory_can_be_chosen_or_turned_off(tmp_path, monkeypatch, parses):
    path = write_table(tmp_path / "toy.gz")
    monkeypatch.setenv(paraphrase_store.CACHE_DIR_ENV, str(tmp_path / "elsewhere"))
    paraphrase_store.load_table(path)
    assert [p.name for p in (tmp_path / "elsewhere").glob("*.npz")] == [
        the_cache(path).name
    ]
    monkeypatch.setenv(paraphrase_store.CACHE_DIR_ENV, "off")
    assert paraphrase_store.cache_path(absolute(path)) is None
    paraphrase_store.load_table(path)
    assert len(parses) == 2
    assert not list(tmp_path.glob("*.npz"))


def test_a_read_only_table_directory_caches_under_the_data_dir(tmp_path, monkeypatch):
    path = write_table(tmp_path / "toy.gz")
    writable = os.access
    monkeypatch.setattr(
        paraphrase_store.os, "access",
        lambda where, mode: Path(where) != tmp_path and writable(where, mode),
    )  # fmt: skip
    monkeypatch.setenv("MTDASH_DATA_DIR", str(tmp_path / "data"))
    cache = the_cache(path)
    assert cache.parent == tmp_path / "data" / "cache" / "meteor"
    paraphrase_store.load_table(path)
    assert cache.is_file()


def test_a_linked_table_is_cached_next_to_the_link(tmp_path, parses):
    table = write_table(tmp_path / "toy.gz")
    (tmp_path / "copy").mkdir()
    link = tmp_path / "copy" / "toy.gz"
    link.symlink_to(table)
    paraphrase_store.load_table(link)
    assert the_cache(link).parent == tmp_path / "copy"
    assert the_cache(link).is_file()
    assert_same_lookups(paraphrase_store.load_table(link), dict_table(table))
    assert len(parses) == 1


def test_an_unwritable_cache_still_gives_the_table(tmp_path, monkeypatch):
    path = write_table(tmp_path / "toy.gz")
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv(paraphrase_store.CACHE_DIR_ENV, str(blocker / "cache"))
    assert_same_lookups(paraphrase_store.load_table(path), dict_table(path))


_LOADER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from scoring.metrics.meteor import paraphrase_store
    parse = paraphrase_store.parse_table
    def counted(path):
        with open(sys.argv[2], "a") as log:
            log.write("parse\\n")
        return parse(path)
    paraphrase_store.parse_table = counted
    table = paraphrase_store.load_table(sys.argv[1])
    print(len(table.phrases), table.phrases.get(("k17", "x")), table.max_len)
    """
)


def test_two_processes_starting_together_build_it_once(tmp_path):
    blocks = [
        (f"0.{i % 9}", f"k{i % 5000} x", f"p{i} y{i % 7} z") for i in range(60_000)
    ]
    path = write_table(tmp_path / "big.gz", blocks)
    log = tmp_path / "parses.log"
    environment = {**os.environ, "PYTHONPATH": str(Path.cwd())}
    environment.pop(paraphrase_store.CACHE_DIR_ENV, None)
    loaders = [
        subprocess.Popen(
            [sys.executable, "-c", _LOADER, str(path), str(log)],
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
        )  # fmt: skip
        for _ in range(2)
    ]
    outputs = [loader.communicate(timeout=300)[0] for loader in loaders]
    assert [loader.returncode for loader in loaders] == [0, 0]
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("5000 ")
    assert log.read_text() == "parse\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    identity = paraphrase_store._identity(absolute(path))
    cached = paraphrase_store.read_cache(the_cache(path), identity)
    assert cached is not None
    assert_same_arrays(cached, paraphrase_store.parse_table(path))


def real_table() -> Path | None:
    configured = os.environ.get("METEOR_PARAPHRASE_TABLE", "")
    return Path(configured) if configured and Path(configured).is_file() else None


@pytest.mark.skipif(real_table() is None, reason="METEOR_PARAPHRASE_TABLE not set")
def test_the_real_tables_cache_answers_every_key_as_the_dict_did():
    path = real_table()
    assert path is not None
    table = paraphrase_store.load_table(path)  # the cache, after a first run
    # Building the real table's dict (5.3 million tuples) and answering its
    # 430,000 keys allocate millions of objects that make no cycle; the
    # cycle collector would scan the growing heap again and again for
    # nothing (about 4 s of the dict's 12 s).
    with collector_paused():
        reference = dict_table(path)
        assert table.max_len == reference.max_len == 7
        assert len(table.phrases) == len(reference.phrases)
        for key, paraphrases in reference.phrases.items():
            assert table.phrases.get(key) == paraphrases
        # Freed now (no cycles), not scanned by the collector once it resumes.
        del reference
