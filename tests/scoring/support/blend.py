"""BLEND (``blend-wmt15-16-da``) as METEOR's SGML reader sees it.

BLEND scored the SGML versions of its ``preprocessed/`` files, whose lines
keep the entities ``&quot; &apos; &lt; &gt; &amp;``; METEOR decodes them, so
the METEOR tests decode the plain lines the same way.
"""

from __future__ import annotations

import re

from tests.scoring.support.realdata import DATA_DIR

BLEND = DATA_DIR / "blend-wmt15-16-da"
_ENTITIES = (
    ("&quot;", '"'),
    ("&apos;", "'"),
    ("&lt;", "<"),
    ("&gt;", ">"),
    ("&amp;", "&"),
)


def decode_sgml(text: str) -> str:
    """METEOR's ``Normalizer.unescapeSGML`` (case-insensitive, in this order)."""
    for entity, character in _ENTITIES:
        pattern = re.compile(re.escape(entity), flags=re.IGNORECASE)
        text = pattern.sub(character, text)
    return text
