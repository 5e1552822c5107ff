"""The error-span tests' shared fixtures (no tests here): the small
annotated world of :mod:`span_world` with no spans yet (``annotated``), with
its MQM, ESA and metric files imported (``spans``), and with an output whose
sentence holds markup under spans (``evil``). A test module imports the
fixtures it asks for."""

from __future__ import annotations

import pytest

from tests.web.judgments.span_view_support import import_evil, import_world
from tests.web.judgments.span_world import annotated_outputs


@pytest.fixture(name="annotated")
def annotated_fixture(test_set, owner):
    annotated_outputs(test_set, owner)
    return test_set


@pytest.fixture(name="spans")
def spans_fixture(test_set, owner):
    return import_world(test_set, owner)


@pytest.fixture(name="evil")
def evil_fixture(test_set, owner):
    return import_evil(test_set, owner)
