"""A demo n-best list for ORANGE, built from the demo systems.

For every sentence of the demo test set, the seven demo systems' hypotheses
form a 7-best list in their intended order (best system first), as if one
decoder had produced them ranked by its model score. The references A–D are
human translations and the systems are damaged copies of the held-out
translation E, so a good metric should rank the references near the top:
only the lightly damaged candidates (near-copies of E, itself a human
translation) deserve to compete with them.

Moses format, sentence ids counted from 0; the features field names the
system, the score is minus its rank. Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from .corpus import DemoTestSet
from .systems import DemoSystem

DEMO_NBEST_NAME = "demo systems 7-best"

#: The metrics of Table 7 of Lin & Och (2004): BLEUS4, PER, WER, ROUGE-L,
#: ROUGE-W-1.2 and ROUGE-S4 (``bleu``'s sentence scores are BLEUS).
DEMO_ORANGE_METRICS: tuple[str, ...] = (
    "bleu", "per", "wer", "rouge-l", "rouge-w:w=1.2", "rouge-s:d=4",
)  # fmt: skip


def demo_nbest_lines(test_set: DemoTestSet, systems: Sequence[DemoSystem]) -> list[str]:
    """Moses lines ``id ||| hypothesis ||| system=NAME ||| -rank``, by sentence."""
    ranked = sorted(systems, key=lambda system: system.intended_rank)
    lines = []
    for sentence_id in range(len(test_set.sources)):
        for system in ranked:
            hypothesis = " ".join(system.hypotheses[sentence_id].split())
            lines.append(
                f"{sentence_id} ||| {hypothesis} ||| system={system.name} ||| "
                f"{-float(system.intended_rank)}"
            )
    return lines


def demo_nbest_text(test_set: DemoTestSet, systems: Sequence[DemoSystem]) -> str:
    return "".join(line + "\n" for line in demo_nbest_lines(test_set, systems))
