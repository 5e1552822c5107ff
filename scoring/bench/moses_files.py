"""Synthetic corpora written as the files ``python -m scoring orange`` reads.

:func:`write_moses_files` turns a :class:`~scoring.bench.synthetic.SyntheticCorpus`
into a Moses n-best list (``id ||| hypothesis ||| features ||| score``, one
candidate a line, optionally gzip-compressed) and one plain-text reference
file per reference (line i + 1 = sentence i), so the benchmark can time the
command line end to end: reading, tokenising, scoring and printing. Tokens
are rendered as ``w123``, which every tokenizer leaves as they are, so the
command line ranks exactly what the engine ranks on the token ids.

The paper-shaped 872 x 1024-best corpus gives a file of about 128 MB.
"""

from __future__ import annotations

import gzip
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scoring.bench.synthetic import SyntheticCorpus

# Sentences rendered before each write: bounds the text held in memory.
_SENTENCES_PER_WRITE = 16


@dataclass(frozen=True)
class MosesFiles:
    """Paths of a written corpus."""

    nbest: Path
    references: tuple[Path, ...]

    @property
    def nbest_bytes(self) -> int:
        """Size of the n-best file on disk (compressed if gzip), bytes."""
        return self.nbest.stat().st_size


def _words(corpus: SyntheticCorpus) -> list[str]:
    """Token id -> its text, for every id the corpus uses."""
    return [f"w{i}" for i in range(corpus.shape.vocabulary_size)]


def _render(words: list[str], ids: np.ndarray) -> str:
    return " ".join([words[t] for t in ids.tolist()])


def _nbest_lines(corpus: SyntheticCorpus, words: list[str], sentence: int) -> str:
    """All candidate lines of one sentence. The features and the model score
    decrease with the candidate's position, as in a decoder's output."""
    nbest = corpus.nbest
    first, last = nbest.sentence_offsets[sentence : sentence + 2].tolist()
    offsets = nbest.candidate_offsets[first : last + 1].tolist()
    tokens = [words[t] for t in nbest.tokens[offsets[0] : offsets[-1]].tolist()]
    base = offsets[0]
    lines = []
    for rank, (start, stop) in enumerate(zip(offsets, offsets[1:])):
        text = " ".join(tokens[start - base : stop - base])
        score = -10.0 - 0.01 * rank
        lines.append(
            f"{sentence} ||| {text} ||| LM0= {2.5 * score:.3f} "
            f"WordPenalty0= {start - stop} ||| {score:.4f}\n"
        )
    return "".join(lines)


def write_moses_files(
    corpus: SyntheticCorpus,
    directory: str | os.PathLike[str],
    *,
    compress: bool = False,
) -> MosesFiles:
    """Write ``nbest`` (``nbest.gz`` with ``compress``) and ``reference.0``,
    ``reference.1``, ... into ``directory``; returns their paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    words = _words(corpus)
    nbest_path = directory / ("nbest.gz" if compress else "nbest")
    # compresslevel 1: the benchmark measures reading, not writing.
    handle = (
        gzip.open(nbest_path, "wt", encoding="utf-8", compresslevel=1, newline="\n")
        if compress
        else open(nbest_path, "w", encoding="utf-8", newline="\n")
    )
    with handle:
        n_sentences = corpus.shape.n_sentences
        for start in range(0, n_sentences, _SENTENCES_PER_WRITE):
            stop = min(start + _SENTENCES_PER_WRITE, n_sentences)
            handle.write(
                "".join(_nbest_lines(corpus, words, i) for i in range(start, stop))
            )
    reference_paths = []
    for k in range(corpus.shape.n_references):
        path = directory / f"reference.{k}"
        path.write_text(
            "".join(_render(words, refs[k]) + "\n" for refs in corpus.references),
            encoding="utf-8",
        )
        reference_paths.append(path)
    return MosesFiles(nbest_path, tuple(reference_paths))
