"""METEOR's matching stages: exact, stem, synonym and paraphrase matchers.

Every stage lists *all* its candidate matches between hypothesis words
(``hyp``) and reference words (``ref``); the aligner then picks a consistent
subset. As in METEOR 1.5, candidates are stored per reference start position,
in the order the Java matchers produce them (reference position, then
hypothesis position), because that order breaks ties in the beam search:

- exact: identical words;
- stem: different words with the same stem;
- synonym: different words sharing a WordNet synset, where each word's
  synsets are its own plus those of its base form (WordNet exception lists,
  else METEOR's suffix rules: the first of 20 noun/verb/adjective
  suffix-to-ending rewrites giving a WordNet lemma);
- paraphrase: phrase pairs of a paraphrase table (both directions).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from scoring.lexicon.wordnet import WordNet
from scoring.metrics.meteor.paraphrase_table import ParaphraseTable

EXACT, STEM, SYNONYM, PARAPHRASE = 0, 1, 2, 3
MODULE_NAMES = ("exact", "stem", "synonym", "paraphrase")


class Match(NamedTuple):
    """A candidate match: ``ref[ref_start:ref_start+ref_len]`` with
    ``hyp[hyp_start:hyp_start+hyp_len]`` found by stage ``module`` (its index
    in the metric's module list)."""

    ref_start: int
    ref_len: int
    hyp_start: int
    hyp_len: int
    module: int
    ref_mask: int = 0  # bit masks of the covered positions (for the search)
    hyp_mask: int = 0


def make_match(
    ref_start: int, ref_len: int, hyp_start: int, hyp_len: int, module: int
) -> Match:
    """A :class:`Match` with its position bit masks filled in."""
    return Match(
        ref_start, ref_len, hyp_start, hyp_len, module,
        ((1 << ref_len) - 1) << ref_start, ((1 << hyp_len) - 1) << hyp_start,
    )  # fmt: skip


@dataclass
class Stage:
    """All candidate matches of one hypothesis/reference pair.

    ``matches[j]`` lists the candidates starting at reference word ``j``;
    ``hyp_coverage[i]`` / ``ref_coverage[j]`` count the candidates covering a
    word (a paraphrase covers all its words).
    """

    hyp: tuple[str, ...]
    ref: tuple[str, ...]
    matches: list[list[Match]] = field(init=False)
    hyp_coverage: list[int] = field(init=False)
    ref_coverage: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.matches = [[] for _ in self.ref]
        self.hyp_coverage = [0] * len(self.hyp)
        self.ref_coverage = [0] * len(self.ref)

    def add(self, match: Match) -> None:
        """Record a candidate."""
        self.matches[match.ref_start].append(match)
        for i in range(match.hyp_start, match.hyp_start + match.hyp_len):
            self.hyp_coverage[i] += 1
        for j in range(match.ref_start, match.ref_start + match.ref_len):
            self.ref_coverage[j] += 1


def match_keyed(
    stage: Stage,
    module: int,
    hyp_keys: Sequence[Iterable[Hashable]],
    ref_keys: Sequence[Iterable[Hashable]],
    different_words: bool,
) -> None:
    """Add a one-word match for every (ref j, hyp i) sharing a key, in
    (j, i) order; with ``different_words`` only for different words."""
    positions: dict[Hashable, list[int]] = {}
    for i, keys in enumerate(hyp_keys):
        for key in keys:
            positions.setdefault(key, []).append(i)
    hyp, ref = stage.hyp, stage.ref
    for j, keys in enumerate(ref_keys):
        found: set[int] = set()
        for key in keys:
            found.update(positions.get(key, ()))
        for i in sorted(found):
            if not different_words or hyp[i] != ref[j]:
                stage.add(make_match(j, 1, i, 1, module))


def match_exact(stage: Stage, module: int) -> None:
    match_keyed(
        stage, module, [(w,) for w in stage.hyp], [(w,) for w in stage.ref], False
    )


def match_stem(stage: Stage, module: int, stem: Callable[[str], str]) -> None:
    match_keyed(
        stage,
        module,
        [(stem(word),) for word in stage.hyp],
        [(stem(word),) for word in stage.ref],
        True,
    )


# METEOR's copy of WordNet 3.0's morphy suffix rules (noun, verb, adjective),
# tried in this order whatever the part of speech.
_SUFFIX_RULES = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
    ("shes", "sh"), ("men", "man"), ("ies", "y"),
    ("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
    ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)  # fmt: skip


def _base_form(word: str, synsets: Mapping[str, frozenset[int]]) -> str:
    """METEOR's ``morph``: the word itself when it ends in "ss" or has at most
    two letters, else the first suffix rewrite that is a WordNet lemma, else
    "" (no base form)."""
    if word.endswith("ss") or len(word) <= 2:
        return word
    for suffix, ending in _SUFFIX_RULES:
        if word.endswith(suffix):
            candidate = word[: len(word) - len(suffix)] + ending
            if candidate in synsets:
                return candidate
    return ""


@lru_cache(maxsize=2**16)
def synonym_sets(word: str, wordnet: WordNet) -> frozenset[int]:
    """The synsets METEOR gives ``word``: its own plus its base form's."""
    own = wordnet.synsets.get(word, frozenset())
    bases = wordnet.exceptions.get(word)
    if bases is not None:
        base_sets = [wordnet.synsets.get(base, frozenset()) for base in bases]
        return own.union(*base_sets)
    return own | wordnet.synsets.get(_base_form(word, wordnet.synsets), frozenset())


def match_synonym(stage: Stage, module: int, wordnet: WordNet) -> None:
    match_keyed(
        stage,
        module,
        [synonym_sets(word, wordnet) for word in stage.hyp],
        [synonym_sets(word, wordnet) for word in stage.ref],
        True,
    )


def _phrase_paths(
    words: Sequence[str], start: int, table: ParaphraseTable
) -> list[tuple[int, tuple[str, ...]]]:
    """``(source length, paraphrase)`` for phrases starting at ``start``,
    shortest first (METEOR's transducer walk)."""
    paths = []
    for length in range(1, min(table.max_len, len(words) - start) + 1):
        for paraphrase in table.phrases.get(tuple(words[start : start + length]), ()):
            paths.append((length, paraphrase))
    return paths


def _occurrences(words: Sequence[str], phrase: tuple[str, ...]) -> list[int]:
    size = len(phrase)
    return [
        i for i in range(len(words) - size + 1) if tuple(words[i : i + size]) == phrase
    ]


def match_paraphrase(stage: Stage, module: int, table: ParaphraseTable) -> None:
    """Reference phrases paraphrased in the hypothesis, then the reverse.

    (METEOR 1.3's matcher filed the reverse matches twice and counted only
    phrase starts as covered; the WMT21 and BLEND figures show that the 1.4/1.5
    jar does neither, which this follows.)
    """
    hyp, ref = stage.hyp, stage.ref
    for j in range(len(ref)):
        for length, paraphrase in _phrase_paths(ref, j, table):
            for i in _occurrences(hyp, paraphrase):
                stage.add(make_match(j, length, i, len(paraphrase), module))
    for i in range(len(hyp)):
        for length, paraphrase in _phrase_paths(hyp, i, table):
            for j in _occurrences(ref, paraphrase):
                stage.add(make_match(j, len(paraphrase), i, length, module))
