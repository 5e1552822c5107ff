"""French→English demo test set shown on a fresh mtdash install.

The text is original news-style French written for mtdash: six short
documents of eight sentences on unrelated topics (energy, health, culture,
transport, science, sport). Every source sentence has five independent
English translations, labelled A–E as if by five different translators, that
differ in word choice, word order and length the way real human references
do.

* A–D are published as the test set's references.
* E is held out: it is never shown as a reference and is only the raw
  material from which :mod:`mtdash.demo.systems` builds the demo systems.
  Keeping it out of the references means a perfect copy of E would still score
  like a good human translation, not like 100 BLEU.

The sentence data lives in the ``corpus_*.py`` modules as plain text blocks
(see :mod:`mtdash.demo.corpus_energy_health` for the format) because prose is
easier to proofread there than as escaped Python string literals.

Standard library only: a Django management command imports this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import corpus_culture_transport, corpus_energy_health, corpus_science_sport

#: Translators whose translations are published as references, in order.
REFERENCE_TRANSLATORS: tuple[str, ...] = ("A", "B", "C", "D")

#: Translator whose translation is withheld and used to build the demo systems.
HELD_OUT_TRANSLATOR = "E"

# Field labels of one segment block, in the order they must appear.
_SEGMENT_FIELDS: tuple[str, ...] = ("fr", *REFERENCE_TRANSLATORS, HELD_OUT_TRANSLATOR)

# Data modules in document order; their order fixes the sentence order.
_DATA_MODULES = (corpus_energy_health, corpus_culture_transport, corpus_science_sport)

_DOCUMENT_HEADER_PREFIX = "== "


@dataclass(frozen=True)
class DemoTestSet:
    """A test set with its references and the held-out translation.

    All sequences are aligned: ``sources[i]``, ``document_ids[i]``,
    ``references[label][i]`` and ``held_out_translation[i]`` describe the
    same sentence.
    """

    name: str
    source_language: str
    target_language: str
    text_type: str
    description: str
    sources: tuple[str, ...]
    document_ids: tuple[str, ...]
    references: dict[str, tuple[str, ...]]  # {"A": (...), "B": ..., "C": ..., "D": ...}
    held_out_translation: tuple[str, ...]  # translator E


@dataclass(frozen=True)
class _Segment:
    """One parsed source sentence with its five translations."""

    document_id: str
    source: str
    translations: dict[str, str]  # translator label -> English sentence


def _parse_documents(text: str, origin: str) -> list[_Segment]:
    """Parse a data module's ``DOCUMENTS_TEXT`` into segments.

    Raises ``ValueError`` naming ``origin`` on any malformed block, so a typo
    in the data fails loudly at import time instead of misaligning
    references silently.
    """
    segments: list[_Segment] = []
    document_id: str | None = None
    for block in re.split(r"\n[ \t]*\n", text.strip()):
        lines = [line.strip() for line in block.strip().splitlines()]
        if lines and lines[0].startswith(_DOCUMENT_HEADER_PREFIX):
            document_id = lines[0][len(_DOCUMENT_HEADER_PREFIX) :].strip()
            lines = lines[1:]
        if not lines:
            continue
        if document_id is None:
            raise ValueError(f"{origin}: segment before any '== <document id>' header")
        labels_and_texts = [line.partition(": ") for line in lines]
        labels = tuple(label for label, _, _ in labels_and_texts)
        if labels != _SEGMENT_FIELDS:
            raise ValueError(
                f"{origin}: segment in {document_id} has fields {labels}, "
                f"expected {_SEGMENT_FIELDS}: {lines[0][:60]!r}"
            )
        texts = {label: sentence.strip() for label, _, sentence in labels_and_texts}
        if not all(texts.values()):
            raise ValueError(f"{origin}: empty field in segment {lines[0][:60]!r}")
        segments.append(
            _Segment(
                document_id=document_id,
                source=texts["fr"],
                translations={label: texts[label] for label in _SEGMENT_FIELDS[1:]},
            )
        )
    return segments


def _all_segments() -> list[_Segment]:
    """Segments of every data module, in document order."""
    segments: list[_Segment] = []
    for module in _DATA_MODULES:
        segments.extend(_parse_documents(module.DOCUMENTS_TEXT, module.__name__))
    return segments


def demo_test_set() -> DemoTestSet:
    """Build the French→English demo test set (48 sentences, 6 documents)."""
    segments = _all_segments()
    return DemoTestSet(
        name="demo-news-fr-en",
        source_language="fr",
        target_language="en",
        text_type="news",
        description=(
            "Demo French→English news test set written for mtdash: "
            f"{len(segments)} sentences in 6 short documents, "
            "with 4 independent human references (translators A–D)."
        ),
        sources=tuple(segment.source for segment in segments),
        document_ids=tuple(segment.document_id for segment in segments),
        references={
            label: tuple(segment.translations[label] for segment in segments)
            for label in REFERENCE_TRANSLATORS
        },
        held_out_translation=tuple(
            segment.translations[HELD_OUT_TRANSLATOR] for segment in segments
        ),
    )
