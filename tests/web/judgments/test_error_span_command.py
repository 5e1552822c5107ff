"""manage.py import_error_spans: the web's import and messages, its options,
exit status 1 on a problem with nothing stored, progress on long files."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from mtdash.evaluation.management.commands import _import_support
from mtdash.judgments.models import ErrorSpanAnnotation, Judgment, JudgmentImport
from tests.web.judgments.error_span_support import annotated_fixture  # noqa: F401
from tests.web.judgments.span_world import (
    ESA_LINES,
    METRIC,
    METRIC_LINES,
    MQM_ROWS,
    N_MQM_SPANS,
    jsonl,
    mqm_tsv,
)

pytestmark = pytest.mark.django_db


def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_error_spans", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_imports_an_mqm_file_and_prints_the_counts(annotated, tmp_path):
    path = tmp_path / "mqm.tsv"
    path.write_bytes(mqm_tsv())

    out, _ = run("--test-set", str(annotated.pk), str(path))

    lines = out.splitlines()
    assert lines[0] == (
        f"imported 18 annotations with {N_MQM_SPANS} spans from mqm.tsv (mqm-tsv, "
        "human); 18 judgments of mqm"
    )
    assert lines[1:] == [
        "system\tannotations\tspans\tmqm",
        "alpha\t6\t1\t-0.1667",
        "beta\t6\t4\t-1.8500",
        "gamma\t6\t5\t-7.6667",
    ]
    assert Judgment.objects.count() == 18


def test_weights_format_and_source_are_options(annotated, tmp_path):
    path = tmp_path / "ratings.txt"
    path.write_bytes(mqm_tsv())
    out, _ = run(
        "--test-set",
        str(annotated.pk),
        str(path),
        "--format",
        "mqm-tsv",
        "--weights",
        "major=1,critical=2,major/non-translation=3",
    )
    # gamma: -(2 + 2)/2, -(3 + 1)/2 and 0
    assert "gamma\t6\t5\t-1.3333" in out.splitlines()
    assert JudgmentImport.objects.get().mqm_weights["critical"] == 2.0

    path = tmp_path / "x.jsonl"
    path.write_bytes(jsonl(METRIC_LINES))
    out, _ = run("--test-set", str(annotated.pk), str(path), "--source", METRIC)
    assert out.splitlines()[0].endswith(f"(spans-jsonl, {METRIC}); 0 judgments")
    assert out.splitlines()[1] == "system\tannotations\tspans"
    assert ErrorSpanAnnotation.objects.filter(kind="metric").count() == 3


def test_a_problem_ends_the_command_with_the_webs_message(annotated, tmp_path):
    path = tmp_path / "esa.jsonl"
    lines = [*ESA_LINES[:3], {**ESA_LINES[3], "score": -5}, *ESA_LINES[4:]]
    path.write_bytes(jsonl(lines))
    with pytest.raises(CommandError) as caught:
        run("--test-set", str(annotated.pk), str(path))
    assert caught.value.returncode == 1
    assert str(caught.value) == (
        "esa.jsonl, line 4: system 'beta', segment 1, annotator 'e1': score -5 is "
        "out of range for esa (0–100)"
    )
    with pytest.raises(CommandError) as caught:
        run("--test-set", str(annotated.pk), str(path), "--weights", "major")
    assert str(caught.value).startswith("--weights: MQM weight 'major'")
    with pytest.raises(CommandError) as caught:
        run("--test-set", "999999", str(path))
    assert str(caught.value) == "no test set with id 999999"
    assert not JudgmentImport.objects.exists()


def test_a_long_file_prints_progress(annotated, tmp_path, monkeypatch):
    monkeypatch.setattr(_import_support, "PROGRESS_ABOVE", 10)
    path = tmp_path / "mqm.tsv"
    path.write_bytes(mqm_tsv(MQM_ROWS))
    _, err = run("--test-set", str(annotated.pk), str(path))
    assert err.splitlines() == ["stored 18 of 18 annotations"]
