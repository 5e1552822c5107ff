"""Reading a large Moses n-best file fast: blocks of bytes, compiled scanning.

:func:`read_nbest_words` reads a file (plain or gzip-compressed, told by its
magic bytes; :func:`nbest_words_from_bytes` lines already in memory) in blocks of about :data:`BLOCK_BYTES` of whole lines; two
threads scan blocks at once with the compiled
:func:`scoring.batch.kernels_text.scan_nbest_block` (it releases the GIL),
which splits each hypothesis into words and interns them without creating
a Python string per word. The result is the words of every candidate as
integer ids of one vocabulary (:class:`NBestWords`), from which each
metric's tokens are derived per distinct word
(:mod:`scoring.orange.token_views`), and the hypothesis texts kept as the
file's bytes, decoded only on demand.

Exactly the lines :func:`scoring.orange.nbest.iter_nbest` accepts are
accepted, with the same values: a block the fast path cannot read in full
(an unusual line, Unicode whitespace, an error) is read again by
``iter_nbest`` itself, which raises the same :class:`InputFileError` naming
the file and line as the plain reader. Sentence-id order is checked across
blocks with the same message.
"""

from __future__ import annotations

import gzip
import os
import zlib
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from scoring.batch.kernels_text import (
    TABLE_FULL,
    map_words,
    merge_vocabulary,
    rehash_vocabulary,
    scan_nbest_block,
)
from scoring.errors import InputFileError
from scoring.orange.candidate_texts import CandidateTexts, DroppedTexts, TextBlock
from scoring.orange.heap import release_free_memory
from scoring.orange.nbest import iter_nbest, order_error

# Bytes read at once (cut at the last line end): large enough that the
# kernel call dominates and few words recur from block to block, small
# enough that two blocks in flight per thread stay a few tens of MB.
BLOCK_BYTES = 8 << 20
_GZIP_MAGIC = b"\x1f\x8b"
_BYTE_ORDER_MARK = b"\xef\xbb\xbf"
# Hash-table slots for a block's distinct words (grown when half full):
# real 8 MB blocks hold tens of thousands.
_FIRST_TABLE_SIZE = 1 << 18
# "0|||||||||\n": a one-digit id, three separators and the line end.
_SHORTEST_CANDIDATE_LINE = 11
# Word ids are gathered in segments of this many (64 MB, above glibc's
# largest mmap threshold of 32 MB, so each segment is a mapping of its own,
# returned to the system when freed). Joining per-block arrays at the end
# held every word twice: Table 7's 233 M words, 0.9 GB, at 1.9 GB.
_SEGMENT_WORDS = 1 << 24
# Blocks read between two hand-backs of the freed C heap (see read_nbest_words).
_BLOCKS_PER_TRIM = 8


@dataclass(frozen=True)
class NBestWords:
    """An n-best file as word ids. Shapes: S sentences, C candidates, W words.

    ``words`` are whitespace-separated pieces of each (stripped) hypothesis,
    ``str.split()``'s; ``vocabulary[i]`` is word i.
    """

    file_name: str
    sentence_ids: np.ndarray  # (S,) int64
    sentence_offsets: np.ndarray  # (S + 1,) int64: candidates of sentence s
    line_numbers: np.ndarray  # (C,) int64, 1-based
    word_offsets: np.ndarray  # (C + 1,) int64: words of candidate c
    words: np.ndarray  # (W,) int32
    vocabulary: tuple[str, ...]
    texts: CandidateTexts

    @property
    def n_candidates(self) -> int:
        return int(self.line_numbers.size)


@dataclass
class _Block:
    """What one block gives before its words are mapped to the shared ids;
    or, for a block with a problem, its bytes and the problem."""

    first_line: int
    data: bytes
    sentence_ids: np.ndarray | None = None
    line_numbers: np.ndarray | None = None
    word_counts: np.ndarray | None = None
    words: np.ndarray | None = None  # block-local ids
    # Word v of the block's vocabulary: vocab_bytes[vocab_starts[v]:vocab_stops[v]]
    # (UTF-8; for the fast path the block's own bytes, so no string is made).
    vocab_bytes: np.ndarray | None = None
    vocab_starts: np.ndarray | None = None
    vocab_stops: np.ndarray | None = None
    texts: TextBlock | None = None
    problem: InputFileError | None = None
    # Bytes before the problem's line, for an invalid UTF-8 byte.
    valid_prefix: int | None = None


def _open_binary(name: str):
    with open(name, "rb") as probe:
        compressed = probe.read(2) == _GZIP_MAGIC
    return gzip.open(name, "rb") if compressed else open(name, "rb")


def iter_line_blocks(
    name: str, block_bytes: int = BLOCK_BYTES
) -> Iterator[tuple[int, bytes]]:
    """``(first line number, bytes of whole lines ending with "\\n")``; a
    leading UTF-8 byte-order mark is dropped, as the web upload and
    ``scoring.decode_segments`` drop it."""
    first_line = 1
    try:
        with _open_binary(name) as handle:
            rest = handle.read(len(_BYTE_ORDER_MARK))
            if rest == _BYTE_ORDER_MARK:
                rest = b""
            while True:
                data = handle.read(block_bytes)
                if not data:
                    break
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    rest += data
                    continue
                # One copy of the block's bytes (the rest of the last read
                # and this read up to its last line end), not two.
                block = b"".join((rest, memoryview(data)[:cut]))
                rest = data[cut:]
                yield first_line, block
                first_line += block.count(b"\n")
            if rest:
                yield first_line, rest + b"\n"
    except (gzip.BadGzipFile, zlib.error, EOFError) as error:
        raise InputFileError(
            f"{name}: not a readable gzip file ({error})", name
        ) from None
    except OSError as error:
        raise InputFileError(
            f"{name}: cannot read file: {error.strerror}", name
        ) from None


def _read_with_python(data: bytes, first_line: int, name: str) -> _Block:
    """The exact reader on one block (raises its errors)."""
    lines = data.decode("utf-8").split("\n")[:-1]
    ids, numbers, counts, texts, flat = [], [], [], [], []
    for entry in iter_nbest(lines, name, first_line=first_line):
        ids.append(entry.sentence_id)
        numbers.append(entry.line_number)
        words = entry.hypothesis.split()
        counts.append(len(words))
        flat.extend(words)
        texts.append(entry.hypothesis)
    local: dict[str, int] = {}
    word_ids = np.fromiter(
        (local.setdefault(word, len(local)) for word in flat),
        dtype=np.int32,
        count=len(flat),
    )
    encoded = [word.encode("utf-8") for word in local]
    lengths = np.array([len(word) for word in encoded], dtype=np.int64)
    stops = np.cumsum(lengths)
    return _Block(
        first_line,
        data,
        np.asarray(ids, dtype=np.int64),
        np.asarray(numbers, dtype=np.int64),
        np.asarray(counts, dtype=np.int64),
        word_ids,
        np.frombuffer(b"".join(encoded), dtype=np.uint8),
        stops - lengths,
        stops,
        TextBlock.from_strings(texts),
    )


def _scan(first_line: int, data: bytes, name: str) -> _Block:
    """One block: the compiled fast path, or the exact reader where needed.
    A problem is returned with the block (raised later, in file order)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = first_line + data.count(b"\n", 0, error.start)
        problem = InputFileError(
            f"{name}: line {line}: invalid UTF-8 ({error.reason})", name, line
        )
        prefix = data.rfind(b"\n", 0, error.start) + 1
        return _Block(first_line, data, problem=problem, valid_prefix=prefix)
    try:
        return _scan_fast(first_line, data) or _read_with_python(data, first_line, name)
    except InputFileError as error:
        return _Block(first_line, data, problem=error)


def _scan_fast(first_line: int, data: bytes) -> _Block | None:
    """The compiled path; ``None`` when a line needs the exact reader."""
    buf = np.frombuffer(data, dtype=np.uint8)
    capacity = buf.size // 2 + 2
    # A bound on the candidate lines instead of counting them (bytes.count
    # holds the GIL: about 1 s of Table 7's list); the pages past the
    # candidates found are never touched.
    most_candidates = buf.size // _SHORTEST_CANDIDATE_LINE + 1
    ids, lines, starts, stops, counts = (
        np.empty(most_candidates, dtype=np.int64) for _ in range(5)
    )
    words = np.empty(capacity, dtype=np.int32)
    table_size = _FIRST_TABLE_SIZE
    while True:
        # The kernel stops (TABLE_FULL) before a word beyond half the table.
        vocab_start = np.empty(table_size // 2 + 1, dtype=np.int32)
        vocab_stop = np.empty(table_size // 2 + 1, dtype=np.int32)
        table = np.full(table_size, -1, dtype=np.int32)
        keys = np.empty(table_size, dtype=np.uint64)
        n_cand, n_words, n_vocab, slow_line = scan_nbest_block(
            buf,
            ids,
            lines,
            starts,
            stops,
            counts,
            words,
            vocab_start,
            vocab_stop,
            table,
            keys,
        )
        if slow_line != TABLE_FULL:
            break
        table_size *= 4
    if slow_line >= 0:
        return None
    return _Block(
        first_line,
        data,
        ids[:n_cand].copy(),
        lines[:n_cand] + first_line,
        counts[:n_cand].copy(),
        words[:n_words].copy(),
        buf,
        vocab_start[:n_vocab].astype(np.int64),
        vocab_stop[:n_vocab].astype(np.int64),
        TextBlock(data, starts[:n_cand].copy(), stops[:n_cand].copy()),
    )


def _scanned_blocks(
    name: str, blocks: Iterable[tuple[int, bytes]], workers: int
) -> Iterator[_Block]:
    """Blocks in file order, scanned ``workers`` at a time."""
    if workers <= 1:
        for first_line, data in blocks:
            yield _scan(first_line, data, name)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending: deque = deque()
        for first_line, data in blocks:
            pending.append(pool.submit(_scan, first_line, data, name))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


class _WordSegments:
    """The word ids of a whole list, appended block by block into large
    segments and joined once at the end with about one segment's memory
    beyond the words themselves."""

    def __init__(self, segment_words: int = _SEGMENT_WORDS) -> None:
        self._segment_words = segment_words
        self._full: list[np.ndarray] = []
        self._current = np.zeros(0, dtype=np.int32)
        self._used = 0

    def extend(self, mapping: np.ndarray, local_ids: np.ndarray) -> None:
        """Append ``mapping[local_ids]`` (a block's words, shared ids)."""
        done = 0
        while done < local_ids.size:
            if self._used == self._current.size:
                if self._current.size:
                    self._full.append(self._current)
                size = max(self._segment_words, local_ids.size - done)
                self._current = np.empty(size, dtype=np.int32)
                self._used = 0
            take = min(local_ids.size - done, self._current.size - self._used)
            map_words(mapping, local_ids[done : done + take], self._current, self._used)
            self._used += take
            done += take

    def joined(self) -> np.ndarray:
        """Every word id, in order, as one array (the segments are freed as
        they are copied)."""
        last = self._current[: self._used]
        segments, self._full = self._full, []
        self._current, self._used = np.zeros(0, dtype=np.int32), 0
        if not segments:
            return last  # one segment: its unused tail is never touched
        segments.append(last)
        out = np.empty(sum(segment.size for segment in segments), dtype=np.int32)
        position = 0
        for i in range(len(segments)):
            size = segments[i].size
            out[position : position + size] = segments[i]
            position += size
            segments[i] = None  # type: ignore[call-overload]
        return out


class _SharedVocabulary:
    """The words of every block so far, numbered in order of first
    appearance, kept as UTF-8 bytes in compiled code
    (:func:`~scoring.batch.kernels_text.merge_vocabulary`): a block's
    words are looked up without making a Python string for each, and
    without the GIL, so the scanning threads keep running meanwhile.
    Table 7's list has about 170 blocks of 25,000 distinct words each;
    decoding them and looking them up in a dict on the main thread took
    1.0 s of its CPU for the first 60 sentences, 0.8 s with this."""

    def __init__(self) -> None:
        # Small at first, grown as needed (amortised: a few copies in all),
        # so that even a tiny list, such as the one that makes the kernels
        # ready, calls every kernel here.
        self.size = 0
        self._table = np.full(1 << 4, -1, dtype=np.int32)
        self._hashes = np.empty(1 << 3, dtype=np.uint64)
        self._offsets = np.zeros((1 << 3) + 1, dtype=np.int64)
        self._arena = np.empty(1 << 6, dtype=np.uint8)

    def ids_of(self, block: _Block) -> np.ndarray:
        """Shared id of each word of ``block``'s vocabulary (adding new ones)."""
        starts, stops = block.vocab_starts, block.vocab_stops
        self._make_room(starts.size, int((stops - starts).sum()))
        mapping = np.empty(starts.size, dtype=np.int32)
        self.size = merge_vocabulary(
            block.vocab_bytes,
            starts,
            stops,
            mapping,
            self._table,
            self._hashes,
            self._arena,
            self._offsets,
            self.size,
        )
        return mapping

    def _make_room(self, new_words: int, new_bytes: int) -> None:
        words = self.size + new_words
        if words > self._hashes.size:
            capacity = max(2 * self._hashes.size, words)
            self._hashes = _grown(self._hashes, capacity)
            self._offsets = _grown(self._offsets, capacity + 1)
        used = int(self._offsets[self.size])
        if used + new_bytes > self._arena.size:
            self._arena = _grown(
                self._arena, max(2 * self._arena.size, used + new_bytes)
            )
        if 2 * words >= self._table.size:
            size = self._table.size
            while 2 * words >= size:
                size *= 4
            self._table = np.full(size, -1, dtype=np.int32)
            rehash_vocabulary(self._table, self._hashes, self.size)

    def words(self) -> tuple[str, ...]:
        """Every word, by id, as text (each decoded once)."""
        data = self._arena[: int(self._offsets[self.size])].tobytes()
        bounds = self._offsets[: self.size + 1].tolist()
        return tuple(
            data[start:stop].decode("utf-8")
            for start, stop in zip(bounds[:-1], bounds[1:])
        )


def _grown(array: np.ndarray, size: int) -> np.ndarray:
    bigger = np.empty(size, dtype=array.dtype)
    bigger[: array.size] = array
    return bigger


def _raise_first_problem(block: _Block, name: str, previous_id: int | None):
    """Read a failed block again with the exact reader, knowing the id
    before it, so the first problem in file order is the one raised."""
    assert block.problem is not None
    end = len(block.data) if block.valid_prefix is None else block.valid_prefix
    lines = block.data[:end].decode("utf-8").split("\n")[:-1]
    for _ in iter_nbest(
        lines, name, first_line=block.first_line, previous_id=previous_id
    ):
        pass
    raise block.problem


def _check_order(
    name: str, ids: np.ndarray, numbers: np.ndarray, previous_id: int | None
) -> None:
    """Sentence ids never decrease (consecutive candidates of a sentence)."""
    if previous_id is None:
        before, current, numbers = ids[:-1], ids[1:], numbers[1:]
    else:
        before, current = np.concatenate(([previous_id], ids[:-1])), ids
    bad = np.flatnonzero(current < before)
    if bad.size:
        i = int(bad[0])
        raise order_error(name, int(numbers[i]), int(current[i]), int(before[i]))


def read_nbest_words(
    path: str | os.PathLike[str],
    *,
    workers: int = 2,
    block_bytes: int = BLOCK_BYTES,
    keep_texts: bool = True,
) -> NBestWords:
    """Read a whole n-best file into :class:`NBestWords` (see the module);
    ``workers`` threads scan blocks of about ``block_bytes``. Without
    ``keep_texts`` the hypothesis texts are dropped as the blocks are read
    (:class:`~scoring.orange.candidate_texts.DroppedTexts`): the file's bytes
    are not held, for a run that ranks from word ids only."""
    name = os.fspath(path)
    blocks = iter_line_blocks(name, block_bytes)
    words = _nbest_words(name, blocks, workers, keep_texts=keep_texts)
    # The blocks' bytes and the scanner's scratch arrays, freed, stay in
    # the C heap's arenas otherwise (hundreds of MB on a large list).
    release_free_memory()
    return words


def nbest_words_from_bytes(data: bytes, name: str) -> NBestWords:
    """:class:`NBestWords` of n-best lines held in memory (e.g. one chunk of
    a stored list), scanned in this thread; ``name`` is the file the error
    messages name. ``data`` is whole lines (a last line without ``"\n"``
    counts)."""
    if data and not data.endswith(b"\n"):
        data += b"\n"
    return _nbest_words(name, [(1, data)] if data else [], workers=1)


def _nbest_words(
    name: str,
    blocks: Iterable[tuple[int, bytes]],
    workers: int,
    *,
    keep_texts: bool = True,
) -> NBestWords:
    vocabulary = _SharedVocabulary()
    id_parts, line_parts, count_parts, text_blocks = [], [], [], []
    word_ids = _WordSegments()
    previous_id: int | None = None
    for position, block in enumerate(_scanned_blocks(name, blocks, workers)):
        if position % _BLOCKS_PER_TRIM == _BLOCKS_PER_TRIM - 1:
            release_free_memory()
        if block.problem is not None:
            _raise_first_problem(block, name, previous_id)
        ids, numbers = block.sentence_ids, block.line_numbers
        if ids.size:
            _check_order(name, ids, numbers, previous_id)
            previous_id = int(ids[-1])
        # New words get the next ids; then every word's shared id.
        mapping = vocabulary.ids_of(block)
        id_parts.append(ids)
        line_parts.append(numbers)
        count_parts.append(block.word_counts)
        word_ids.extend(mapping, block.words)
        if keep_texts:
            text_blocks.append(block.texts)
    candidate_ids = _joined(id_parts, np.int64)
    is_first = np.ones(candidate_ids.size, dtype=bool)
    is_first[1:] = candidate_ids[1:] != candidate_ids[:-1]
    firsts = np.flatnonzero(is_first)
    counts = _joined(count_parts, np.int64)
    return NBestWords(
        file_name=name,
        sentence_ids=candidate_ids[firsts],
        sentence_offsets=np.append(firsts, candidate_ids.size).astype(np.int64),
        line_numbers=_joined(line_parts, np.int64),
        word_offsets=np.concatenate(([0], np.cumsum(counts))).astype(np.int64),
        words=word_ids.joined(),
        vocabulary=vocabulary.words(),
        texts=(
            CandidateTexts(text_blocks)
            if keep_texts
            else DroppedTexts(int(candidate_ids.size))
        ),
    )


def _joined(parts: list[np.ndarray], dtype) -> np.ndarray:
    if not parts:
        return np.zeros(0, dtype=dtype)
    return np.concatenate(parts).astype(dtype, copy=False)
