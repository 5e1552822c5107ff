"""manage.py import_judgments and import_scores: the same checks and
messages as the web, exit status 1 on a problem, progress lines on long files."""

from __future__ import annotations

import io
import statistics

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from mtdash.evaluation.management.commands import _import_support
from mtdash.evaluation.models import ExternalCorpusScore
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.models import Judgment
from tests.web.judgments.support import SYSTEMS, human_file, wmt_test_set

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]


@pytest.fixture
def toy(test_set, owner):
    create_system_output(test_set, owner, "sys-a", HYPOTHESES, queue=False)
    return test_set


def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_import_judgments_reads_a_wmt_file(team, owner, tmp_path, monkeypatch):
    systems = SYSTEMS["ru-en", "da_seg.tsv"]
    test_set = wmt_test_set(team, owner, "ru-en", systems)
    data, rows = human_file("ru-en", "da_seg.tsv", test_set.segments.count())
    path = tmp_path / "da_seg.tsv"
    path.write_bytes(data)
    monkeypatch.setattr(_import_support, "PROGRESS_ABOVE", 100)
    out, err = run("import_judgments", str(test_set.pk), str(path))
    assert out.splitlines()[0] == (
        f"imported {2 * len(rows)} judgments from da_seg.tsv (wmt-da-seg)"
    )
    for system in systems:
        n = sum(1 for cells in rows if cells[0] == system)
        assert f"da\t{system}\t{n}" in out.splitlines()
        assert f"da-z\t{system}\t{n}" in out.splitlines()
    assert (
        err.splitlines()[-1]
        == f"stored {2 * len(rows):,} of {2 * len(rows):,} judgments"
    )
    assert Judgment.objects.count() == 2 * len(rows)


def test_import_judgments_fails_with_the_webs_message(toy, tmp_path):
    path = tmp_path / "j.csv"
    path.write_text("segment,system,judge,criterion,value\n1,sys-a,j1,fluency,0\n")
    with pytest.raises(CommandError) as caught:
        run("import_judgments", str(toy.pk), str(path))
    assert (
        str(caught.value) == "j.csv, line 2: value 0 is out of range for fluency (1–5)"
    )
    assert Judgment.objects.count() == 0


def test_commands_exit_with_status_1_on_a_problem(toy, tmp_path, capsys, monkeypatch):
    import django
    from django.core.management import execute_from_command_line

    # manage.py's entry point sets Django up again, which would bind the
    # root log handler to this test's captured stderr; pytest closes that
    # after the test, and every later log line of this process (a live
    # server's thread, a worker fixture's) would fail on a closed file.
    monkeypatch.setattr(django, "setup", lambda *args, **kwargs: None)
    path = tmp_path / "j.csv"
    path.write_text("segment,system,value\n1,sys-b,3\n")
    with pytest.raises(SystemExit) as caught:
        execute_from_command_line(
            ["manage.py", "import_judgments", str(toy.pk), str(path)]
        )
    assert caught.value.code == 1
    assert capsys.readouterr().err.strip() == (
        "CommandError: j.csv, line 2: unknown system 'sys-b': the test set has "
        "outputs of sys-a"
    )


def test_import_scores_prints_each_mean(toy, tmp_path):
    text = "sys-a\t1\t0.1\nsys-a\t2\t0.2\nsys-a\t3\t0.6\n"
    path = tmp_path / "comet.tsv"
    path.write_text(text)
    out, _ = run(
        "import_scores",
        str(toy.pk),
        str(path),
        "--metric",
        "comet-22",
        "--description",
        "wmt22-comet-da",
        "--lower-is-better",
    )
    mean = statistics.fmean([0.1, 0.2, 0.6])
    assert out.splitlines() == [
        "imported 3 scores of comet-22 from comet.tsv; corpus scores (mean of the segments):",
        f"sys-a\t{mean!r}",
    ]
    stored = ExternalCorpusScore.objects.get()
    assert stored.score == pytest.approx(mean, rel=1e-12)
    assert stored.metric.higher_is_better is False


def test_import_scores_refuses_a_registered_name_and_a_missing_test_set(toy, tmp_path):
    path = tmp_path / "s.tsv"
    path.write_text("sys-a\t1\t0.1\n")
    with pytest.raises(CommandError) as caught:
        run(
            "import_scores",
            str(toy.pk),
            str(path),
            "--metric",
            "chrf",
            "--description",
            "d",
        )
    assert str(caught.value) == (
        "--metric: 'chrf' is the name of mtdash's own metric 'chrf'; name the "
        "external metric differently, e.g. chrf-external"
    )
    with pytest.raises(CommandError) as caught:
        run("import_scores", "999999", str(path), "--metric", "m", "--description", "d")
    assert str(caught.value) == "no test set with id 999999"
    assert ExternalCorpusScore.objects.count() == 0


def test_import_judgments_dry_run_prints_the_preview_and_stores_nothing(
    team, owner, tmp_path
):
    systems = SYSTEMS["ru-en", "da_seg.tsv"]
    test_set = wmt_test_set(team, owner, "ru-en", systems)
    data, rows = human_file("ru-en", "da_seg.tsv", test_set.segments.count())
    path = tmp_path / "da_seg.tsv"
    path.write_bytes(data)
    out, _ = run("import_judgments", str(test_set.pk), str(path), "--dry-run")
    assert Judgment.objects.count() == 0
    lines = out.splitlines()
    assert lines[0] == (
        "dry run: nothing stored; da_seg.tsv is WMT DA per segment (da_seg.tsv)"
    )
    assert "segment\t<- column seg_id(txt line, 1-based)" in lines
    assert "criterion\t<- da from column raw; da-z from column z" in lines
    for system in systems:
        n = sum(1 for cells in rows if cells[0] == system)
        assert f"system\t{system}\t{n} rows\tmatched" in lines
    first = rows[0]
    assert (
        f"line 2\tsegment {first[2]} -> line {first[2]}\t{first[0]}\t-\tda-z\t"
        f"{float(first[7]):g}" in lines
    )
    assert lines[-1] == f"would store {2 * len(rows)} judgments"


def test_import_judgments_dry_run_fails_with_the_problem(toy, tmp_path):
    path = tmp_path / "j.csv"
    path.write_text("segment,system,judge,criterion,value\n1,sys-z,j1,adequacy,4\n")
    with pytest.raises(CommandError) as caught:
        run("import_judgments", str(toy.pk), str(path), "--dry-run")
    assert str(caught.value) == (
        "j.csv, line 2: unknown system 'sys-z': the test set has outputs of sys-a"
    )
    assert Judgment.objects.count() == 0
