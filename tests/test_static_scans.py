"""WhiteNoise's table of static files is built once per state of the folder
(tests/support/static_files.py): a second middleware gets the same entries
without describing the files again, and a changed file is described anew."""

import os

from whitenoise.middleware import WhiteNoiseMiddleware

from tests.support import static_files


def described(monkeypatch, root) -> list[str]:
    """Paths under ``root`` WhiteNoise describes (one ``get_static_file`` per
    file) from now on."""
    calls = []
    describe = WhiteNoiseMiddleware.get_static_file

    def counting(self, path, url, stat_cache=None):
        if path.startswith(str(root)):
            calls.append(path)
        return describe(self, path, url, stat_cache=stat_cache)

    monkeypatch.setattr(WhiteNoiseMiddleware, "get_static_file", counting)
    return calls


def test_a_second_middleware_reuses_the_table_until_a_file_changes(
    settings, tmp_path, monkeypatch
):
    static_files.remember_scans()  # once per process: done by conftest
    root = tmp_path / "collected"
    root.mkdir()
    (root / "app.css").write_text("body { color: black }")
    (root / "app.js").write_text("console.log(1);")
    settings.STATIC_ROOT = str(root)
    calls = described(monkeypatch, root)

    first = WhiteNoiseMiddleware(lambda request: None)
    assert sorted(os.path.basename(path) for path in calls) == ["app.css", "app.js"]
    second = WhiteNoiseMiddleware(lambda request: None)
    assert len(calls) == 2  # nothing described again
    assert first.files.keys() == second.files.keys() >= {"/static/app.css"}
    assert second.files["/static/app.js"] is first.files["/static/app.js"]

    (root / "app.js").write_text("console.log(22);")  # another size
    third = WhiteNoiseMiddleware(lambda request: None)
    assert len(calls) == 4
    assert third.files["/static/app.js"] is not first.files["/static/app.js"]

    settings.STATIC_URL = "/assets/"  # another prefix: another table
    fourth = WhiteNoiseMiddleware(lambda request: None)
    assert len(calls) == 6 and "/assets/app.js" in fourth.files
