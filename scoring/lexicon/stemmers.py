"""Snowball stemmers (English Porter2, German, original Porter, and the other
languages METEOR 1.5 stems) for METEOR.

METEOR 1.5 stems with the Java Snowball stemmers (``englishStemmer`` =
Porter2, ``germanStemmer``); Banerjee & Lavie 2005 used the original Porter
stemmer. All three come from the PyPI package ``snowballstemmer`` (pure
Python, generated from the same Snowball sources), imported lazily so that
importing :mod:`scoring` does not need it.

>>> stemmer("english")("running"), stemmer("porter")("generalization")
('run', 'gener')
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from scoring.errors import MetricError

STEMMERS = (
    "english", "german", "porter",
    # the other Snowball stemmers METEOR 1.5 uses (scoring.metrics.meteor.config)
    "danish", "dutch", "finnish", "french", "hungarian", "italian", "norwegian",
    "portuguese", "romanian", "russian", "spanish", "swedish", "turkish",
)  # fmt: skip


@cache
def stemmer(algorithm: str) -> Callable[[str], str]:
    """A cached ``word -> stem`` function for a Snowball ``algorithm``.

    Raises :class:`MetricError` for an unknown algorithm or when the
    ``snowballstemmer`` package is missing.
    """
    if algorithm not in STEMMERS:
        raise MetricError(
            f"unknown stemmer {algorithm!r}; valid: {', '.join(STEMMERS)}"
        )
    try:
        import snowballstemmer
    except ImportError:  # pragma: no cover - depends on the environment
        raise MetricError(
            "stemming needs the Python package snowballstemmer "
            "(pip install snowballstemmer)"
        ) from None
    # One object per algorithm: Snowball stemmer objects are not re-entrant,
    # but scoring runs one segment at a time in each process.
    snowball = snowballstemmer.stemmer(algorithm)
    return lru_cache(maxsize=2**16)(snowball.stemWord)
