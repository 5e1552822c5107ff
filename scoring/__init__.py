"""mtdash scoring: machine-translation metrics, ORANGE and meta-evaluation.

Python with NumPy and SciPy; the batch engine compiles its kernels with Numba.
No Django (or any web or queue library) is imported anywhere in this package;
``tests/scoring/test_scoring_purity.py`` and the import-linter contracts in
``pyproject.toml`` enforce it. Where things live: ``tokenizers/``,
``lexicon/`` (WordNet, stemmers), ``metrics/<family>/``, ``orange/``,
``batch/`` (the compiled engine), ``readability/``, ``stats/``, ``cli/``.

High-level use::

    from scoring import get_metric, MetricError, list_metrics

    metric = get_metric("bleu:n=4", tokenize="13a", lowercase=False)
    result = metric.score(hypotheses, [reference_stream_1, reference_stream_2])
    result.score, result.signature
"""

from scoring.base import Bounds, Metric, Parameter
from scoring.errors import (
    InputFileError,
    MetricError,
    ScoringError,
    TokenizerError,
    shortened,
)
from scoring.memory import collector_paused
from scoring.registry import (
    MetricInfo,
    ParameterInfo,
    canonical_spec,
    get_metric,
    list_metrics,
    server_only_parameters,
)
from scoring.results import MetricResult
from scoring.textfiles import decode_segments, decode_text_file
from scoring.tokenizers import Tokenizer, get_tokenizer, list_tokenizers
from scoring.version import __version__


def warm_up_batch_engine() -> tuple[float, bool]:
    """Make every compiled batch kernel ready in this process (compiled, or
    loaded from Numba's cache); returns (seconds, whether all came from the
    cache). For timings that must exclude compiling (the benchmark); a run
    needs only the kernels it calls (:func:`prepare_orange_kernels`), and
    workers call neither. Numba is imported only here, so ``import scoring``
    stays light."""
    from scoring.batch.warmup import warm_up, warm_up_from_cache

    seconds = warm_up()
    return seconds, warm_up_from_cache()


def prepare_orange_kernels(specs):
    """Compile (or load from Numba's cache) just the kernels ORANGE with the
    metrics ``specs`` calls; returns a
    :class:`scoring.orange.precompile.KernelPreparation` (seconds, and the
    kernels compiled). Nothing else is compiled: a run compiles what it
    calls anyway, this only does it ahead of time (e.g. while a server sets up)."""
    from scoring.orange.precompile import prepare_kernels

    return prepare_kernels(specs)


def recording_kernel_compiles():
    """A context manager recording the batch kernels compiled (not loaded from
    the cache) inside it, by any thread: yields a
    :class:`scoring.batch.compile_log.CompileLog` (``.seconds``,
    ``.kernels``)."""
    from scoring.batch.compile_log import recording_compiles

    return recording_compiles()


__all__ = [
    "Bounds",
    "InputFileError",
    "Metric",
    "MetricError",
    "MetricInfo",
    "MetricResult",
    "Parameter",
    "ParameterInfo",
    "ScoringError",
    "Tokenizer",
    "TokenizerError",
    "__version__",
    "canonical_spec",
    "collector_paused",
    "decode_segments",
    "decode_text_file",
    "get_metric",
    "get_tokenizer",
    "list_metrics",
    "list_tokenizers",
    "prepare_orange_kernels",
    "recording_kernel_compiles",
    "server_only_parameters",
    "shortened",
    "warm_up_batch_engine",
]
