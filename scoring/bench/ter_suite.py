"""``python -m scoring.bench.ter_suite``: ORANGE of TER at the paper's scale
(872 sentences x 1024-best x 4 references, jackknife: every candidate against
each of the 4 references, 3.57 M pairs, each through TERCOM's shift search),
timed through :func:`scoring.orange.dispatch.orange_metrics` from text, as a
run from files would go (target: 5 minutes wall on two cores).

The text is :mod:`scoring.bench.synthetic`'s corpus with each id written as
a word (``w123``), which TER's preprocessing leaves as it is, so the words
TER searches are the corpus's ids. ``--sentences N`` scales the corpus down;
``--check N`` first compares the engine with the per-pair path on the first
N sentences (first 50 candidates each); ``--metric SPEC`` (repeatable) times
other TER settings.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time

from scoring.batch.warmup import warm_up
from scoring.bench.memory import PeakMemory
from scoring.bench.synthetic import PAPER_1024_BEST, SyntheticCorpus, make_corpus
from scoring.orange.dispatch import orange_for_metric, orange_metrics
from scoring.orange.options import OrangeOptions
from scoring.registry import get_metric

TARGET_SECONDS = 300.0


def corpus_as_text(
    corpus: SyntheticCorpus,
) -> tuple[list[list[str]], list[list[str]]]:
    """Candidates and references of every sentence as text (``w123`` words)."""
    nbest = corpus.nbest
    words = [f"w{i}" for i in range(corpus.shape.vocabulary_size)]
    tokens = nbest.tokens.tolist()
    offsets = nbest.candidate_offsets.tolist()
    sentence_offsets = nbest.sentence_offsets.tolist()
    candidates = [
        [
            " ".join([words[t] for t in tokens[offsets[c] : offsets[c + 1]]])
            for c in range(sentence_offsets[i], sentence_offsets[i + 1])
        ]
        for i in range(len(sentence_offsets) - 1)
    ]
    references = [[corpus.text(ids) for ids in refs] for refs in corpus.references]
    return candidates, references


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring.bench.ter_suite", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--sentences", type=int, help="default: the paper's 872")
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument(
        "--check", type=int, default=0, help="sentences compared with per-pair"
    )
    parser.add_argument("--metric", action="append", help="spec (default: ter)")
    return parser


def _check(spec: str, candidates, references, n_sentences: int) -> None:
    metric = get_metric(spec)
    args = (
        metric,
        spec,
        [c[:50] for c in candidates[:n_sentences]],
        references[:n_sentences],
        OrangeOptions(n_bootstrap=10),
    )
    engine = orange_for_metric(*args).to_dict()
    per_pair = orange_for_metric(*args, per_pair=True).to_dict()
    verdict = "identical" if engine == per_pair else "DIFFERENT"
    print(f"{spec}: engine vs per-pair ORANGE on {n_sentences} sentences: {verdict}")


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    shape = PAPER_1024_BEST
    if arguments.sentences:
        shape = dataclasses.replace(shape, n_sentences=arguments.sentences)
    started = time.perf_counter()
    candidates, references = corpus_as_text(make_corpus(shape))
    n_candidates = sum(map(len, candidates))
    pairs = sum(len(c) * len(r) for c, r in zip(candidates, references))
    print(
        f"corpus: {shape.n_sentences} x {shape.n_candidates}-best x "
        f"{shape.n_references} refs as text, {n_candidates:,} candidates, "
        f"{pairs:,} candidate-reference pairs, "
        f"{time.perf_counter() - started:.1f} s to generate"
    )
    print(f"kernels ready in {warm_up():.1f} s")
    specs = arguments.metric or ["ter"]
    if arguments.check:
        for spec in specs:
            _check(spec, candidates, references, arguments.check)
    options = OrangeOptions(n_bootstrap=arguments.bootstrap)
    for spec in specs:
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        with PeakMemory() as peak:
            wall, cpu = time.perf_counter(), time.process_time()
            result = orange_metrics(
                {spec: get_metric(spec)}, candidates, references, options
            )[spec]
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"{spec}: ORANGE {result.orange:.4f}, {wall:.1f} s wall ({cpu:.1f} s CPU, "
            f"target {TARGET_SECONDS:.0f} s wall), peak {peak.mib:,.0f} MiB, "
            f"load average before: {load}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
