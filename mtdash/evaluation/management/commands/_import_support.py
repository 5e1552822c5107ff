"""What the ``import_*`` commands share: finding the team, test set and user,
reading files with a progress line, and the same checks as the web forms
(``services.corpus_files``); any ``UploadProblem`` ends the command with its
message and exit status 1."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from mtdash.common.metric_specs import check_metric_specs, parse_metric_specs
from mtdash.evaluation.models import CorpusScore, TestSet
from mtdash.evaluation.services.corpus_files import FORMAT_CHOICES, CorpusFile
from mtdash.evaluation.services.uploads import language_metric_specs
from mtdash.teams.models import Team
from scoring import MetricError
from scoring.language_defaults import default_metric_specs

FORMATS = [code for code, _ in FORMAT_CHOICES]
# Files with more rows than this get progress lines (one per stored batch).
PROGRESS_ABOVE = 5000


def add_common_arguments(parser, *, metrics: bool = True) -> None:
    parser.add_argument(
        "--format", default="auto", choices=FORMATS, help="file format (default: auto)"
    )
    parser.add_argument("--user", help="username recorded as the uploader")
    if metrics:
        parser.add_argument(
            "--metrics",
            nargs="+",
            help="metric specs (default: the target language's defaults, "
            "e.g. bleu:tokenize=zh chrf ter:... for Chinese)",
        )
        parser.add_argument(
            "--no-queue",
            action="store_true",
            help="store the scoring jobs without sending them to a worker",
        )


def fail(message: str) -> CommandError:
    """An error that ends the command with ``message`` and exit status 1."""
    return CommandError(message, returncode=1)


def get_team(name: str) -> Team:
    try:
        return Team.objects.get(name=name)
    except Team.DoesNotExist:
        known = ", ".join(Team.objects.values_list("name", flat=True)) or "none"
        raise fail(f"no team named “{name}” (teams: {known})") from None


def get_user(username: str | None):
    if not username:
        return None
    try:
        return get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist:
        raise fail(f"no user named “{username}”") from None


def get_test_set(reference: str | int, team: str | None = None) -> TestSet:
    """A test set by id, or by name within ``team``."""
    reference = str(reference)
    found = TestSet.objects.all()
    if team:
        found = found.filter(team=get_team(team))
    found = (
        found.filter(pk=int(reference))
        if reference.isdigit()
        else found.filter(name=reference)
    )
    matches = list(found[:2])
    if len(matches) != 1:
        where = f" of team “{team}”" if team else ""
        if not matches and reference.isdigit():
            raise fail(f"no test set with id {reference}{where}")
        what = "no test set" if not matches else "several test sets (give --team)"
        raise fail(f"{what} “{reference}”{where}")
    return matches[0]


def metric_specs(
    given: Sequence[str] | None, test_set_target: str, *, has_document_ids: bool
) -> list[str]:
    """The specs given (checked as the web checks them) or the target
    language's defaults, with the language's settings."""
    longest = CorpusScore._meta.get_field("metric").max_length
    specs = parse_metric_specs(" ".join(given)) if given else None
    try:
        if not specs:
            specs = default_metric_specs(test_set_target)
        checked = check_metric_specs(
            specs, has_document_ids=has_document_ids, max_length=longest
        )
        with_language = language_metric_specs(checked, test_set_target)
        return check_metric_specs(
            with_language, has_document_ids=has_document_ids, max_length=longest
        )
    except MetricError as error:
        raise fail(str(error)) from None


def read_file(path: str) -> tuple[bytes, str]:
    """The file's bytes and the name messages give it (as the browser would)."""
    try:
        return Path(path).read_bytes(), Path(path).name
    except OSError as error:
        raise fail(f"{path}: cannot read the file: {error.strerror}") from None


def progress_printer(command: BaseCommand, what: str):
    """A ``progress(done, total)`` callback that writes "stored 5,000 of
    80,000 judgments" lines to the command's stderr, for files of more than
    :data:`PROGRESS_ABOVE` rows."""

    def report(done: int, total: int) -> None:
        if total > PROGRESS_ABOVE:
            command.stderr.write(f"stored {done:,} of {total:,} {what}")

    return report


def read_files(paths: Iterable[tuple[Path, str, str]], stderr=None) -> list[CorpusFile]:
    """(path, role, label) -> CorpusFile, with a progress line on stderr."""
    stderr = stderr or sys.stderr
    paths = list(paths)
    files = []
    total = sum(path.stat().st_size for path, _, _ in paths if path.is_file())
    done = 0
    for number, (path, role, label) in enumerate(paths, start=1):
        if not path.is_file():
            raise fail(f"{path}: no such file")
        data = path.read_bytes()
        done += len(data)
        progress(stderr, f"reading {number}/{len(paths)} files", done, total)
        files.append(CorpusFile(str(path), data, role, label))
    end_progress(stderr)
    return files


def progress(stderr, what: str, done: int, total: int) -> None:
    """One progress line, rewritten in place: ``[#####.....]  50% what``."""
    fraction = done / total if total else 1.0
    bar = "#" * int(20 * fraction)
    _write(stderr, f"\r[{bar:<20}] {fraction:4.0%} {what}")


def end_progress(stderr) -> None:
    _write(stderr, "\n")


def _write(stream, text: str) -> None:
    try:
        stream.write(text, ending="")  # a command's OutputWrapper
    except TypeError:
        stream.write(text)
    stream.flush()
