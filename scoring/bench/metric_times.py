"""ORANGE time per metric at paper scale, through the one dispatcher.

For each metric of :data:`METRICS` (chrF, chrF++, GTM e = 1, 2, 3, TER,
METEOR, WNM, RED), :func:`time_metric` runs
:func:`scoring.orange.dispatch.orange_metrics` on the 1024-best synthetic
corpus rendered as text (pseudo-words spelt with letters,
:mod:`scoring.bench.synthetic_text`, so character metrics see real-looking
words) and reports the wall time and which path the dispatcher took: the
batch engine or pair by pair (:func:`scoring.orange.dispatch.on_engine`).
Sentences come in documents of nine (:func:`scoring.bench.synthetic.document_ids`),
which only WNM reads.

A metric may be slow (pair by pair, 3.6 million pairs at paper scale): a
first run on :data:`PROBE_SENTENCES` sentences estimates its time per
sentence; if the paper-scale estimate exceeds the budget, the measured run
uses as many sentences as fit in it, and the paper-scale time is
extrapolated linearly (and labelled so). ``sentences`` caps the measured
size outright (``--metric-sentences``). Each line gives the wall time, the
process's CPU time in the same run (both cores' worth: the engine's chunks
run on threads) and the 1-minute load average before it.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.bench.synthetic import PAPER_1024_BEST, document_ids, make_corpus
from scoring.bench.synthetic_text import corpus_texts
from scoring.orange.dispatch import on_engine, orange_metrics
from scoring.orange.options import OrangeOptions
from scoring.orange.prepare import prepare_metrics
from scoring.registry import get_metric

METRICS = (
    "chrf",
    "chrf++",
    "gtm:e=1",
    "gtm:e=2",
    "gtm:e=3",
    "ter",
    "meteor",
    "wnm",
    "red",
)
PROBE_SENTENCES = 4
DEFAULT_BUDGET_SECONDS = 300.0


@dataclass(frozen=True)
class MetricTime:
    spec: str
    path: str  # "batch engine" or "pair by pair"
    sentences: int  # measured on
    paper_sentences: int
    seconds: float  # measured
    orange: float | None  # percent, on the measured sentences
    error: str = ""
    cpu_seconds: float = 0.0  # the process's CPU (user + sys) in the same run
    load: float | None = None  # 1-minute load average before the run

    @property
    def paper_seconds(self) -> float:
        """Measured, or extrapolated linearly to the paper's sentences."""
        return self.seconds * self.paper_sentences / max(1, self.sentences)

    @property
    def extrapolated(self) -> bool:
        return self.sentences < self.paper_sentences


@dataclass(frozen=True)
class _Run:
    seconds: float
    cpu_seconds: float
    orange: float
    load: float


def _orange_seconds(spec: str, candidates, references) -> _Run:
    documents = document_ids(len(references))
    metric = prepare_metrics({spec: get_metric(spec)}, references, documents)
    options = OrangeOptions(curve_step=64, n_bootstrap=1000, seed=1)
    load = os.getloadavg()[0]
    started, cpu = time.perf_counter(), time.process_time()
    result = orange_metrics(
        metric, candidates, references, options, document_ids=documents
    )[spec]
    return _Run(
        time.perf_counter() - started, time.process_time() - cpu, result.orange, load
    )


def time_metric(
    spec: str,
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    *,
    sentences: int | None = None,
    budget_seconds: float = DEFAULT_BUDGET_SECONDS,
) -> MetricTime:
    """ORANGE of one metric on the first sentences of the texts (all of them
    when it fits the budget, see the module docstring)."""
    paper = len(candidates)
    limit = paper if sentences is None else min(sentences, paper)
    try:
        path = "batch engine" if on_engine(get_metric(spec)) else "pair by pair"
        probe = min(PROBE_SENTENCES, limit)
        run = _orange_seconds(spec, candidates[:probe], references[:probe])
        chosen = limit
        if run.seconds * paper / probe > budget_seconds:
            chosen = max(probe, min(limit, int(budget_seconds * probe / run.seconds)))
        if chosen > probe:
            run = _orange_seconds(spec, candidates[:chosen], references[:chosen])
        return MetricTime(
            spec,
            path,
            chosen,
            paper,
            run.seconds,
            run.orange,
            cpu_seconds=run.cpu_seconds,
            load=run.load,
        )
    except Exception as error:  # a metric that cannot run here is reported
        return MetricTime(
            spec, "-", 0, paper, 0.0, None, f"{type(error).__name__}: {error}"
        )


def time_metrics(
    specs: Sequence[str] = METRICS,
    *,
    sentences: int | None = None,
    corpus_sentences: int | None = None,
    budget_seconds: float = DEFAULT_BUDGET_SECONDS,
) -> list[MetricTime]:
    """Every metric on the paper-shaped corpus (``corpus_sentences`` of it)."""
    shape = PAPER_1024_BEST
    if corpus_sentences is not None:
        shape = dataclasses.replace(
            shape, n_sentences=min(corpus_sentences, shape.n_sentences)
        )
    if sentences is not None:
        # No metric measures more: render only what is used.
        render = dataclasses.replace(
            shape, n_sentences=min(max(sentences, PROBE_SENTENCES), shape.n_sentences)
        )
    else:
        render = shape
    candidates, references = corpus_texts(make_corpus(render))
    # Reported against the whole corpus's size (extrapolated when smaller).
    padded_candidates = _Padded(candidates, shape.n_sentences)
    padded_references = _Padded(references, shape.n_sentences)
    return [
        time_metric(
            spec,
            padded_candidates,
            padded_references,
            sentences=sentences,
            budget_seconds=budget_seconds,
        )
        for spec in specs
    ]


class _Padded(Sequence):
    """The rendered sentences, claiming the corpus's full length; only the
    rendered prefix is ever sliced (``sentences`` caps every run)."""

    def __init__(self, items: list, length: int) -> None:
        self._items, self._length = items, length

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            start, stop, _ = index.indices(self._length)
            if stop > len(self._items):
                raise IndexError("beyond the rendered sentences")
            return self._items[start:stop]
        return self._items[index]


def format_metric_times(times: Sequence[MetricTime]) -> str:
    """A table: metric, path, ORANGE on the measured part, paper-scale time."""
    lines = [
        f"{'metric':<9} {'path':<13} {'measured on':>15} {'time':>9} {'CPU':>8} "
        f"{'paper scale':>18} {'ORANGE':>8} {'load':>5}"
    ]
    for t in times:
        if t.error:
            lines.append(f"{t.spec:<9} failed: {t.error}")
            continue
        paper = f"{t.paper_seconds:,.1f} s" + (" (extrap.)" if t.extrapolated else "")
        load = "" if t.load is None else f"{t.load:.1f}"
        lines.append(
            f"{t.spec:<9} {t.path:<13} {t.sentences:>5} sentences {t.seconds:>8.1f}s "
            f"{t.cpu_seconds:>7.1f}s {paper:>18} {t.orange:>7.2f}% {load:>5}"
        )
    return "\n".join(lines)
