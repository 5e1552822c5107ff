"""``manage.py import_test_set``: a test set from files, as the upload form
takes them (plain, NIST SGML, WMT XML, TSV, gzip, ZIP), with the same checks
and messages. Outputs found in the files are stored and queued for scoring.

    manage.py import_test_set --team "MT group" --name "newstest2021 de-en" \\
        --source src.de --ref A=ref.A.en --ref B=ref.B.en \\
        --source-language de --target-language en
    manage.py import_test_set --team "MT group" --name wmt21-ende wmttest2021.en-de.xml
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from mtdash.common.languages import LANGUAGES
from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.management.commands._import_support import (
    add_common_arguments,
    fail,
    get_team,
    get_user,
    metric_specs,
    read_files,
)
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.corpus_files import (
    DOCIDS,
    REFERENCE,
    SOURCE,
    identical_to_source_warnings,
    read_test_set_files,
)
from mtdash.evaluation.services.uploads import (
    AlreadyExists,
    TestSetData,
    create_test_set_with_outputs,
)


class Command(BaseCommand):
    help = "Import a test set (source, references, document ids; any outputs)."

    def add_arguments(self, parser):
        parser.add_argument(
            "files",
            nargs="*",
            type=Path,
            help="a file holding everything (WMT XML, TSV, ZIP), or the source",
        )
        parser.add_argument("--team", required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--source", type=Path, help="the source text")
        parser.add_argument(
            "--ref",
            action="append",
            default=[],
            metavar="[LABEL=]FILE",
            help="a reference, with its translator label (repeat for several)",
        )
        parser.add_argument("--docids", type=Path, help="document ids, one per line")
        parser.add_argument("--source-language", default="")
        parser.add_argument("--target-language", default="")
        parser.add_argument("--text-type", default="")
        parser.add_argument("--description", default="")
        add_common_arguments(parser)

    def handle(self, *args, **options):
        team = get_team(options["team"])
        user = get_user(options["user"])
        name = options["name"].strip()
        if TestSet.objects.filter(team=team, name=name).exists():
            raise fail(f"the team already has a test set named “{name}”")
        paths = [(path, SOURCE, "") for path in options["files"]]
        if options["source"]:
            paths.append((options["source"], SOURCE, ""))
        for ref in options["ref"]:
            label, _, file = ref.rpartition("=")
            paths.append((Path(file), REFERENCE, label))
        if options["docids"]:
            paths.append((options["docids"], DOCIDS, ""))
        if not paths:
            raise fail("no files: give a corpus file, or --source and --ref")
        try:
            upload = read_test_set_files(
                read_files(paths, self.stderr), options["format"]
            )
        except UploadProblem as problem:
            raise fail(str(problem)) from None
        data = TestSetData(
            name=name,
            source_language=language(options, upload, "source"),
            target_language=language(options, upload, "target"),
            text_type=options["text_type"],
            description=options["description"],
            sources=upload.source,
            references=upload.references,
            document_ids=upload.document_ids,
        )
        metrics = metric_specs(
            options["metrics"],
            data.target_language,
            has_document_ids=bool(upload.document_ids and any(upload.document_ids)),
        )
        try:
            test_set, jobs = create_test_set_with_outputs(
                team,
                user,
                data,
                upload.systems,
                metrics=metrics,
                queue=not options["no_queue"],
            )
        except AlreadyExists:
            raise fail(f"the team already has a test set named “{name}”") from None
        for sentence in upload.detected:
            self.stdout.write(f"Read {sentence}.")
        for warning in identical_to_source_warnings(upload.source, upload.systems):
            self.stderr.write(f"warning: {warning}")
        self.stdout.write(
            f"Test set {test_set.pk} “{name}”: {len(data.sources):,} segments, "
            f"{len(data.references)} references, {len(jobs)} outputs "
            f"({'stored, not queued' if options['no_queue'] else 'queued for scoring'})."
        )


def language(options, upload, side: str) -> str:
    """The language given, else the one the files state; a listed code."""
    code = options[f"{side}_language"] or getattr(upload, f"{side}_language") or ""
    if not code:
        raise fail(f"give --{side}-language: the files do not state it")
    if code not in LANGUAGES:
        raise fail(f"--{side}-language {code!r} is not an ISO 639 code mtdash lists")
    return code
