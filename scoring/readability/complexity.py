"""Readability figures of a text: ASL, ASW, Flesch Reading Ease and Kincaid grade.

Babych, Elliott & Hartley (2005), *Extending MT evaluation tools with
translation complexity metrics*, predict how hard a source text is for MT
from two resource-light parameters of the standard readability formulas:

* ASL, average sentence length = words / sentences;
* ASW, average syllables per word = syllables / words;
* Flesch Reading Ease FR = 206.835 - 1.015 * ASL - 84.6 * ASW (about 0-100,
  higher = easier);
* Flesch-Kincaid grade FKGL = 0.39 * ASL + 11.8 * ASW - 15.59 (US school
  grade, higher = harder).

They found ASW the best predictor (Table 3: r = -0.923 on average with BLEU
and WNM) and normalise scores by it (:mod:`scoring.readability.normalisation`).

Counting rules (the paper does not state its tokenisation; these follow its
reading of ASW as the complexity of the *lexicon*):

* a sentence is a piece of a segment (one line of an MT test set) cut by
  :func:`scoring.readability.sentences.split_sentences` (full stops, question
  and exclamation marks, with each language's abbreviations, decimals,
  ordinals and quotes) that has at least one word; ``sentences="line"``
  keeps the older count of one sentence per line with a word;
* a word is a run of letters (any script, with combining marks), joined by
  inner apostrophes and hyphens into one word (``don't``, ``l'homme``,
  ``e-mail``, ``Saint-Brieuc``), as Flesch counts contractions and hyphenated
  words;
* numbers and punctuation are not words: a whitespace-separated token that
  contains a digit (``835``, ``2,4``, ``COVID-19``, ``9th``) is left out
  entirely, because its syllables depend on how it is read aloud in each
  language, and punctuation is dropped (Flesch's own instructions count
  figures as words read aloud; a figure would need a number reader per
  language, and it says nothing about the lexicon);
* syllables come from :mod:`scoring.readability.syllables.counter` (language-specific).

Worked example: "The cat sat on the table." and "It was happy." have 2
sentences, 6 + 3 = 9 words and 7 + 4 = 11 syllables (ta-ble, hap-py), so
ASL = 4.5 and ASW = 11/9 = 1.2222; FR = 206.835 - 4.5675 - 103.4 = 98.8675
and FKGL = 1.755 + 14.4222 - 15.59 = 0.5872 (see :func:`text_complexity`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from scoring.errors import ScoringError
from scoring.readability.sentences import split_sentences
from scoring.readability.syllables.counter import SyllableCounter, get_syllable_counter
from scoring.results import json_safe
from scoring.version import __version__

_LETTERS = "(?:[^\\W\\d_][\u0300-\u036f]*)+"  # letters, each with its combining marks
_JOINERS = "[-\u2010\u2011'\u2019\u02bc]"  # hyphens and apostrophes inside a word
_WORD = re.compile(f"{_LETTERS}(?:{_JOINERS}{_LETTERS})*")


def split_words(segment: str) -> tuple[str, ...]:
    """The words of one segment, as counted for ASL and ASW (see module).

    >>> split_words("L'éolien, en 2021 : 62 turbines (Saint-Brieuc)!")
    ("L'éolien", 'en', 'turbines', 'Saint-Brieuc')
    """
    words: list[str] = []
    for token in unicodedata.normalize("NFC", segment).split():
        if any(char.isdigit() for char in token):
            continue  # a number or a code such as 9th, 5G, COVID-19
        words.extend(_WORD.findall(token))
    return tuple(words)


def flesch_reading_ease(asl: ArrayLike, asw: ArrayLike) -> float | np.ndarray:
    """FR = 206.835 - 1.015 * ASL - 84.6 * ASW; arrays broadcast.

    >>> round(flesch_reading_ease(21.4, 1.86), 3)
    27.758
    """
    result = 206.835 - 1.015 * np.asarray(asl, float) - 84.6 * np.asarray(asw, float)
    return float(result) if result.ndim == 0 else result


def flesch_kincaid_grade(asl: ArrayLike, asw: ArrayLike) -> float | np.ndarray:
    """FKGL = 0.39 * ASL + 11.8 * ASW - 15.59; arrays broadcast.

    >>> round(flesch_kincaid_grade(21.4, 1.86), 3)
    14.704
    """
    result = 0.39 * np.asarray(asl, float) + 11.8 * np.asarray(asw, float) - 15.59
    return float(result) if result.ndim == 0 else result


@dataclass(frozen=True)
class TextComplexity:
    """Readability counts of one text and the figures derived from them.

    Attributes:
        language: ISO 639-1 code of the text (``"en"``, ``"de"``...).
        syllables: the syllable counter's label (``SyllableCounter.signature``).
        n_segments: lines read, including those without words.
        n_sentences: sentences with at least one word (see ``sentences``).
        n_words: words (alphabetic tokens, see the module).
        n_syllables: syllables of those words.

    The figures are properties: ``asl`` (words per sentence), ``asw``
    (syllables per word), ``flesch_reading_ease`` (about 0-100, higher is
    easier) and ``flesch_kincaid_grade`` (US grade). They are NaN when the
    text has no words.
    """

    language: str
    syllables: str
    n_segments: int
    n_sentences: int
    n_words: int
    n_syllables: int
    sentences: str = "split"  # "split" (within lines) or "line" (one per line)

    @property
    def asl(self) -> float:
        """Average sentence length in words."""
        return self.n_words / self.n_sentences if self.n_sentences else float("nan")

    @property
    def asw(self) -> float:
        """Average syllables per word."""
        return self.n_syllables / self.n_words if self.n_words else float("nan")

    @property
    def flesch_reading_ease(self) -> float:
        """206.835 - 1.015 * ASL - 84.6 * ASW."""
        return float(flesch_reading_ease(self.asl, self.asw))

    @property
    def flesch_kincaid_grade(self) -> float:
        """0.39 * ASL + 11.8 * ASW - 15.59."""
        return float(flesch_kincaid_grade(self.asl, self.asw))

    @property
    def signature(self) -> str:
        """Every setting that changes the figures, sacreBLEU style."""
        return (
            f"complexity|lang:{self.language}|syl:{self.syllables}"
            f"|words:letters-no-numbers|sent:{self.sentences}|version:{__version__}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (NaN becomes ``None``)."""
        return json_safe(
            {
                "language": self.language,
                "sentences": self.sentences,
                "n_segments": self.n_segments,
                "n_sentences": self.n_sentences,
                "n_words": self.n_words,
                "n_syllables": self.n_syllables,
                "asl": self.asl,
                "asw": self.asw,
                "flesch_reading_ease": self.flesch_reading_ease,
                "flesch_kincaid_grade": self.flesch_kincaid_grade,
                "signature": self.signature,
            }
        )


#: How sentences are counted: cut within lines, or one per line.
SENTENCE_MODES = ("split", "line")


def segment_counts(
    segments: Sequence[str],
    counter: SyllableCounter,
    sentences: str = "split",
) -> np.ndarray:
    """Words, syllables and sentences per segment, shape ``(n_segments, 3)``.

    Column sums give a text's totals, so a bootstrap over segments can
    resample rows without reading the text again.
    """
    counts = np.zeros((len(segments), 3), dtype=np.int64)
    for row, segment in enumerate(segments):
        words = split_words(segment)
        if sentences == "line" or not words:
            n_sentences = int(bool(words))
        else:
            pieces = split_sentences(segment, counter.language)
            n_sentences = sum(1 for piece in pieces if split_words(piece))
        counts[row] = (
            len(words),
            sum(counter.count(word) for word in words),
            n_sentences,
        )
    return counts


def text_complexity(
    segments: Sequence[str],
    language: str = "en",
    style: str | None = None,
    sentences: str = "split",
) -> TextComplexity:
    """ASL, ASW and the Flesch figures of ``segments``.

    ``style`` chooses the syllable counting style (French: ``"spoken"``, the
    default, or ``"written"``); see :mod:`scoring.readability.syllables.counter`.
    ``sentences`` is ``"split"`` (sentences within lines, the default) or
    ``"line"`` (one sentence per line with a word).

    >>> figures = text_complexity(["The cat sat on the table. It was happy."])
    >>> figures.n_sentences, figures.n_words, figures.n_syllables
    (2, 9, 11)
    >>> round(figures.flesch_reading_ease, 4), round(figures.flesch_kincaid_grade, 4)
    (98.8675, 0.5872)
    >>> text_complexity(["The cat sat on the table. It was happy."], sentences="line").asl
    9.0
    """
    if sentences not in SENTENCE_MODES:
        raise ScoringError(
            f"sentences must be one of {', '.join(SENTENCE_MODES)}, not {sentences!r}"
        )
    counter = get_syllable_counter(language, style)
    counts = segment_counts(segments, counter, sentences)
    return TextComplexity(
        language=language,
        syllables=counter.signature,
        n_segments=len(segments),
        n_sentences=int(counts[:, 2].sum()),
        n_words=int(counts[:, 0].sum()),
        n_syllables=int(counts[:, 1].sum()),
        sentences=sentences,
    )
