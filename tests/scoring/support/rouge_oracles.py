"""ROUGE-1.5.5 oracle figures for the ROUGE agreement tests (plain helpers).

``oracle-figures/wmt21-<pair>.json`` holds ROUGE-1.5.5's own per-segment and
printed corpus R/P/F (5 decimals) for ids ``rouge155-<M>-<K>-f<A|B>``; see the
ROUGE section of that folder's README for the exact commands (``-z SPL -a -d
-c 95 -r 1000 -f A|B -p 0.5 -n 4 -w 1.2 -2 -1 -U``, and ``-x -2 4 -U``; no
stemming). BLEND's ``scores/ROUGE-*`` are F-scores of ``-z SPL -2 -1 -U -r 1000
-n 4 -w 1.2 -c 95 -d -m`` (stemming on), one reference.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from tests.scoring.support.oracles import oracle
from tests.scoring.support.realdata import DATA_DIR, read_lines

BLEND_SET = "blend-wmt15-16-da"
BLEND_DIR = DATA_DIR / BLEND_SET

# Oracle measure id -> our metric spec (all with preprocess=rouge155).
WMT21_MEASURES = {
    "1": "rouge-n:n=1",
    "2": "rouge-n:n=2",
    "3": "rouge-n:n=3",
    "4": "rouge-n:n=4",
    "L": "rouge-l",
    "W-1.2": "rouge-w:w=1.2",
    "Sstar": "rouge-s:d=*",
    "SUstar": "rouge-su:d=*",
    "S4": "rouge-s:d=4",
    "SU4": "rouge-su:d=4",
}
BLEND_MEASURES = {
    "ROUGE-1": "rouge-n:n=1",
    "ROUGE-2": "rouge-n:n=2",
    "ROUGE-3": "rouge-n:n=3",
    "ROUGE-4": "rouge-n:n=4",
    "ROUGE-L": "rouge-l",
    "ROUGE-W": "rouge-w:w=1.2",
    "ROUGE-Sstar": "rouge-s:d=*",
    "ROUGE-SUstar": "rouge-su:d=*",
}
MULTIREF = {"A": "average", "B": "best"}
COLUMNS = {"R": 3, "P": 4, "F": 5}


def wmt21_oracle(pair: str) -> dict[str, Any]:
    """The parsed oracle JSON of a WMT21 pair (``de-en`` or ``ru-en``)."""
    return oracle(pair)


@cache
def wmt21_segments(pair: str, file_name: str) -> tuple[str, ...]:
    """Lines of ``wmt21/<pair>/<file_name>`` (e.g. ``sys/Online-W.en``)."""
    return tuple(read_lines(DATA_DIR / "wmt21" / pair / file_name))


def wmt21_references(pair: str) -> list[tuple[str, ...]]:
    """Reference streams in the oracle's order (the order ROUGE was given)."""
    return [wmt21_segments(pair, name) for name in wmt21_oracle(pair)["references"]]


def blend_lines(*parts: str) -> list[str]:
    """Lines of a BLEND file, e.g. ``blend_lines("scores", "ROUGE-L")``."""
    return read_lines(Path(BLEND_DIR, *parts))


def with_options(spec: str, options: str) -> str:
    """``spec`` with more ``key=value`` options appended."""
    return f"{spec}{',' if ':' in spec else ':'}{options}"
