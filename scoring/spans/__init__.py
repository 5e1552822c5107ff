"""Error spans: MQM and ESA annotations, and metrics' own error spans.

    from scoring.spans import load_span_file, mqm_scores

    human = load_span_file("mqm_newstest2021_ende.tsv")     # WMT MQM TSV
    metric = load_span_file("xcomet.jsonl", kind="metric")   # spans JSON lines
    mqm_scores(human.annotations).system_scores()

- :mod:`~scoring.spans.model`: :class:`Span` (character offsets
  ``[start, end)`` into the target or source, severity, category,
  confidence), :class:`SpanAnnotation` (one annotator's or metric's spans of
  one system's segment) and :class:`SpanAnnotations` (what a file holds);
- :mod:`~scoring.spans.mqm_tsv`: the WMT MQM TSV layout (spans marked by
  ``<v>…</v>``);
- :mod:`~scoring.spans.jsonl`: spans as JSON lines, read and written;
- :mod:`~scoring.spans.reader`: format detection and reading from bytes or a
  path;
- :mod:`~scoring.spans.scores`: MQM scores with configurable weights
  (Freitag et al. 2021), and ESA's given scores, per segment and system.

Span-level precision, recall and F1 of a metric against the humans are in
:mod:`scoring.stats.span_agreement`.
"""

from scoring.spans.jsonl import parse_spans_jsonl, write_spans_jsonl
from scoring.spans.model import (
    SEVERITIES,
    SIDES,
    Span,
    SpanAnnotation,
    SpanAnnotations,
    check_offsets,
)
from scoring.spans.mqm_tsv import parse_mqm_tsv
from scoring.spans.reader import (
    FORMATS,
    detect_span_format,
    load_span_file,
    read_span_file,
)
from scoring.spans.scores import (
    DEFAULT_WEIGHTS,
    MqmWeights,
    SegmentScores,
    annotation_penalty,
    given_scores,
    mqm_scores,
)

__all__ = [
    "DEFAULT_WEIGHTS",
    "FORMATS",
    "SEVERITIES",
    "SIDES",
    "MqmWeights",
    "SegmentScores",
    "Span",
    "SpanAnnotation",
    "SpanAnnotations",
    "annotation_penalty",
    "check_offsets",
    "detect_span_format",
    "given_scores",
    "load_span_file",
    "mqm_scores",
    "parse_mqm_tsv",
    "parse_spans_jsonl",
    "read_span_file",
    "write_spans_jsonl",
]
