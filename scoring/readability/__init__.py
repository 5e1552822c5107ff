"""Readability of texts (Babych et al.): sentence length, syllables per word,
Flesch scores, and metric scores normalised by text complexity."""
