"""Which span format a file is in, and reading it.

``read_span_file`` takes the bytes and the file name; the format is the one
asked for, else told by the extension (``.tsv`` is MQM TSV; ``.jsonl``,
``.ndjson`` and ``.json`` are spans JSON lines), else by the first
non-blank character (``{`` starts JSON lines).
"""

from __future__ import annotations

import os

from scoring.errors import InputFileError
from scoring.spans.jsonl import FORMAT as JSONL
from scoring.spans.jsonl import TextLookup, parse_spans_jsonl
from scoring.spans.model import HUMAN, SpanAnnotations
from scoring.spans.mqm_tsv import FORMAT as MQM_TSV
from scoring.spans.mqm_tsv import parse_mqm_tsv

FORMATS = (MQM_TSV, JSONL)
_EXTENSIONS = {".tsv": MQM_TSV, ".jsonl": JSONL, ".ndjson": JSONL, ".json": JSONL}


def detect_span_format(data: bytes, name: str) -> str:
    """The format of a span file, from its name or its first character.

    >>> detect_span_format(b"", "human.tsv"), detect_span_format(b' {"segment": 1', "x")
    ('mqm-tsv', 'spans-jsonl')
    """
    extension = os.path.splitext(name.lower().removesuffix(".txt"))[1]
    if extension in _EXTENSIONS:
        return _EXTENSIONS[extension]
    return JSONL if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{") else MQM_TSV


def read_span_file(
    data: bytes,
    name: str,
    *,
    format: str | None = None,
    kind: str | None = None,
    texts: TextLookup | None = None,
) -> SpanAnnotations:
    """Read a span file in ``format`` (default: detected).

    ``kind`` is ``"human"`` or ``"metric"`` (JSON lines only; an MQM TSV
    holds human spans); ``texts`` checks JSON lines offsets (see
    :func:`~scoring.spans.jsonl.parse_spans_jsonl`).
    """
    chosen = format or detect_span_format(data, name)
    if chosen not in FORMATS:
        raise ValueError(
            f"unknown span format {chosen!r}; formats: {', '.join(FORMATS)}"
        )
    if chosen == JSONL:
        return parse_spans_jsonl(data, name, kind=kind, texts=texts)
    if kind not in (None, HUMAN):
        problem = "an MQM TSV file holds human ratings, not a metric's spans"
        raise InputFileError(f"{name}: {problem}", name, None, problem)
    return parse_mqm_tsv(data, name)


def load_span_file(
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    kind: str | None = None,
    texts: TextLookup | None = None,
) -> SpanAnnotations:
    """Read the span file at ``path`` (see :func:`read_span_file`)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except OSError as error:
        problem = f"cannot read file: {error.strerror}"
        raise InputFileError(f"{name}: {problem}", name, None, problem) from None
    return read_span_file(data, name, format=format, kind=kind, texts=texts)
