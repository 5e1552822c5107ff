"""chrF and chrF++ in the batch engine, equal to :mod:`scoring.metrics.chrf`.

**Token view.** chrF reads raw text: optionally case-folded as a whole
(``str.lower()`` of the full text, which is not the same as folding word by
word: Greek final sigma), then character n-grams of the text without its
whitespace (or with it, ``whitespace=true``) and, for chrF++, word n-grams
of :func:`~scoring.metrics.chrf.statistics.chrf_words`. The view
(:class:`ChrfText`) keeps all of it: the case-folded text as one token.
From the grid's vocabulary (id -> token) the family derives, in compiled
code, each token's characters (dropping whitespace unless it counts) and
its chrF words, once per distinct token, not per
occurrence. Character n-grams may span word boundaries: they are taken
from each hypothesis's whole character sequence.

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

import string
from dataclasses import dataclass

import numpy as np

from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.kernels_chrf import (
    pair_order_matches,
    spell_characters,
    word_table,
)
from scoring.batch.subsets import membership, subset_first_best, take_columns
from scoring.metrics.chrf.metric import CHRF, CHRFPlusPlus


@dataclass(frozen=True)
class ChrfText:
    """chrF's token view: the (case-folded) text as one token. Interning one
    token per text instead of one per word saves most of the Python time;
    the family derives the characters and words from the vocabulary in
    compiled code."""

    lowercase: bool

    def __call__(self, text: str) -> list[str]:
        return [text.lower() if self.lowercase else text]


def _spell_out(
    tokens: np.ndarray,
    offsets: np.ndarray,
    table: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """Replace each token t by ``symbols[start[t] : start[t] + length[t]]``
    (``table = (start, length, symbols)``): ``(symbols of every sequence
    int32, their offsets int64)``."""
    start, length, symbols = table
    lengths = length[tokens]
    ends = np.cumsum(lengths)
    index = np.repeat(start[tokens] - (ends - lengths), lengths)
    index += np.arange(index.size, dtype=index.dtype)
    return symbols[index], np.concatenate(([0], ends))[offsets]


def _starts(length: np.ndarray) -> np.ndarray:
    """Where each of consecutive runs of ``length`` begins: int64."""
    return (np.cumsum(length) - length).astype(np.int64)


# One past the largest Unicode code point.
_CODE_POINTS = 0x110000
# chrF++ splits ASCII punctuation (string.punctuation) off words' edges.
_PUNCTUATION_CODE_POINTS = np.array(
    sorted(map(ord, string.punctuation)), dtype=np.int64
)


class _Spellings:
    """The grid's tokens as characters and as chrF words, in dense ids.

    A vocabulary entry is any text of which the view made a token (a word,
    a whitespace run, a whole text). Only the entries the grid uses are
    read (the references' grid shares the candidates' vocabulary). Their
    characters are code points mapped to dense ids, whitespace left out
    unless asked for; their words are ``chrf_words(entry)``, interned among
    the used entries' words.
    """

    def __init__(self, grid: PairGrid) -> None:
        vocabulary = grid.vocabulary
        used = np.zeros(max(len(vocabulary), 1), dtype=bool)
        try:
            used[grid.hyp_tokens] = True
            used[grid.ref_tokens] = True
        except IndexError:
            raise ValueError("chrF needs the grid's vocabulary (id -> token)") from None
        self._entries = [vocabulary[i] for i in np.flatnonzero(used).tolist()]
        self._used = np.flatnonzero(used)
        self._size = used.size
        length = np.fromiter(
            map(len, self._entries), dtype=np.int64, count=len(self._entries)
        )
        self._entry_start = np.zeros(self._size, dtype=np.int64)
        self._entry_length = np.zeros(self._size, dtype=np.int64)
        self._entry_start[self._used] = _starts(length)
        self._entry_length[self._used] = length
        encoded = "".join(self._entries).encode("utf-32-le", "surrogatepass")
        self._code_points = np.frombuffer(encoded, dtype=np.uint32)
        present = np.zeros(_CODE_POINTS, dtype=bool)
        present[self._code_points] = True
        self._alphabet = np.flatnonzero(present)
        self.alphabet_size = max(1, self._alphabet.size)
        self._alphabet_is_space = np.fromiter(
            (chr(c).isspace() for c in self._alphabet.tolist()),
            dtype=bool,
            count=self._alphabet.size,
        )
        self._symbol_of: dict[bool, np.ndarray] = {}
        self._words: tuple | None = None
        self._word_alphabet_size = 0

    def _symbols(self, whitespace: bool) -> np.ndarray:
        """Code point -> dense id, -1 for what chrF does not read:
        ``(0x110000,)`` int32."""
        if whitespace not in self._symbol_of:
            symbol_of = np.full(_CODE_POINTS, -1, dtype=np.int32)
            read = self._alphabet
            if not whitespace:
                read = read[~self._alphabet_is_space]
            symbol_of[read] = np.arange(read.size, dtype=np.int32)
            self._symbol_of[whitespace] = symbol_of
        return self._symbol_of[whitespace]

    def characters(
        self, tokens: np.ndarray, offsets: np.ndarray, whitespace: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each token sequence spelt out in characters, whitespace left out
        unless ``whitespace``: ``(symbols int32, offsets int64)``."""
        return spell_characters(
            tokens,
            offsets,
            self._entry_start,
            self._entry_length,
            self._code_points,
            self._symbols(whitespace),
        )

    def _word_table(self) -> tuple:
        if self._words is None:
            is_space = np.zeros(_CODE_POINTS, dtype=bool)
            is_space[self._alphabet[self._alphabet_is_space]] = True
            is_punctuation = np.zeros(_CODE_POINTS, dtype=bool)
            is_punctuation[_PUNCTUATION_CODE_POINTS] = True
            start, length, ids, n_words = word_table(
                self._used,
                self._entry_start,
                self._entry_length,
                self._code_points,
                is_space,
                is_punctuation,
            )
            self._words = (start, length, ids)
            self._word_alphabet_size = max(1, n_words)
        return self._words

    @property
    def word_alphabet_size(self) -> int:
        """Distinct chrF words of the used entries (at least 1)."""
        self._word_table()
        return self._word_alphabet_size

    def words(
        self, tokens: np.ndarray, offsets: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each token sequence as chrF words (``chrf_words`` of the text)."""
        return _spell_out(tokens, offsets, self._word_table())


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


class ChrfFamily(MetricFamily[CHRF]):
    """chrF and chrF++ metrics of one token view: one kernel pass for the
    character orders and one for the word orders, shared by all."""

    @staticmethod
    def handles(metric: object) -> bool:
        # Exact classes: a subclass may compute its statistics differently.
        return type(metric) in (CHRF, CHRFPlusPlus)

    @staticmethod
    def token_view(metric: CHRF) -> ChrfText:
        return ChrfText(metric.lowercase)

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
