"""Command line: ``python -m scoring score|list-metrics|orange|complexity|correlate|compare|spans|train-red``.

Exit status 0 on success, 2 on bad input (unreadable file, invalid UTF-8,
differing line counts, unknown metric or parameter) with a one-line-per-problem
message on stderr and no traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from scoring.cli.arguments import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_OK
from scoring.cli.compile_kernels import add_compile_kernels_parser, run_compile_kernels
from scoring.cli.complexity import add_complexity_parser, run_complexity
from scoring.cli.orange import add_orange_parser, print_orange, run_orange
from scoring.cli.spans import add_spans_parser
from scoring.cli.stats import add_compare_parser, add_correlate_parser
from scoring.cli.train_red import add_train_red_parser, run_train_red
from scoring.errors import ScoringError
from scoring.registry import get_metric, list_metrics
from scoring.results import MetricResult
from scoring.textfiles import check_same_length, read_segments
from scoring.tokenizers import list_tokenizers
from scoring.version import __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m scoring``."""
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Score machine-translation output with automatic metrics.",
    )
    parser.add_argument("--version", action="version", version=f"scoring {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser(
        "score", help="score one hypothesis file against one or more reference files"
    )
    score.add_argument(
        "--metric",
        action="append",
        metavar="SPEC",
        help="metric spec such as bleu or bleu:n=2 (repeatable; default: bleu)",
    )
    score.add_argument(
        "--refs", nargs="+", required=True, metavar="REF", help="reference files"
    )
    score.add_argument("--hyp", required=True, metavar="HYP", help="hypothesis file")
    score.add_argument(
        "--src", metavar="SRC", help="source file (metrics that read it)"
    )
    score.add_argument(
        "--docs", metavar="DOCIDS", help="document id of every line (e.g. for wnm)"
    )
    score.add_argument(
        "--tokenize",
        choices=list_tokenizers(),
        help="tokenizer of every metric that tokenizes (default: each metric's own)",
    )
    score.add_argument(
        "--lowercase", action="store_true", help="case-fold first (metrics that can)"
    )
    score.add_argument(
        "--sentence", action="store_true", help="also print one score per line"
    )
    score.add_argument("--json", action="store_true", help="print one JSON object")

    listing = commands.add_parser("list-metrics", help="list metrics and parameters")
    listing.add_argument("--json", action="store_true", help="print JSON")
    add_orange_parser(commands)
    add_complexity_parser(commands)
    add_correlate_parser(commands)
    add_compare_parser(commands)
    add_spans_parser(commands)
    add_train_red_parser(commands)
    add_compile_kernels_parser(commands)
    return parser


def _score_files(arguments: argparse.Namespace) -> dict[str, MetricResult]:
    """Read the files, then score them with every requested metric, in order."""
    specs = list(dict.fromkeys(arguments.metric or ["bleu"]))  # dedupe, keep order
    common: dict[str, object] = {}
    if arguments.tokenize:
        common["tokenize"] = arguments.tokenize
    if arguments.lowercase:
        common["lowercase"] = True
    metrics = {spec: get_metric(spec, defaults=common) for spec in specs}
    hypotheses = read_segments(arguments.hyp)
    streams = [
        _read_aligned(path, arguments.hyp, hypotheses) for path in arguments.refs
    ]
    extra = {
        "sources": _read_aligned(arguments.src, arguments.hyp, hypotheses),
        "document_ids": _read_aligned(arguments.docs, arguments.hyp, hypotheses),
    }
    return {
        spec: metric.score(hypotheses, streams, sentence=arguments.sentence, **extra)
        for spec, metric in metrics.items()
    }


def _read_aligned(
    path: str | None, hyp_path: str, hypotheses: Sequence[str]
) -> tuple[str, ...] | None:
    """Segments of ``path`` (None if not given), checked against the hypotheses."""
    if path is None:
        return None
    segments = read_segments(path)
    check_same_length(hyp_path, hypotheses, path, segments)
    return segments


def _print_json(results: dict[str, MetricResult], sentence: bool, out: TextIO) -> None:
    data = {}
    for spec, result in results.items():
        entry: dict[str, object] = {
            "score": result.score,
            "signature": result.signature,
        }
        if sentence:
            entry["sentence_scores"] = list(result.sentence_scores or ())
            entry["sentence_signature"] = result.sentence_signature
        data[spec] = entry
    json.dump(data, out, ensure_ascii=False, indent=2)
    out.write("\n")


def _print_human(results: dict[str, MetricResult], sentence: bool, out: TextIO) -> None:
    width = max(len(spec) for spec in results)
    for spec, result in results.items():
        out.write(f"{spec:<{width}}  {result.score:.4f}  {result.signature}\n")
    if not sentence:
        return
    out.write("\nsentence scores:\n")
    for spec, result in results.items():
        out.write(f"{spec:<{width}}  {result.sentence_signature}\n")
    out.write("\t".join(["line", *results]) + "\n")
    columns = [result.sentence_scores or () for result in results.values()]
    for line_number, row in enumerate(zip(*columns), start=1):
        cells = [str(line_number), *(f"{value:.4f}" for value in row)]
        out.write("\t".join(cells) + "\n")


def _print_metrics(as_json: bool, out: TextIO) -> None:
    infos = list_metrics()
    if as_json:
        json.dump([info.to_dict() for info in infos], out, indent=2)
        out.write("\n")
        return
    for info in infos:
        direction = "higher is better" if info.higher_is_better else "lower is better"
        out.write(f"{info.name}: {info.description} (0-{info.scale:g}, {direction})\n")
        for parameter in info.parameters:
            choices = f" [{'|'.join(parameter.choices)}]" if parameter.choices else ""
            if parameter.bounds is not None:
                choices += f" [{parameter.bounds}]"
            where = (
                "; server file: not accepted from the web"
                if parameter.server_only
                else ""
            )
            out.write(
                f"  {parameter.name}={parameter.type}{choices}  {parameter.description}"
                f" (default {parameter.default!r}{where})\n"
            )


def _score_printer(results: dict[str, MetricResult], arguments: argparse.Namespace):
    def printer(out: TextIO) -> None:
        if arguments.json:
            _print_json(results, arguments.sentence, out)
        else:
            _print_human(results, arguments.sentence, out)

    return printer


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = build_parser().parse_args(argv)
    if arguments.command == "complexity":
        return run_complexity(arguments)
    if arguments.command in ("correlate", "compare", "spans"):
        return arguments.handler(arguments)
    try:
        if arguments.command == "list-metrics":
            printer = lambda out: _print_metrics(arguments.json, out)  # noqa: E731
        elif arguments.command == "compile-kernels":
            line = run_compile_kernels(arguments)
            printer = lambda out: out.write(line + "\n")  # noqa: E731
        elif arguments.command == "train-red":
            heldout = run_train_red(arguments)
            printer = lambda out: out.write(json.dumps(heldout, indent=1) + "\n")  # noqa: E731
        elif arguments.command == "orange":
            results = run_orange(arguments)
            printer = lambda out: print_orange(results, arguments.json, out)  # noqa: E731
        else:
            results = _score_files(arguments)
            printer = _score_printer(results, arguments)
    except ScoringError as error:
        sys.stderr.write(f"error: {error}\n")
        return EXIT_BAD_INPUT
    try:
        printer(sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (e.g. "| head"): not an error worth a traceback.
        # Point stdout at devnull so the interpreter's final flush stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return EXIT_OK
