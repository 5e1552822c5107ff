"""Command line of the statistics: ``correlate`` and ``compare``.

``python -m scoring correlate --scores SCORES.json --judgments J.csv``
prints metrics against human criteria like Table 1 of the ORANGE paper
(coefficient, two-sided 95 % percentile bootstrap interval, whole segments
resampled at sentence level; ``*`` marks the best metric(s) of each
criterion, ``=`` the metrics a paired test cannot tell from the best; the
header names the test and whether it is one- or two-sided).

SCORES.json maps each system name to what ``python -m scoring score --json
--sentence`` prints for that system (metric spec -> ``{"score": corpus score,
"sentence_scores": [one per line]}``; a bare number is a system-level score;
``"higher_is_better": false`` marks an error rate unknown to the registry)::

    {"online-B": {"bleu": {"score": 31.2, "sentence_scores": [12.1, 40.0]}},
     "online-G": {"bleu": {"score": 27.5, "sentence_scores": [10.3, 35.2]}}}

Details in :mod:`scoring.stats.scores_file`. The judgments file is CSV or TSV
with a header ``segment,system,judge,criterion,value`` (segment = 1-based
line number; details in :mod:`scoring.stats.judgments`).

``--test permutation`` (the default of ``--method accuracy|spa`` and of
``--kendall-variant 23|acc23``) ranks the metrics as the WMT metrics task
does: one statistic, a one-sided permutation test against the best metric
and rank clusters, on each ``--scores``/``--judgments`` pair (one per test
set) and pooled over them; see :mod:`scoring.cli.correlate`.

``python -m scoring compare --refs REF... --hyp SYS1 --hyp SYS2 ...`` prints
each system's corpus score with its bootstrap interval, the paired bootstrap
and approximate randomisation p-values of all pairs, the significance
clusters and, with ``--blocks 20``, the BLEU paper's block test.

Wiring (in :mod:`scoring.cli.main`): ``add_correlate_parser(commands)`` and
``add_compare_parser(commands)`` on the subparsers; each sets
``handler`` (``run_correlate`` / ``run_compare``), which returns the exit
status: 0, or 2 on bad input with a one-line message on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from scoring.cli.arguments import (
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    EXIT_OK,
    non_negative_int,
    positive_int,
    probability,
)
from scoring.cli.correlate import (
    CORRELATE_METHODS,
    DEFAULT_BOOTSTRAP,
    DEFAULT_PERMUTATIONS,
    GROUPINGS,
    KENDALL_VARIANTS,
    PERMUTATION_OPTIONS,
    TESTS,
    check_pairs,
    chosen_test,
    permutation_correlation,
    refuse_options,
)
from scoring.errors import ScoringError
from scoring.registry import get_metric
from scoring.stats.blocks import block_scores, block_t_test
from scoring.stats.judgments import read_judgments
from scoring.stats.meta_evaluation import (
    LEVELS,
    RESAMPLING,
    CorrelationTable,
    correlation_table,
)
from scoring.stats.report import comparison_report, correlation_report
from scoring.stats.scores_file import read_metric_scores
from scoring.stats.significance import (
    CORRECTIONS,
    DEFAULT_CORRECTION,
    SACREBLEU_SEED,
    compare_systems,
)
from scoring.textfiles import check_same_length, read_segments
from scoring.tokenizers import list_tokenizers


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0.0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be a positive number")
    return value


def _rate(text: str) -> float:
    value = float(text)
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError("must lie in (0, 1]")
    return value


def _columns(text: str) -> dict[str, str]:
    mapping = {}
    for item in text.split(","):
        field, equals, header = item.partition("=")
        if not equals or not field.strip() or not header.strip():
            raise argparse.ArgumentTypeError("expected field=header[,field=header...]")
        mapping[field.strip()] = header.strip()
    return mapping


def add_correlate_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``correlate`` to the subparsers of ``python -m scoring``."""
    parser = subparsers.add_parser(
        "correlate",
        help="correlate metric scores with human judgments (ORANGE Table 1, WMT)",
        description="Correlation of every metric with every judged criterion, with "
        "bootstrap intervals; the best metric and those equivalent to it are marked. "
        "With --test permutation, the WMT metrics task's statistics, p-values and "
        "rank clusters, on one test set or pooled over several.",
    )
    parser.add_argument(
        "--scores",
        action="append",
        required=True,
        metavar="SCORES.json",
        help="metric scores per system (see scoring.stats.scores_file); repeat "
        "with --judgments for several test sets (--test permutation)",
    )
    parser.add_argument(
        "--judgments",
        action="append",
        required=True,
        metavar="J.csv",
        help="human judgments: segment,system,judge,criterion,value (one per --scores)",
    )
    parser.add_argument(
        "--name",
        action="append",
        metavar="NAME",
        help="name of each test set, one per --scores (default: the scores file's "
        "name without extension); it seeds the test set's draws",
    )
    parser.add_argument(
        "--weight",
        action="append",
        type=_positive_float,
        metavar="W",
        help="weight of each test set in the overall block, one per --scores "
        "(default: equal)",
    )
    parser.add_argument(
        "--columns",
        type=_columns,
        metavar="FIELD=HEADER,...",
        help="header names of the judgment fields, e.g. segment=sid",
    )
    parser.add_argument("--level", choices=LEVELS, default="system")
    parser.add_argument(
        "--method",
        choices=CORRELATE_METHODS,
        default="pearson",
        help="pearson (default), spearman, kendall, or at system level pairwise "
        "accuracy and spa (soft pairwise accuracy), ranked by --test permutation",
    )
    parser.add_argument(
        "--kendall-variant",
        choices=KENDALL_VARIANTS,
        default="b",
        help="tau-b (default, ties corrected), tau-c, or at sentence level by "
        "--test permutation tau-23 (ties count) and acc23 (acc_eq, WMT23's)",
    )
    parser.add_argument(
        "--criterion",
        action="append",
        metavar="NAME",
        help="criterion to report (repeatable; default: all)",
    )
    parser.add_argument(
        "--human",
        choices=("z", "raw"),
        default="z",
        help="per-judge z-scores (WMT, default) or raw values",
    )
    parser.add_argument(
        "--test",
        choices=TESTS,
        help="test against the best metric: bootstrap (two-sided interval of the "
        "difference; default for pearson, spearman, kendall b and c), williams "
        "(one-sided, Pearson only) or permutation (one-sided, PERM-BOTH with rank "
        "clusters, as WMT; default for accuracy, spa, kendall 23 and acc23)",
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--alpha", type=probability, default=0.05)
    bootstrap = parser.add_argument_group("bootstrap and williams tests")
    bootstrap.add_argument(
        "--bootstrap",
        type=positive_int,
        metavar="N",
        help=f"bootstrap resamples (default {DEFAULT_BOOTSTRAP})",
    )
    bootstrap.add_argument(
        "--confidence", type=probability, help="interval coverage (default 0.95)"
    )
    bootstrap.add_argument(
        "--resample",
        choices=RESAMPLING,
        help="sentence level: resample whole segments, every system's score of "
        "a drawn segment together (default, as WMT), or single points",
    )
    permutation = parser.add_argument_group("permutation test")
    permutation.add_argument(
        "--permutations",
        type=positive_int,
        metavar="N",
        help=f"permutation draws (default {DEFAULT_PERMUTATIONS})",
    )
    permutation.add_argument(
        "--group-by",
        choices=GROUPINGS,
        help="sentence level: correlate within each item (source segment), each "
        "system, or all points at once (default: item for kendall 23 and acc23, "
        "as WMT; none for pearson and kendall b)",
    )
    permutation.add_argument(
        "--tie-calibration",
        action="store_true",
        help="kendall 23 and acc23: give each metric the tie threshold epsilon "
        "that maximises its statistic, by an exact search (WMT uses it for acc23; "
        "off by default)",
    )
    permutation.add_argument(
        "--tie-sample-rate",
        type=_rate,
        metavar="R",
        help="with --tie-calibration: search a seeded random share R of the "
        "candidate thresholds, 0 always among them (default 1: all)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_correlate)
    return parser


def add_compare_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``compare`` to the subparsers of ``python -m scoring``."""
    parser = subparsers.add_parser(
        "compare",
        help="compare systems: bootstrap intervals, paired tests, clusters",
        description="Corpus scores with bootstrap intervals, paired bootstrap and "
        "approximate randomisation p-values of all pairs, significance clusters.",
    )
    parser.add_argument("--refs", nargs="+", required=True, metavar="REF")
    parser.add_argument(
        "--hyp",
        action="append",
        required=True,
        metavar="SYS",
        help="a system output (repeat for each system, at least 2)",
    )
    parser.add_argument(
        "--name",
        action="append",
        metavar="NAME",
        help="system names, one per --hyp (default: file names)",
    )
    parser.add_argument(
        "--metric",
        default="bleu",
        metavar="SPEC",
        help="metric spec such as bleu or chrf (default bleu)",
    )
    parser.add_argument("--src", metavar="SRC")
    parser.add_argument("--docs", metavar="DOCIDS")
    parser.add_argument("--tokenize", choices=list_tokenizers())
    parser.add_argument("--lowercase", action="store_true")
    parser.add_argument(
        "--bootstrap",
        type=positive_int,
        default=1000,
        metavar="N",
        help="bootstrap resamples (default 1000, as sacreBLEU)",
    )
    parser.add_argument(
        "--ar-trials",
        type=non_negative_int,
        default=10000,
        metavar="N",
        help="approximate randomisation trials (default 10000; 0: skip)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=SACREBLEU_SEED,
        help=f"random seed (default {SACREBLEU_SEED}, sacreBLEU's)",
    )
    parser.add_argument("--confidence", type=probability, default=0.95)
    parser.add_argument("--alpha", type=probability, default=0.05)
    parser.add_argument(
        "--correction",
        choices=CORRECTIONS,
        default=DEFAULT_CORRECTION,
        help="adjustment of the all-pairs p-values the clusters respect "
        f"(default {DEFAULT_CORRECTION})",
    )
    parser.add_argument(
        "--blocks",
        type=non_negative_int,
        default=0,
        metavar="B",
        help="also run the BLEU paper's block t-test with B blocks (20)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_compare)
    return parser


def _run(work: Callable[[], tuple[dict[str, Any], str]], as_json: bool) -> int:
    """Compute, then print JSON or text; map bad input to exit status 2."""
    try:
        data, text = work()
    except ScoringError as error:
        sys.stderr.write(f"error: {error}\n")
        return EXIT_BAD_INPUT
    try:
        if as_json:
            json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return EXIT_OK


def run_correlate(arguments: argparse.Namespace) -> int:
    """``python -m scoring correlate``; returns the exit status."""

    def work() -> tuple[dict[str, Any], str]:
        check_pairs(arguments)
        test = chosen_test(
            arguments.level, arguments.method, arguments.kendall_variant, arguments.test
        )
        if test == "permutation":
            return permutation_correlation(arguments)
        if len(arguments.scores) > 1:
            raise ScoringError(
                "several --scores/--judgments pairs are pooled by the permutation "
                "test: use --test permutation"
            )
        refuse_options(arguments, PERMUTATION_OPTIONS, "applies to --test permutation")
        table: CorrelationTable = correlation_table(
            read_metric_scores(arguments.scores[0]),
            read_judgments(arguments.judgments[0], columns=arguments.columns),
            level=arguments.level,
            method=arguments.method,
            criteria=arguments.criterion,
            standardise=arguments.human == "z",
            n_samples=arguments.bootstrap or DEFAULT_BOOTSTRAP,
            seed=arguments.seed,
            confidence=arguments.confidence or 0.95,
            test=test,
            alpha=arguments.alpha,
            variant=arguments.kendall_variant,
            resample=arguments.resample or "segments",
        )
        return table.to_dict(), correlation_report(table)

    return _run(work, arguments.json)


def _system_names(arguments: argparse.Namespace) -> list[str]:
    if arguments.name:
        if len(arguments.name) != len(arguments.hyp):
            raise ScoringError("give one --name per --hyp")
        names = list(arguments.name)
    else:
        names = [os.path.splitext(os.path.basename(path))[0] for path in arguments.hyp]
        if len(set(names)) != len(names):
            names = list(arguments.hyp)
    if len(set(names)) != len(names):
        raise ScoringError("system names must be distinct")
    return names


def run_compare(arguments: argparse.Namespace) -> int:
    """``python -m scoring compare``; returns the exit status."""

    def work() -> tuple[dict[str, Any], str]:
        if len(arguments.hyp) < 2:
            raise ScoringError("compare needs at least two --hyp files")
        names = _system_names(arguments)
        common: dict[str, object] = {}
        if arguments.tokenize:
            common["tokenize"] = arguments.tokenize
        if arguments.lowercase:
            common["lowercase"] = True
        metric = get_metric(arguments.metric, defaults=common)
        first = read_segments(arguments.hyp[0])

        def aligned(path: str | None) -> tuple[str, ...] | None:
            if path is None:
                return None
            segments = read_segments(path)
            check_same_length(arguments.hyp[0], first, path, segments)
            return segments

        streams = [aligned(path) for path in arguments.refs]
        extra = {
            "sources": aligned(arguments.src),
            "document_ids": aligned(arguments.docs),
        }
        results = [
            metric.score(aligned(path), streams, **extra)  # type: ignore[arg-type]
            for path in arguments.hyp
        ]
        statistics = [result.statistics for result in results]
        comparison = compare_systems(
            metric,
            names,
            statistics,  # type: ignore[arg-type]
            signature=results[0].signature,
            n_samples=arguments.bootstrap,
            n_trials=arguments.ar_trials,
            seed=arguments.seed,
            confidence=arguments.confidence,
            alpha=arguments.alpha,
            correction=arguments.correction,
        )
        data = comparison.to_dict()
        blocks = None
        if arguments.blocks:
            if comparison.n_segments < arguments.blocks:
                raise ScoringError(
                    f"cannot cut {comparison.n_segments} segments into "
                    f"{arguments.blocks} blocks"
                )
            scores = block_scores(
                metric.corpus_scores_from_statistics,
                np.stack(statistics),
                arguments.blocks,
            )
            blocks = block_t_test(scores, names)
            data["block_test"] = blocks.to_dict()
        return data, comparison_report(comparison, blocks)

    return _run(work, arguments.json)
