"""ORANGE of METEOR at the paper's scale on English-like n-best lists.

METEOR's stem, synonym and paraphrase stages need real words, so the
synthetic token ids of :mod:`scoring.bench.synthetic` will not do. This
benchmark builds n-best lists from real translations instead: for each
source segment of the given WMT folders (e.g. WMT21 de-en, ru-en), the K
references are K of that segment's translations (references first, then
system outputs), and the N candidates are light rewrites (word
substitutions from the whole corpus's vocabulary, adjacent swaps, dropped
words) of the segment's other translations, so candidates share words and
phrases with each other and with the references as n-best lists do.
Segments are reused when more sentences are asked for than exist.

``python -m scoring.bench.meteor_suite --wmt DIR [DIR ...] --sentences 100``
prints the wall time of the whole ORANGE run (tokenisation, kernels,
ranking), the pairs scored per second and the time extrapolated to
872 sentences.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from scoring.metrics.meteor.metric import Meteor
from scoring.orange.batched import available_cpus, orange_batch
from scoring.orange.options import OrangeOptions
from scoring.orange.sources import TextSource

PAPER_SENTENCES = 872
TARGET_SECONDS = 45.0  # ORANGE of METEOR at the paper's scale, 2 cores


def _translations(folder: Path) -> list[list[str]]:
    """Every English translation of each segment: ``[segment][translation]``."""
    files = sorted(folder.glob("ref.*")) + sorted((folder / "sys").glob("*"))
    streams = [path.read_text(encoding="utf-8").split("\n") for path in files]
    n_segments = min(len(stream) for stream in streams if stream)
    return [
        [stream[s].strip() for stream in streams if stream[s].strip()]
        for s in range(n_segments)
    ]


def _rewrite(rng: np.random.Generator, words: list[str], vocabulary: list[str]) -> str:
    out = list(words)
    for i in range(len(out)):
        draw = rng.random()
        if draw < 0.08:
            out[i] = vocabulary[int(rng.integers(len(vocabulary)))]
        elif draw < 0.12 and i + 1 < len(out):
            out[i], out[i + 1] = out[i + 1], out[i]
    return " ".join(w for w in out if rng.random() >= 0.03)


def english_nbest(
    folders: list[Path],
    n_sentences: int,
    n_candidates: int,
    n_references: int = 4,
    seed: int = 2004,
) -> tuple[list[list[str]], list[list[str]]]:
    """``(candidates[i][n], references[i][k])`` from real translations."""
    segments = [
        translations
        for folder in folders
        for translations in _translations(folder)
        if len(translations) > n_references
    ]
    vocabulary = sorted({w for segment in segments for t in segment for w in t.split()})
    rng = np.random.default_rng(seed)
    candidates, references = [], []
    for i in range(n_sentences):
        translations = segments[i % len(segments)]
        references.append(translations[:n_references])
        bases = [t.split() for t in translations[n_references:]]
        picks = rng.integers(len(bases), size=n_candidates)
        candidates.append([_rewrite(rng, bases[p], vocabulary) for p in picks])
    return candidates, references


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring.bench.meteor_suite")
    parser.add_argument("--wmt", nargs="+", type=Path, required=True)
    parser.add_argument("--sentences", type=int, default=100)
    parser.add_argument("--candidates", type=int, default=1024)
    parser.add_argument("--paraphrase", default="", help="paraphrase-en.gz")
    parser.add_argument("--params", default="rank")
    parser.add_argument("--workers", type=int, default=available_cpus())
    args = parser.parse_args(argv)
    started = time.perf_counter()
    metric = Meteor(params=args.params, paraphrase=args.paraphrase)
    print(
        f"metric {metric.signature()}  (resources {time.perf_counter() - started:.1f} s)"
    )
    started = time.perf_counter()
    candidates, references = english_nbest(args.wmt, args.sentences, args.candidates)
    print(f"corpus {args.sentences} x {args.candidates} x 4 built in "
          f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    # Warm-up: compile or load the kernels (and index the paraphrase table).
    started = time.perf_counter()
    orange_batch({"meteor": metric}, TextSource(candidates[:1], references[:1]))
    print(f"warm-up {time.perf_counter() - started:.1f} s")
    started, cpu_started = time.perf_counter(), time.process_time()
    result = orange_batch(
        {"meteor": metric},
        TextSource(candidates, references),
        OrangeOptions(),
        workers=args.workers,
    )["meteor"]
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    pairs = args.sentences * (args.candidates * 4 + 4 * 4)
    scale = PAPER_SENTENCES / args.sentences
    print(
        f"ORANGE {result.orange:.4f}  wall {wall:.1f} s  CPU {cpu:.1f} s (all "
        f"threads)  {pairs / cpu:,.0f} pairs per CPU second\n"
        f"extrapolated to {PAPER_SENTENCES} sentences: wall {wall * scale:.0f} s, "
        f"CPU {cpu * scale:.0f} s (= {cpu * scale / args.workers:.0f} s wall on "
        f"{args.workers} idle cores); target at {PAPER_SENTENCES} sentences: "
        f"{TARGET_SECONDS:.0f} s wall"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
