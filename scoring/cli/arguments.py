"""What every ``python -m scoring`` subcommand shares: its exit statuses and
the argument types that check a number's range as argparse reads it."""

from __future__ import annotations

import argparse

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 1


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be a positive integer")
    return value


def non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def probability(text: str) -> float:
    """A number strictly between 0 and 1 (a confidence level, alpha)."""
    value = float(text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError("must lie strictly between 0 and 1")
    return value
