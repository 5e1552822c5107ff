"""What both import commands share: the test set, the file, progress lines."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from mtdash.evaluation.models import TestSet

# Files with more rows than this get progress lines (one per stored batch).
PROGRESS_ABOVE = 5000


def get_test_set(pk: int) -> TestSet:
    try:
        return TestSet.objects.get(pk=pk)
    except TestSet.DoesNotExist:
        raise CommandError(f"no test set with id {pk}") from None


def read_file(path: str) -> tuple[bytes, str]:
    """The file's bytes and the name messages give it (as the browser would)."""
    try:
        return Path(path).read_bytes(), Path(path).name
    except OSError as error:
        raise CommandError(f"{path}: cannot read the file: {error.strerror}") from None


def progress_printer(command: BaseCommand, what: str):
    def report(done: int, total: int) -> None:
        if total > PROGRESS_ABOVE:
            command.stderr.write(f"stored {done:,} of {total:,} {what}")

    return report
