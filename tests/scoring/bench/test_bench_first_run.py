"""The benchmark's ``firstrun`` part in miniature: the command line cold (an
empty Numba cache of its own), warm, and the kernels the cold run compiled."""

from __future__ import annotations

import dataclasses
import re

from scoring.bench import first_run
from scoring.bench.__main__ import main


def test_a_tiny_first_run_compiles_cold_and_loads_warm(monkeypatch, capsys):
    tiny = dataclasses.replace(first_run.FIRST_RUN_SHAPE, n_sentences=4)
    monkeypatch.setattr(first_run, "FIRST_RUN_SHAPE", tiny)

    assert main(["--only", "firstrun"]) == 0

    out = capsys.readouterr().out
    assert "kernels: first call" not in out  # no warm-up of every kernel here
    assert "on 4 x 10-best x 4 references" in out
    cold = re.search(r"cold \(empty Numba cache; <= 20 s\)\s+([0-9.]+) s wall", out)
    warm = re.search(r"warm \(kernels from the cache\)\s+([0-9.]+) s wall", out)
    assert cold and warm, out
    # Compiling costs seconds; loading the same kernels, a fraction of that.
    assert float(warm[1]) < float(cold[1])
    kernels = re.findall(r"^\s+([0-9.]+) s  x(\d+)  (\S+)$", out, re.MULTILINE)
    names = {name for _, _, name in kernels}
    assert {"kernels_lcs.lcs_grid", "kernels_text.scan_nbest_block"} <= names
    assert not [name for name in names if name.startswith("kernels_meteor")]
    assert re.search(r"compiling in all: \d+ functions, \d+ specialisations", out)
    assert "load average before" in out
