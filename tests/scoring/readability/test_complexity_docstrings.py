"""The worked examples in the docstrings of the complexity and syllable
modules are true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES_WITH_EXAMPLES = [
    "scoring.readability.complexity",
    "scoring.readability.normalisation",
    "scoring.readability.syllables.counter",
    "scoring.readability.syllables.english",
    "scoring.readability.syllables.french",
    "scoring.readability.syllables.german",
    "scoring.readability.syllables.spanish",
    "scoring.readability.syllables.czech",
    "scoring.readability.syllables.russian",
    "scoring.readability.syllables.dictionary",
    "scoring.readability.sentences",
]


@pytest.mark.parametrize("module_name", MODULES_WITH_EXAMPLES)
def test_the_docstring_examples_of_each_complexity_module_hold(
    module_name: str,
) -> None:
    module = importlib.import_module(module_name)
    outcome = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0
    assert outcome.failed == 0
