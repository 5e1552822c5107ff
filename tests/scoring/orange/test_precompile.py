"""Only the kernels a run calls get compiled, and precompiling makes exactly those.

Each check runs in a fresh Python process with an empty ``NUMBA_CACHE_DIR``,
so nothing is compiled or loaded before it starts: which Numba dispatchers
have a signature afterwards is what that process compiled.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from scoring.batch.compile_log import format_compile_log, recording_compiles
from tests.support.kernel_children import run_python

# Prints, as JSON: the kernels prepare_kernels compiled, those the command
# line compiled after it, and every dispatcher of scoring.batch that holds a
# compiled signature at the end.
CHILD = r"""
import importlib, json, pkgutil, sys
from numba.core.registry import CPUDispatcher
import scoring.batch
from scoring.batch.compile_log import recording_compiles
from scoring.cli.main import main
from scoring.orange.precompile import prepare_kernels

nbest, reference_a, reference_b = sys.argv[1:]
done = prepare_kernels(["bleu", "rouge-l"])
with recording_compiles() as again:
    status = main(["orange", "--nbest", nbest, "--refs", reference_a, reference_b,
                   "--metric", "bleu", "--metric", "rouge-l", "--bootstrap", "50"])
compiled = []
for info in pkgutil.iter_modules(scoring.batch.__path__):
    module = importlib.import_module("scoring.batch." + info.name)
    for name, value in vars(module).items():
        if isinstance(value, CPUDispatcher) and value.signatures:
            compiled.append(value.py_func.__module__.rsplit(".", 1)[-1] + "." + name)
print(json.dumps({
    "status": status,
    "prepared": [kernel.name for kernel in done.compiles.kernels],
    "prepared_seconds": done.compiles.seconds,
    "again": [kernel.name for kernel in again.kernels],
    "compiled": sorted(set(compiled)),
}))
"""

NBEST = """0 ||| the cat sat on the mat ||| f= -1 ||| -1
0 ||| a cat is on a mat ||| f= -2 ||| -2
1 ||| it rains today in the city ||| f= -1 ||| -1
1 ||| today it is raining ||| f= -2 ||| -2
1 ||| rain ||| f= -3 ||| -3
"""


def run_child(tmp_path: Path) -> dict:
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    nbest = tmp_path / "nbest"
    nbest.write_text(NBEST)
    references = []
    for name, lines in (
        ("ref.a", "the cat sat on a mat\nit is raining in the city today\n"),
        ("ref.b", "a cat sat on the mat\ntoday it rains in town\n"),
    ):
        (tmp_path / name).write_text(lines)
        references.append(str(tmp_path / name))
    completed = run_python(cache, "-c", CHILD, str(nbest), *references)
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_bleu_and_rouge_l_compile_their_kernels_and_no_others(tmp_path):
    result = run_child(tmp_path)

    assert result["status"] == 0
    compiled = set(result["compiled"])
    # The n-best reader's scanner, BLEU's n-gram counts, ROUGE-L's LCS.
    assert {
        "kernels_text.scan_nbest_block",
        "kernels_ngram.clipped_subset_matches",
        "kernels_lcs.lcs_grid",
    } <= compiled
    others = (
        "kernels_meteor", "kernels_ter", "kernels_red", "kernels_wnm",
        "kernels_gtm", "kernels_chrf", "kernels_edit", "kernels_skip",
        "kernels_wlcs", "kernels_nist", "kernels_word_distance",
    )  # fmt: skip
    assert not [name for name in compiled if name.startswith(others)]
    # Precompiling made exactly what the command line then called.
    assert "kernels_lcs.lcs_grid" in result["prepared"]
    assert result["prepared_seconds"] > 0
    assert result["again"] == []


def test_the_compile_log_charges_a_kernel_its_own_time_and_counts_types():
    from numba import njit

    @njit
    def inner(x):
        return x * 2

    @njit
    def outer(x):
        return inner(x) + 1

    started = time.perf_counter()
    with recording_compiles() as log:
        assert outer(3) == 7
        assert outer(1.5) == 4.0  # a second specialisation of each
    wall = time.perf_counter() - started

    by_name = {kernel.name.rsplit(".", 1)[-1]: kernel for kernel in log.kernels}
    assert by_name["outer"].specialisations == 2
    assert by_name["inner"].specialisations == 2
    assert all(kernel.seconds > 0 for kernel in log.kernels)
    # inner compiles inside outer's compilation: charged once, to inner, so
    # the times add up to no more than the block took.
    assert log.seconds <= wall
    text = format_compile_log(log)
    assert "x2" in text and "compiling in all: 2 functions, 4 specialisations" in text
