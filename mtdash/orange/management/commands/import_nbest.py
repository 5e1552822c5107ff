"""``manage.py import_nbest``: a Moses n-best list on a test set, with the
checks and messages of the upload form.

    manage.py import_nbest --test-set 12 --name "moses 100-best" nbest.txt
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.management.commands._import_support import (
    fail,
    get_test_set,
    get_user,
)
from mtdash.evaluation.services.uploads import AlreadyExists
from mtdash.orange.models import NBestList
from mtdash.orange.nbest.uploads import (
    create_nbest_list,
    parse_nbest_upload,
    references_problem,
)


class Command(BaseCommand):
    help = "Import an n-best list (Moses format) on a test set."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--test-set", required=True, help="id or name")
        parser.add_argument("--team", help="the test set's team (with a name)")
        parser.add_argument("--name", default="", help="default: the file name")
        parser.add_argument("--description", default="")
        parser.add_argument("--user", help="username recorded as the uploader")

    def handle(self, *args, **options):
        test_set = get_test_set(options["test_set"], options["team"])
        user = get_user(options["user"])
        problem = references_problem(test_set)
        if problem:
            raise fail(problem)
        path: Path = options["file"]
        if not path.is_file():
            raise fail(f"{path}: no such file")
        name = options["name"].strip() or path.name[:200]
        if NBestList.objects.filter(test_set=test_set, name=name).exists():
            raise fail(f"this test set already has an n-best list named “{name}”")
        data = path.read_bytes()
        self.stderr.write(f"reading {path} ({len(data):,} bytes)")
        try:
            limit = settings.MTDASH_MAX_UPLOAD_BYTES  # as the web: bounds memory
            if len(data) > limit:
                raise UploadProblem(
                    str(path),
                    None,
                    f"the file is {len(data):,} bytes; the limit is {limit:,}",
                )
            parsed = parse_nbest_upload(data, str(path), test_set.segments.count())
            nbest = create_nbest_list(
                test_set, user, name, parsed, description=options["description"]
            )
        except UploadProblem as problem:
            raise fail(str(problem)) from None
        except AlreadyExists:
            raise fail(
                f"this test set already has an n-best list named “{name}”"
            ) from None
        self.stdout.write(f"n-best list {nbest.pk} “{name}” stored.")
