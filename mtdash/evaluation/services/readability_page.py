"""Readability of a test set's source and references (Babych et al. 2005).

ASL, ASW, Flesch Reading Ease and Flesch-Kincaid grade come from
:func:`scoring.readability.text_complexity`, one text at a time. Syllables
are counted with one language's rules (the library has English and French);
a text in another language is listed without figures, saying why, because
English or French rules on German or Russian words would give numbers that
look right and mean nothing.

Counting a WMT-sized test set (1,000 segments, 2 references) takes about
0.2-0.5 s, so the counts are stored on first view as a
:class:`~mtdash.evaluation.models.TestSetAnalysis` of kind ``readability``
and reused while the digest of the segments (and the library version) is
unchanged. Only the counts are stored; the figures are recomputed from them
by :class:`scoring.readability.TextComplexity`, so they are always the
library's.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction

from mtdash.common.languages import language_label, language_name
from mtdash.evaluation.models import ReferenceSegment, TestSet, TestSetAnalysis
from scoring import __version__ as SCORING_VERSION
from scoring.readability import LANGUAGES, TextComplexity, get_syllable_counter
from scoring.readability import text_complexity as measure_text

KIND = "readability"

# What each language's syllable rules are, for the page (see
# scoring.readability.syllables.counter for the rules and their accuracy).
SYLLABLE_RULES = {
    "en": "English syllable rules: pyphen's en_US hyphenation patterns, then "
    "vowel-group rules (silent e, -es/-ed, hiatus); 99% agreement with the "
    "CMU Pronouncing Dictionary on WMT21 references",
    "fr": "French syllable rules (spoken syllables): vowel groups with French "
    "hiatus and mute-e rules; 99% agreement with espeak-ng on running text",
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
    from_cache: bool  # read from the stored analysis, not counted now
    seconds: float  # time spent counting (0 when read from the store)

    __test__ = False

    @property
    def source(self) -> TextReadability:
        return self.texts[0]

    @property
    def references(self) -> tuple[TextReadability, ...]:
        return self.texts[1:]

    @property
    def any_measured(self) -> bool:
        return any(text.figures for text in self.texts)

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
    supported = " and ".join(language_label(c) for c in LANGUAGES)
    return (
        f"No syllable rules for {language_label(code)}: the library "
        f"counts syllables in {supported} only, so ASW and the Flesch figures "
        "of this text are not computed."
    )


def test_set_readability(test_set: TestSet) -> TestSetReadability:
    """The readability of ``test_set``: stored counts if their inputs are
    unchanged, else counted now and stored (the first view pays once)."""
    texts = _texts(test_set)
    digest = _digest(test_set, texts)
    stored = TestSetAnalysis.objects.filter(test_set=test_set, kind=KIND).first()
    if stored is not None and stored.inputs == digest:
        return _from_counts(test_set.pk, stored.data, stored.computed_at, True, 0.0)
    started = time.perf_counter()
    counts = _count(texts)
    seconds = time.perf_counter() - started
    analysis = _store(test_set, digest, counts)
    return _from_counts(test_set.pk, counts, analysis.computed_at, False, seconds)


test_set_readability.__test__ = False  # not a pytest test


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


def _digest(test_set: TestSet, texts) -> str:
    """The segments, their languages and the library version."""
    hasher = hashlib.sha256()
    hasher.update(json.dumps([SCORING_VERSION, _counter_signatures()]).encode())
    for role, label, language, segments in texts:
        hasher.update(json.dumps([role, label, language, len(segments)]).encode())
        for segment in segments:
            hasher.update(segment.encode("utf-8"))
            hasher.update(b"\n")
    return hasher.hexdigest()


def _counter_signatures() -> list[str]:
    return [get_syllable_counter(language).signature for language in LANGUAGES]


def _count(texts) -> list[dict]:
    """The counts of every text (what is stored): the library's TextComplexity
    fields, or none for a language without syllable rules."""
    counts = []
    for role, label, language, segments in texts:
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
            }
        counts.append(entry)
    return counts


def _store(test_set: TestSet, digest: str, counts: list[dict]) -> TestSetAnalysis:
    defaults = {"inputs": digest, "data": counts}
    try:
        with transaction.atomic():
            analysis, _ = TestSetAnalysis.objects.update_or_create(
                test_set=test_set, kind=KIND, defaults=defaults
            )
    except IntegrityError:  # another request stored the same counts meanwhile
        analysis = TestSetAnalysis.objects.get(test_set=test_set, kind=KIND)
    return analysis


def _from_counts(
    test_set_id: int,
    counts: list[dict],
    computed_at: datetime | None,
    from_cache: bool,
    seconds: float,
) -> TestSetReadability:
    texts = []
    for entry in counts:
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
        test_set_id, tuple(texts), computed_at, from_cache, seconds
    )
