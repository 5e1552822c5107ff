"""A small reader of the WordNet 3.0 database files (Debian ``wordnet-base``).

Reads the four ``index.<pos>`` files (lemma -> synset offsets) and the four
``<pos>.exc`` morphological exception lists (irregular form -> base forms),
which is all METEOR's synonym stage needs. The ``data.<pos>`` files (glosses,
pointers) are not read.

Synsets are identified by ``offset * 4 + pos`` with pos 0 = noun, 1 = verb,
2 = adjective (satellites included), 3 = adverb: byte offsets are only unique
within one data file, so the part of speech is part of the id.

>>> wordnet = load_wordnet("/usr/share/wordnet")  # doctest: +SKIP
>>> sorted(wordnet.synsets["dog"])[:2]  # doctest: +SKIP
[8304284, 8336276]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

POS_FILES = ("noun", "verb", "adj", "adv")
DEFAULT_WORDNET_DIR = "/usr/share/wordnet"


@dataclass(frozen=True, eq=False)  # hashed by identity: loaded once per directory
class WordNet:
    """Lemma -> synset ids and irregular form -> base forms, all lower-case.

    Attributes:
        directory: where the files were read from.
        synsets: lemma (multi-word lemmas keep WordNet's ``_``) -> synset ids.
        exceptions: inflected form -> base forms, in file order (noun, verb,
            adjective, adverb exception files).
        version: "3.0" when the license header says WordNet 3.0, else "?".
    """

    directory: str
    version: str
    synsets: Mapping[str, frozenset[int]]
    exceptions: Mapping[str, tuple[str, ...]]


def wordnet_available(directory: str) -> bool:
    """True when every index and exception file is in ``directory``."""
    root = Path(directory)
    names = [f"index.{pos}" for pos in POS_FILES] + [f"{pos}.exc" for pos in POS_FILES]
    return all((root / name).is_file() for name in names)


def _read_index(path: Path, pos_number: int, synsets: dict[str, set[int]]) -> None:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith(" "):  # license header
                continue
            fields = line.split()
            lemma, synset_count, pointer_count = (
                fields[0],
                int(fields[2]),
                int(fields[3]),
            )
            first = 4 + pointer_count + 2  # skip pointers, sense_cnt, tagsense_cnt
            ids = synsets.setdefault(lemma, set())
            for offset in fields[first : first + synset_count]:
                ids.add(int(offset) * 4 + pos_number)


def _read_exceptions(path: Path, exceptions: dict[str, list[str]]) -> None:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            fields = line.split()
            if len(fields) >= 2:
                exceptions.setdefault(fields[0], []).extend(fields[1:])


@lru_cache(maxsize=4)
def load_wordnet(directory: str = DEFAULT_WORDNET_DIR) -> WordNet | None:
    """Read WordNet from ``directory`` once; ``None`` when files are missing."""
    if not wordnet_available(directory):
        return None
    root = Path(directory)
    synsets: dict[str, set[int]] = {}
    exceptions: dict[str, list[str]] = {}
    for pos_number, pos in enumerate(POS_FILES):
        _read_index(root / f"index.{pos}", pos_number, synsets)
        _read_exceptions(root / f"{pos}.exc", exceptions)
    with (root / "index.noun").open(encoding="utf-8") as lines:
        header = "".join(line for _, line in zip(range(30), lines, strict=False))
    return WordNet(
        directory=directory,
        version="3.0" if "WordNet 3.0" in header else "?",
        synsets=MappingProxyType({k: frozenset(v) for k, v in synsets.items()}),
        exceptions=MappingProxyType({k: tuple(v) for k, v in exceptions.items()}),
    )
