"""``manage.py import_wmt DIR --team T``: a whole WMT language-pair folder in
one step, in the layout of ``wmt21/<pair>/``: ``src.<xx>``,
``ref.<label>.<yy>``, ``sys/<system>.<yy>``, optional ``docids`` (id TAB
number) and ``human/*.tsv`` judgments. The test set and every output are
stored in one transaction and the outputs queued for scoring; judgments are
then imported by the judgments app when it is installed.

    manage.py import_wmt ../shared/data/wmt21/de-en --team "MT group"
    manage.py import_wmt wmt21/zh-en --team T --name "newstest2021 zh-en" \\
        --metrics bleu chrf --no-queue
    manage.py import_wmt wmt21/en-de --team T --references-as-systems C D
    manage.py import_wmt wmt21/ru-en --team T --references-as-systems B=HUMAN

``--references-as-systems`` enters those references as systems (``ref-C``…,
or the name after ``=``; scored against the other references) before the
judgments are read, so the judgments of the human translations find their
outputs (WMT21's MQM files call them ``ref-C``, its DA files ``HUMAN``).
"""

from __future__ import annotations

import importlib
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
from mtdash.evaluation.references.as_system import (
    CannotEnterReference,
    enter_reference_as_system,
)
from mtdash.evaluation.services.corpus_files import (
    DOCIDS,
    REFERENCE,
    SOURCE,
    SYSTEM,
    identical_to_source_warnings,
    read_test_set_files,
)
from mtdash.evaluation.services.uploads import (
    AlreadyExists,
    TestSetData,
    create_test_set_with_outputs,
)


class Command(BaseCommand):
    help = "Import a WMT pair folder (source, references, outputs, docids, judgments)."

    def add_arguments(self, parser):
        parser.add_argument("folder", type=Path)
        parser.add_argument("--team", required=True)
        parser.add_argument(
            "--name",
            help="test set name (default: '<parent> <pair>', e.g. wmt21 de-en)",
        )
        parser.add_argument("--text-type", default="news")
        parser.add_argument(
            "--references-as-systems",
            nargs="+",
            default=[],
            metavar="LABEL[=NAME]",
            help="enter these references as systems named ref-<LABEL> or NAME "
            "(human translations scored against the other references)",
        )
        add_common_arguments(parser)

    def handle(self, *args, **options):
        folder: Path = options["folder"]
        if not folder.is_dir():
            raise fail(f"{folder}: no such folder")
        team = get_team(options["team"])
        user = get_user(options["user"])
        name = options["name"] or f"{folder.resolve().parent.name} {folder.name}"
        if TestSet.objects.filter(team=team, name=name).exists():
            raise fail(f"the team already has a test set named “{name}”")
        paths, languages = wmt_files(folder)
        try:
            upload = read_test_set_files(
                read_files(paths, self.stderr), options["format"]
            )
        except UploadProblem as problem:
            raise fail(str(problem)) from None
        asked = options["references_as_systems"]
        as_systems = dict(item.partition("=")[::2] for item in asked)
        unknown = [label for label in as_systems if label not in upload.references]
        if unknown or (as_systems and len(upload.references) < 2):
            raise fail(
                f"--references-as-systems {' '.join(asked)}: the folder has "
                f"references {', '.join(upload.references)}; a reference entered as "
                "a system is scored against the others, so it needs two at least"
            )
        source_language, target_language = languages
        data = TestSetData(
            name=name,
            source_language=source_language,
            target_language=target_language,
            text_type=options["text_type"],
            description=f"Imported from {folder.name}",
            sources=upload.source,
            references=upload.references,
            document_ids=upload.document_ids,
        )
        metrics = metric_specs(
            options["metrics"],
            target_language,
            has_document_ids=upload.document_ids is not None,
        )
        self.stderr.write(
            f"storing {len(upload.source):,} segments, {len(upload.references)} "
            f"references and {len(upload.systems)} outputs"
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
        for label, system_name in as_systems.items():
            try:
                job = enter_reference_as_system(
                    test_set,
                    label,
                    user,
                    system_name=system_name,
                    metrics=metrics,
                    queue=not options["no_queue"],
                )
            except CannotEnterReference as problem:
                raise fail(f"{problem} (the test set is stored)") from None
            jobs.append(job)
            self.stdout.write(
                f"Reference {label} entered as the system {job.output.system.name}."
            )
        for warning in identical_to_source_warnings(upload.source, upload.systems):
            self.stderr.write(f"warning: {warning}")
        state = "stored, not queued" if options["no_queue"] else "queued for scoring"
        self.stdout.write(
            f"Test set {test_set.pk} “{name}” ({source_language}→{target_language}): "
            f"{len(data.sources):,} segments, references "
            f"{', '.join(data.references)}, {len(jobs)} outputs {state} "
            f"({', '.join(metrics)})."
        )
        self._import_judgments(test_set, user, folder)

    def _import_judgments(self, test_set, user, folder: Path) -> None:
        files = sorted((folder / "human").glob("*.tsv"))
        if not files:
            return
        try:
            module = importlib.import_module("mtdash.judgments.imports.judgments")
            import_judgments = module.import_judgments
        except (ImportError, AttributeError):
            self.stdout.write(
                f"Human judgments skipped ({len(files)} files in human/): this "
                "installation has no judgments import."
            )
            return
        for path in files:
            try:
                result = import_judgments(test_set, user, path.read_bytes(), path.name)
            except UploadProblem as problem:
                self.stderr.write(f"judgments skipped: {problem}")
                continue
            self.stdout.write(
                f"{path.name}: {result.n_judgments:,} judgments imported."
            )


def wmt_files(folder: Path) -> tuple[list[tuple[Path, str, str]], tuple[str, str]]:
    """(path, role, label) of every corpus file of a WMT pair folder, and its
    (source, target) languages from the folder name (``de-en``) or, failing
    that, from the file names (``src.de``, ``ref.A.en``)."""
    sources = sorted(folder.glob("src.*"))
    if len(sources) != 1:
        raise fail(f"{folder}: expected one src.<language> file, found {len(sources)}")
    references = sorted(folder.glob("ref.*"))
    if not references:
        raise fail(f"{folder}: no ref.<label>.<language> file")
    paths = [(sources[0], SOURCE, "")]
    for path in references:
        parts = path.name.split(".")
        label = ".".join(parts[1:-1]) or parts[-1]
        paths.append((path, REFERENCE, label))
    if (folder / "docids").is_file():
        paths.append((folder / "docids", DOCIDS, ""))
    for path in sorted((folder / "sys").glob("*")):
        if path.is_file():
            stem = path.name.rsplit(".", 1)[0] if "." in path.name[1:] else path.name
            paths.append((path, SYSTEM, stem))
    pair = folder.resolve().name.split("-")
    if len(pair) == 2 and all(code in LANGUAGES for code in pair):
        return paths, (pair[0], pair[1])
    source = sources[0].name.split(".")[-1]
    target = references[0].name.split(".")[-1]
    if source not in LANGUAGES or target not in LANGUAGES:
        raise fail(f"{folder}: cannot tell the languages from the names")
    return paths, (source, target)
