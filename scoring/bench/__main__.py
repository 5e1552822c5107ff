"""``python -m scoring.bench``: the project's benchmark, everything in one run.

1. Kernel compilation: the compiled kernels' first call (Numba compiles
   them, or loads them from its on-disk cache after the first run).
2. ``throughput``: pairs per second of the engine next to sacreBLEU's
   ``sentence_bleu`` and rouge-score's ROUGE-L on the same pairs, with the
   ratio, after checking the values agree.
3. ``suite1024``: wall time and peak memory of the 34-variant ORANGE suite
   on 872 x 1024-best x 4 references (target: under 120 s, 6 GB).
4. ``suite16384``: the same for the six Table 7 metrics on 474 x 16384-best
   (target: under 10 minutes).

   After each suite's engine run, its corpus is written as a Moses n-best
   file and reference files and ``python -m scoring orange`` runs on them
   in a child process, once printing the table and once with ``--json``:
   wall time and peak memory end to end (:mod:`scoring.bench.end_to_end`;
   ``--no-command-line`` skips it).
5. ``metrics``: ORANGE time per metric at paper scale for chrF, chrF++,
   GTM e = 1, 2, 3, TER, METEOR, WNM and RED through the dispatcher, with
   the path it chose (:mod:`scoring.bench.metric_times`); a slow metric is
   measured on fewer sentences (``--metric-sentences N``, or as many as fit
   ``--metric-budget`` seconds) and its paper-scale time extrapolated.
6. ``meta``: the WMT meta-evaluation of metrics on a synthetic judged test
   set of 20 systems x 2,000 segments x 30 metrics (``--sentences`` sets the
   segments, ``--meta-systems`` and ``--meta-metrics`` the rest), 1,000
   permutations (``--permutations``): the library's six tasks one by one
   and pooled over two test sets, then ``python -m scoring correlate`` end
   to end, against the 60 s target (:mod:`scoring.bench.meta_evaluation`).
7. ``firstrun`` (only when asked, ``--only firstrun``): a newcomer's first
   ``python -m scoring orange`` with BLEU and ROUGE-L on 100 x 10-best, in a
   child process with an empty Numba cache, then warm, and the kernels that
   cold run compiled with their own seconds (:mod:`scoring.bench.first_run`;
   target: ≤ 20 s cold). ``python -m mtdash.bench.first_run`` times the
   first ``bin/run`` the same way.

Options: ``--only PART`` (repeatable) runs some parts; ``--sentences N``
scales the corpora down (tests run a tiny version); ``--corpus DIR`` runs
the suites on a corpus given as files instead of the generated one
(``nbest.txt`` and ``ref1.txt`` ... ``refK.txt``, the layout of
``make_bench_corpus.py``; :mod:`scoring.bench.corpus_files`); ``--workers N``;
``--cold-compile`` also measures compiling from scratch, in a subprocess with
an empty Numba cache.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
import time

from scoring.bench.synthetic import PAPER_1024_BEST, make_corpus
from scoring.orange.batched import available_cpus

PARTS = ("throughput", "suite1024", "suite16384", "metrics", "meta")
# Parts run only when named with --only.
ON_REQUEST = ("firstrun",)
THROUGHPUT_SENTENCES = 32
THROUGHPUT_SAMPLE = 2000


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring.bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=PARTS + ON_REQUEST,
        help="run only this part (repeatable)",
    )
    parser.add_argument(
        "--sentences", type=int, help="sentences per corpus (default: the paper's)"
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=THROUGHPUT_SAMPLE,
        help="pairs given to the slow tools",
    )
    parser.add_argument(
        "--corpus",
        metavar="DIR",
        help="suites: run on this corpus (DIR/nbest.txt, DIR/ref1.txt ... refK.txt) "
        "instead of the generated one",
    )
    parser.add_argument("--workers", type=int, help="threads (default: CPUs available)")
    parser.add_argument(
        "--bootstrap", type=int, default=1000, help="bootstrap samples of the suites"
    )
    parser.add_argument(
        "--no-command-line",
        action="store_true",
        help="skip the end-to-end command-line runs after the suites",
    )
    parser.add_argument(
        "--metric-sentences",
        type=int,
        help="metrics part: measure on at most N sentences, extrapolate",
    )
    parser.add_argument(
        "--metric-budget",
        type=float,
        default=300.0,
        help="metrics part: seconds a metric may take before it is measured "
        "on fewer sentences (extrapolated)",
    )
    parser.add_argument(
        "--cold-compile",
        action="store_true",
        help="also time compiling with an empty cache",
    )
    parser.add_argument(
        "--meta-systems", type=int, default=20, help="meta part: systems"
    )
    parser.add_argument(
        "--meta-metrics", type=int, default=30, help="meta part: metrics"
    )
    parser.add_argument(
        "--permutations", type=int, default=1000, help="meta part: permutations"
    )
    return parser


def _cold_compile_seconds() -> float:
    """Compile every kernel from scratch in a child with an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
        code = "from scoring.batch.warmup import warm_up; print(warm_up())"
        completed = subprocess.run(
            [sys.executable, "-c", code],
            env=environment,
            capture_output=True,
            text=True,
            check=True,
        )
    return float(completed.stdout.strip().splitlines()[-1])


def _progress(label: str):
    started = time.monotonic()
    last = [started]

    def report(fraction: float) -> None:
        now = time.monotonic()
        if now - last[0] >= 10 or fraction >= 1:
            last[0] = now
            sys.stderr.write(
                f"{label}: {100 * fraction:.0f}% ({now - started:.0f} s)\n"
            )

    return report


def _suite_on_files(name: str, arguments: argparse.Namespace, out) -> None:
    """A suite's engine run, then the command line, on ``--corpus DIR``."""
    from scoring.bench.corpus_files import corpus_files, run_suite_on_files
    from scoring.bench.end_to_end import format_command_line, time_command_line_files
    from scoring.bench.suites import SUITES, format_suite

    files = corpus_files(arguments.corpus)
    out.write(
        f"\ncorpus {arguments.corpus}: {files.nbest.name}, "
        f"{', '.join(path.name for path in files.references)} "
        "(read and tokenised before the engine run: 'corpus generated' below)\n"
    )
    run = run_suite_on_files(
        name,
        files,
        workers=arguments.workers,
        n_bootstrap=arguments.bootstrap,
        progress=_progress(name),
    )
    out.write(format_suite(run) + "\n")
    out.flush()
    if not arguments.no_command_line:
        runs = time_command_line_files(
            files.nbest,
            files.references,
            SUITES[name][1],
            n_bootstrap=arguments.bootstrap,
        )
        out.write(format_command_line(runs) + "\n")
        out.write(
            f"(engine alone: {run.wall_seconds:.1f} s; the machine's load "
            "inflates every figure)\n"
        )
        out.flush()


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    parts = arguments.only or list(PARTS)
    # Imported here so that importing this module stays cheap.
    from scoring.batch.compile_all import compile_all_kernels
    from scoring.batch.warmup import warm_up, warm_up_from_cache
    from scoring.bench.end_to_end import format_command_line, time_command_line
    from scoring.bench.metric_times import format_metric_times, time_metrics
    from scoring.bench.suites import SUITES, format_suite, run_suite, suite_corpus
    from scoring.bench.throughput import compare_tools, format_comparisons

    out = sys.stdout
    out.write(
        f"mtdash batch-engine benchmark; {available_cpus()} CPUs, "
        f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}\n\n"
    )
    # The meta part uses no compiled kernel (and their memory would count in
    # its peak); the first-run part compiles in children of its own.
    if set(parts) - {"meta", "firstrun"}:
        # Where the cache lacks them, two processes compile the kernels at
        # once (half the wall time of this one compiling them alone); this
        # process then loads them.
        compiled = compile_all_kernels()
        if compiled.specialisations:
            out.write(
                f"kernels: {compiled.specialisations} specialisations compiled "
                f"into the cache in {compiled.seconds:.1f} s "
                f"({compiled.processes} process{'es' if compiled.processes > 1 else ''})\n"
            )
        seconds = warm_up()
        source = "loaded from Numba's cache" if warm_up_from_cache() else "compiled"
        out.write(f"kernels: first call {seconds:.1f} s ({source})\n")
    if arguments.cold_compile:
        out.write(f"kernels: compiling from scratch {_cold_compile_seconds():.1f} s\n")
    out.flush()

    if "throughput" in parts:
        sentences = min(
            arguments.sentences or THROUGHPUT_SENTENCES, THROUGHPUT_SENTENCES
        )
        corpus = make_corpus(
            dataclasses.replace(PAPER_1024_BEST, n_sentences=sentences)
        )
        out.write(
            f"\nthroughput ({sentences} sentences x 1024-best x 4 references; "
            f"{arguments.sample} sampled pairs for the tools)\n"
        )
        out.write(
            format_comparisons(compare_tools(corpus, sentences, arguments.sample))
            + "\n"
        )
        out.flush()
    if arguments.corpus:
        if arguments.sentences is not None:
            sys.stderr.write(
                "python -m scoring.bench: --sentences does not apply to --corpus "
                "(write a smaller corpus instead)\n"
            )
            return 2
        for name in ("suite1024", "suite16384"):
            if name in parts:
                _suite_on_files(name, arguments, out)
        parts = [part for part in parts if part not in ("suite1024", "suite16384")]
    for name in ("suite1024", "suite16384"):
        if name in parts:
            started = time.perf_counter()
            corpus = suite_corpus(name, arguments.sentences)
            generated = time.perf_counter() - started
            run = run_suite(
                name,
                workers=arguments.workers,
                n_bootstrap=arguments.bootstrap,
                progress=_progress(name),
                corpus=corpus,
            )
            run = dataclasses.replace(run, generate_seconds=generated)
            out.write("\n" + format_suite(run) + "\n")
            out.flush()
            if not arguments.no_command_line:
                runs = time_command_line(
                    corpus, SUITES[name][1], n_bootstrap=arguments.bootstrap
                )
                out.write(format_command_line(runs) + "\n")
                out.write(
                    f"(engine alone: {run.wall_seconds:.1f} s; the machine's load "
                    "inflates every figure)\n"
                )
                out.flush()
            del corpus, run
    if "metrics" in parts:
        out.write(
            "\nORANGE per metric, 1024-best x 4 references, through "
            "scoring.orange.dispatch.orange_metrics\n"
        )
        out.flush()
        times = time_metrics(
            sentences=arguments.metric_sentences,
            corpus_sentences=arguments.sentences,
            budget_seconds=arguments.metric_budget,
        )
        out.write(format_metric_times(times) + "\n")
    if "meta" in parts:
        from scoring.bench.judged_test_set import WMT_SIZED
        from scoring.bench.meta_evaluation import (
            format_meta_evaluation,
            run_meta_benchmark,
        )

        spec = dataclasses.replace(
            WMT_SIZED,
            n_systems=arguments.meta_systems,
            n_segments=arguments.sentences or WMT_SIZED.n_segments,
            n_metrics=arguments.meta_metrics,
        )
        run = run_meta_benchmark(
            spec, n_permutations=arguments.permutations, log=sys.stderr
        )
        out.write("\n" + format_meta_evaluation(run) + "\n")
    if "firstrun" in parts:
        from scoring.bench.first_run import format_first_run, time_first_run

        out.write(format_first_run(time_first_run()) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
