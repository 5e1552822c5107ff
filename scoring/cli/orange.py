"""``python -m scoring orange``: ORANGE of metrics over a Moses n-best list.

Sentence id i of the n-best list (Moses counts from 0) is line i + 1 of
every reference file. The list (plain or gzip) is read by the compiled
reader (:mod:`scoring.orange.nbest_stream`) and tokenised once per token view
and distinct word (:mod:`scoring.orange.token_views`). Prints a table like
Tables 2-7 of Lin & Och (2004), or with ``--json`` the object of
:mod:`scoring.orange.report_json`: per metric (keyed by the names as given)
its figures and, per sentence, the ``--above-reference`` K best candidates
ranked above the references by index and score, their texts once. With
``--paired-test`` the metrics are also compared on the same sentences
(:func:`scoring.orange.compare_metrics`): the table gets a column marking the
best metric and those statistically equivalent to it (Tables 2-6 of the
paper; every metric tying the lowest ORANGE is best), and each JSON entry a
``"paired_test"`` object. WNM needs the
document id of every reference line (``--docs``). Metrics the batch engine
supports (all of the library's) are scored by it (:mod:`scoring.batch`), any
other pair by pair with its own code; ``--per-pair`` scores all of them pair
by pair (the reference path, slow).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

import numpy as np

from scoring.cli.arguments import positive_int
from scoring.errors import InputFileError
from scoring.orange.candidate_texts import SentenceTexts
from scoring.orange.comparison import (
    OrangeComparison,
    compare_metrics,
    normalised_ranks,
)
from scoring.orange.curve_step import auto_curve_step
from scoring.orange.options import OrangeOptions
from scoring.orange.prepare import prepare_metrics
from scoring.orange.presentation import (
    ORANGE_INTERVAL,
    paired_test_line,
    sentence_metric_name,
    single_candidate_warning,
    table_decimals,
)
from scoring.orange.ranking import (
    OrangeResult,
    curve_points,
    merge_rankings,
    summarise,
)
from scoring.orange.report_json import (
    DEFAULT_ABOVE_REFERENCE_LIMIT,
    AboveReferenceLimit,
    TextLookup,
    orange_json,
    paired_test_entry,
    parse_above_reference_limit,
    write_orange_json,
)
from scoring.registry import get_metric
from scoring.textfiles import check_same_length, read_segments
from scoring.tokenizers import list_tokenizers

if TYPE_CHECKING:
    from scoring.orange.nbest_stream import NBestWords


def add_orange_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "orange", help="ORANGE: rank of the references inside n-best lists, per metric"
    )
    parser.add_argument("--nbest", required=True, help="Moses n-best list")
    parser.add_argument(
        "--refs", nargs="+", required=True, metavar="REF", help="2+ reference files"
    )
    parser.add_argument(
        "--docs",
        metavar="DOCIDS",
        help="document id of every reference line (WNM's salience needs them)",
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
        "--curve-step",
        type=positive_int,
        default=None,
        help="n-best sizes of the cutoff curve: 1, step, 2*step, ..., N "
        "(default: ceil(N / 64), about 64 points)",
    )
    parser.add_argument(
        "--bootstrap", type=int, default=1000, help="bootstrap samples for the CI"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the bootstrap")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--above-reference",
        type=_limit_argument,
        default=DEFAULT_ABOVE_REFERENCE_LIMIT,
        metavar="K|all|none",
        help="with --json: list each sentence's K best candidates ranked above "
        "the references per metric (default 10), 'all' of them, or 'none' "
        "(counts only); their texts appear once",
    )
    parser.add_argument(
        "--paired-test",
        action="store_true",
        help="mark the best metric and those statistically equivalent to it "
        "(paired bootstrap of per-sentence rank/(N+1), --bootstrap samples, --seed)",
    )
    parser.add_argument(
        "--per-pair",
        action="store_true",
        help="score every metric pair by pair with its own code (slow; the batch engine's reference)",
    )


def _limit_argument(value: str) -> AboveReferenceLimit:
    try:
        return parse_above_reference_limit(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class OrangeResults(dict):
    """Results keyed by spec, the paired test between them when asked, and
    what the JSON needs: the candidates' texts and how many to list."""

    comparison: OrangeComparison | None = None
    text_of: TextLookup | None = None
    above_reference_limit: AboveReferenceLimit = DEFAULT_ABOVE_REFERENCE_LIMIT


def run_orange(arguments: argparse.Namespace) -> OrangeResults:
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
    documents = None
    if getattr(arguments, "docs", None):
        documents = read_segments(arguments.docs)
        check_same_length(arguments.refs[0], streams[0], arguments.docs, documents)
        blank = next((n for n, doc in enumerate(documents, 1) if not doc.strip()), 0)
        if blank:
            raise InputFileError(
                f"{arguments.docs}:{blank}: no document id", arguments.docs, blank
            )
    # Compiled kernels (the reader's and the engine's): loaded on use.
    from scoring.batch.engine import token_view
    from scoring.orange.nbest_stream import read_nbest_words
    from scoring.orange.sources import pretokenized_source

    nbest = read_nbest_words(
        arguments.nbest, keep_texts=_needs_texts(arguments, metrics.values())
    )
    sentence_ids = nbest.sentence_ids.tolist()
    last = sentence_ids[-1] if sentence_ids else -1
    if last >= len(streams[0]):
        raise InputFileError(
            f"{arguments.nbest}: sentence id {last} needs line {last + 1} of the "
            f"references, but {arguments.refs[0]} has {len(streams[0])} lines",
            arguments.nbest,
        )
    references = [tuple(stream[i] for stream in streams) for i in sentence_ids]
    # NIST's weights and WNM's saliences from every line of every reference
    # file (the test set), not only the sentences the n-best list covers.
    metrics = prepare_metrics(metrics, list(zip(*streams)), documents)
    longest = int(np.diff(nbest.sentence_offsets).max(initial=1))
    options = OrangeOptions(
        all_references=arguments.all_refs,
        curve_step=(
            auto_curve_step(longest)
            if arguments.curve_step is None
            else arguments.curve_step
        ),
        n_bootstrap=arguments.bootstrap,
        seed=arguments.seed,
    )
    from scoring.orange.dispatch import orange_metrics  # compiled kernels: load on use

    candidates = SentenceTexts(nbest.texts, nbest.sentence_offsets)

    def engine_source(chosen):
        views = [token_view(metric) for metric in chosen]
        return pretokenized_source(nbest, references, views)

    if getattr(arguments, "paired_test", False):
        results = _with_paired_test(
            metrics,
            candidates,
            sentence_ids,
            references,
            options,
            per_pair=arguments.per_pair,
            engine_source=engine_source,
            longest=longest,
        )
    else:
        results = OrangeResults(
            orange_metrics(
                metrics,
                candidates,
                references,
                options,
                sentence_ids=sentence_ids,
                per_pair=arguments.per_pair,
                progress=_progress_printer(),
                engine_source=engine_source,
            )
        )
    results.text_of = _text_lookup(nbest)
    results.above_reference_limit = getattr(
        arguments, "above_reference", DEFAULT_ABOVE_REFERENCE_LIMIT
    )
    return results


def _needs_texts(arguments: argparse.Namespace, metrics) -> bool:
    """Whether the ranking reads candidates' texts: a metric scored pair by
    pair or tokenised text by text. A run that needs none does not hold the
    file's bytes (Table 7's 1.4 GB); the few texts its JSON lists are read
    again from the file at the end (:func:`_text_lookup`)."""
    from scoring.batch.engine import token_view
    from scoring.orange.dispatch import on_engine
    from scoring.orange.token_views import splits_at_whitespace

    return any(
        not on_engine(metric, arguments.per_pair)
        or not splits_at_whitespace(token_view(metric))
        for metric in metrics
    )


class _CandidateLookup:
    """(sentence id, candidate index) -> the candidate's text, from the
    texts kept in memory or, when the reader dropped them, read again from
    the file's lines (``many``: all the JSON lists, in one pass)."""

    def __init__(self, nbest: NBestWords) -> None:
        self._nbest = nbest
        self._first = dict(
            zip(nbest.sentence_ids.tolist(), nbest.sentence_offsets.tolist())
        )

    def __call__(self, sentence_id: int, index: int) -> str:
        return self.many([(sentence_id, index)])[0]

    def many(self, wanted: Sequence[tuple[int, int]]) -> list[str]:
        from scoring.orange.candidate_lines import read_candidate_texts
        from scoring.orange.candidate_texts import DroppedTexts

        nbest = self._nbest
        candidates = [self._first[sentence] + index for sentence, index in wanted]
        if not isinstance(nbest.texts, DroppedTexts):
            return [nbest.texts[c] for c in candidates]
        return read_candidate_texts(
            nbest.file_name,
            nbest.line_numbers[candidates].tolist(),
            [sentence for sentence, _ in wanted],
        )


def _text_lookup(nbest: NBestWords) -> _CandidateLookup:
    """(sentence id, candidate index) -> the candidate's text."""
    return _CandidateLookup(nbest)


# Sentences ranked at once on the paired-test path (as a web job's chunks).
PAIRED_TEST_CHUNK = 64


def _with_paired_test(
    metrics, candidates, ids, references, options, *, per_pair, engine_source, longest
) -> OrangeResults:
    """Every metric ranked chunk by chunk of sentences (all metrics per chunk,
    as the web's workers do), merged, summarised and compared: the per-sentence
    ranks the paired test needs are kept, which the summaries drop."""
    from scoring.orange.batched import rank_sentence_range
    from scoring.orange.dispatch import on_engine
    from scoring.orange.pairwise import rank_chunk_pairwise

    chosen = list(metrics.values())
    engine = [i for i, metric in enumerate(chosen) if on_engine(metric, per_pair)]
    # The engine's metrics read the token ids made once for the whole list.
    source = engine_source([chosen[i] for i in engine]) if engine else None
    curve_n = curve_points(longest, options.curve_step)
    report = _progress_printer()
    parts = []
    for start in range(0, len(candidates), PAIRED_TEST_CHUNK):
        stop = min(start + PAIRED_TEST_CHUNK, len(candidates))
        ranked: list = [None] * len(chosen)
        if engine:
            for i, rankings in zip(
                engine,
                rank_sentence_range(
                    [chosen[i] for i in engine],
                    source,
                    start,
                    stop,
                    sentence_ids=ids[start:stop],
                    curve_n=curve_n,
                    options=options,
                ),
            ):
                ranked[i] = rankings
        for i, metric in enumerate(chosen):
            if ranked[i] is None:
                ranked[i] = rank_chunk_pairwise(
                    metric,
                    candidates[start:stop],
                    references[start:stop],
                    sentence_ids=ids[start:stop],
                    curve_n=curve_n,
                    options=options,
                )
        parts.append(ranked)
        report("all metrics", stop / len(candidates))
    merged = {
        spec: merge_rankings([part[position] for part in parts])
        for position, spec in enumerate(metrics)
    }
    results = OrangeResults(
        (
            spec,
            summarise(
                r, metric=spec, n_bootstrap=options.n_bootstrap, seed=options.seed
            ),
        )
        for spec, r in merged.items()
    )
    results.comparison = compare_metrics(
        {spec: normalised_ranks(r) for spec, r in merged.items()},
        n_bootstrap=options.n_bootstrap,
        seed=options.seed,
    )
    return results


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
    comparison = getattr(results, "comparison", None)
    if as_json:
        data = orange_json(
            results,
            getattr(results, "text_of", None),
            limit=getattr(
                results, "above_reference_limit", DEFAULT_ABOVE_REFERENCE_LIMIT
            ),
            paired=(
                None
                if comparison is None
                else {spec: _paired_entry(comparison, spec) for spec in results}
            ),
        )
        write_orange_json(data, out)
        return
    width = max(len("Method"), *(len(spec) for spec in results))
    header = (
        f"{'Method':<{width}}  {'ORANGE':>8}  {'Avg Rank':>9}  {'95%-CI-L':>9}  "
        f"{'95%-CI-U':>9}"
    )
    out.write(header + ("  Paired test\n" if comparison else "\n"))
    # Enough decimals that every rank interval differs from its rank.
    places = table_decimals((r.avg_rank, r.ci_low, r.ci_high) for r in results.values())
    for spec, result in results.items():
        line = (
            f"{spec:<{width}}  {result.orange:>7.2f}%  {result.avg_rank:>9.{places}f}  "
            f"{result.ci_low:>9.{places}f}  {result.ci_high:>9.{places}f}"
        )
        if comparison is not None:
            line += f"  {_paired_cell(comparison, spec)}"
        out.write(line + "\n")
    first = next(iter(results.values()))
    out.write(
        f"\n{first.n_sentences} sentences, up to {first.max_candidates} candidates "
        f"({first.n_short} shorter lists), {first.n_bootstrap} bootstrap samples, seed {first.seed}\n"
        f"95%-CI: {ORANGE_INTERVAL}\n"
    )
    longest = max(result.max_candidates for result in results.values())
    for spec in results:
        # ORANGE's BLEU is a smoothed sentence BLEU: say which, as the web does.
        name = sentence_metric_name(spec)
        if name:
            out.write(f"{spec}: {name}\n")
    warning = single_candidate_warning(longest)
    if warning:
        out.write(f"Warning: {warning}\n")
    if comparison is not None:
        out.write(f"Paired test: best = lowest ORANGE; {paired_test_line()}\n")


def _paired_entry(comparison: OrangeComparison, spec: str) -> dict:
    row = comparison.for_metric(spec)
    return paired_test_entry(
        best=row.best,
        equivalent=row.equivalent,
        difference=row.difference,
        ci_low=row.ci_low,
        ci_high=row.ci_high,
        p_value=row.p_value,
    )


def _paired_cell(comparison: OrangeComparison, spec: str) -> str:
    row = comparison.for_metric(spec)
    if row.best:
        return "best"
    if row.equivalent:
        return f"equivalent (p={row.p_value:.3f})"
    if row.p_value is None:
        return "not tested"
    return f"worse (p={row.p_value:.3f})"
