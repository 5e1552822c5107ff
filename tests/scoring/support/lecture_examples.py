"""The lecture notes' (002) worked example of WER and PER: one sentence pair."""

from __future__ import annotations

LECTURE_REFERENCE = (
    "it is a guide to action which ensures that the military always obeys "
    "the commands of the party"
)
LECTURE_HYPOTHESIS = (
    "it is a guide to action that ensures that the military will forever "
    "heed party commands"
)
