"""``manage.py import_scores TEST_SET_ID FILE --metric --description
[--lower-is-better]``: the browser's import of an external metric."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.external_scores.imports import (
    ExternalMetricProblem,
    import_external_scores,
)
from mtdash.evaluation.management.commands._import_support import (
    get_test_set,
    progress_printer,
    read_file,
)


class Command(BaseCommand):
    help = (
        "Import per-segment scores of a metric computed elsewhere (lines "
        "system<TAB>segment<TAB>score) into a test set."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("test_set_id", type=int)
        parser.add_argument("file")
        parser.add_argument("--metric", required=True, help="e.g. comet-22")
        parser.add_argument(
            "--description", required=True, help="model and version (the signature)"
        )
        parser.add_argument("--lower-is-better", action="store_true")

    def handle(self, *args, test_set_id: int, file: str, **options) -> None:
        test_set = get_test_set(test_set_id)
        data, name = read_file(file)
        try:
            result = import_external_scores(
                test_set,
                None,
                options["metric"],
                options["description"],
                not options["lower_is_better"],
                data,
                name,
                progress=progress_printer(self, "scores"),
            )
        except ExternalMetricProblem as problem:
            raise CommandError(f"--{problem.field}: {problem}") from None
        except UploadProblem as problem:
            raise CommandError(str(problem)) from None
        self.stdout.write(
            f"imported {result.n_scores} scores of {result.metric} from {name}; "
            "corpus scores (mean of the segments):"
        )
        for system, mean in result.systems.items():
            self.stdout.write(f"{system}\t{mean!r}")
