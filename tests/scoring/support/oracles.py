"""The WMT21 oracle figures (``oracle-figures/wmt21-<pair>.json``) and their texts.

Each file holds the official tools' figures (mteval-v13a, ROUGE-1.5.5,
TERCOM, METEOR 1.5, GTM 1.4, WER.pl/PER.pl, sacreBLEU) for the systems below,
per segment (``segments[i]`` is line i + 1) and per corpus, with every
reference in the order of its ``references`` list; see the README next to
them. On the committed fixtures the segment lists hold the kept lines only
and ``num_segments`` is their number, but the ``corpus`` figures are still
those of the full files: tests assert them only when
:data:`~tests.scoring.support.realdata.FULL_DATA` is true and check corpus
aggregation otherwise against a live reference implementation or against
the tool's own segment figures.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from tests.scoring.support.realdata import DATA_DIR, read_lines

ORACLE_DIR = DATA_DIR / "oracle-figures"
ORACLE_SYSTEMS = {
    "de-en": ("Facebook-AI", "Online-W", "VolcTrans-AT"),
    "en-de": ("Facebook-AI", "Online-W", "UEdin"),
    "ru-en": ("Facebook-AI", "Online-Y"),
}
ORACLE_PAIRS = tuple(ORACLE_SYSTEMS)
# (pair, case, system) of mteval's cased (-c) and uncased (default) runs.
MTEVAL_RUNS = [
    (pair, case, system)
    for pair, systems in ORACLE_SYSTEMS.items()
    for case in ("cased", "uncased")
    for system in systems
]


def system_key(pair: str, system: str) -> str:
    """The oracle's name of a system: its file, ``sys/<system>.<tl>``."""
    return f"sys/{system}.{pair.split('-')[1]}"


def oracle_cases(pairs: tuple[str, ...] = ORACLE_PAIRS) -> list[tuple[str, str]]:
    """``(pair, system file)`` of every oracle system of ``pairs``."""
    return [
        (pair, system_key(pair, system))
        for pair in pairs
        for system in ORACLE_SYSTEMS[pair]
    ]


@cache
def oracle(pair: str) -> dict[str, Any]:
    """The parsed oracle file of a WMT21 pair (read once per session)."""
    path = ORACLE_DIR / f"wmt21-{pair}.json"
    if not path.is_file():
        pytest.skip(f"oracle figures not found at {path}")
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def oracle_text(pair: str, name: str) -> tuple[str, ...]:
    """Lines of a file of the oracle's data set (``ref.A.en``, ``sys/…``)."""
    return tuple(read_lines(DATA_DIR / oracle(pair)["dataset"] / name))


def oracle_references(pair: str) -> list[tuple[str, ...]]:
    """Every reference stream, in the order the tools were given them."""
    return [oracle_text(pair, name) for name in oracle(pair)["references"]]


def oracle_figures(pair: str, system: str, metric_id: str) -> dict[str, Any]:
    """``{"corpus": x, "segments": [...]}`` of one system (its file name)."""
    return oracle(pair)["systems"][system][metric_id]
