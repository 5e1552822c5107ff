"""chrF and chrF++ in the batch engine, equal to :mod:`scoring.metrics.chrf`.

**Token view.** chrF reads raw text: optionally case-folded as a whole
(``str.lower()`` of the full text, which is not the same as folding word by
word: Greek final sigma), then character n-grams of the text without its
whitespace (or with it, ``whitespace=true``) and, for chrF++, word n-grams
of :func:`~scoring.metrics.chrf.statistics.chrf_words`. :class:`ChrfTokens`
turns a text into the chrF words in order, plus the whitespace runs between
them when whitespace counts, so that the tokens joined give back exactly
the characters the metric reads. Character n-grams may span word
boundaries; they are taken from each hypothesis's whole character sequence,
rebuilt from the grid's vocabulary (id -> token).

**Several references.** A segment's statistics are those of the reference
that gives it the highest chrF, the first on ties (``CHRF.segment_row``).
So the engine computes the statistics rows of every pair (h, k), each
pair's score with the metric's own ``sentence_scores_from_statistics``,
and per subset picks the first best column: the subset's score is that
pair score. The vectorised scores use the same IEEE operations in the same
order as the scalar ``chrf_score`` of the per-pair selection (no
transcendental functions), so choice and value agree bit for bit (tested).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scoring.batch.grid import PairGrid
from scoring.batch.kernels_chrf import pair_order_matches
from scoring.batch.subsets import membership, subset_first_best, take_columns
from scoring.metrics.chrf.metric import CHRF, CHRFPlusPlus
from scoring.metrics.chrf.statistics import chrf_words

# Maximal runs of whitespace or of anything else; \s is str.isspace()'s set
# (both use Py_UNICODE_ISSPACE), the set str.split() splits on.
_RUNS = re.compile(r"\s+|\S+")


@dataclass(frozen=True)
class ChrfTokens:
    """chrF's token view: the (case-folded) text split at whitespace, with
    the whitespace runs kept as tokens of their own when whitespace counts;
    the tokens joined give exactly the characters chrF reads. chrF++'s
    punctuation split is done per vocabulary entry by the family (so not
    once per word occurrence in Python)."""

    lowercase: bool
    whitespace: bool

    def __call__(self, text: str) -> list[str]:
        if self.lowercase:
            text = text.lower()
        return _RUNS.findall(text) if self.whitespace else text.split()


def chrf_token_view(metric: CHRF) -> ChrfTokens:
    return ChrfTokens(metric.lowercase, metric.whitespace)


def _spell_out(
    tokens: np.ndarray,
    offsets: np.ndarray,
    start: np.ndarray,
    length: np.ndarray,
    symbols: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Replace each token t by ``symbols[start[t] : start[t] + length[t]]``:
    ``(symbols of every sequence int32, their offsets int64)``."""
    lengths = length[tokens]
    ends = np.cumsum(lengths)
    index = np.repeat(start[tokens] - (ends - lengths), lengths)
    index += np.arange(index.size, dtype=index.dtype)
    return symbols[index], np.concatenate(([0], ends))[offsets]


def _ragged(lengths: list[int]) -> tuple[np.ndarray, np.ndarray]:
    length = np.asarray(lengths, dtype=np.int64)
    return np.concatenate(([0], np.cumsum(length)[:-1])).astype(np.int64), length


class _Spellings:
    """The grid's vocabulary as characters and as chrF words, in dense ids.

    Entry t is a whitespace-free chunk of text or a whitespace run. Its
    characters are ``char_symbols[char_start[t]:][:char_length[t]]``; its
    chrF words (none for whitespace) ``word_symbols[word_start[t]:]
    [:word_length[t]]``, interned among the vocabulary's chrF words.
    """

    def __init__(self, grid: PairGrid) -> None:
        vocabulary = grid.vocabulary
        largest_id = max(
            grid.hyp_tokens.max(initial=-1), grid.ref_tokens.max(initial=-1)
        )
        if largest_id >= len(vocabulary):
            raise ValueError("chrF needs the grid's vocabulary (id -> token)")
        self.is_space = np.fromiter(
            map(str.isspace, vocabulary), dtype=bool, count=len(vocabulary)
        )
        encoded = "".join(vocabulary).encode("utf-32-le", "surrogatepass")
        alphabet, char_symbols = np.unique(
            np.frombuffer(encoded, dtype=np.uint32), return_inverse=True
        )
        self.char_symbols = char_symbols.astype(np.int32).reshape(-1)
        self.alphabet_size = max(1, alphabet.size)
        self.char_start, self.char_length = _ragged(list(map(len, vocabulary)))
        interner: dict[str, int] = {}
        word_ids: list[int] = []
        word_counts: list[int] = []
        for entry, space in zip(vocabulary, self.is_space.tolist()):
            words = [] if space else chrf_words(entry)
            word_ids += [interner.setdefault(word, len(interner)) for word in words]
            word_counts.append(len(words))
        self.word_symbols = np.asarray(word_ids, dtype=np.int32)
        self.word_alphabet_size = max(1, len(interner))
        self.word_start, self.word_length = _ragged(word_counts)

    def characters(
        self, tokens: np.ndarray, offsets: np.ndarray, whitespace: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each token sequence spelt out in characters; whitespace runs are
        left out unless ``whitespace``."""
        length = self.char_length
        if not whitespace:
            length = np.where(self.is_space, 0, length)
        return _spell_out(tokens, offsets, self.char_start, length, self.char_symbols)

    def words(
        self, tokens: np.ndarray, offsets: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each token sequence as chrF words (``chrf_words`` of the text)."""
        return _spell_out(
            tokens, offsets, self.word_start, self.word_length, self.word_symbols
        )


def _symbol_grid(
    grid: PairGrid, hyp: tuple, ref: tuple, alphabet_size: int
) -> PairGrid:
    return PairGrid(
        hyp_tokens=hyp[0],
        hyp_offsets=hyp[1],
        ref_tokens=ref[0],
        ref_offsets=ref[1],
        group_hyps=grid.group_hyps,
        group_refs=grid.group_refs,
        vocabulary_size=alphabet_size,
    )


def _pair_statistics(grid: PairGrid, max_order: int) -> np.ndarray:
    """``[hyp_count, ref_count, matches]`` of orders 1..max_order for every
    pair: ``(H, K, 3 * max_order)`` int64, as ``match_statistics`` gives them
    (hyp_count is 0 where the reference has no n-gram of that order)."""
    matches = pair_order_matches(
        grid.hyp_tokens,
        grid.hyp_offsets,
        grid.ref_tokens,
        grid.ref_offsets,
        grid.group_hyps,
        grid.group_refs,
        grid.vocabulary_size,
        max_order,
    )
    hyp_lengths = grid.hyp_lengths[:, None]  # (H, 1)
    ref_lengths = grid.pair_ref_lengths()  # (H, K)
    columns = []
    for n in range(1, max_order + 1):
        ref_count = np.maximum(ref_lengths - n + 1, 0)
        hyp_count = np.where(ref_count > 0, np.maximum(hyp_lengths - n + 1, 0), 0)
        columns += [hyp_count, ref_count, matches[:, :, n - 1].astype(np.int64)]
    if not columns:
        return np.zeros(ref_lengths.shape + (0,), dtype=np.int64)
    return np.stack(columns, axis=-1)


class ChrfFamily:
    """chrF and chrF++ metrics of one token view: one kernel pass for the
    character orders and one for the word orders, shared by all."""

    def __init__(self, metrics: Sequence[CHRF]) -> None:
        self.metrics = tuple(metrics)

    @staticmethod
    def handles(metric: object) -> bool:
        # Exact classes: a subclass may compute its statistics differently.
        return type(metric) in (CHRF, CHRFPlusPlus)

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence chrF (0-100) of every hypothesis against every subset:
        one ``(H, S)`` array per metric."""
        spellings = _Spellings(grid)
        member = membership(masks, grid.refs_per_group[grid.hyp_groups], grid.max_refs)
        hyp = (grid.hyp_tokens, grid.hyp_offsets)
        ref = (grid.ref_tokens, grid.ref_offsets)
        statistics: dict[tuple[str, bool], np.ndarray] = {}
        largest_words = max(metric.word_order for metric in self.metrics)
        if largest_words:
            words = _symbol_grid(
                grid,
                spellings.words(*hyp),
                spellings.words(*ref),
                spellings.word_alphabet_size,
            )
            statistics["word", False] = _pair_statistics(words, largest_words)
        results = []
        for metric in self.metrics:
            key = ("char", metric.whitespace)
            if key not in statistics:
                largest = max(
                    m.char_order
                    for m in self.metrics
                    if m.whitespace == metric.whitespace
                )
                characters = _symbol_grid(
                    grid,
                    spellings.characters(*hyp, metric.whitespace),
                    spellings.characters(*ref, metric.whitespace),
                    spellings.alphabet_size,
                )
                statistics[key] = _pair_statistics(characters, largest)
            parts = [statistics[key][:, :, : 3 * metric.char_order]]
            if metric.word_order:
                parts.append(statistics["word", False][:, :, : 3 * metric.word_order])
            rows = np.concatenate(parts, axis=-1)  # (H, K, n_stats)
            pair_scores = np.asarray(
                metric.sentence_scores_from_statistics(rows), dtype=np.float64
            )
            best = subset_first_best(pair_scores, member)
            results.append(take_columns(pair_scores, best))
        return results
