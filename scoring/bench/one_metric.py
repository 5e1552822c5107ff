"""What ``chrf_suite`` and ``ter_suite`` share: the command line, the check
of the engine against the per-pair path, and timing ORANGE of one metric at
a time from text through :func:`scoring.orange.dispatch.orange_metrics`."""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from collections.abc import Callable, Sequence

from scoring.batch.warmup import warm_up
from scoring.bench.memory import PeakMemory
from scoring.bench.synthetic import PAPER_1024_BEST, SyntheticCorpus, make_corpus
from scoring.orange.dispatch import orange_for_metric, orange_metrics
from scoring.orange.options import OrangeOptions
from scoring.registry import get_metric

Texts = tuple[list[list[str]], list[list[str]]]


def parser(prog: str, description: str, default: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--sentences", type=int, help="default: the paper's 872")
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument(
        "--check", type=int, default=0, help="sentences compared with per-pair"
    )
    parser.add_argument("--metric", action="append", help=f"spec (default: {default})")
    return parser


def check(spec: str, candidates, references, n_sentences: int) -> None:
    """Print whether the engine's ORANGE equals the per-pair path's on the
    first ``n_sentences`` (first 50 candidates each)."""
    args = (
        get_metric(spec),
        spec,
        [c[:50] for c in candidates[:n_sentences]],
        references[:n_sentences],
        OrangeOptions(n_bootstrap=10),
    )
    engine = orange_for_metric(*args).to_dict()
    per_pair = orange_for_metric(*args, per_pair=True).to_dict()
    verdict = "identical" if engine == per_pair else "DIFFERENT"
    print(f"{spec}: engine vs per-pair ORANGE on {n_sentences} sentences: {verdict}")


def run(
    arguments: argparse.Namespace,
    to_text: Callable[[SyntheticCorpus], Texts],
    default_specs: Sequence[str],
    target_seconds: float,
) -> int:
    """Generate the corpus as text, check if asked, then time each metric."""
    shape = PAPER_1024_BEST
    if arguments.sentences:
        shape = dataclasses.replace(shape, n_sentences=arguments.sentences)
    started = time.perf_counter()
    candidates, references = to_text(make_corpus(shape))
    n_candidates = sum(map(len, candidates))
    pairs = sum(len(c) * len(r) for c, r in zip(candidates, references))
    print(
        f"corpus: {shape.n_sentences} x {shape.n_candidates}-best x "
        f"{shape.n_references} refs as text, {n_candidates:,} candidates, "
        f"{pairs:,} candidate-reference pairs, "
        f"{time.perf_counter() - started:.1f} s to generate"
    )
    print(f"kernels ready in {warm_up():.1f} s")
    specs = arguments.metric or list(default_specs)
    if arguments.check:
        for spec in specs:
            check(spec, candidates, references, arguments.check)
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
            f"target {target_seconds:.0f} s wall), peak {peak.mib:,.0f} MiB, "
            f"load average before: {load}"
        )
    return 0
