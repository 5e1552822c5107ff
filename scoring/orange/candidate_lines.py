"""The texts of a few candidates, read again from the n-best file.

``python -m scoring orange --json`` prints the text of each candidate it
lists (per metric and sentence the best K above the references): tens of
thousands of lines out of millions. Holding the file's bytes for them cost
Table 7's 1.4 GB list its whole size in memory; instead the reader keeps
only each candidate's line number (:class:`~scoring.orange.nbest_stream.NBestWords`
``line_numbers``) and :func:`read_candidate_texts` reads the file again at
the end, taking the hypothesis of the lines asked for with
:func:`~scoring.orange.nbest.iter_nbest` itself, so the text is exactly the
one the first reading saw. A line that no longer holds the candidate's
sentence (the file changed in between) is refused, naming the line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from scoring.errors import InputFileError
from scoring.orange.nbest import iter_nbest
from scoring.orange.nbest_stream import iter_line_blocks


def read_candidate_texts(
    path: str | os.PathLike[str],
    line_numbers: Sequence[int],
    sentence_ids: Sequence[int],
) -> list[str]:
    """The hypothesis on each line of ``line_numbers`` (1-based, numbered as
    :func:`~scoring.orange.nbest_stream.iter_line_blocks` numbers them),
    which must be a candidate of the sentence at the same position of
    ``sentence_ids``; in the order asked."""
    name = os.fspath(path)
    wanted = np.asarray(line_numbers, dtype=np.int64)
    expected = list(sentence_ids)
    if wanted.size != len(expected):
        raise ValueError("one sentence id is needed per line")
    order = np.argsort(wanted, kind="stable").tolist()
    lines = wanted[order].tolist()
    texts: list[str | None] = [None] * len(lines)
    position = 0
    for first_line, data in iter_line_blocks(name):
        if position == len(lines):
            break  # the rest of the file holds no line asked for
        end_line = first_line + data.count(b"\n")
        if lines[position] >= end_line:
            continue
        ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10).tolist()
        while position < len(lines) and lines[position] < end_line:
            number = lines[position]
            k = number - first_line
            start = ends[k - 1] + 1 if k else 0
            text = data[start : ends[k]].decode("utf-8", "replace")
            entry = next(iter_nbest([text], name, first_line=number), None)
            target = order[position]
            if entry is None or entry.sentence_id != expected[target]:
                raise InputFileError(
                    f"{name}: line {number}: no longer the candidate of sentence "
                    f"{expected[target]} read before (the file changed while "
                    "ORANGE ran)",
                    name,
                    number,
                )
            texts[target] = entry.hypothesis
            position += 1
    if position < len(lines):
        number = lines[position]
        raise InputFileError(
            f"{name}: line {number}: missing (the file changed while ORANGE ran)",
            name,
            number,
        )
    return texts  # type: ignore[return-value]
