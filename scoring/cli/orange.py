"""``python -m scoring orange``: ORANGE of metrics over a Moses n-best list.

Sentence id i of the n-best list (Moses counts from 0) is line i + 1 of
every reference file. Prints a table like Tables 2-7 of Lin & Och (2004),
or with ``--json`` one object keyed by the metric names as given. Metrics the
batch engine supports (BLEU/BLEUS, NIST, WER, PER, ROUGE) are scored by it
(:mod:`scoring.batch`), the others pair by pair with their own code;
``--per-pair`` scores all of them pair by pair (the reference path, slow).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TextIO

from scoring.errors import InputFileError
from scoring.orange.nbest import NBestList, open_nbest
from scoring.orange.options import OrangeOptions
from scoring.orange.ranking import OrangeResult
from scoring.registry import get_metric
from scoring.textfiles import check_same_length, read_segments
from scoring.tokenizers import list_tokenizers


def add_orange_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "orange", help="ORANGE: rank of the references inside n-best lists, per metric"
    )
    parser.add_argument("--nbest", required=True, help="Moses n-best list")
    parser.add_argument(
        "--refs", nargs="+", required=True, metavar="REF", help="2+ reference files"
    )
    parser.add_argument(
        "--metric",
        action="append",
        metavar="SPEC",
        help="metric spec (repeatable; default bleus:n=4)",
    )
    parser.add_argument(
        "--tokenize",
        choices=list_tokenizers(),
        help="tokenizer of every metric that tokenizes",
    )
    parser.add_argument(
        "--lowercase", action="store_true", help="case-fold first (metrics that can)"
    )
    parser.add_argument(
        "--all-refs",
        action="store_true",
        help="score candidates against all K references (no jackknife)",
    )
    parser.add_argument(
        "--curve-step", type=int, default=64, help="n-best sizes of the cutoff curve"
    )
    parser.add_argument(
        "--bootstrap", type=int, default=1000, help="bootstrap samples for the CI"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the bootstrap")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--per-pair",
        action="store_true",
        help="score every metric pair by pair with its own code (slow; the batch engine's reference)",
    )


def run_orange(arguments: argparse.Namespace) -> dict[str, OrangeResult]:
    """Read the inputs, score every metric, return results keyed by spec."""
    if len(arguments.refs) < 2:
        raise InputFileError(
            "ORANGE needs at least two reference files", arguments.refs[0]
        )
    common: dict[str, object] = {}
    if arguments.tokenize:
        common["tokenize"] = arguments.tokenize
    if arguments.lowercase:
        common["lowercase"] = True
    specs = list(dict.fromkeys(arguments.metric or ["bleu"]))
    metrics = {spec: get_metric(spec, defaults=common) for spec in specs}
    streams = [read_segments(path) for path in arguments.refs]
    for path, stream in zip(arguments.refs[1:], streams[1:]):
        check_same_length(arguments.refs[0], streams[0], path, stream)
    nbest = NBestList.from_entries(open_nbest(arguments.nbest))
    last = nbest.sentence_ids[-1] if nbest.sentence_ids else -1
    if last >= len(streams[0]):
        raise InputFileError(
            f"{arguments.nbest}: sentence id {last} needs line {last + 1} of the "
            f"references, but {arguments.refs[0]} has {len(streams[0])} lines",
            arguments.nbest,
        )
    references = [tuple(stream[i] for stream in streams) for i in nbest.sentence_ids]
    options = OrangeOptions(
        all_references=arguments.all_refs,
        curve_step=arguments.curve_step,
        n_bootstrap=arguments.bootstrap,
        seed=arguments.seed,
    )
    from scoring.orange.dispatch import orange_metrics  # compiled kernels: load on use

    return orange_metrics(
        metrics,
        nbest.candidates,
        references,
        options,
        sentence_ids=nbest.sentence_ids,
        per_pair=arguments.per_pair,
        progress=_progress_printer(),
    )


def _progress_printer():
    """Progress on stderr, at most every two seconds, only for long runs."""
    started = time.monotonic()
    last = [started]

    def report(label: str, fraction: float) -> None:
        now = time.monotonic()
        if now - last[0] >= 2 or (fraction >= 1 and now - started >= 2):
            last[0] = now
            sys.stderr.write(f"{label}: {100 * fraction:.0f}% of sentences\n")

    return report


def print_orange(results: dict[str, OrangeResult], as_json: bool, out: TextIO) -> None:
    if as_json:
        data = {}
        for spec, result in results.items():
            entry = result.to_dict()
            del entry["metric"]
            data[spec] = entry
        json.dump(data, out, ensure_ascii=False, indent=2)
        out.write("\n")
        return
    width = max(len("Method"), *(len(spec) for spec in results))
    out.write(
        f"{'Method':<{width}}  {'ORANGE':>8}  {'Avg Rank':>9}  {'95%-CI-L':>9}  {'95%-CI-U':>9}\n"
    )
    for spec, result in results.items():
        out.write(
            f"{spec:<{width}}  {result.orange:>7.2f}%  {result.avg_rank:>9.1f}  "
            f"{result.ci_low:>9.1f}  {result.ci_high:>9.1f}\n"
        )
    first = next(iter(results.values()))
    out.write(
        f"\n{first.n_sentences} sentences, up to {first.max_candidates} candidates "
        f"({first.n_short} shorter lists), {first.n_bootstrap} bootstrap samples, seed {first.seed}\n"
    )
