"""The metric contract: segment statistics in, scores out.

A metric is an immutable object (a frozen dataclass holding its
configuration). It turns each segment into a short vector of counts, its
*sufficient statistics*; the corpus score is computed from the column sums of
those vectors and a sentence score from a single row. Bootstrap resampling and
system comparison therefore resample rows and never re-tokenise text.

Shapes used throughout:

- ``statistics``: ``(n_segments, n_stats)``, one row per segment;
- ``summed``: ``(..., n_stats)``, statistics summed over some segments, with
  any leading batch shape (e.g. ``(n_bootstrap_samples, n_stats)``).

To add a metric: subclass :class:`Metric` as a frozen dataclass, set the class
variables, implement the four abstract members, and add one line to
:mod:`scoring.registry`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from scoring.corpus import PreparedCorpus, prepare_corpus
from scoring.errors import MetricError, shortened
from scoring.results import MetricResult

ProgressCallback = Callable[[float], None]

# How many times at most a progress callback is called while collecting
# statistics; often enough for a progress bar, rare enough to cost nothing.
_PROGRESS_REPORTS = 100

_TRUE_WORDS = {"true", "yes", "1", "on"}
_FALSE_WORDS = {"false", "no", "0", "off"}


@dataclass(frozen=True)
class Bounds:
    """The numbers a parameter accepts: ``low`` to ``high``, both included
    unless ``low_excluded``.

    Every numeric parameter has bounds, because a value without any (BLEU's
    ``n=100000000``) makes a worker build statistics until memory runs out.
    NaN lies outside any bounds.

    >>> str(Bounds(1, 9)), Bounds(1, 9).admits(10)
    ('from 1 to 9', False)
    >>> str(Bounds(0, 100, low_excluded=True)), Bounds(0, 100, True).admits(0)
    ('more than 0 and at most 100', False)
    """

    low: float
    high: float
    low_excluded: bool = False

    def admits(self, value: float) -> bool:
        above_low = value > self.low if self.low_excluded else value >= self.low
        return above_low and value <= self.high

    def __str__(self) -> str:
        if self.low_excluded:
            return f"more than {self.low:g} and at most {self.high:g}"
        return f"from {self.low:g} to {self.high:g}"


def _numbers_in(value: object) -> tuple[float, ...]:
    """The numbers a parameter value holds: itself if a number, else the
    ``+``-separated items of a text that read as numbers (METEOR's weights
    ``1.0+0.6``, ROUGE-S's ``d=4``; ``*`` holds none)."""
    if isinstance(value, bool):
        return ()
    if isinstance(value, (int, float)):
        return (value,)
    if not isinstance(value, str):
        return ()
    numbers = []
    for item in value.split("+"):
        try:
            numbers.append(float(item))
        except ValueError:
            continue  # not a number: the metric's own check names the problem
    return tuple(numbers)


@dataclass(frozen=True)
class Parameter:
    """A named parameter of a metric, as written in ``"bleu:n=2"``.

    ``kind`` is ``int``, ``float``, ``bool`` or ``str``. :meth:`convert` turns
    a spec-string value (or an already-typed value) into that type; choice
    checks are done by the metric itself, so a metric constructed directly is
    checked too.

    ``bounds`` are the numbers a numeric parameter accepts (for a text
    parameter, each number in it). They are checked by :meth:`check_bounds`:
    by the registry before any metric is built from a spec (so the web form,
    the API, the command line and a worker given a queued job all refuse the
    same values with the same message), and by the metric's
    ``__post_init__`` (:meth:`Metric.check_bounds`) when it is constructed
    directly.

    ``server_only`` marks a parameter whose value names a file or folder on
    the machine that computes the metric (a model, a WordNet folder, a
    paraphrase table). Such a value is for the command line and the server's
    own configuration; a service that takes specs from other people (a web
    form, an API) refuses it, see :func:`scoring.server_only_parameters`.
    """

    name: str
    attribute: str
    kind: type
    description: str
    choices: tuple[str, ...] = ()
    server_only: bool = False
    bounds: Bounds | None = None

    def check_bounds(self, metric_name: str, value: object) -> None:
        """Raise :class:`MetricError` naming the metric, this parameter, the
        value and the bounds when a number in ``value`` lies outside them.

        >>> Parameter("n", "order", int, "order", bounds=Bounds(1, 9)).check_bounds(
        ...     "bleu", 100000000
        ... )
        Traceback (most recent call last):
        ...
        scoring.errors.MetricError: bleu: n=100000000 is out of range; allowed: from 1 to 9
        """
        if self.bounds is None:
            return
        for number in _numbers_in(value):
            if not self.bounds.admits(number):
                raise MetricError(
                    f"{metric_name}: {self.name}={shortened(value)} is out of range; "
                    f"allowed: {self.bounds}"
                )

    def convert(self, raw: object) -> object:
        """Return ``raw`` as ``self.kind``; raise ``ValueError`` if impossible."""
        if self.kind is bool:
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in _TRUE_WORDS:
                return True
            if isinstance(raw, str) and raw.strip().lower() in _FALSE_WORDS:
                return False
            raise ValueError("expected true or false")
        if self.kind is int:
            if isinstance(raw, bool) or isinstance(raw, float):
                raise ValueError("expected an integer")
            try:
                return int(raw)  # type: ignore[call-overload]
            except (TypeError, ValueError):
                raise ValueError("expected an integer") from None
        if self.kind is float:
            if isinstance(raw, bool):
                raise ValueError("expected a number")
            try:
                return float(raw)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise ValueError("expected a number") from None
        if not isinstance(raw, str):
            raise ValueError("expected a string")
        return raw


def format_signature(
    name: str, nrefs: int | str | None, fields: Sequence[tuple[str, str]]
) -> str:
    """Join ``name|nrefs:..|key:value|...|version:..`` like sacreBLEU.

    ``nrefs`` is left out when ``None`` (a signature of the configuration
    alone, before any data has been seen).
    """
    from scoring.version import (
        __version__,  # here, not at the top: scoring imports base
    )

    parts = [name]
    if nrefs is not None:
        parts.append(f"nrefs:{nrefs}")
    parts.extend(f"{key}:{value}" for key, value in fields)
    parts.append(f"version:{__version__}")
    return "|".join(parts)


class Metric(ABC):
    """Base class of every metric; subclasses are frozen dataclasses.

    Class variables a subclass sets:

    - ``name``: registry name and first field of the signature;
    - ``description``: one line for ``list_metrics()``;
    - ``higher_is_better``: False for error rates;
    - ``scale``: 1.0 for 0–1 metrics, 100.0 for 0–100 ones (BLEU, like sacreBLEU;
      error rates such as WER and TER can exceed it), ``math.inf`` for NIST;
    - ``parameters``: the :class:`Parameter` s accepted in a metric spec;
    - ``requires``: extra inputs the metric cannot do without, among
      ``"sources"`` and ``"document_ids"`` (read from ``PreparedCorpus``).
    """

    name: ClassVar[str]
    description: ClassVar[str]
    higher_is_better: ClassVar[bool]
    scale: ClassVar[float]
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    requires: ClassVar[tuple[str, ...]] = ()

    # -- what each metric implements -------------------------------------

    @property
    @abstractmethod
    def statistics_names(self) -> tuple[str, ...]:
        """Names of the ``n_stats`` columns of the statistics array."""

    @abstractmethod
    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[float]:
        """Sufficient statistics of one segment (length ``n_stats``)."""

    @abstractmethod
    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus scores from summed statistics: ``(..., n_stats) -> (...)``."""

    @abstractmethod
    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Sentence scores from single rows: ``(..., n_stats) -> (...)``."""

    @abstractmethod
    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        """``(key, value)`` pairs of the signature between nrefs and version."""

    # -- shared machinery --------------------------------------------------

    def check_bounds(self) -> None:
        """Refuse a parameter outside its declared :class:`Bounds`
        (:class:`MetricError`); the first thing a metric's ``__post_init__``
        with numeric parameters does, before any resource is loaded."""
        for parameter in self.parameters:
            parameter.check_bounds(self.name, getattr(self, parameter.attribute))

    # Counts are integers; a metric with fractional statistics (e.g. TER's
    # average reference length) sets np.float64.
    statistics_dtype: ClassVar[type] = np.int64

    def segment_statistics(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]],
        progress: ProgressCallback | None = None,
        *,
        sources: Sequence[str] | None = None,
        document_ids: Sequence[str] | None = None,
    ) -> np.ndarray:
        """Sufficient statistics of every segment, shape ``(n_segments, n_stats)``.

        ``references`` are reference *streams* (like sacreBLEU): each stream
        has one entry per hypothesis; ``None`` marks a missing reference.
        Raises :class:`MetricError` when the streams do not fit.
        """
        corpus = self.prepare(hypotheses, references, sources, document_ids)
        return self._statistics(corpus, progress)

    def prepare(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]],
        sources: Sequence[str] | None = None,
        document_ids: Sequence[str] | None = None,
    ) -> PreparedCorpus:
        """Validate the input, including what this metric ``requires``."""
        corpus = prepare_corpus(hypotheses, references, sources, document_ids)
        for need in self.requires:
            if getattr(corpus, need) is None:
                flag = {"sources": "--src", "document_ids": "--docs"}[need]
                raise MetricError(
                    f"{self.name} needs {need.replace('_', ' ')} (command line: {flag})"
                )
        return corpus

    def _statistics(
        self, corpus: PreparedCorpus, progress: ProgressCallback | None
    ) -> np.ndarray:
        """Collect one row per segment; override when a metric needs the whole
        corpus first (e.g. NIST's information weights)."""
        n_segments = len(corpus.hypotheses)
        n_stats = len(self.statistics_names)
        statistics = np.zeros((n_segments, n_stats), dtype=self.statistics_dtype)
        report_every = max(1, -(-n_segments // _PROGRESS_REPORTS))  # ceiling
        segments = zip(corpus.hypotheses, corpus.references)
        for index, (hypothesis, references) in enumerate(segments):
            statistics[index] = self.segment_row(hypothesis, references)
            done = index + 1
            due = done % report_every == 0 or done == n_segments
            if progress is not None and due:
                progress(done / n_segments)
        if progress is not None and n_segments == 0:
            progress(1.0)
        return statistics

    def corpus_score_from_statistics(self, summed: np.ndarray) -> float:
        """The corpus score (on ``scale``) from one summed row ``(n_stats,)``."""
        return float(self.corpus_scores_from_statistics(np.asarray(summed)))

    def sentence_score_from_statistics(self, row: np.ndarray) -> float:
        """One sentence score (on ``scale``) from one row ``(n_stats,)``."""
        return float(self.sentence_scores_from_statistics(np.asarray(row)))

    def details_from_statistics(self, summed: np.ndarray) -> dict[str, Any]:
        """JSON-safe figures for the UI; by default the summed statistics."""
        names = self.statistics_names
        return {name: value.item() for name, value in zip(names, summed)}

    def signature(self, nrefs: int | str | None = None) -> str:
        """Signature of the corpus score; ``nrefs`` is an int or ``"var"``."""
        return format_signature(self.name, nrefs, self.signature_fields(sentence=False))

    def sentence_signature(self, nrefs: int | str | None = None) -> str:
        """Signature of the sentence scores."""
        return format_signature(self.name, nrefs, self.signature_fields(sentence=True))

    def corpus_signature(
        self,
        references: Sequence[Sequence[str | None]],
        nrefs: int | str | None = None,
    ) -> str:
        """Signature of the corpus score against these reference streams: a
        metric whose corpus score depends on more of them than their count
        (chrF: their order) records it here."""
        return self.signature(nrefs)

    def score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]],
        sentence: bool = False,
        progress: ProgressCallback | None = None,
        *,
        sources: Sequence[str] | None = None,
        document_ids: Sequence[str] | None = None,
    ) -> MetricResult:
        """Score a system output against one or more reference streams.

        Args:
            hypotheses: ``n`` hypothesis segments.
            references: reference streams, each of length ``n``; ``None``
                entries mark missing references (variable reference counts).
            sentence: also compute one score per segment.
            progress: called now and then with the fraction of segments
                done, in (0, 1], finally with 1.0.
            sources: ``n`` source segments (needed by some metrics).
            document_ids: ``n`` document ids (needed by some metrics).

        Returns:
            A :class:`MetricResult`; scores are on ``self.scale``.
        """
        corpus = self.prepare(hypotheses, references, sources, document_ids)
        statistics = self._statistics(corpus, progress)
        return self.result_from_statistics(corpus, references, statistics, sentence)

    def result_from_statistics(
        self,
        corpus: PreparedCorpus,
        references: Sequence[Sequence[str | None]],
        statistics: np.ndarray,
        sentence: bool = False,
    ) -> MetricResult:
        """What :meth:`score` returns, from the corpus it prepared (the
        reference streams as given) and its segment statistics (e.g.
        computed faster by another route)."""
        summed = statistics.sum(axis=0)
        sentence_scores = sentence_signature = None
        if sentence:
            sentence_signature = self.sentence_signature(corpus.nrefs)
            values = self.sentence_scores_from_statistics(statistics)
            sentence_scores = tuple(float(value) for value in values)
        return MetricResult(
            metric=self.name,
            score=self.corpus_score_from_statistics(summed),
            signature=self.corpus_signature(references, corpus.nrefs),
            higher_is_better=self.higher_is_better,
            scale=float(self.scale),
            n_segments=len(corpus.hypotheses),
            sentence_scores=sentence_scores,
            sentence_signature=sentence_signature,
            details=self.details_from_statistics(summed),
            statistics=statistics,
        )


def require(condition: bool, message: str) -> None:
    """Raise :class:`MetricError` with ``message`` unless ``condition`` holds.

    Used by metrics' ``__post_init__`` to refuse bad configurations early.
    """
    if not condition:
        raise MetricError(message)
