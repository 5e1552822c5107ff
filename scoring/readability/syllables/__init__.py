"""Syllable counters by language (:mod:`~scoring.readability.syllables.counter`)."""
