"""The worked examples in the scoring docstrings are true: every module of
``scoring`` that has one is collected, so a new example is tested at once.

Examples print floating-point results rounded (or with ELLIPSIS), never
their last bits, which a CPU or SIMD path may change.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import scoring

SCORING_ROOT = Path(scoring.__file__).parent


def modules_with_examples() -> list[str]:
    names = []
    for module in pkgutil.walk_packages([str(SCORING_ROOT)], prefix="scoring."):
        relative = module.name.removeprefix("scoring.").replace(".", "/")
        path = SCORING_ROOT / (relative + ("/__init__.py" if module.ispkg else ".py"))
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        # Examples that all say +SKIP need files this machine may lack.
        if any(">>> " in line and "+SKIP" not in line for line in text.splitlines()):
            names.append(module.name)
    return sorted(names)


def test_the_examples_are_found_in_every_layer() -> None:
    found = modules_with_examples()
    for expected in (
        "scoring.metrics.ngram.bleu_math",
        "scoring.registry",
        "scoring.tokenizers.registry",
        "scoring.tokenizers.tools",
    ):
        assert expected in found


@pytest.mark.parametrize("module_name", modules_with_examples())
def test_the_docstring_examples_of_each_module_hold(module_name: str) -> None:
    module = importlib.import_module(module_name)
    outcome = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0
    assert outcome.failed == 0
