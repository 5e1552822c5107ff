"""RED's semantic codes: WordNet synsets of content words (optional).

Akiba et al. (2001) compare content words by the semantic code of a
thesaurus, so "karya" and "kaam" (both "work") match. We use WordNet 3.0
(Debian's ``wordnet-base`` files, read by :mod:`scoring.lexicon.wordnet`): a word's
codes are the synsets of its lemma forms, and two content words match when
they share a synset. A word with several senses has several codes, so
matching is a relation rather than one code per word; for the edit
distance, each hypothesis content word that is not in the reference takes
the form of the first reference content word it shares a synset with.

Lemma forms of a word: the word itself, its irregular base forms from the
``<pos>.exc`` exception lists, and the results of WordNet's regular
detachment rules ("morphy": e.g. ``-ies -> -y``, ``-ing -> ""``) that are
WordNet lemmas. Multi-word lemmas are not looked up (units are tokens).

Without the WordNet files the semantic features are unavailable and
:func:`load_synonyms` returns ``None``; the caller reports it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from scoring.lexicon.wordnet import DEFAULT_WORDNET_DIR, WordNet, load_wordnet

Synonyms = Callable[[str], frozenset[int]]

# WordNet's morphological detachment rules (suffix, replacement) for nouns,
# verbs and adjectives, as listed in the morphy(7WN) manual page.
_DETACHMENT_RULES = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("er", ""),
    ("est", ""),
    ("er", "e"),
    ("est", "e"),
)


def lemma_forms(word: str, wordnet: WordNet) -> frozenset[str]:
    """The word and its base forms that are WordNet lemmas (lower case).

    >>> from types import SimpleNamespace
    >>> toy = SimpleNamespace(
    ...     synsets={"city": {1}, "go": {2}}, exceptions={"went": ("go",)}
    ... )
    >>> sorted(lemma_forms("cities", toy)), sorted(lemma_forms("went", toy))
    (['cities', 'city'], ['go', 'went'])
    """
    forms = {word, *wordnet.exceptions.get(word, ())}
    for suffix, replacement in _DETACHMENT_RULES:
        if word.endswith(suffix) and len(word) > len(suffix):
            base = word[: -len(suffix)] + replacement
            if base in wordnet.synsets:
                forms.add(base)
    return frozenset(forms)


def synonyms_of(wordnet: WordNet) -> Synonyms:
    """``word -> synset ids`` of all its lemma forms (cached per word)."""

    @lru_cache(maxsize=2**16)
    def synsets(word: str) -> frozenset[int]:
        ids: set[int] = set()
        for form in lemma_forms(word, wordnet):
            ids.update(wordnet.synsets.get(form, ()))
        return frozenset(ids)

    return synsets


@lru_cache(maxsize=4)
def load_synonyms(directory: str = DEFAULT_WORDNET_DIR) -> Synonyms | None:
    """Synset lookup from the WordNet files in ``directory``, or None if absent."""
    wordnet = load_wordnet(directory)
    return None if wordnet is None else synonyms_of(wordnet)
