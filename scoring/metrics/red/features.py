"""RED's features: sixteen (or eight) edit distances to the references.

Akiba, Imamura & Sumita (2001), as the lecture notes (seed 002) describe
them: the base distance ED1 (insertion, deletion, replacement of words) and
its variations by four policies, numbered as in the lecture's table (swap is
the most significant bit, keywords the least):

    ED(1 + 8*swap + 4*content + 2*semantic + 1*keywords)

- swap: the swap of two adjacent words is one more edit operation, costing 1;
- content: only content words are edited (the others are removed first);
- semantic: content words are compared by semantic code instead of form:
  two content words match when they share a WordNet synset (see
  :mod:`scoring.metrics.red.semantic`; needs the WordNet files);
- keywords: only keywords are edited, the words that occur in two or more of
  the segment's references. With a single reference every reference word is
  a keyword (the policy then removes the hypothesis words the reference does
  not have, leaving order and omissions to count).

Language-independent choices, since Akiba et al. had a Japanese
morphological analyser and we have none:

- units are tokens of a :mod:`scoring.tokenizers` tokenizer with case folding
  (the model file names them; 13a + lower case for the shipped model), and a
  token's form stands for the paper's "base form + part of speech";
- a content word is a token with at least one letter or digit that is not in
  the function-word list of the language. Only English (``en``) has a list
  (below); for any other language every alphanumeric token is a content
  word, so the content policy then only drops punctuation and symbols;
- each distance is normalised as in the lecture's word accuracy,
  d / max(|hypothesis|, |reference|) (0 when both are empty), so features lie
  in [0, 1]; with several references each feature takes the closest one.

Shapes: ``features(...)`` returns ``(n_segments, n_features)`` floats.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from scoring.metrics.red.edit_distance import edit_distances_by_swap

Tokens = tuple[str, ...]
Synonyms = Callable[[str], frozenset[int]]

# Function words of English (articles, pronouns, prepositions, conjunctions,
# auxiliaries, modals, particles and a few adverbs of degree), lower case, in
# the forms the 13a tokenizer leaves (it does not split "n't" or "'s").
_ENGLISH_FUNCTION_WORDS = frozenset(
    """
    a an the this that these those some any each every no other such what which
    who whom whose whatever whichever i me my mine myself we us our ours
    ourselves you your yours yourself yourselves he him his himself she her hers
    herself it its itself they them their theirs themselves one ones
    about above across after against along among around as at before behind
    below beneath beside besides between beyond by despite down during except
    for from in inside into like near of off on onto out outside over past per
    since than through throughout till to toward towards under underneath
    unlike until up upon via with within without
    and but or nor so yet if then else because although though while whereas
    whether unless once where when whenever wherever how why
    be am is are was were been being have has had having do does did doing
    will would shall should can could may might must ought
    not n't 's 're 've 'd 'll 'm there here very too also just only even still
    again ever never often already much many more most less least few lot lots
    all both either neither own same quite rather
    isn't aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't
    won't wouldn't shan't shouldn't can't cannot couldn't mustn't mightn't
    i'm i've i'd i'll you're you've you'd you'll he's he'd he'll she's she'd
    she'll it's we're we've we'd we'll they're they've they'd they'll that's
    there's here's what's who's let's
    """.split()
)
FUNCTION_WORDS: dict[str, frozenset[str]] = {"en": _ENGLISH_FUNCTION_WORDS}


def is_content_word(token: str, language: str) -> bool:
    """True for a token with a letter or digit that is no function word.

    >>> is_content_word("house", "en"), is_content_word("the", "en")
    (True, False)
    >>> is_content_word(",", "de"), is_content_word("der", "de")
    (False, True)
    """
    if not any(character.isalnum() for character in token):
        return False
    return token not in FUNCTION_WORDS.get(language, frozenset())


@dataclass(frozen=True)
class Variant:
    """One of Akiba's edit distances: which policies are on."""

    swap: bool
    content: bool
    semantic: bool
    keywords: bool

    @property
    def number(self) -> int:
        """1..16 as in the lecture's table."""
        return 1 + 8 * self.swap + 4 * self.content + 2 * self.semantic + self.keywords

    @property
    def name(self) -> str:
        """``ED<number>`` and the policies, e.g. ``ED14-swap-content-keywords``."""
        policies = [
            label
            for label, on in (
                ("swap", self.swap),
                ("content", self.content),
                ("semantic", self.semantic),
                ("keywords", self.keywords),
            )
            if on
        ]
        return "-".join([f"ED{self.number}", *policies])


ALL_VARIANTS = tuple(
    Variant(bool(k & 8), bool(k & 4), bool(k & 2), bool(k & 1)) for k in range(16)
)
BASIC_VARIANTS = tuple(variant for variant in ALL_VARIANTS if not variant.semantic)
FEATURE_SETS: dict[str, tuple[Variant, ...]] = {
    "basic": BASIC_VARIANTS,  # 8 distances, no WordNet
    "semantic": ALL_VARIANTS,  # all 16
}


def keywords(references: Sequence[Tokens]) -> frozenset[str]:
    """Words in at least two references (in the only one, if there is one).

    >>> sorted(keywords([("a", "b"), ("b", "c"), ("c", "b")]))
    ['b', 'c']
    """
    needed = min(2, len(references))
    seen: dict[str, int] = {}
    for tokens in references:
        for word in set(tokens):
            seen[word] = seen.get(word, 0) + 1
    return frozenset(word for word, count in seen.items() if count >= needed)


def features(
    hypotheses: Sequence[Tokens],
    references: Sequence[Sequence[Tokens]],
    variants: Sequence[Variant],
    language: str = "en",
    synonyms: Synonyms | None = None,
) -> np.ndarray:
    """Normalised edit distances, ``(n_segments, len(variants))`` in [0, 1].

    ``references[i]`` holds the (one or more) token tuples of segment ``i``.
    ``synonyms`` maps a word to its WordNet synset ids (see
    :mod:`scoring.metrics.red.semantic`); it is required by the semantic variants.
    """
    if any(variant.semantic for variant in variants) and synonyms is None:
        raise ValueError("semantic variants need WordNet synonyms")
    n_segments = len(hypotheses)
    if n_segments == 0:
        return np.zeros((0, len(variants)), dtype=np.float64)
    counts = [len(refs) for refs in references]
    segment_of_pair = np.repeat(np.arange(n_segments), counts)
    group_starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    keyword_sets = [keywords(refs) for refs in references]
    ids: dict[str, int] = {}

    content_words: dict[str, bool] = {}

    def is_content(token: str) -> bool:
        flag = content_words.get(token)
        if flag is None:
            flag = content_words[token] = is_content_word(token, language)
        return flag

    def kept(tokens: Tokens, segment: int, content: bool, keyword: bool) -> list[str]:
        if not (content or keyword):
            return list(tokens)
        keep = keyword_sets[segment]
        return [
            token
            for token in tokens
            if (not keyword or token in keep) and (not content or is_content(token))
        ]

    def encode(words: Sequence[str]) -> np.ndarray:
        return np.array([ids.setdefault(word, len(ids)) for word in words], np.int64)

    result = np.zeros((n_segments, len(variants)), dtype=np.float64)
    # Variants that differ only in the swap policy edit the same sequences.
    by_policy: dict[tuple[bool, bool, bool], list[int]] = {}
    for column, variant in enumerate(variants):
        policy = (variant.content, variant.semantic, variant.keywords)
        by_policy.setdefault(policy, []).append(column)
    for (content, semantic, keyword), columns in by_policy.items():
        hyps = [
            kept(tokens, i, content, keyword) for i, tokens in enumerate(hypotheses)
        ]
        refs = [
            kept(tokens, i, content, keyword)
            for i, segment_refs in enumerate(references)
            for tokens in segment_refs
        ]
        if semantic:
            assert synonyms is not None
            firsts = [
                encode(_as_reference_synonyms(hyps[i], ref, language, synonyms))
                for i, ref in zip(segment_of_pair, refs)
            ]
        else:
            hyp_codes = [encode(words) for words in hyps]
            firsts = [hyp_codes[i] for i in segment_of_pair]
        seconds = [encode(words) for words in refs]
        longest = np.maximum([len(s) for s in firsts], [len(s) for s in seconds])
        swaps = [variants[column].swap for column in columns]
        distances = edit_distances_by_swap(firsts, seconds, swaps)
        normalised = np.where(longest == 0, 0.0, distances / np.maximum(longest, 1))
        result[:, columns] = np.minimum.reduceat(normalised, group_starts, axis=1).T
    return result


def _as_reference_synonyms(
    hypothesis: Sequence[str],
    reference: Sequence[str],
    language: str,
    synonyms: Synonyms,
) -> list[str]:
    """Hypothesis words, each content word not in the reference replaced by
    the first reference content word it shares a WordNet synset with.

    >>> table = {"begin": frozenset({1}), "start": frozenset({1, 2})}
    >>> _as_reference_synonyms(["we", "begin"], ["we", "start"], "en",
    ...                        lambda word: table.get(word, frozenset()))
    ['we', 'start']
    """
    present = set(reference)
    candidates = [
        (word, synonyms(word))
        for word in dict.fromkeys(reference)
        if is_content_word(word, language)
    ]
    result = []
    for word in hypothesis:
        if word not in present and is_content_word(word, language):
            own = synonyms(word)
            word = next((ref for ref, ids in candidates if own & ids), word)
        result.append(word)
    return result
