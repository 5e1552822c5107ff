"""``manage.py bench_jobs``'s pieces on a little of WMT21 zh-en: the in-process
diagnostics flow stores the references page's analysis and cleans up after
itself, and the MQM file it imports keeps only the benchmark's systems (no
timing asserts: this machine's load is not ours). The worker flows run in
``manage.py bench_jobs`` itself (minutes)."""

from __future__ import annotations

import pytest

from mtdash.bench import jobs
from mtdash.teams.models import Team
from tests.scoring.support.realdata import require_full_data

pytestmark = pytest.mark.django_db


def test_the_diagnostics_flow_times_the_refresh_and_leaves_nothing(monkeypatch):
    require_full_data("WMT21 zh-en systems and MQM")
    stored = []
    real = jobs.reference_diagnostics.refresh
    monkeypatch.setattr(
        jobs.reference_diagnostics,
        "refresh",
        lambda test_set, visible: stored.append(real(test_set, visible)) or True,
    )

    [timing] = jobs.bench_diagnostics(60, n_systems=3)

    assert stored == [True]  # computed, not skipped as unchanged
    assert timing.flow == "diagnostics" and timing.wall > 0
    assert "3 systems x 60 segments x 2 refs" in timing.step
    assert not Team.objects.filter(name__startswith="bench-jobs-").exists()


def test_the_mqm_file_keeps_its_header_and_the_benchmarks_systems():
    require_full_data("WMT21 zh-en MQM")
    text = jobs._mqm_of({"Borderline": [], "SMU": []}).decode()
    lines = text.splitlines()
    assert lines[0].split("\t")[0] == "system"
    systems = {line.split("\t")[0] for line in lines[1:]}
    assert systems == {"Borderline", "SMU"}
    assert len(lines) == 1 + 2 * 1948
