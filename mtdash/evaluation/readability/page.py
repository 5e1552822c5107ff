"""Readability of a test set's source and references (Babych et al. 2005).

ASL, ASW, Flesch Reading Ease and Flesch-Kincaid grade come from
:func:`scoring.readability.text_complexity`, one text at a time, with the
syllable rules of the text's language (the library has Czech, German,
English, Spanish, French and Russian); a text in another language is listed
without figures, saying why, because another language's rules on its words
would give numbers that look right and mean nothing.

Counting is a worker's job, never a request's (a WMT test set with two
references took 10.6 s): a :class:`~mtdash.evaluation.models.ReadabilityJob`
(:mod:`~mtdash.evaluation.readability.jobs`) counts every text and
stores the counts as the test set's ``readability``
:class:`~mtdash.evaluation.models.TestSetAnalysis`, keyed by a digest of its
inputs (:func:`readability_inputs`: the library's counters and each text's
size, read with aggregate queries, no text). Pages only read it
(:func:`~mtdash.evaluation.readability.jobs.readability_state`)
and queue a job when it is missing or stale.
Only the counts are stored; the figures are recomputed from them by
:class:`scoring.readability.TextComplexity`, so they are always the library's.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Sum
from django.db.models.functions import Length

from mtdash.common.jobs import JobQuerySet
from mtdash.common.languages import language_label, language_name
from mtdash.evaluation.models import (
    ReferenceSegment,
    TestSet,
    TestSetAnalysis,
)
from scoring import __version__ as SCORING_VERSION
from scoring.readability import (
    LANGUAGES,
    SENTENCE_MODES,
    TextComplexity,
    get_syllable_counter,
)
from scoring.readability import text_complexity as measure_text

KIND = "readability"

# What each language's syllable rules are, for the page (see
# scoring.readability.syllables.counter for the rules and their accuracy).
SYLLABLE_RULES = {
    "cs": "Czech syllable rules: vowel groups (ou, au, eu one), syllabic r "
    "and l, k s v z no syllable; 99.5% agreement with espeak-ng on news text",
    "de": "German syllable rules: vowel groups with German diphthongs (ei, "
    "au, eu, ie) and hiatus; 98.9% agreement with espeak-ng on WMT21 sources",
    "en": "English syllables from the CMU Pronouncing Dictionary; words it "
    "lacks by pyphen's en_US hyphenation patterns and vowel-group rules (99% "
    "agreement with the dictionary on the words it lists)",
    "es": "Spanish syllable rules: strong and weak vowels, diphthongs and "
    "hiatus as in Spanish orthography; 98.4% agreement with espeak-ng",
    "fr": "French syllable rules (spoken syllables): vowel groups with French "
    "hiatus and mute-e rules; 98-99% agreement with espeak-ng on running text",
    "ru": "Russian syllables: one per vowel letter, в к с none; 99.8% "
    "agreement with espeak-ng on WMT21 sources",
}


@dataclass(frozen=True)
class TextReadability:
    """The readability of one text of a test set (its source or a reference).

    ``figures`` is None when the language has no syllable counter
    (``reason`` says so) or the text has no words; the figures are then not
    shown at all.
    """

    role: str  # "source" or "reference"
    label: str  # "" for the source, the translator label for a reference
    language: str  # ISO code as stored on the test set
    figures: TextComplexity | None
    reason: str = ""

    @property
    def title(self) -> str:
        return "Source" if self.role == "source" else f"Reference {self.label}"

    @property
    def language_name(self) -> str:
        return language_name(self.language)

    @property
    def rules(self) -> str:
        return SYLLABLE_RULES.get(syllable_language(self.language) or "", "")

    def to_dict(self) -> dict:
        """JSON-safe form (the API's object for one text)."""
        return {
            "role": self.role,
            "label": self.label,
            "language": self.language,
            "measured": self.figures is not None,
            "reason": self.reason,
            "syllable_rules": self.rules,
            "figures": self.figures.to_dict() if self.figures else None,
        }


@dataclass(frozen=True)
class TestSetReadability:
    """Every text of one test set, source first, then references by label."""

    test_set_id: int
    texts: tuple[TextReadability, ...]
    computed_at: datetime | None
    seconds: float  # the worker's counting time
    __test__ = False

    @property
    def source(self) -> TextReadability:
        return self.texts[0]

    @property
    def references(self) -> tuple[TextReadability, ...]:
        return self.texts[1:]

    def to_dict(self) -> dict:
        return {
            "test_set": self.test_set_id,
            "computed_at": self.computed_at.isoformat() if self.computed_at else None,
            "texts": [text.to_dict() for text in self.texts],
        }


def syllable_language(code: str) -> str | None:
    """The library language whose syllable rules apply to ``code`` (``en``,
    ``en-GB`` -> ``en``), or None when it has none."""
    primary = code.strip().lower().replace("_", "-").split("-")[0]
    return primary if primary in LANGUAGES else None


def unsupported_reason(code: str) -> str:
    supported = ", ".join(language_label(c) for c in LANGUAGES)
    return (
        f"No syllable rules for {language_label(code)}: the library "
        f"counts syllables in {supported} only, so ASW and the Flesch figures "
        "of this text are not computed."
    )


def stored_readability(
    test_set: TestSet, inputs: str | None = None
) -> TestSetReadability | None:
    """The stored counts if they were made from the current inputs, else None.
    Never counts."""
    inputs = inputs or readability_inputs(test_set)
    stored = TestSetAnalysis.objects.filter(test_set=test_set, kind=KIND).first()
    if stored is None or stored.inputs != inputs or not isinstance(stored.data, dict):
        return None
    return _from_counts(test_set.pk, stored.data, stored.computed_at)


def readability_inputs(test_set: TestSet) -> str:
    """Digest of what the counts depend on: the library's version and
    counters, the languages, and each text's segments (count and total
    length, by aggregate queries: no text is read)."""
    sources = test_set.segments.aggregate(n=Count("pk"), chars=Sum(Length("source")))
    references = list(
        ReferenceSegment.objects.filter(reference_set__test_set=test_set)
        .values("reference_set__label")
        .order_by("reference_set__label")
        .annotate(n=Count("pk"), chars=Sum(Length("text")))
        .values_list("reference_set__label", "n", "chars")
    )
    parts = [
        SCORING_VERSION,
        _counter_signatures(),
        SENTENCE_MODES[0],
        test_set.source_language,
        test_set.target_language,
        [sources["n"], sources["chars"]],
        references,
    ]
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()


def measure_test_set(test_set: TestSet, jobs: JobQuerySet | None = None) -> None:
    """Count every text of ``test_set`` and store the counts (the worker's
    part); ``jobs`` (the claimed job) gets progress reports and must still
    hold its lease when the counts are saved. Storing replaces, so running
    twice is harmless."""
    inputs = readability_inputs(test_set)
    texts = _texts(test_set)
    started = time.perf_counter()
    counts = []
    for done, text in enumerate(texts, start=1):
        counts.append(_count(text))
        if jobs is not None:
            jobs.report_progress(int(100 * done / len(texts)))
    data = {"texts": counts, "seconds": round(time.perf_counter() - started, 3)}
    if jobs is not None:
        jobs.hold_lease()
    TestSetAnalysis.objects.update_or_create(
        test_set=test_set, kind=KIND, defaults={"inputs": inputs, "data": data}
    )


def _texts(test_set: TestSet) -> list[tuple[str, str, str, list[str]]]:
    """(role, label, language, segments) of the source, then each reference."""
    sources = list(test_set.segments.order_by("index").values_list("source", flat=True))
    texts = [("source", "", test_set.source_language, sources)]
    rows = (
        ReferenceSegment.objects.filter(reference_set__test_set=test_set)
        .order_by("reference_set__label", "index")
        .values_list("reference_set__label", "text")
    )
    by_label: dict[str, list[str]] = {}
    for label, text in rows:
        by_label.setdefault(label, []).append(text)
    for label, segments in by_label.items():
        texts.append(("reference", label, test_set.target_language, segments))
    return texts


def _counter_signatures() -> list[str]:
    return [get_syllable_counter(language).signature for language in LANGUAGES]


def _count(text: tuple[str, str, str, list[str]]) -> dict:
    """The counts of one text (what is stored): the library's TextComplexity
    fields, or none for a language without syllable rules."""
    role, label, language, segments = text
    entry = {"role": role, "label": label, "language": language}
    syllables = syllable_language(language)
    if syllables:
        figures = measure_text(segments, syllables)
        entry["counts"] = {
            "language": figures.language,
            "syllables": figures.syllables,
            "n_segments": figures.n_segments,
            "n_sentences": figures.n_sentences,
            "n_words": figures.n_words,
            "n_syllables": figures.n_syllables,
            "sentences": figures.sentences,
        }
    return entry


def _from_counts(
    test_set_id: int, data: dict, computed_at: datetime | None
) -> TestSetReadability:
    texts = []
    for entry in data["texts"]:
        stored = entry.get("counts")
        figures = TextComplexity(**stored) if stored else None
        reason = ""
        if figures is None:
            reason = unsupported_reason(entry["language"])
        elif figures.n_words == 0:
            figures, reason = None, "This text has no words to measure."
        texts.append(
            TextReadability(
                entry["role"], entry["label"], entry["language"], figures, reason
            )
        )
    return TestSetReadability(
        test_set_id, tuple(texts), computed_at, data.get("seconds", 0.0)
    )
