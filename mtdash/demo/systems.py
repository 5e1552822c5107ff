"""Demo MT systems whose true quality ranking is known by construction.

A fresh mtdash install needs some systems to show, and a dashboard for
comparing metrics is more instructive when we know which system *should*
win. So every demo system is the held-out human translation E of the demo
test set (never used as a reference, see :mod:`mtdash.demo.corpus`) damaged
automatically, with higher damage rates for lower-ranked systems.

Damage operations, applied to each sentence in this order on whitespace
tokens (punctuation glued to a token stays with it, as in raw MT output):

1. **untranslated** – a content word (4+ letters, not a function word) is
   replaced by a French content word copied from the source at roughly the
   aligned position, like a system leaving an unknown word untranslated.
   Capitalised French words (names) are never copied because copying a name
   is a correct translation, not an error.
2. **wrong word** – a content word is replaced by a word from
   :data:`WRONG_WORD_VOCABULARY`, a fixed list of words that occur in no
   reference, i.e. a mistranslation.
3. **drop** – a word is deleted.
4. **duplicate** – a word is repeated (a stuttering decoder).
5. **swap** – two adjacent words exchange places (word-order error).
6. **truncate** – the end of the sentence is cut off (premature end of
   sentence); the rate is the expected share of words cut.

Rates are per content word (1, 2), per word (3, 4), per adjacent pair (5) or
an expected share of the sentence (6). Each rate is non-decreasing down the
ranking, so every system is at least as damaged as the one above it.

Randomness: each (sentence, operation) pair gets its own
``random.Random`` seeded from the explicit ``seed``, and the *same* seeds are
used for every system. A system with a higher rate therefore damages a
superset of the positions damaged by a lower rate (exactly so for the first
operation; approximately for later ones, whose token positions shift), which
keeps the intended ranking stable instead of leaving it to chance. The global
``random`` module is never used, so output is deterministic for a given seed.

A sentence is never emptied: drops and truncation always keep at least one
word. Standard library only: a Django management command imports this module.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .corpus import DemoTestSet

#: Words used for "wrong word" damage. None of them occurs in any reference
#: (a test checks this), so each replacement is a genuine error.
WRONG_WORD_VOCABULARY: tuple[str, ...] = (
    "umbrella", "violin", "pencil", "carpet", "giraffe", "lantern", "meadow",
    "velvet", "compass", "pebble", "saddle", "thunder", "ribbon", "kettle",
    "marble", "feather", "candle", "ladder", "basket", "anchor", "cabbage",
    "trumpet", "blanket", "orchestra", "walnut", "chimney", "parrot", "dungeon",
)  # fmt: skip

# Function words are not "content words": replacing them would be an
# unrealistic error and would barely move the metrics.
_ENGLISH_FUNCTION_WORDS = frozenset(
    """about above after again against also among been before being below
    between both could does doing down during each even from further have
    having here into itself just more most much only other over same should
    since some such than that their theirs them then there these they this
    those though through under until very were what when where which while
    whom will with would your""".split()
)
_FRENCH_FUNCTION_WORDS = frozenset(
    """afin aussi avec avons celles celui cette dans depuis devant elle entre
    leur leurs mais même nous pour pourtant puis sera serait sont sous
    toutefois très vers""".split()
)

# Splits a token into leading punctuation, core and trailing punctuation.
_TOKEN_PARTS = re.compile(r"^(\W*)(.*?)(\W*)$")


@dataclass(frozen=True)
class PerturbationRates:
    """How strongly each damage operation is applied (all between 0 and 1)."""

    untranslated: float = 0.0  # per content word
    wrong_word: float = 0.0  # per content word
    drop: float = 0.0  # per word
    duplicate: float = 0.0  # per word
    swap: float = 0.0  # per adjacent pair
    truncate: float = 0.0  # expected share of the sentence cut from the end

    def describe(self) -> str:
        """One-line human-readable summary, used in system descriptions."""
        return (
            f"{_percent(self.untranslated)} of content words left in French, "
            f"{_percent(self.wrong_word)} replaced by a wrong word; "
            f"{_percent(self.drop)} of words dropped, "
            f"{_percent(self.duplicate)} duplicated; "
            f"{_percent(self.swap)} of adjacent word pairs swapped; "
            f"{_percent(self.truncate)} of each sentence truncated from the end "
            "on average"
        )


@dataclass(frozen=True)
class SystemRecipe:
    """How one demo system is made from translation E."""

    name: str
    persona: str  # noun phrase: the kind of real MT output its damage imitates
    rates: PerturbationRates


@dataclass(frozen=True)
class DemoSystem:
    """A demo system's output on the demo test set."""

    name: str
    description: str
    intended_rank: int  # 1 = best
    hypotheses: tuple[str, ...]


#: Demo systems from best to worst; a system's rank is its position + 1.
SYSTEM_RECIPES: tuple[SystemRecipe, ...] = (
    SystemRecipe(
        "neural-large",
        "near-human output",
        PerturbationRates(0.01, 0.01, 0.01, 0.01, 0.01, 0.0),
    ),
    SystemRecipe(
        "neural-base",
        "good output with occasional slips",
        PerturbationRates(0.03, 0.05, 0.04, 0.02, 0.04, 0.02),
    ),
    SystemRecipe(
        "phrase-based",
        "patchy output with some lexical errors",
        PerturbationRates(0.05, 0.08, 0.07, 0.03, 0.08, 0.04),
    ),
    SystemRecipe(
        "syntax-based",
        "output with many lexical and word-order errors",
        PerturbationRates(0.08, 0.11, 0.10, 0.05, 0.11, 0.06),
    ),
    SystemRecipe(
        "rule-based",
        "literal, error-prone output",
        PerturbationRates(0.12, 0.15, 0.13, 0.06, 0.15, 0.09),
    ),
    SystemRecipe(
        "word-by-word",
        "dictionary-based word-for-word output",
        PerturbationRates(0.18, 0.20, 0.16, 0.08, 0.22, 0.12),
    ),
    SystemRecipe(
        "baseline-copy",
        "a weak baseline that copies many source words",
        PerturbationRates(0.35, 0.25, 0.25, 0.12, 0.35, 0.25),
    ),
)


def demo_systems(test_set: DemoTestSet, seed: int = 2024) -> tuple[DemoSystem, ...]:
    """Build the demo systems for ``test_set``, best (rank 1) first.

    Deterministic: two calls with the same test set and seed return equal
    results.
    """
    systems = []
    for rank, recipe in enumerate(SYSTEM_RECIPES, start=1):
        hypotheses = tuple(
            perturb_sentence(
                translation,
                source,
                recipe.rates,
                seed_prefix=f"{seed}:{sentence_index}",
            )
            for sentence_index, (translation, source) in enumerate(
                zip(test_set.held_out_translation, test_set.sources, strict=True)
            )
        )
        description = (
            f"Held-out human translation E damaged to imitate {recipe.persona}: "
            f"{recipe.rates.describe()}."
        )
        systems.append(DemoSystem(recipe.name, description, rank, hypotheses))
    return tuple(systems)


def perturb_sentence(
    translation: str, source: str, rates: PerturbationRates, seed_prefix: str
) -> str:
    """Damage one English ``translation`` of French ``source`` at ``rates``.

    ``seed_prefix`` identifies the sentence; each operation derives its own
    random generator from it (see the module docstring for why). All-zero
    rates return the translation unchanged (whitespace normalised).
    """
    steps = damage_steps(translation.split(), source, rates, seed_prefix)
    *_, (_, damaged) = steps
    return " ".join(damaged)


def damage_steps(
    tokens: list[str], source: str, rates: PerturbationRates, seed_prefix: str
) -> Iterator[tuple[str, list[str]]]:
    """The damage operations of :func:`perturb_sentence`, in order: yields
    (operation, the tokens after it).

    An operation keeps the token objects it leaves in place (a kept, moved
    or repeated token is the very object it was given; a substituted one is
    new), and each yielded list is the one the next operation reads, so a
    caller may replace its items by equal ``str`` subclasses to follow each
    word through the damage (:mod:`mtdash.demo.make_span_demo` marks the
    demo's error spans so).
    """

    def rng_for(operation: str) -> random.Random:
        return random.Random(f"{seed_prefix}:{operation}")

    tokens = _substitute_words(tokens, source.split(), rates, rng_for("substitute"))
    yield "substitute", tokens
    tokens = _drop_words(tokens, rates.drop, rng_for("drop"))
    yield "drop", tokens
    tokens = _duplicate_words(tokens, rates.duplicate, rng_for("duplicate"))
    yield "duplicate", tokens
    tokens = _swap_adjacent_words(tokens, rates.swap, rng_for("swap"))
    yield "swap", tokens
    tokens = _truncate(tokens, rates.truncate, rng_for("truncate"))
    yield "truncate", tokens


def _percent(rate: float) -> str:
    return f"{rate * 100:g}%"


def _split_token(token: str) -> tuple[str, str, str]:
    """Split ``token`` into (leading punctuation, core, trailing punctuation)."""
    match = _TOKEN_PARTS.match(token)
    assert match is not None  # the pattern matches any string
    return match.group(1), match.group(2), match.group(3)


def _is_content_word(core: str, function_words: frozenset[str]) -> bool:
    letters = sum(character.isalpha() for character in core)
    return letters >= 4 and core.lower() not in function_words


def _french_candidates(source_tokens: Sequence[str]) -> list[str]:
    """Lower-case French content words of the source, in source order."""
    candidates = []
    for token in source_tokens:
        _, core, _ = _split_token(token)
        if core[:1].islower() and _is_content_word(core, _FRENCH_FUNCTION_WORDS):
            candidates.append(core)
    return candidates


def _substitute_words(
    tokens: list[str],
    source_tokens: Sequence[str],
    rates: PerturbationRates,
    rng: random.Random,
) -> list[str]:
    """Apply the "untranslated" and "wrong word" operations."""
    french_words = _french_candidates(source_tokens)
    result = []
    for position, token in enumerate(tokens):
        # Draw for every token, content word or not, so that the random
        # stream stays aligned across systems (see module docstring).
        draw = rng.random()
        choice = rng.random()
        leading, core, trailing = _split_token(token)
        if not _is_content_word(core, _ENGLISH_FUNCTION_WORDS):
            result.append(token)
        elif draw < rates.untranslated and french_words:
            # The French word at the same relative position approximates the
            # word an aligner would link to this one.
            relative_position = position / max(len(tokens) - 1, 1)
            aligned = round(relative_position * (len(french_words) - 1))
            result.append(f"{leading}{french_words[aligned]}{trailing}")
        elif draw < rates.untranslated + rates.wrong_word:
            wrong = WRONG_WORD_VOCABULARY[int(choice * len(WRONG_WORD_VOCABULARY))]
            if core[:1].isupper():
                wrong = wrong.capitalize()
            result.append(f"{leading}{wrong}{trailing}")
        else:
            result.append(token)
    return result


def _drop_words(tokens: list[str], rate: float, rng: random.Random) -> list[str]:
    kept = [token for token in tokens if rng.random() >= rate]
    # Never return an empty sentence: fall back to the first word.
    return kept or tokens[:1]


def _duplicate_words(tokens: list[str], rate: float, rng: random.Random) -> list[str]:
    result = []
    for token in tokens:
        result.append(token)
        if rng.random() < rate:
            result.append(token)
    return result


def _swap_adjacent_words(
    tokens: list[str], rate: float, rng: random.Random
) -> list[str]:
    result = list(tokens)
    just_swapped = False
    for position in range(len(result) - 1):
        # One draw per pair whatever happens, to keep systems' streams aligned.
        draw = rng.random()
        if draw < rate and not just_swapped:  # a moved word is not moved again
            next_position = position + 1
            result[position], result[next_position] = (
                result[next_position],
                result[position],
            )
            just_swapped = True
        else:
            just_swapped = False
    return result


def _truncate(tokens: list[str], rate: float, rng: random.Random) -> list[str]:
    # Uniform share in [0, 2 * rate] has mean ``rate``; capped so at least
    # one word survives.
    share = min(rng.random() * 2 * rate, 1.0)
    words_to_cut = min(round(len(tokens) * share), len(tokens) - 1)
    return tokens[: len(tokens) - words_to_cut]
