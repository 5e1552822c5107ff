"""``manage.py import_judgments TEST_SET_ID FILE``: the browser's import."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from mtdash.common.upload_checks import UploadProblem
from mtdash.judgments.management.commands._importing import (
    get_test_set,
    progress_printer,
    read_file,
)
from mtdash.judgments.services.judgments import import_judgments


class Command(BaseCommand):
    help = (
        "Import human judgments (CSV/TSV segment,system,judge,criterion,value, or "
        "WMT's mqm_seg.tsv / da_seg.tsv) into a test set; nothing is stored if "
        "any line has a problem."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("test_set_id", type=int)
        parser.add_argument("file")

    def handle(self, *args, test_set_id: int, file: str, **options) -> None:
        test_set = get_test_set(test_set_id)
        data, name = read_file(file)
        try:
            result = import_judgments(
                test_set,
                None,
                data,
                name,
                progress=progress_printer(self, "judgments"),
            )
        except UploadProblem as problem:
            raise CommandError(str(problem)) from None
        self.stdout.write(
            f"imported {result.n_judgments} judgments from {name} ({result.layout}"
            + (
                f"; {result.n_skipped} rows without a value skipped"
                if result.n_skipped
                else ""
            )
            + ")"
        )
        for criterion, systems in result.counts.items():
            for system, count in systems.items():
                self.stdout.write(f"{criterion}\t{system}\t{count}")
