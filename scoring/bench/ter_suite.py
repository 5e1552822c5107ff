"""``python -m scoring.bench.ter_suite``: ORANGE of TER at the paper's scale
(872 sentences x 1024-best x 4 references, jackknife: every candidate against
each of the 4 references, 3.57 M pairs, each through TERCOM's shift search),
timed through :func:`scoring.orange.dispatch.orange_metrics` from text, as a
run from files would go (target: 5 minutes wall on two cores).

The text is :mod:`scoring.bench.synthetic`'s corpus with each id written as
a word (``w123``), which TER's preprocessing leaves as it is, so the words
TER searches are the corpus's ids. ``--sentences N`` scales the corpus down;
``--check N`` first compares the engine with the per-pair path on the first
N sentences (first 50 candidates each); ``--metric SPEC`` (repeatable) times
other TER settings.
"""

from __future__ import annotations

from scoring.bench import one_metric
from scoring.bench.synthetic import SyntheticCorpus

TARGET_SECONDS = 25.0


def corpus_as_text(
    corpus: SyntheticCorpus,
) -> tuple[list[list[str]], list[list[str]]]:
    """Candidates and references of every sentence as text (``w123`` words)."""
    nbest = corpus.nbest
    words = [f"w{i}" for i in range(corpus.shape.vocabulary_size)]
    tokens = nbest.tokens.tolist()
    offsets = nbest.candidate_offsets.tolist()
    sentence_offsets = nbest.sentence_offsets.tolist()
    candidates = [
        [
            " ".join([words[t] for t in tokens[offsets[c] : offsets[c + 1]]])
            for c in range(sentence_offsets[i], sentence_offsets[i + 1])
        ]
        for i in range(len(sentence_offsets) - 1)
    ]
    references = [[corpus.text(ids) for ids in refs] for refs in corpus.references]
    return candidates, references


def main(argv: list[str] | None = None) -> int:
    arguments = one_metric.parser(
        "python -m scoring.bench.ter_suite", __doc__.split("\n")[0], "ter"
    ).parse_args(argv)
    return one_metric.run(arguments, corpus_as_text, ["ter"], TARGET_SECONDS)


if __name__ == "__main__":
    raise SystemExit(main())
