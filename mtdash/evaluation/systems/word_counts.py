"""Word counts of a training corpus (``word<TAB>count`` per line), read for
the word-frequency buckets of the system page (compare-mt's
``--freq_count_file``).

A file is read whole or not at all: every problem is reported with its line
number (the first :data:`MAX_ERRORS` of them), and nothing is stored unless
every line is right.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import TestSet, WordCounts

#: Largest file accepted (bytes). A vocabulary of a million words with
#: counts is about 15 MB.
MAX_BYTES = 32 * 1024 * 1024
MAX_ERRORS = 10


@dataclass(frozen=True)
class WordCountsFile:
    counts: dict[str, int]
    errors: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.counts)


def read_word_counts(data: bytes, file_name: str = "the file") -> WordCountsFile:
    """Parse ``word<TAB>count`` lines; blank lines are skipped.

    >>> read_word_counts(b"the\\t120\\ncat\\t3\\n").counts
    {'the': 120, 'cat': 3}
    >>> read_word_counts(b"the 120\\n", "wc.tsv").errors
    ('wc.tsv, line 1: expected word<TAB>count, found no tab',)
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        return WordCountsFile({}, (f"{file_name}, line {line}: not UTF-8 text",))
    counts: dict[str, int] = {}
    first_seen: dict[str, int] = {}
    errors: list[str] = []
    n_errors = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        problem = _problem(line, first_seen)
        if problem:
            n_errors += 1
            if len(errors) < MAX_ERRORS:
                errors.append(f"{file_name}, line {number}: {problem}")
            continue
        word, count = line.strip().split("\t")
        counts[word] = int(count)
        first_seen[word] = number
    if n_errors > MAX_ERRORS:
        errors.append(f"{file_name}: {n_errors - MAX_ERRORS} more lines with problems")
    if not counts and not errors:
        errors.append(f"{file_name}: no word counts (expected word<TAB>count lines)")
    return WordCountsFile(counts, tuple(errors))


def _problem(line: str, first_seen: dict[str, int]) -> str | None:
    fields = line.strip().split("\t")
    if len(fields) == 1:
        return "expected word<TAB>count, found no tab"
    if len(fields) > 2:
        return f"expected word<TAB>count, found {len(fields)} tab-separated fields"
    word, count = fields
    if not word or any(character.isspace() for character in word):
        return f"{word!r} is not one word (a word has no spaces)"
    if not count.isascii() or not count.isdigit():
        return f"the count {count!r} of {word!r} is not a whole number >= 0"
    if word in first_seen:
        return f"{word!r} is counted twice (first on line {first_seen[word]})"
    return None


@transaction.atomic
def save_word_counts(
    test_set: TestSet, user, name: str, counts: dict[str, int]
) -> WordCounts:
    """Store the counts and have the worker recompute the system pages'
    word-frequency buckets with them."""
    stored = WordCounts.objects.create(
        test_set=test_set, name=name, counts=counts, uploaded_by=user
    )
    request_comparison(test_set.pk)
    return stored
