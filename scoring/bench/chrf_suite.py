"""``python -m scoring.bench.chrf_suite``: ORANGE of chrF and chrF++ at the
paper's scale (872 sentences x 1024-best x 4 references, jackknife), each
metric timed on its own through :func:`scoring.orange.dispatch.orange_metrics`
from text, as a run from files would go (target: 60 s wall each on two
cores).

The text is :mod:`scoring.bench.synthetic`'s corpus spelt with
:mod:`scoring.bench.synthetic_text`'s pseudo-words (about 185 characters a
candidate). ``--sentences N`` scales it down; ``--check N`` first compares
the engine with the per-pair path on the first N sentences (first 50
candidates each).
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from scoring.batch.warmup import warm_up
from scoring.bench.memory import PeakMemory
from scoring.bench.synthetic import PAPER_1024_BEST, make_corpus
from scoring.bench.synthetic_text import corpus_texts
from scoring.orange.dispatch import orange_for_metric, orange_metrics
from scoring.orange.options import OrangeOptions
from scoring.registry import get_metric

SPECS = ("chrf", "chrf++")
TARGET_SECONDS = 60.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring.bench.chrf_suite", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--sentences", type=int, help="default: the paper's 872")
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument(
        "--check", type=int, default=0, help="sentences compared with per-pair"
    )
    parser.add_argument("--metric", action="append", help="spec (default chrF, chrF++)")
    return parser


def _check(spec: str, candidates, references, n_sentences: int) -> None:
    metric = get_metric(spec)
    options = OrangeOptions(n_bootstrap=10)
    args = (
        metric,
        spec,
        [c[:50] for c in candidates[:n_sentences]],
        references[:n_sentences],
        options,
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
    candidates, references = corpus_texts(make_corpus(shape))
    n_candidates = sum(map(len, candidates))
    print(
        f"corpus: {shape.n_sentences} x {shape.n_candidates}-best x "
        f"{shape.n_references} refs as text, {n_candidates:,} candidates, "
        f"{time.perf_counter() - started:.1f} s to generate"
    )
    print(f"kernels ready in {warm_up():.1f} s")
    specs = arguments.metric or list(SPECS)
    if arguments.check:
        for spec in specs:
            _check(spec, candidates, references, arguments.check)
    options = OrangeOptions(n_bootstrap=arguments.bootstrap)
    for spec in specs:
        with PeakMemory() as peak:
            wall, cpu = time.perf_counter(), time.process_time()
            result = orange_metrics(
                {spec: get_metric(spec)}, candidates, references, options
            )[spec]
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"{spec}: ORANGE {result.orange:.4f}, {wall:.1f} s wall ({cpu:.1f} s CPU, "
            f"target {TARGET_SECONDS:.0f} s wall), peak {peak.mib:,.0f} MiB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
