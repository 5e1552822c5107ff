"""``python -m scoring.bench.chrf_suite``: ORANGE of chrF and chrF++ at the
paper's scale (872 sentences x 1024-best x 4 references, jackknife), each
metric timed on its own through :func:`scoring.orange.dispatch.orange_metrics`
from text, as a run from files would go (target: 60 s wall each on two
cores).

The text is :mod:`scoring.bench.synthetic`'s corpus spelt with
:mod:`scoring.bench.synthetic_text`'s pseudo-words (about 185 characters a
candidate). ``--sentences N`` scales it down; ``--check N`` first compares
the engine with the per-pair path on the first N sentences (first 50
candidates each).
"""

from __future__ import annotations

from scoring.bench import one_metric
from scoring.bench.synthetic_text import corpus_texts

SPECS = ("chrf", "chrf++")
TARGET_SECONDS = 60.0


def main(argv: list[str] | None = None) -> int:
    arguments = one_metric.parser(
        "python -m scoring.bench.chrf_suite", __doc__.split("\n")[0], "chrF, chrF++"
    ).parse_args(argv)
    return one_metric.run(arguments, corpus_texts, SPECS, TARGET_SECONDS)


if __name__ == "__main__":
    raise SystemExit(main())
