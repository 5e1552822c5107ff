"""A suite on a corpus given as files: ``python -m scoring.bench --corpus DIR``.

The benchmark's own corpora are generated (:mod:`scoring.bench.synthetic`);
an independent one (``make_bench_corpus.py OUTDIR`` writes the paper's
shape with a vocabulary and perturbations of its own) comes as a directory
holding a Moses n-best list, ``nbest.txt`` (or ``nbest``, ``nbest.gz``), and
one reference file per reference set, ``ref1.txt`` ... ``refK.txt`` (line
i + 1 = sentence i). :func:`run_suite_on_files` times the suite's metrics
through the engine on that corpus as :func:`scoring.bench.suites.run_suite`
does on its own (reading and tokenising the files first, not counted), and
:func:`scoring.bench.end_to_end.time_command_line_files` then runs the
command line on the files themselves.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scoring.bench.suites import SUITES, SuiteRun, timed_suite_run
from scoring.bench.synthetic import CorpusShape
from scoring.errors import InputFileError
from scoring.registry import get_metric
from scoring.textfiles import check_same_length, read_segments

NBEST_NAMES = ("nbest.txt", "nbest", "nbest.gz")
_REFERENCE = re.compile(r"ref(\d+)\.txt")


@dataclass(frozen=True)
class CorpusFiles:
    """The files of a corpus directory."""

    nbest: Path
    references: tuple[Path, ...]


def corpus_files(directory: str | os.PathLike[str]) -> CorpusFiles:
    """The n-best list and the reference files (in numeric order) of
    ``directory``; refuses a directory without them, naming it."""
    folder = Path(directory)
    if not folder.is_dir():
        raise InputFileError(f"{folder}: no such corpus directory", str(folder))
    nbest = next((folder / n for n in NBEST_NAMES if (folder / n).is_file()), None)
    if nbest is None:
        raise InputFileError(
            f"{folder}: no n-best list ({', '.join(NBEST_NAMES)})", str(folder)
        )
    numbered = sorted(
        (int(match.group(1)), path)
        for path in folder.iterdir()
        if (match := _REFERENCE.fullmatch(path.name))
    )
    if len(numbered) < 2:
        raise InputFileError(
            f"{folder}: ORANGE needs at least two reference files "
            f"(ref1.txt, ref2.txt, ...); found {len(numbered)}",
            str(folder),
        )
    return CorpusFiles(nbest, tuple(path for _, path in numbered))


def run_suite_on_files(
    name: str,
    files: CorpusFiles,
    *,
    workers: int | None = None,
    n_bootstrap: int = 1000,
    progress: Callable[[float], None] | None = None,
) -> SuiteRun:
    """ORANGE of suite ``name``'s metrics on the files, through the engine
    (wall, CPU and peak memory of the ranking; the files are read and
    tokenised once per token view before, in ``generate_seconds``)."""
    # Compiled kernels: loaded on use, as the command line does.
    from scoring.batch.engine import token_view
    from scoring.orange.nbest_stream import read_nbest_words
    from scoring.orange.prepare import prepare_metrics
    from scoring.orange.sources import pretokenized_source

    _, specs = SUITES[name]
    started = time.perf_counter()
    streams = [read_segments(path) for path in files.references]
    for path, stream in zip(files.references[1:], streams[1:]):
        check_same_length(str(files.references[0]), streams[0], str(path), stream)
    nbest = read_nbest_words(files.nbest, keep_texts=False)
    ids = nbest.sentence_ids.tolist()
    if ids and ids[-1] >= len(streams[0]):
        raise InputFileError(
            f"{files.nbest}: sentence id {ids[-1]} has no line in "
            f"{files.references[0]} ({len(streams[0])} lines)",
            str(files.nbest),
        )
    metrics = prepare_metrics(
        {paper: get_metric(spec) for paper, spec in specs.items()},
        list(zip(*streams)),
    )
    source = pretokenized_source(
        nbest,
        [tuple(stream[i] for stream in streams) for i in ids],
        [token_view(metric) for metric in metrics.values()],
    )
    counts = np.diff(nbest.sentence_offsets)
    shape = CorpusShape(
        n_sentences=len(ids),
        n_candidates=int(counts.max(initial=0)),
        n_references=len(streams),
    )
    del nbest
    prepared = time.perf_counter() - started
    return timed_suite_run(
        name, shape, prepared, metrics, source, n_bootstrap, workers, progress
    )
