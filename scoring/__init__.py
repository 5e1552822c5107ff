"""mtdash scoring: pure Python + NumPy machine-translation metrics.

No Django (or any web or queue library) is imported anywhere in this package;
``tests/scoring/test_scoring_purity.py`` enforces it.

High-level use::

    from scoring import get_metric, MetricError, list_metrics

    metric = get_metric("bleu:n=4", tokenize="13a", lowercase=False)
    result = metric.score(hypotheses, [reference_stream_1, reference_stream_2])
    result.score, result.signature
"""

__version__ = "0.1.0"

from scoring.base import Metric, Parameter  # noqa: E402  (needs __version__ first)
from scoring.errors import MetricError, ScoringError, TokenizerError  # noqa: E402
from scoring.registry import MetricInfo, get_metric, list_metrics  # noqa: E402
from scoring.results import MetricResult  # noqa: E402
from scoring.tokenizers import Tokenizer, get_tokenizer, list_tokenizers  # noqa: E402

__all__ = [
    "Metric",
    "MetricError",
    "MetricInfo",
    "MetricResult",
    "Parameter",
    "ScoringError",
    "Tokenizer",
    "TokenizerError",
    "__version__",
    "get_metric",
    "get_tokenizer",
    "list_metrics",
    "list_tokenizers",
]
