"""The ORANGE paper's metric suites, run by the batch engine on synthetic corpora.

- ``suite1024``: the 34 variants of Tables 2-6 (BLEUS1-9, NIST, PER, WER,
  ROUGE-L, ROUGE-W-1.1 ... 2.0, ROUGE-S0 ... S9, ROUGE-S*) on 872 sentences
  x 1024-best x 4 references;
- ``suite16384``: the six metrics of Table 7 (BLEUS4, PER, WER, ROUGE-L,
  ROUGE-W-1.2, ROUGE-S4) on 474 x 16384-best x 4 references.

Each run reports the wall and CPU time of the whole ORANGE computation
(scoring, jackknife, ranking, curve, 1000 bootstrap samples, the
above-reference lists), and its peak memory. The synthetic tokens (``w123``)
are left unchanged by every metric's tokenizer, so the corpus's ids are the
ids any view would produce (:class:`~scoring.orange.sources.TokenSource`).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from scoring.bench.memory import PeakMemory, process_peak_mib
from scoring.bench.synthetic import (
    PAPER_1024_BEST,
    PAPER_16384_BEST,
    CorpusShape,
    SyntheticCorpus,
    make_corpus,
)
from scoring.orange.batched import available_cpus, orange_batch
from scoring.orange.options import OrangeOptions
from scoring.orange.ranking import OrangeResult
from scoring.orange.sources import TokenSource
from scoring.registry import get_metric

# Paper name -> metric spec (default settings of each metric).
PAPER_34: dict[str, str] = {
    **{f"BLEUS{n}": f"bleus:n={n}" for n in range(1, 10)},
    "NIST": "nist",
    "PER": "per",
    "WER": "wer",
    "ROUGE-L": "rouge-l",
    **{f"ROUGE-W-{w / 10:.1f}": f"rouge-w:w={w / 10:.1f}" for w in range(11, 21)},
    **{f"ROUGE-S{d}": f"rouge-s:d={d}" for d in range(10)},
    "ROUGE-S*": "rouge-s:d=*",
}
TABLE_7: dict[str, str] = {
    name: PAPER_34[name]
    for name in ("BLEUS4", "PER", "WER", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4")
}
SUITES: dict[str, tuple[CorpusShape, dict[str, str]]] = {
    "suite1024": (PAPER_1024_BEST, PAPER_34),
    "suite16384": (PAPER_16384_BEST, TABLE_7),
}


@dataclass(frozen=True)
class SuiteRun:
    name: str
    shape: CorpusShape
    generate_seconds: float
    wall_seconds: float
    cpu_seconds: float
    peak_mib: float
    start_mib: float
    process_peak_mib: float
    peak_method: str
    workers: int
    load_before: tuple[float, float, float]
    results: dict[str, OrangeResult]

    @property
    def pairs(self) -> int:
        """(candidate, reference) pairs, each scored once per kernel."""
        shape = self.shape
        return shape.n_sentences * shape.n_candidates * shape.n_references


def suite_corpus(name: str, n_sentences: int | None = None) -> SyntheticCorpus:
    """The suite's synthetic corpus, ``n_sentences`` of them if given."""
    shape, _ = SUITES[name]
    if n_sentences is not None:
        shape = dataclasses.replace(
            shape, n_sentences=min(n_sentences, shape.n_sentences)
        )
    return make_corpus(shape)


def run_suite(
    name: str,
    n_sentences: int | None = None,
    *,
    workers: int | None = None,
    n_bootstrap: int = 1000,
    progress: Callable[[float], None] | None = None,
    corpus: SyntheticCorpus | None = None,
) -> SuiteRun:
    """Generate the suite's corpus (or take ``corpus``, made by
    :func:`suite_corpus`) and run ORANGE of its metrics."""
    _, specs = SUITES[name]
    started = time.perf_counter()
    if corpus is None:
        corpus = suite_corpus(name, n_sentences)
    shape = corpus.shape
    generate_seconds = time.perf_counter() - started
    metrics = {paper_name: get_metric(spec) for paper_name, spec in specs.items()}
    source = TokenSource(corpus.nbest, corpus.references)
    return timed_suite_run(
        name, shape, generate_seconds, metrics, source, n_bootstrap, workers, progress
    )


def timed_suite_run(
    name: str,
    shape: CorpusShape,
    prepared_seconds: float,
    metrics: dict,
    source,
    n_bootstrap: int,
    workers: int | None,
    progress: Callable[[float], None] | None,
) -> SuiteRun:
    """ORANGE of ``metrics`` on a prepared ``source`` with the benchmark's
    options (jackknife, curve step 64, seed 1): wall, CPU and peak memory."""
    options = OrangeOptions(
        all_references=False, curve_step=64, n_bootstrap=n_bootstrap, seed=1
    )
    load_before = os.getloadavg()
    workers = workers or available_cpus()
    with PeakMemory() as peak:
        started, cpu_started = time.perf_counter(), time.process_time()
        results = orange_batch(
            metrics, source, options, workers=workers, progress=progress
        )
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return SuiteRun(
        name,
        shape,
        prepared_seconds,
        wall,
        cpu,
        peak.mib,
        peak.start_mib,
        process_peak_mib(),
        peak.method,
        workers,
        load_before,
        results,
    )


def format_suite(run: SuiteRun) -> str:
    """A table like Tables 2-7 of Lin & Och (2004), then the costs."""
    shape = run.shape
    lines = [
        f"{run.name}: {shape.n_sentences} sentences x {shape.n_candidates}-best x "
        f"{shape.n_references} references, {len(run.results)} metrics",
        f"{'Method':<12} {'ORANGE':>8} {'Avg Rank':>9} {'95%-CI-L':>9} {'95%-CI-U':>9}",
    ]
    for name, result in run.results.items():
        lines.append(
            f"{name:<12} {result.orange:>7.2f}% {result.avg_rank:>9.1f} "
            f"{result.ci_low:>9.1f} {result.ci_high:>9.1f}"
        )
    load = ", ".join(f"{value:.1f}" for value in run.load_before)
    lines += [
        f"corpus generated in {run.generate_seconds:.1f} s (not counted below)",
        f"ORANGE of all metrics: wall {run.wall_seconds:.1f} s, "
        f"CPU {run.cpu_seconds:.1f} s ({run.workers} threads); "
        f"{run.pairs:,} candidate-reference pairs, each scored by every metric",
        f"peak memory {run.peak_mib:,.0f} MiB ({run.peak_method}; "
        f"resident at the start, corpus included: {run.start_mib:,.0f} MiB); "
        f"process peak with corpus generation {run.process_peak_mib:,.0f} MiB; "
        f"load average before: {load}",
    ]
    return "\n".join(lines)
