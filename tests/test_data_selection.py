"""The fixtures-only CI stage keeps every test whose outcome can depend on
the data it reads, and only those (tests/support/data_selection.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support import data_selection


def test_a_module_importing_realdata_through_a_helper_reads_data() -> None:
    # test_stats_wmt_protocol_runs never names realdata: it imports
    # wmt_protocol_data, which does.
    module = "tests.scoring.stats.test_stats_wmt_protocol_runs"
    source = data_selection.TESTS_DIR / "scoring/stats/test_stats_wmt_protocol_runs.py"
    assert "realdata" not in source.read_text(encoding="utf-8")
    assert data_selection.reads_data(module)
    assert data_selection.reads_data("tests.scoring.conftest")
    assert data_selection.reads_data("tests.scoring.support.realdata")


def test_a_module_without_the_data_does_not() -> None:
    assert not data_selection.reads_data("tests.scoring.test_textfiles")
    assert not data_selection.reads_data("tests.support.data_selection")


def test_relative_imports_are_followed(tmp_path, monkeypatch) -> None:
    package = tmp_path / "tests" / "scoring" / "fake"
    package.mkdir(parents=True)
    (package / "helper.py").write_text(
        "from ..support.realdata import DATA_DIR\n", encoding="utf-8"
    )
    (package / "test_x.py").write_text("from . import helper\n", encoding="utf-8")
    monkeypatch.setattr(data_selection, "PROJECT_ROOT", tmp_path)
    assert data_selection._imported(package / "helper.py") >= {
        "tests.scoring.support.realdata"
    }
    assert "tests.scoring.fake.helper" in data_selection._imported(
        package / "test_x.py"
    )


def collected(*arguments: str, only_data: bool) -> set[str]:
    env = {"MTDASH_ONLY_DATA_TESTS": "1" if only_data else "0"}
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q",
               "-p", "no:cacheprovider", "-n", "0", *arguments]  # fmt: skip
    out = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=data_selection.PROJECT_ROOT,
        check=True,
    ).stdout
    return {line for line in out.splitlines() if "::" in line}


def test_a_test_using_a_data_fixture_is_kept_and_a_plain_one_dropped() -> None:
    # test_metric_results.py imports no data module; one of its tests takes
    # the en_de fixture of tests/scoring/conftest.py.
    path = "tests/scoring/test_metric_results.py"
    everything = collected(path, only_data=False)
    kept = collected(path, only_data=True)
    fixture_test = (
        f"{path}::test_resampled_statistics_give_sacrebleus_score_of_the_resampled_text"
    )
    assert fixture_test in everything and fixture_test in kept
    assert f"{path}::test_a_result_cannot_be_changed_after_the_fact" not in kept
    assert kept < everything
