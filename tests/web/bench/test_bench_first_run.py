"""``python -m mtdash.bench.first_run``'s fresh copy: nothing of this
checkout's data reaches it, and its report names the target.

(The whole measurement runs ``bin/run`` for a minute or more; README, First
run, has its figures.)"""

from __future__ import annotations

import subprocess

from mtdash.bench.first_run import (
    PROJECT_ROOT,
    FirstRun,
    _environment,
    format_first_run,
    make_copy,
)


def test_the_copy_starts_with_an_empty_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("MTDASH_DATA_DIR", str(PROJECT_ROOT / "var"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(PROJECT_ROOT / "var" / "numba-cache"))
    monkeypatch.setenv("DATABASE_URL", "sqlite:///elsewhere.sqlite3")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    copy = make_copy("HEAD", tmp_path / "copy")
    try:
        environment = _environment(copy)
        leaked = sorted(
            name
            for name in environment
            if name.startswith(("MTDASH_DATA", "NUMBA_"))
            or name in ("DATABASE_URL", "REDIS_URL")
        )
        assert leaked == []
        assert environment["PYTHONPATH"] == str(copy)
        assert (copy / "bin" / "run").exists() and (copy / ".venv").is_symlink()
        var = (
            sorted(str(path.relative_to(copy)) for path in (copy / "var").rglob("*"))
            if (copy / "var").exists()
            else []
        )
        assert var in ([], ["var/meteor", "var/meteor/paraphrase-en.gz"])
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(copy)],
            cwd=PROJECT_ROOT,
            check=True,
        )


def test_the_report_gives_both_times_and_the_target():
    result = FirstRun(
        url_seconds=59.7,
        orange_seconds=5.2,
        orange_status="succeeded",
        chunk_seconds=[0.8, 0.1],
        precompile="demo ORANGE kernels ... ready in 50.4 s",
        load_before="5.86 7.44 8.51",
        load_after="6.82 7.43 8.43",
    )
    text = format_first_run(result, "HEAD")
    assert "bin/run start -> URL printed:          59.7 s" in text
    assert "URL -> demo ORANGE job done (<= 60 s): 5.2 s (succeeded)" in text
    assert "chunk times (s): 0.8, 0.1" in text
    assert "load average before 5.86 7.44 8.51, after 6.82 7.43 8.43" in text
