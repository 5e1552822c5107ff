"""Readability of texts (Babych et al.): sentence length, syllables per word,
Flesch scores, and metric scores normalised by text complexity.

The public API the dashboard uses (``mtdash`` imports only this package):

- :func:`text_complexity` -> :class:`TextComplexity` (ASL, ASW, Flesch Reading
  Ease, Flesch-Kincaid grade of one text, one sentence per segment);
- :data:`LANGUAGES` / :data:`STYLES` / :func:`get_syllable_counter`: which
  languages have syllable rules, and their counters;
- :func:`split_sentences`: the sentences of one segment (ASL counts them);
- :func:`normalisation_coefficient`, :func:`normalise_scores`,
  :data:`NORMALISATION_POWERS` (BLEU x C², WNM x C);
- :func:`stability_table` -> :class:`StabilityTable` (Tables 4-5: raw and
  normalised scores and their standard deviations across text types);
- :func:`readability_correlations` -> :class:`ReadabilityCorrelations`
  (Table 3).
"""

from scoring.readability.complexity import (
    SENTENCE_MODES,
    TextComplexity,
    flesch_kincaid_grade,
    flesch_reading_ease,
    split_words,
    text_complexity,
)
from scoring.readability.normalisation import (
    NORMALISATION_POWERS,
    ReadabilityCorrelations,
    StabilityTable,
    normalisation_coefficient,
    normalise_scores,
    readability_correlations,
    sample_standard_deviation,
    stability_table,
)
from scoring.readability.sentences import split_sentences
from scoring.readability.syllables.counter import (
    LANGUAGES,
    STYLES,
    SyllableCounter,
    count_syllables,
    get_syllable_counter,
)

__all__ = [
    "LANGUAGES",
    "NORMALISATION_POWERS",
    "SENTENCE_MODES",
    "STYLES",
    "ReadabilityCorrelations",
    "StabilityTable",
    "SyllableCounter",
    "TextComplexity",
    "count_syllables",
    "flesch_kincaid_grade",
    "flesch_reading_ease",
    "get_syllable_counter",
    "normalisation_coefficient",
    "normalise_scores",
    "readability_correlations",
    "sample_standard_deviation",
    "split_sentences",
    "split_words",
    "stability_table",
    "text_complexity",
]
