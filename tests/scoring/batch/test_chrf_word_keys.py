"""chrF++'s word keys wrap modulo 2**64 in compiled code and in code loaded
from Numba's cache alike (scoring/batch/kernels_chrf.py).

In signed int64 arithmetic the keys of words over three code points
overflowed; freshly compiled they wrapped, but loaded from the cache they
saturated at 2**63 - 1, so every such word probed one run of the hash table
(right results, chrF++'s word table 300 times slower). The child runs
twice on one empty cache: the first compiles, the second loads.
"""

from __future__ import annotations

import json

from tests.support.kernel_children import run_python

WORDS = ["interning", "a", "wörterbuch", "🙂🙂🙂🙂", "antidisestablishmentarianism"]

CHILD = r"""
import json, sys
import numpy as np
from scoring.batch.kernels_chrf import _slot, _word_key
words = json.loads(sys.argv[1])
out = []
for word in words:
    points = np.array([ord(ch) for ch in word], dtype=np.uint32)
    key = _word_key(points, 0, points.size)
    out.append([str(int(key)), int(_slot(key, (1 << 16) - 1))])
print(json.dumps({"keys": out, "cached": sum(_word_key.stats.cache_hits.values()) > 0}))
"""


def modular_key(word: str) -> int:
    key = len(word)
    for ch in word:
        key = (key * 1000003 + ord(ch)) % 2**64
    return key


def modular_slot(key: int, mask: int) -> int:
    mixed = key * 0x9E3779B97F4A7C15 % 2**64
    return (mixed ^ (mixed >> 29)) & mask


def test_word_keys_wrap_the_same_compiled_and_loaded_from_the_cache(tmp_path):
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    compiled = json.loads(run_python(cache, "-c", CHILD, json.dumps(WORDS)).stdout)
    loaded = json.loads(run_python(cache, "-c", CHILD, json.dumps(WORDS)).stdout)

    expected = []
    for word in WORDS:
        key = modular_key(word)
        expected.append([str(key), modular_slot(key, (1 << 16) - 1)])
    assert compiled == {"keys": expected, "cached": False}
    assert loaded == {"keys": expected, "cached": True}
