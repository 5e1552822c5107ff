"""``manage.py import_judgments TEST_SET_ID FILE``: the browser's import.

``--dry-run`` prints the browser's preview (column mapping, counts, systems
matched or not, first rows, the problem if any) and stores nothing;
``--human-rows`` and ``--segment-order`` are the preview page's choices.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.management.commands._import_support import (
    get_test_set,
    progress_printer,
    read_file,
)
from mtdash.judgments.imports.judgments import import_judgments, preview_judgments
from mtdash.judgments.imports.layouts import SEGMENT_ORDERS
from mtdash.judgments.imports.results import (
    HUMAN_ROWS,
    ImportOptions,
    JudgmentPreview,
)


class Command(BaseCommand):
    help = (
        "Import human judgments (CSV/TSV segment,system,judge,criterion,value, or "
        "WMT's mqm_seg.tsv / da_seg.tsv / ad-*-good-stnd.csv) into a test set; "
        "nothing is stored if any line has a problem."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("test_set_id", type=int)
        parser.add_argument("file")
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="print how the file would be read and what would be stored; "
            "store nothing",
        )
        parser.add_argument(
            "--human-rows",
            choices=HUMAN_ROWS,
            default="auto",
            help="rows of HUMAN-* systems (references judged as systems): keep, "
            "skip, or auto (keep them if the test set has outputs of those names)",
        )
        parser.add_argument(
            "--segment-order",
            choices=list(SEGMENT_ORDERS),
            default="",
            help="what the file's segment ids count (default: the layout's)",
        )

    def handle(self, *args, test_set_id: int, file: str, **options) -> None:
        test_set = get_test_set(test_set_id)
        data, name = read_file(file)
        choices = ImportOptions(options["human_rows"], options["segment_order"])
        try:
            if options["dry_run"]:
                preview = preview_judgments(test_set, data, name, choices)
                self._print_preview(preview)
                if preview.problem is not None:
                    raise CommandError(str(preview.problem))
                return
            result = import_judgments(
                test_set,
                None,
                data,
                name,
                options=choices,
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
        for system, count in result.human_skipped.items():
            self.stdout.write(f"skipped {count} rows of {system}")
        for criterion in result.left_out:
            self.stdout.write(
                f"not used for {criterion} yet: its judgments in use come from a "
                "campaign (choose its sources on the judgments page)"
            )

    def _print_preview(self, preview: JudgmentPreview) -> None:
        write = self.stdout.write
        write(f"dry run: nothing stored; {preview.file_name} is {preview.title}")
        write(f"layout\t{preview.layout}")
        write(f"segment ids\t{SEGMENT_ORDERS[preview.segment_order]}")
        for field_name, source in preview.mapping:
            write(f"{field_name}\t<- {source}")
        write(
            f"rows read\t{preview.rows_read}\twithout a value\t{preview.n_skipped}"
            f"\tquality controls left out\t{preview.n_other_items}"
        )
        for system in preview.systems:
            state = (
                "skipped"
                if not system.kept
                else "matched"
                if system.matched
                else "NO OUTPUT OF THIS NAME"
            )
            write(f"system\t{system.name}\t{system.rows} rows\t{state}")
        for criterion in preview.criteria:
            write(
                f"criterion\t{criterion.name}\t{criterion.judgments} judgments\t"
                f"{criterion.scale}" + ("\tleft out" if criterion.left_out else "")
            )
        for row in preview.first_rows:
            write(
                f"line {row.line}\tsegment {row.segment} -> line "
                f"{row.test_set_line or '-'}\t{row.system}\t{row.judge}\t"
                f"{row.criterion}\t{row.value:g}"
            )
        write(
            f"would store {preview.n_judgments} judgments"
            if preview.problem is None
            else "cannot be imported as it is"
        )
