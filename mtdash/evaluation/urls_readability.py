"""URLs of the readability pages (included by mtdash.evaluation.urls)."""

import re

from django.urls import path, register_converter

from mtdash.evaluation.readability import views as readability_views
from mtdash.evaluation.readability.exports import STABILITY_FORMATS, TEST_SET_FORMATS


class _Suffixes:
    """Only the real export formats: ``readability.pdf`` is a 404."""

    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def _pattern(suffixes) -> str:
    return "|".join(re.escape(name) for name in suffixes)


class TestSetFormat(_Suffixes):
    regex = _pattern(TEST_SET_FORMATS)


class StabilityFormat(_Suffixes):
    regex = _pattern(STABILITY_FORMATS)


register_converter(TestSetFormat, "readability_format")
register_converter(StabilityFormat, "stability_format")

urlpatterns = [
    path(
        "test-sets/<int:pk>/readability/",
        readability_views.readability_test_set,
        name="readability_test_set",
    ),
    path(
        "test-sets/<int:pk>/readability/status.json",
        readability_views.readability_job_status,
        name="readability_job_status",
    ),
    path(
        "test-sets/<int:pk>/readability/retry/",
        readability_views.readability_retry,
        name="readability_retry",
    ),
    path(
        "test-sets/<int:pk>/readability.<readability_format:fmt>",
        readability_views.readability_test_set_export,
        name="readability_test_set_export",
    ),
    path(
        "readability/",
        readability_views.readability_across,
        name="readability_across",
    ),
    path(
        "readability/<stability_format:fmt>",
        readability_views.readability_across_export,
        name="readability_across_export",
    ),
]
