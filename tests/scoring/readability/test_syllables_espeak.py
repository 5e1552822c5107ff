"""Spoken French syllable counts against espeak-ng's French pronunciations.

espeak-ng (Debian package ``espeak-ng``, used by tests only and skipped when
absent) prints each word's IPA; its syllables are its vowels, except that
espeak writes the glide [ɥ] as ``y`` before a vowel (``juin`` ʒyˈɛ̃), which is
counted as a glide here. Words espeak reads as English (marked ``(en)``) are
left out.

Measured on the French sources of the mtdash demo corpus (48 sentences,
884 words, 881 compared): 8 disagreeing tokens (99.1% agreement). They are
``estiment`` (a verb in -ment, counted as an adverb, twice), ``comptera``
and ``restera`` (espeak drops the e after two consonants), ``médecine``,
``Saint-Brieuc``, ``quelques`` and ``publiée``. pyphen's French hyphenation
pieces alone agree on 91.7%, and add nothing on top of the rules.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter

import pytest

from scoring.readability.complexity import split_words
from scoring.readability.syllables.counter import get_syllable_counter

demo_corpus = pytest.importorskip("mtdash.demo.corpus")

_IPA_VOWELS = frozenset("aɑeɛiɔouyøœəɐɜɪʊʏ")


def _ipa_syllables(ipa: str) -> int:
    phones = re.sub("[ˈˌː\u0303]", "", ipa)  # stress, length, nasal tilde
    return sum(
        char in _IPA_VOWELS
        and not (
            char == "y" and index + 1 < len(phones) and phones[index + 1] in _IPA_VOWELS
        )
        for index, char in enumerate(phones)
    )


def test_it_agrees_with_espeak_ng_on_99_percent_of_the_demo_french_words() -> None:
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        pytest.skip("espeak-ng (Debian package, test-only) not installed")
    words = Counter(
        word.lower()
        for source in demo_corpus.demo_test_set().sources
        for word in split_words(source)
    )
    vocabulary = sorted(words)
    output = subprocess.run(
        [espeak, "-v", "fr", "-q", "--ipa"],
        input="\n".join(vocabulary) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    pronunciations = [line.strip() for line in output.splitlines() if line.strip()]
    assert len(pronunciations) == len(vocabulary)  # one line per word
    counter = get_syllable_counter("fr")
    compared = wrong = 0
    for word, ipa in zip(vocabulary, pronunciations, strict=True):
        if "(en)" in ipa:
            continue
        compared += words[word]
        wrong += words[word] * (counter.count(word) != _ipa_syllables(ipa))
    assert (sum(words.values()), compared, wrong) == (884, 881, 8)
