"""Moses n-best lists: reading, and a compact tokenised form for batch scoring.

A line is ``sent_id ||| hypothesis ||| features ||| score`` (Moses may add
more fields, e.g. alignments, which are ignored). Candidates of a sentence
are consecutive lines, sentences in increasing id order counted from 0; the
system's order within a sentence is kept, since ORANGE's cutoff curve
depends on it.

Lines end at ``"\\n"`` (a ``"\\r"`` before it is dropped) and nowhere else:
U+2028, U+0085, a form feed and the other breaks of ``str.splitlines()`` are
text inside a hypothesis. Whoever splits a file into lines for
:func:`iter_nbest` must do the same (``scoring.decode_segments`` and
:func:`open_nbest` do), or a list accepted in one place is read differently
in another.

At paper scale (474 sentences x 16384 candidates) Python strings would not
fit comfortably in memory, so :func:`tokenize_nbest` streams the file into
:class:`TokenizedNBest`: integer token ids (interned, shared with the
references) and offsets, saved as one compressed ``.npz`` file.
"""

from __future__ import annotations

import gzip
import io
import math
import os
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from scoring.batch.grid import TokenInterner
from scoring.errors import InputFileError

SEPARATOR = "|||"
# ASCII digits only: int() would also read "\u0660" (Arabic-Indic zero) or "0_1".
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


@dataclass(frozen=True)
class NBestEntry:
    sentence_id: int
    hypothesis: str
    features: str
    score: float | None
    line_number: int  # 1-based, for messages


def order_error(
    file_name: str, line_number: int, sentence_id: int, previous_id: int
) -> InputFileError:
    """The refusal of a sentence id smaller than the one before it."""
    return InputFileError(
        f"{file_name}: line {line_number}: sentence {sentence_id} comes "
        f"after sentence {previous_id}; the candidates of a sentence must "
        "be consecutive and ids increasing",
        file_name,
        line_number,
    )


def iter_nbest(
    lines: Iterable[str],
    file_name: str,
    *,
    first_line: int = 1,
    previous_id: int | None = None,
) -> Iterator[NBestEntry]:
    """Parse n-best lines, checking ids, grouping and the score field.

    ``lines`` are split on ``"\\n"`` only (see the module's docstring); a
    trailing ``"\\r"`` is dropped. Raises :class:`InputFileError` naming the
    line of the first problem. A part of a file is read with the number of
    its first line and the id of the sentence before it.
    """
    seen: set[int] = set() if previous_id is None else {previous_id}
    for line_number, line in enumerate(lines, start=first_line):
        line = line.rstrip("\n").rstrip("\r")
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(SEPARATOR)]
        if len(fields) < 2:
            raise InputFileError(
                f"{file_name}: line {line_number}: expected "
                f"'id ||| hypothesis ||| features ||| score'",
                file_name,
                line_number,
            )
        if not _WHOLE_NUMBER.fullmatch(fields[0]):
            raise InputFileError(
                f"{file_name}: line {line_number}: sentence id {fields[0]!r} is not a "
                "whole number",
                file_name,
                line_number,
            )
        sentence_id = int(fields[0])
        if sentence_id < 0:
            raise InputFileError(
                f"{file_name}: line {line_number}: sentence id {sentence_id} is "
                "negative; ids are the test set's line numbers counted from 0",
                file_name,
                line_number,
            )
        if sentence_id != previous_id:
            if previous_id is not None and (
                sentence_id in seen or sentence_id < previous_id
            ):
                raise order_error(file_name, line_number, sentence_id, previous_id)
            seen.add(sentence_id)
            previous_id = sentence_id
        score = None
        if len(fields) >= 4 and fields[3]:
            try:
                score = float(fields[3])
                problem = "" if math.isfinite(score) else "is not a finite number"
            except ValueError:
                problem = "is not a number"
            if problem:
                # More than four fields: the text itself may hold a "|||".
                hint = (
                    f" (the line has {len(fields) - 1} '|||' separators where Moses "
                    "writes 3: does the hypothesis contain '|||'?)"
                    if len(fields) > 4
                    else ""
                )
                raise InputFileError(
                    f"{file_name}: line {line_number}: score {fields[3]!r} "
                    f"{problem}{hint}",
                    file_name,
                    line_number,
                )
        features = fields[2] if len(fields) >= 3 else ""
        yield NBestEntry(sentence_id, fields[1], features, score, line_number)


def open_nbest(path: str | os.PathLike[str]) -> Iterator[NBestEntry]:
    """Stream the entries of an n-best file (UTF-8, or gzip-compressed UTF-8
    told by its magic bytes), lines ending at ``"\\n"``."""
    name = os.fspath(path)
    try:
        # newline="\n": split at "\n" only, as decode_segments does (the
        # default would also end a line at a bare "\r").
        with open(name, "rb") as probe:
            compressed = probe.read(2) == b"\x1f\x8b"
        raw = gzip.open(name, "rb") if compressed else open(name, "rb")
        # utf-8-sig: a leading byte-order mark is dropped, as the web drops it.
        with io.TextIOWrapper(raw, encoding="utf-8-sig", newline="\n") as handle:
            yield from iter_nbest(handle, name)
    except UnicodeDecodeError as error:
        raise InputFileError(f"{name}: invalid UTF-8 ({error.reason})", name) from None
    except (gzip.BadGzipFile, zlib.error, EOFError) as error:
        raise InputFileError(
            f"{name}: not a readable gzip file ({error})", name
        ) from None
    except OSError as error:
        raise InputFileError(
            f"{name}: cannot read file: {error.strerror}", name
        ) from None


@dataclass(frozen=True)
class NBestList:
    """Candidates as text, grouped by sentence (small lists, tests, the UI)."""

    sentence_ids: tuple[int, ...]
    candidates: tuple[tuple[str, ...], ...]

    @classmethod
    def from_entries(cls, entries: Iterable[NBestEntry]) -> NBestList:
        ids: list[int] = []
        groups: list[list[str]] = []
        for entry in entries:
            if not ids or ids[-1] != entry.sentence_id:
                ids.append(entry.sentence_id)
                groups.append([])
            groups[-1].append(entry.hypothesis)
        return cls(tuple(ids), tuple(tuple(group) for group in groups))


@dataclass(frozen=True)
class TokenizedNBest:
    """All candidates as token ids. Shapes: T tokens, C candidates, S sentences."""

    sentence_ids: np.ndarray  # (S,) int64
    sentence_offsets: np.ndarray  # (S + 1,) int64: candidates of sentence s
    candidate_offsets: np.ndarray  # (C + 1,) int64: tokens of candidate c
    tokens: np.ndarray  # (T,) int32 token ids
    vocabulary: tuple[str, ...]  # id -> token

    def candidates_of(self, sentence: int) -> range:
        """Candidate indices of the s-th sentence (position, not id)."""
        return range(
            int(self.sentence_offsets[sentence]),
            int(self.sentence_offsets[sentence + 1]),
        )

    def candidate_tokens(self, candidate: int) -> np.ndarray:
        start, stop = (
            self.candidate_offsets[candidate],
            self.candidate_offsets[candidate + 1],
        )
        return self.tokens[start:stop]

    def save(self, path: str | os.PathLike[str]) -> None:
        """One compressed ``.npz``; the vocabulary as newline-joined UTF-8."""
        vocabulary = np.frombuffer(
            "\n".join(self.vocabulary).encode("utf-8"), dtype=np.uint8
        )
        np.savez_compressed(
            path,
            sentence_ids=self.sentence_ids,
            sentence_offsets=self.sentence_offsets,
            candidate_offsets=self.candidate_offsets,
            tokens=self.tokens,
            vocabulary=vocabulary,
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TokenizedNBest:
        with np.load(path, allow_pickle=False) as data:
            text = data["vocabulary"].tobytes().decode("utf-8")
            return cls(
                sentence_ids=data["sentence_ids"],
                sentence_offsets=data["sentence_offsets"],
                candidate_offsets=data["candidate_offsets"],
                tokens=data["tokens"],
                vocabulary=tuple(text.split("\n")) if text else (),
            )


def tokenize_nbest(
    entries: Iterable[NBestEntry],
    tokenize: Callable[[str], Sequence[str]],
    interner: TokenInterner,
) -> TokenizedNBest:
    """Tokenise and intern every candidate, streaming (text is not kept)."""
    sentence_ids: list[int] = []
    sentence_offsets = [0]
    candidate_offsets = [0]
    chunks: list[np.ndarray] = []
    n_candidates = n_tokens = 0
    for entry in entries:
        if not sentence_ids or sentence_ids[-1] != entry.sentence_id:
            if sentence_ids:
                sentence_offsets.append(n_candidates)
            sentence_ids.append(entry.sentence_id)
        ids = np.asarray(interner.intern(tokenize(entry.hypothesis)), dtype=np.int32)
        chunks.append(ids)
        n_candidates += 1
        n_tokens += len(ids)
        candidate_offsets.append(n_tokens)
    if sentence_ids:
        sentence_offsets.append(n_candidates)
    tokens = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int32)
    return TokenizedNBest(
        sentence_ids=np.asarray(sentence_ids, dtype=np.int64),
        sentence_offsets=np.asarray(sentence_offsets, dtype=np.int64),
        candidate_offsets=np.asarray(candidate_offsets, dtype=np.int64),
        tokens=tokens,
        vocabulary=interner.vocabulary,
    )
