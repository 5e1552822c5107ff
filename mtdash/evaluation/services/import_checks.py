"""What the judgments' and external scores' imports check the same way:
size, systems, segments, messages.

Every problem is an :class:`~mtdash.common.upload_checks.UploadProblem`
(file, line, problem), as for uploaded segment files, so forms, the API and
the commands show one message.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.models import SystemOutput, TestSet
from scoring import InputFileError

_LISTED = 10  # systems named in an "unknown system" message

Progress = Callable[[int, int], None]  # (rows stored, rows to store)


def check_data_size(data: bytes, file_name: str) -> None:
    """Refuse an empty file or one over ``MTDASH_MAX_UPLOAD_BYTES``."""
    if not data:
        raise UploadProblem(file_name, None, "the file is empty (0 bytes)")
    limit = settings.MTDASH_MAX_UPLOAD_BYTES
    if len(data) > limit:
        raise UploadProblem(
            file_name, None, f"the file is {len(data):,} bytes; the limit is {limit:,}"
        )


def problem_from(error: InputFileError, file_name: str) -> UploadProblem:
    """The scoring library's message about ``file_name`` as an UploadProblem."""
    message = str(error)
    for prefix in (f"{file_name}: line {error.line}: ", f"{file_name}: "):
        message = message.removeprefix(prefix)
    if message.startswith("invalid UTF-8"):
        message += "; save the file as UTF-8"
    return UploadProblem(file_name, error.line, message)


class TestSetOutputs:
    """The test set's outputs by system name, and checks of names and lines."""

    __test__ = False

    def __init__(self, test_set: TestSet, file_name: str) -> None:
        self.file_name = file_name
        self.n_segments = test_set.segments.count()
        self.by_system = {
            output.system.name: output
            for output in SystemOutput.objects.filter(test_set=test_set)
            .select_related("system")
            .order_by("system__name")
        }

    def output(self, system: str, line: int) -> SystemOutput:
        found = self.by_system.get(system)
        if found is None:
            names = list(self.by_system)
            known = ", ".join(names[:_LISTED]) + (
                ", ..." if len(names) > _LISTED else ""
            )
            raise UploadProblem(
                self.file_name,
                line,
                f"unknown system {system!r}: the test set has outputs of "
                + (known or "no system yet; upload the system's output first"),
            )
        return found

    def index(self, segment: int, line: int) -> int:
        """The 0-based index of the 1-based ``segment``, if the test set has it."""
        if not 1 <= segment <= self.n_segments:
            raise UploadProblem(
                self.file_name,
                line,
                f"segment {segment} is not in the test set (it has "
                f"{self.n_segments} segments, numbered 1 to {self.n_segments})",
            )
        return segment - 1
