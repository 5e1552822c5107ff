"""Exceptions raised by the scoring package.

Every error a caller can provoke with bad input (an unknown metric, a bad
parameter, reference streams of the wrong length) is a :class:`MetricError`,
so the web side and the CLI can catch one type and show its message.

A message quotes what the user wrote through :func:`shortened`, so that a
20,000-character spec gives a short message, not a 40 KB reply.
"""

# How much of a user's text (a spec, a parameter value) a message quotes.
ECHO_LIMIT = 60


def shortened(text: object, limit: int = ECHO_LIMIT) -> str:
    """``str(text)``, or its first ``limit`` characters and "…" when longer.

    >>> shortened("bleu:n=4")
    'bleu:n=4'
    >>> shortened("x" * 100, limit=5)
    'xxxxx…'
    """
    try:
        text = str(text)
    except ValueError:  # an int beyond Python's limit for turning it into digits
        return "<a number too long to show>"
    return text if len(text) <= limit else f"{text[:limit]}…"


class ScoringError(ValueError):
    """Base class of every error raised on purpose by :mod:`scoring`."""


class MetricError(ScoringError):
    """A metric was asked for, configured or called with invalid input.

    The message is meant for people: it names what was wrong and, where a
    choice was involved, lists the valid choices.
    """


class TokenizerError(MetricError):
    """An unknown tokenizer was asked for.

    A subclass of :class:`MetricError` because a tokenizer is always chosen as
    part of a metric's configuration.
    """


class InputFileError(ScoringError):
    """A segment file could not be read: missing, not UTF-8, wrong line count.

    ``path`` and ``line`` (1-based, or ``None`` when the problem is not on one
    line) say where; the message says what, and names both.
    """

    def __init__(
        self,
        message: str,
        path: str,
        line: int | None = None,
        problem: str | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        # What is wrong without the "file, line n:" prefix, for callers that
        # name the place their own way (the web forms, the corpus readers).
        self.problem = problem or message
