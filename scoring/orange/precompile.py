"""Make ready just the compiled kernels an ORANGE run of some metrics needs.

Numba compiles a batch kernel on its first call (seconds each, minutes for
all of them) or loads it from its on-disk cache (milliseconds). A run
compiles what it calls and nothing else, so nobody has to compile every
kernel up front: an ORANGE chunk of BLEU and ROUGE-L compiles the n-best
reader's scanner, the n-gram and LCS kernels, and never METEOR's or TER's.

:func:`prepare_kernels` ranks a tiny n-best list with the given metrics
through the very path the command line and the web's chunks take (the
compiled reader, the test-set binding of NIST and WNM, the token views and
the engine), so it compiles the same specialisations they will call, and
leaves them in the cache. ``bin/run`` runs it for the demo's metrics
(``python -m scoring.orange.precompile SPEC...``) while it migrates the
database and collects the static files, so the demo's first ORANGE chunks
find them in the cache; a chunk that comes first compiles them itself.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.batch.compile_log import (
    CompileLog,
    format_compile_log,
    recording_compiles,
)
from scoring.orange.dispatch import rank_nbest_chunk
from scoring.orange.nbest_stream import nbest_words_from_bytes
from scoring.orange.options import OrangeOptions
from scoring.orange.prepare import prepare_metrics
from scoring.orange.ranking import curve_points
from scoring.registry import get_metric

# Two sentences of three candidates each, two references, two documents:
# enough for every metric (WNM's saliences need a document with a rest).
_NBEST = (
    b"0 ||| the cat sat on the mat ||| f= -1 ||| -1\n"
    b"0 ||| a cat sat on a mat ||| f= -2 ||| -2\n"
    b"0 ||| cat mat ||| f= -3 ||| -3\n"
    b"1 ||| there is a dog in the house ||| f= -1 ||| -1\n"
    b"1 ||| a dog is in a house ||| f= -2 ||| -2\n"
    b"1 ||| the dog ||| f= -3 ||| -3\n"
)
_REFERENCES = (
    ("the cat sat on a mat", "there is a cat on the mat"),
    ("a dog is in the house", "there is a dog in the house"),
)
_DOCUMENTS = ("d0", "d1")


@dataclass(frozen=True)
class KernelPreparation:
    """What :func:`prepare_kernels` did."""

    specs: tuple[str, ...]
    seconds: float  # wall time of the whole preparation
    compiles: CompileLog  # the kernels compiled (empty: all from the cache)


def prepare_kernels(specs: Sequence[str]) -> KernelPreparation:
    """Compile (or load from Numba's cache) the kernels that ORANGE with the
    metrics ``specs`` calls, by ranking a tiny n-best list with them."""
    started = time.perf_counter()
    with recording_compiles() as compiles:
        metrics = [get_metric(spec) for spec in specs]
        metrics = prepare_metrics(metrics, _REFERENCES, _DOCUMENTS)
        words = nbest_words_from_bytes(_NBEST, "precompile")
        references = [_REFERENCES[i] for i in words.sentence_ids.tolist()]
        for all_references in (False, True):  # the jackknife and --all-refs
            rank_nbest_chunk(
                metrics,
                words,
                references,
                curve_n=curve_points(3, 1),
                options=OrangeOptions(
                    all_references=all_references, curve_step=1, n_bootstrap=10
                ),
            )
    return KernelPreparation(tuple(specs), time.perf_counter() - started, compiles)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scoring.orange.precompile",
        description="Compile (or load from NUMBA_CACHE_DIR) the kernels that "
        "ORANGE with these metrics needs, and print what was compiled.",
    )
    parser.add_argument("specs", nargs="+", metavar="SPEC", help="metric spec")
    arguments = parser.parse_args(argv)
    done = prepare_kernels(arguments.specs)
    cache = os.environ.get("NUMBA_CACHE_DIR") or "the package's __pycache__"
    print(
        f"kernels of {', '.join(done.specs)} ready in {done.seconds:.1f} s "
        f"({done.compiles.seconds:.1f} s compiling; cache {cache})"
    )
    if done.compiles.kernels:
        print(format_compile_log(done.compiles, limit=15))
    return 0


if __name__ == "__main__":
    sys.exit(main())
