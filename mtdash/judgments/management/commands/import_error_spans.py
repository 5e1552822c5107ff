"""``manage.py import_error_spans --test-set ID FILE``: the browser's and the
API's import of error spans (an MQM TSV in the WMT layout, or spans JSON
lines), with ``--format``, ``--source`` (``human`` or a metric's name) and
``--weights`` (MQM weights, e.g. ``major=5,minor=1,critical=10``).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.external_scores.imports import ExternalMetricProblem
from mtdash.evaluation.management.commands._import_support import (
    fail,
    get_test_set,
    progress_printer,
    read_file,
)
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.error_spans.options import FORMAT_CHOICES, SpanImportOptions


class Command(BaseCommand):
    help = (
        "Import error spans (MQM TSV in the WMT layout, or spans JSON lines) into "
        "a test set; human MQM and ESA become judgments of criteria mqm and esa. "
        "Nothing is stored if any line has a problem."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--test-set", required=True, help="the test set's id")
        parser.add_argument("file")
        parser.add_argument(
            "--format",
            choices=FORMAT_CHOICES,
            default="auto",
            help="default: told by the extension (.tsv, .jsonl), else by a leading {",
        )
        parser.add_argument(
            "--source",
            default="human",
            help="human (annotators' spans, the default) or the metric's name",
        )
        parser.add_argument(
            "--weights",
            default="",
            help="MQM weights over Freitag et al. 2021's, e.g. "
            "major=5,minor=1,minor/fluency/punctuation=0.1,critical=10",
        )

    def handle(self, *args, test_set: str, file: str, **options) -> None:
        found = get_test_set(test_set)
        data, name = read_file(file)
        try:
            choices = SpanImportOptions.from_fields(
                options["format"], options["source"], options["weights"]
            )
            result = import_error_spans(
                found,
                None,
                data,
                name,
                choices,
                progress=progress_printer(self, "annotations"),
            )
        except ExternalMetricProblem as problem:
            raise fail(f"--{problem.field}: {problem}") from None
        except UploadProblem as problem:
            raise fail(str(problem)) from None
        write = self.stdout.write
        write(
            f"imported {result.n_annotations} annotations with {result.n_spans} "
            f"spans from {name} ({result.format}, {result.source}); "
            f"{result.n_judgments} judgments"
            + (f" of {result.criterion}" if result.criterion else "")
        )
        header = "system\tannotations\tspans" + (
            f"\t{result.criterion}" if result.criterion else ""
        )
        write(header)
        for system, entry in result.systems.items():
            score = (
                ""
                if not result.criterion
                else "\t-"
                if entry.score is None
                else f"\t{entry.score:.4f}"
            )
            write(f"{system}\t{entry.annotations}\t{entry.spans}{score}")
        for warning in result.warnings:
            write(f"warning: {warning}")
        if result.left_out:
            write(
                f"not used for {result.criterion} yet: its judgments in use come "
                "from a campaign (choose its sources on the judgments page)"
            )
