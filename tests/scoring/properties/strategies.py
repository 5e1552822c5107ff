"""Hypothesis strategies and settings shared by the property tests.

Text is made of words from a small vocabulary (so hypotheses and references
share words and n-grams, as real translations do), punctuation and a little
Unicode: accented and non-Latin letters, CJK, combining marks, a zero-width
joiner and a right-to-left mark. Every test runs derandomized (the same
examples on every run, CI included) with a modest number of examples and no
deadline (the first call of a metric may compile or load a model).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

VOCABULARY = (
    "the", "cat", "sat", "on", "mat", "a", "dog", "is", "it", "rains", "hello",
    "all", "house", "big", "small", "to", "of", "and", "Paris", "was", "not",
    "café", "naïve", "Straße", "über", "東京", "日本", "Москва", "καλή", "مرحبا",
    "e\u0301te\u0301", "x\u200dy", "n't", "U.S.",
)  # fmt: skip
PUNCTUATION = (".", ",", "!", "?", ";", ":", "'", '"', "(", ")", "-", "…", "«", "»")

# Derandomized: the same examples on every run; no example database either,
# so a run never depends on an earlier one. Parsers are cheap (200 examples);
# each metric property runs 50 examples per metric.
PROPERTY_SETTINGS = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
METRIC_SETTINGS = settings(PROPERTY_SETTINGS, max_examples=50)

words = st.sampled_from(VOCABULARY)
tokens = st.one_of(words, words, words, st.sampled_from(PUNCTUATION))


@st.composite
def sentences(draw, min_tokens: int = 0, max_tokens: int = 12) -> str:
    """A segment: tokens joined by single spaces, punctuation sometimes
    attached to the previous word (as in real text)."""
    parts = draw(st.lists(tokens, min_size=min_tokens, max_size=max_tokens))
    text = ""
    for part in parts:
        glue = "" if part in PUNCTUATION and draw(st.booleans()) else " "
        text = f"{text}{glue}{part}" if text else part
    return text


word_sentences = st.lists(words, min_size=1, max_size=12).map(" ".join)


@st.composite
def corpora(draw, max_segments: int = 5, max_references: int = 3):
    """``(hypotheses, reference_streams)``: 1–5 segments, 1–3 streams; some
    references copy the hypothesis or another reference, so matches, ties and
    identical streams all happen."""
    n = draw(st.integers(1, max_segments))
    k = draw(st.integers(1, max_references))
    hypotheses = draw(st.lists(sentences(), min_size=n, max_size=n))
    streams = []
    for _ in range(k):
        stream = []
        for index in range(n):
            choice = draw(st.integers(0, 5))
            if choice == 0:
                stream.append(hypotheses[index])
            elif choice == 1 and streams:
                stream.append(streams[0][index])
            else:
                stream.append(draw(sentences()))
        streams.append(stream)
    return hypotheses, streams
