"""Artifacts: n-best lists and chunk partials, in the artifact storage.

Every read and write goes through Django's storage API
(``services.artifact_storage``): a directory under ``MTDASH_ARTIFACT_DIR`` or
an S3-compatible bucket, with the same names in both.

**n-best list** (prefix ``orange/nbest/<uuid>/``): ``upload.gz``, the
file as it was uploaded (gzip), until the worker that checks it has written


- ``candidates.txt.gz``: the normalised Moses text
  (``id ||| hypothesis ||| features ||| score``, one candidate a line, in the
  system's order), written as one gzip *member* per sentence. Concatenated
  members are still one valid gzip file (``gzip -dc`` prints the whole list),
  and a worker reads just the bytes of its chunk's sentences (a seek, or one
  ranged GET on S3) instead of decompressing everything.
- ``index.npz``: ``sentence_ids`` (S,) int64, ``n_candidates`` (S,) int64 and
  ``offsets`` (S + 1,) int64, the byte offset of each sentence's member.

**chunk partial** (``orange/jobs/<job id>/chunk-<index>.npz``): one chunk's
``SentenceRankings`` for every metric of the job, as plain arrays (no
pickles), replaced whole so a chunk run twice leaves one result.
"""

from __future__ import annotations

import gzip
import io
import json
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings
from django.core.files import File

import scoring.orange
from mtdash.orange.artifact_storage import (
    delete_tree,
    local_path,
    read_bytes,
    read_range,
    save_file,
)
from scoring import decode_segments
from scoring.orange import NBestEntry, SentenceRankings, iter_nbest

CANDIDATES_FILE = "candidates.txt.gz"
INDEX_FILE = "index.npz"
# The file as uploaded, gzip-compressed, until the check has replaced it by
# the two files above.
UPLOAD_FILE = "upload.gz"


def artifact_path(relative: str) -> Path:
    """Absolute path of an artifact on file-system storage (for tests and
    operators; the app itself never opens a path), refusing anything outside
    the root (``SuspiciousFileOperation``)."""
    return local_path(relative)


def remove_artifact(relative: str) -> None:
    """Delete an artifact or every artifact under a prefix; a missing one is fine."""
    delete_tree(relative)


# -- n-best lists -------------------------------------------------------------


@dataclass(frozen=True)
class NBestIndex:
    """Where each sentence's candidates are. Shapes: S sentences."""

    sentence_ids: np.ndarray  # (S,) int64, increasing
    n_candidates: np.ndarray  # (S,) int64
    offsets: np.ndarray  # (S + 1,) int64, byte offsets of the gzip members

    def position_of(self, sentence_id: int) -> int:
        """Position (0-based, in list order) of a sentence id; KeyError if absent."""
        position = int(np.searchsorted(self.sentence_ids, sentence_id))
        if (
            position == len(self.sentence_ids)
            or self.sentence_ids[position] != sentence_id
        ):
            raise KeyError(sentence_id)
        return position


def normalised_line(entry: NBestEntry) -> str:
    score = "" if entry.score is None else repr(entry.score)
    return (
        f"{entry.sentence_id} ||| {entry.hypothesis} ||| {entry.features} ||| {score}"
    )


def new_nbest_artifact() -> str:
    """A fresh directory name for one n-best list."""
    return f"orange/nbest/{uuid.uuid4().hex}"


class NBestArtifactWriter:
    """Writes a validated list sentence by sentence, holding one at a time.

    ``add(entries)`` for each sentence in increasing id order, then
    ``finish()`` stores ``candidates.txt.gz`` and ``index.npz`` under
    ``relative`` (replacing them: a check run twice leaves one list). Use it
    as a context manager; leaving it early stores nothing.
    """

    # Level 1: compressing is most of the time a worker spends checking a
    # list; level 6 takes twice as long for a file about a quarter smaller.
    def __init__(self, relative: str, compresslevel: int = 1):
        self.relative = relative
        self.compresslevel = compresslevel
        self.sentence_ids: list[int] = []
        self.n_candidates: list[int] = []
        self.offsets = [0]
        # Compressed into a local temporary file first: the storage gets one
        # finished file (one upload on S3), never a growing one.
        self._handle = tempfile.TemporaryFile(dir=settings.FILE_UPLOAD_TEMP_DIR)

    def __enter__(self) -> NBestArtifactWriter:
        return self

    def __exit__(self, *exc_info) -> None:
        self._handle.close()

    def add(self, entries: Sequence[NBestEntry]) -> None:
        """One sentence's candidates, in the system's order."""
        text = "".join(normalised_line(entry) + "\n" for entry in entries)
        member = gzip.compress(
            text.encode("utf-8"), compresslevel=self.compresslevel, mtime=0
        )
        self._handle.write(member)
        self.offsets.append(self._handle.tell())
        self.sentence_ids.append(entries[0].sentence_id)
        self.n_candidates.append(len(entries))

    def finish(self) -> None:
        self._handle.seek(0)
        save_file(f"{self.relative}/{CANDIDATES_FILE}", File(self._handle))
        buffer = io.BytesIO()
        np.savez(
            buffer,
            sentence_ids=np.array(self.sentence_ids, dtype=np.int64),
            n_candidates=np.array(self.n_candidates, dtype=np.int64),
            offsets=np.array(self.offsets, dtype=np.int64),
        )
        save_file(f"{self.relative}/{INDEX_FILE}", buffer.getvalue())


def write_nbest_artifact(sentences: Sequence[Sequence[NBestEntry]]) -> str:
    """Store validated candidates grouped by sentence; return the directory.

    ``sentences[s]`` holds the candidates of one sentence in the system's
    order, sentences in increasing id order.
    """
    relative = new_nbest_artifact()
    try:
        with NBestArtifactWriter(relative) as writer:
            for entries in sentences:
                writer.add(entries)
            writer.finish()
    except BaseException:
        delete_tree(relative)
        raise
    return relative


def load_nbest_index(relative: str) -> NBestIndex:
    stored = io.BytesIO(read_bytes(f"{relative}/{INDEX_FILE}"))
    with np.load(stored, allow_pickle=False) as data:
        return NBestIndex(data["sentence_ids"], data["n_candidates"], data["offsets"])


def read_nbest_entries(
    relative: str, first: int, stop: int, index: NBestIndex | None = None
) -> list[list[NBestEntry]]:
    """Candidates of the sentences at positions ``first`` ≤ s < ``stop``.

    Lines are split and parsed exactly as the upload did
    (``decode_segments`` then ``iter_nbest``: lines end at ``"\\n"`` only), so
    a hypothesis holding U+2028, U+0085 or a form feed reads back whole.
    """
    index = index or load_nbest_index(relative)
    start, end = int(index.offsets[first]), int(index.offsets[stop])
    data = read_range(f"{relative}/{CANDIDATES_FILE}", start, end)
    lines = decode_segments(gzip.decompress(data), CANDIDATES_FILE)
    groups: list[list[NBestEntry]] = []
    for entry in iter_nbest(lines, CANDIDATES_FILE):
        if not groups or groups[-1][0].sentence_id != entry.sentence_id:
            groups.append([])
        groups[-1].append(entry)
    return groups


def read_chunk_words(
    relative: str, first: int, stop: int, index: NBestIndex | None = None
):
    """Positions ``first`` ≤ s < ``stop`` as word ids (``NBestWords``), read
    by the command line's compiled reader: what ORANGE chunks rank, whose
    tokens are then made once per distinct word (``rank_nbest_chunk``)."""
    index = index or load_nbest_index(relative)
    start, end = int(index.offsets[first]), int(index.offsets[stop])
    data = read_range(f"{relative}/{CANDIDATES_FILE}", start, end)
    # Looked up on use: the compiled reader loads Numba, which the web
    # processes (they import this module, never call this) must not.
    return scoring.orange.nbest_words_from_bytes(gzip.decompress(data), CANDIDATES_FILE)


def read_candidates(
    relative: str, first: int, stop: int, index: NBestIndex | None = None
) -> tuple[list[int], list[tuple[str, ...]]]:
    """Sentence ids and candidate texts of positions ``first`` ≤ s < ``stop``."""
    groups = read_nbest_entries(relative, first, stop, index)
    ids = [group[0].sentence_id for group in groups]
    return ids, [tuple(entry.hypothesis for entry in group) for group in groups]


# -- chunk partials -------------------------------------------------------------

_RANKING_ARRAYS = (
    "sentence_ids", "oracle_scores", "n_candidates", "better", "tied",
    "curve_n", "curve_better", "curve_tied",
)  # fmt: skip


def rankings_to_arrays(
    rankings: Sequence[SentenceRankings], metrics: Sequence[str]
) -> dict:
    """Plain arrays for one ``.npz``: ``m<i>_<field>`` per metric i.

    The ragged above-reference lists become ``above_counts`` (S,),
    ``above_index`` (A,) and ``above_score`` (A,).
    """
    arrays: dict[str, np.ndarray] = {
        "metrics": np.frombuffer(
            json.dumps(list(metrics)).encode("utf-8"), dtype=np.uint8
        )
    }
    for i, ranking in enumerate(rankings):
        for name in _RANKING_ARRAYS:
            arrays[f"m{i}_{name}"] = np.asarray(getattr(ranking, name))
        above = ranking.above_reference
        arrays[f"m{i}_above_counts"] = np.array([len(a) for a in above], dtype=np.int64)
        arrays[f"m{i}_above_index"] = np.array(
            [j for a in above for j, _ in a], dtype=np.int64
        )
        arrays[f"m{i}_above_score"] = np.array(
            [score for a in above for _, score in a], dtype=np.float64
        )
    return arrays


def rankings_from_arrays(data, metrics: Sequence[str]) -> list[SentenceRankings]:
    """Inverse of :func:`rankings_to_arrays`; checks the metrics match."""
    stored = json.loads(data["metrics"].tobytes().decode("utf-8"))
    if stored != list(metrics):
        raise ValueError(
            f"partial result is for metrics {stored}, expected {list(metrics)}"
        )
    rankings = []
    for i in range(len(metrics)):
        fields = {name: data[f"m{i}_{name}"] for name in _RANKING_ARRAYS}
        counts = data[f"m{i}_above_counts"]
        indices = data[f"m{i}_above_index"].tolist()
        scores = data[f"m{i}_above_score"].tolist()
        above, start = [], 0
        for count in counts.tolist():
            above.append(
                tuple(
                    zip(indices[start : start + count], scores[start : start + count])
                )
            )
            start += count
        rankings.append(SentenceRankings(**fields, above_reference=tuple(above)))
    return rankings


def save_partial(
    relative_dir: str,
    name: str,
    rankings: Sequence[SentenceRankings],
    metrics: Sequence[str],
) -> None:
    """Store (or replace) one chunk's rankings of every metric."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **rankings_to_arrays(rankings, metrics))
    save_file(f"{relative_dir}/{name}", buffer.getvalue())


def load_partial(
    relative_dir: str, name: str, metrics: Sequence[str]
) -> list[SentenceRankings]:
    stored = io.BytesIO(read_bytes(f"{relative_dir}/{name}"))
    with np.load(stored, allow_pickle=False) as data:
        return rankings_from_arrays(data, metrics)
