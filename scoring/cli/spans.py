"""``python -m scoring spans``: a metric's error spans against the human ones.

::

    python -m scoring spans --human mqm_newstest2021_ende.tsv --metric xcomet.jsonl \\
        [--variant mpp] [--average micro] [--bootstrap 1000 --seed 1] [--json]

``--human`` is an MQM TSV in the WMT layout or spans JSON lines of
annotators (told by the extension, or ``--human-format``); each ``--metric``
file holds spans JSON lines of one or more metrics (``"metric": NAME``).
When the human file carries the texts (MQM TSV), every metric span is
checked to end inside its text. For each metric, each ``--variant`` (em,
mp, mpp, w25, or ``all``; default mpp) and each ``--average`` (micro,
macro, or ``both``; default micro), a table gives precision, recall and F1
per system and overall, with seeded bootstrap intervals over segments
(``--bootstrap 0`` for none); ``--json`` prints the same figures as one
object. Definitions in :mod:`scoring.stats.span_agreement`.

Exit status 0, or 2 on bad input with a one-line message on stderr.

Wiring (in :mod:`scoring.cli.main`): ``add_spans_parser(commands)`` sets
``handler`` to :func:`run_spans`, which returns the exit status.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from scoring.cli.arguments import (
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    EXIT_OK,
    non_negative_int,
    probability,
)
from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.spans import FORMATS, SpanAnnotations, load_span_file
from scoring.spans.model import shorten
from scoring.stats.span_agreement import (
    AVERAGES,
    DEFAULT_AVERAGE,
    DEFAULT_VARIANT,
    SpanAgreement,
    SpanEvaluation,
    evaluate_spans,
)
from scoring.stats.span_matching import VARIANTS

DEFAULT_BOOTSTRAP = 1000


def _share(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("must lie in [0, 1]")
    return value


def add_spans_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``spans`` to the subparsers of ``python -m scoring``."""
    parser = subparsers.add_parser(
        "spans",
        help="span-level precision, recall and F1 of metrics' error spans",
        description="Precision, recall and F1 of each metric's error spans against "
        "the human spans (Perrella et al. 2026; WMT25), per system and overall, "
        "with bootstrap intervals over segments.",
    )
    parser.add_argument(
        "--human", required=True, metavar="FILE", help="MQM TSV or spans JSON lines"
    )
    parser.add_argument(
        "--human-format",
        choices=FORMATS,
        help="format of --human (default: by extension, .tsv is MQM TSV)",
    )
    parser.add_argument(
        "--metric",
        required=True,
        action="append",
        metavar="FILE",
        help="spans JSON lines of one or more metrics (repeatable)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        choices=(*VARIANTS, "all"),
        help=f"em, mp, mpp, w25 or all (repeatable; default {DEFAULT_VARIANT})",
    )
    parser.add_argument(
        "--average",
        choices=(*AVERAGES, "both"),
        default=DEFAULT_AVERAGE,
        help=f"micro (pooled counts), macro (mean per segment) or both "
        f"(default {DEFAULT_AVERAGE})",
    )
    parser.add_argument(
        "--bootstrap",
        type=non_negative_int,
        default=DEFAULT_BOOTSTRAP,
        metavar="N",
        help=f"bootstrap resamples of segments (default {DEFAULT_BOOTSTRAP}; 0: none)",
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--confidence",
        type=probability,
        default=0.95,
        help="interval level (default 0.95)",
    )
    parser.add_argument(
        "--severity-penalty",
        type=_share,
        default=0.0,
        metavar="P",
        help="em/mp/mpp: a matched pair of different severities counts 1 - P "
        "(default 0: severity ignored)",
    )
    parser.add_argument(
        "--annotator",
        metavar="NAME",
        help="the human annotator whose spans are the gold (default: the first "
        "annotator of each segment by name)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_spans)
    return parser


def _text_lookup(
    human: SpanAnnotations,
) -> Callable[[str, int, str], str | None] | None:
    """Texts to check metric offsets against, when the human file has them."""
    texts = {
        (a.system, a.segment): (a.source_text, a.target_text)
        for a in human.annotations
        if a.target_text is not None
    }
    if not texts:
        return None

    def lookup(system: str, segment: int, side: str) -> str | None:
        pair = texts.get((system, segment))
        return None if pair is None else pair[0 if side == "source" else 1]

    return lookup


def evaluate_files(arguments: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """Read the files and evaluate every metric: (JSON object, text)."""
    human = load_span_file(arguments.human, format=arguments.human_format, kind="human")
    texts = _text_lookup(human)
    variants = arguments.variant or [DEFAULT_VARIANT]
    variants = list(VARIANTS) if "all" in variants else list(dict.fromkeys(variants))
    averages = list(AVERAGES) if arguments.average == "both" else [arguments.average]
    evaluations: list[SpanEvaluation] = []
    metric_files = []
    for path in arguments.metric:
        spans = load_span_file(path, kind="metric", texts=texts)
        metric_files.append(spans.summary())
        for name in spans.annotators:
            if any(e.metric == name for e in evaluations):
                raise ScoringError(
                    f"{path}: metric {shorten(name)!r} is also in another file"
                )
            evaluations.append(
                evaluate_spans(
                    human.annotations,
                    spans.of_annotator(name),
                    variants=variants,
                    averages=averages,
                    n_samples=arguments.bootstrap,
                    seed=arguments.seed,
                    confidence=arguments.confidence,
                    severity_penalty=arguments.severity_penalty,
                    annotator=arguments.annotator,
                )
            )
    if not evaluations:
        raise ScoringError("the --metric files hold no metric spans")
    data = {
        "human": human.summary(),
        "metric_files": metric_files,
        "variants": variants,
        "averages": averages,
        "metrics": [evaluation.to_dict() for evaluation in evaluations],
    }
    return json_safe(data), _report(human, evaluations)


def _cell(value: float, interval: tuple[float, float] | None) -> str:
    if interval is None:
        return f"{value:.4f}"
    return f"{value:.4f} [{interval[0]:.4f}, {interval[1]:.4f}]"


def _table(result: SpanAgreement) -> list[str]:
    rows = [*result.systems.items(), ("overall", result.overall)]
    cells = [
        [
            name,
            _cell(f.precision, f.precision_interval),
            _cell(f.recall, f.recall_interval),
            _cell(f.f1, f.f1_interval),
            str(f.segments),
        ]
        for name, f in rows
    ]
    header = ["system", "precision", "recall", "F1", "segments"]
    widths = [max(len(row[i]) for row in [header, *cells]) for i in range(5)]
    lines = []
    for row in [header, *cells]:
        padded = [row[0].ljust(widths[0])] + [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:])
        ]
        lines.append("  ".join(padded).rstrip())
    return lines


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _report(human: SpanAnnotations, evaluations: list[SpanEvaluation]) -> str:
    settings = evaluations[0].settings
    resampled = (
        f"{settings['bootstrap']} bootstrap resamples of segments, seed "
        f"{settings['seed']}, {settings['confidence']:.0%} intervals"
        if settings["bootstrap"]
        else "no bootstrap"
    )
    lines = [
        f"human: {human.source} ({human.format}, {len(human.annotations)} "
        f"annotations, {human.n_spans} spans); gold: {settings['gold']}; {resampled}"
    ]
    if settings["severity_penalty"]:
        lines.append(f"severity penalty: {settings['severity_penalty']:g}")
    for warning in human.warnings:
        lines.append(f"note: {warning}")
    for evaluation in evaluations:
        c = evaluation.coverage
        lines += [
            "",
            f"metric {evaluation.metric}: {_plural(c['segments'], 'segment')} "
            f"({c['segments_without_metric']} human-annotated without the metric's "
            f"spans, {c['metric_segments_without_human']} of the metric's without "
            f"human spans: left out); spans: {c['human_spans']} human, "
            f"{c['metric_spans']} metric (left out: {c['spans_left_out_neutral']} "
            f"neutral, {c['spans_left_out_no_position']} without position)",
        ]
        for result in evaluation.results:
            lines += ["", f"{evaluation.metric}, {result.variant}, {result.average}"]
            lines += _table(result)
    return "\n".join(lines) + "\n"


def run_spans(arguments: argparse.Namespace) -> int:
    """``python -m scoring spans``; returns the exit status."""
    try:
        data, text = evaluate_files(arguments)
    except ScoringError as error:
        sys.stderr.write(f"error: {error}\n")
        return EXIT_BAD_INPUT
    try:
        if arguments.json:
            json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return EXIT_OK
