"""``manage.py import_output``: system outputs on a test set, as the upload
form takes them (plain, NIST SGML tstset, WMT XML, gzip, ZIP; several at
once), with the same checks and messages; each is queued for scoring.

    manage.py import_output --team "MT group" --test-set "newstest2021 de-en" \\
        sys/Facebook-AI.en sys/Online-W.en --metrics bleu chrf
    manage.py import_output --test-set 12 hyp.en --name my-system
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.management.commands._import_support import (
    add_common_arguments,
    fail,
    get_test_set,
    get_user,
    metric_specs,
    read_files,
)
from mtdash.evaluation.models import System
from mtdash.evaluation.services.corpus_files import (
    SYSTEM,
    identical_to_source_warnings,
    read_output_files,
)
from mtdash.evaluation.services.uploads import AlreadyExists, create_system_outputs


class Command(BaseCommand):
    help = "Import system outputs on a test set and queue their scoring."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--test-set", required=True, help="id or name")
        parser.add_argument("--team", help="the test set's team (with a name)")
        parser.add_argument(
            "--name",
            action="append",
            default=[],
            help="system name, one per file in order (default: from the file)",
        )
        parser.add_argument("--description", default="")
        add_common_arguments(parser)

    def handle(self, *args, **options):
        test_set = get_test_set(options["test_set"], options["team"])
        user = get_user(options["user"])
        names = options["name"]
        if names and len(names) != len(options["files"]):
            raise fail(f"{len(names)} --name for {len(options['files'])} files")
        paths = [
            (path, SYSTEM, names[i] if names else "")
            for i, path in enumerate(options["files"])
        ]
        metrics = metric_specs(
            options["metrics"],
            test_set.target_language,
            has_document_ids=test_set.has_document_ids(),
        )
        try:
            files = read_files(paths, self.stderr)
            outputs = read_output_files(test_set, files, options["format"])
        except UploadProblem as problem:
            raise fail(str(problem)) from None
        taken = System.objects.filter(
            team=test_set.team, name__in=outputs, outputs__test_set=test_set
        ).values_list("name", flat=True)
        if taken:
            raise fail(f"“{taken[0]}” already has an output on this test set")
        try:
            jobs = create_system_outputs(
                test_set,
                user,
                outputs,
                system_description=options["description"],
                metrics=metrics,
                queue=not options["no_queue"],
            )
        except AlreadyExists as name:
            raise fail(f"“{name}” already has an output on this test set") from None
        sources = list(
            test_set.segments.order_by("index").values_list("source", flat=True)
        )
        for warning in identical_to_source_warnings(sources, outputs):
            self.stderr.write(f"warning: {warning}")
        state = "stored, not queued" if options["no_queue"] else "queued"
        for job in jobs:
            self.stdout.write(
                f"{job.output.system.name}: job {job.pk} {state} "
                f"({', '.join(job.metrics)})"
            )
