"""``python -m scoring compile-kernels``: every batch kernel into Numba's cache.

For a machine that will want them all (a benchmark, an image being built):
the kernels compile in two processes at once, about half a minute on two
cores, instead of one by one as each is first called.
Once done for this interpreter and CPU, later calls return at once
(:mod:`scoring.batch.compile_all`). The cache is ``NUMBA_CACHE_DIR``.
"""

from __future__ import annotations

import argparse

from scoring.batch.compile_all import compile_all_kernels


def add_compile_kernels_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "compile-kernels",
        help="compile every batch kernel into Numba's cache (NUMBA_CACHE_DIR)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="compile (or load) them even where an earlier run marked them done",
    )


def run_compile_kernels(arguments: argparse.Namespace) -> str:
    """Compile; returns the line to print."""
    done = compile_all_kernels(force=arguments.force)
    where = done.cache_dir or "Numba's default cache (NUMBA_CACHE_DIR is not set)"
    if done.already_compiled:
        return f"every batch kernel is already compiled for this machine in {where}"
    processes = f"{done.processes} process{'es' if done.processes > 1 else ''}"
    if done.specialisations == 0:
        return (
            f"every batch kernel was already in {where} "
            f"(checked in {done.seconds:.1f} s, {processes})"
        )
    return (
        f"compiled every batch kernel in {done.seconds:.1f} s "
        f"({done.specialisations} specialisations, {processes}) into {where}"
    )
