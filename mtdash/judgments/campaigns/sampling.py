"""The seeded plan of a judging campaign: which segments, which judges see
which items in which order, and where the hidden quality controls go.

Everything is drawn from one ``numpy.random.default_rng(seed)``, in this
order, so a campaign is reproduced exactly from its settings:

1. the segments: ``rng.choice(n_segments, segments_per_system,
   replace=False)``, sorted; the same segments for every system, so systems
   are compared on the same sources;
2. the items (every chosen output × every segment, outputs in the order
   given) in ``rng.permutation`` order; the judges (sorted by name) in
   ``rng.permutation`` order; the item at position p goes to judges
   ``(p·k + t) mod J`` for t < k: k different judges per item, and the
   judges' loads differ by at most one item;
3. per judge (by name): the judge's items shuffled (``rng.permutation``),
   each shown under every criterion in :data:`CRITERION_ORDER` (fluency
   before adequacy, so the reference is not seen before fluency is rated);
4. per judge: ``controls`` screens repeated and as many degraded
   (``rng.choice`` without replacement each); a degraded copy at a uniform
   random place, a repeat at least :data:`MIN_REPEAT_GAP` screens after its
   original; the degraded translation replaces a span of words with words of
   another segment of the same output (:func:`degrade`; :func:`damage` tells
   where, for ESA's attention checks).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Criteria a campaign offers, in the order a judge rates one translation.
CRITERION_ORDER = ("fluency", "adequacy", "da")
MIN_REPEAT_GAP = 5


@dataclass(frozen=True)
class Screen:
    """One screen of a judge's queue. ``item`` indexes :attr:`Plan.items`;
    ``control_of`` is the queue position of the screen it controls."""

    item: int
    criterion: str
    kind: str = "regular"  # or "repeat", "degraded"
    control_of: int | None = None
    donor_index: int | None = None  # degraded: the segment giving the words
    span_seed: int | None = None  # degraded: seeds the span's choice


@dataclass(frozen=True)
class Plan:
    segments: tuple[int, ...]
    items: tuple[tuple[int, int], ...]  # (output id, segment index)
    queues: dict[str, tuple[Screen, ...]]  # judge -> screens in order


def plan_campaign(
    *,
    output_ids: list[int],
    n_segments: int,
    segments_per_system: int,
    judges: list[str],
    judges_per_item: int,
    criteria: list[str],
    controls: int,
    seed: int,
) -> Plan:
    if not 1 <= segments_per_system <= n_segments:
        raise ValueError(f"segments per system must be 1 to {n_segments}")
    if not 1 <= judges_per_item <= len(judges):
        raise ValueError(f"judges per item must be 1 to {len(judges)}")
    rng = np.random.default_rng(seed)
    segments = tuple(
        sorted(int(i) for i in rng.choice(n_segments, segments_per_system, False))
    )
    items = tuple((o, s) for o in output_ids for s in segments)
    item_order = rng.permutation(len(items))
    names = sorted(judges)
    judge_order = [names[i] for i in rng.permutation(len(names))]
    owned: dict[str, list[int]] = {name: [] for name in names}
    for position, item in enumerate(item_order.tolist()):
        for t in range(judges_per_item):
            judge = judge_order[(position * judges_per_item + t) % len(names)]
            owned[judge].append(item)
    ordered = sorted(criteria, key=_criterion_rank)
    queues = {}
    for name in names:
        mine = [owned[name][i] for i in rng.permutation(len(owned[name])).tolist()]
        regular = [Screen(item, c) for item in mine for c in ordered]
        queues[name] = _with_controls(regular, controls, items, n_segments, rng)
    return Plan(segments=segments, items=items, queues=queues)


def _criterion_rank(name: str) -> tuple[int, str]:
    rank = CRITERION_ORDER.index(name) if name in CRITERION_ORDER else 99
    return rank, name


def _with_controls(regular, controls, items, n_segments, rng) -> tuple[Screen, ...]:
    """The regular screens with repeats and degraded copies placed among them."""
    n = len(regular)
    count = min(controls, n)
    keyed: list[tuple[float, int, Screen]] = [
        (float(i), 0, s) for i, s in enumerate(regular)
    ]
    for i in sorted(rng.choice(n, count, replace=False).tolist()):
        earliest = i + MIN_REPEAT_GAP
        key = earliest + rng.uniform(0, max(n - earliest, 0) + 1)
        keyed.append(
            (key, 1, Screen(regular[i].item, regular[i].criterion, "repeat", i))
        )
    for i in sorted(rng.choice(n, count, replace=False).tolist()):
        _, segment = items[regular[i].item]
        donor = segment
        if n_segments > 1:  # any segment but this one
            donor = int(rng.integers(n_segments - 1))
            donor += donor >= segment
        degraded = Screen(
            regular[i].item,
            regular[i].criterion,
            "degraded",
            i,
            donor_index=donor,
            span_seed=int(rng.integers(2**31)),
        )
        keyed.append((rng.uniform(0, n), 2, degraded))
    keyed.sort(key=lambda entry: (entry[0], entry[1]))
    # Controls point at their original's final position.
    final = {}
    for position, (key, kind, _) in enumerate(keyed):
        if kind == 0:
            final[int(key)] = position
    return tuple(
        s
        if s.control_of is None
        else Screen(
            s.item, s.criterion, s.kind, final[s.control_of], s.donor_index, s.span_seed
        )
        for _, _, s in keyed
    )


def span_length(n_words: int) -> int:
    """How many words WMT's "bad reference" replaces in a translation of
    ``n_words`` words (Graham et al. 2017): 1 → 1, 2–5 → 2, 6–8 → 3,
    9–15 → 4, 16–20 → 5, more → ⌊n/4⌋."""
    for longest, span in ((1, 1), (5, 2), (8, 3), (15, 4), (20, 5)):
        if n_words <= longest:
            return min(span, max(n_words, 1))
    return n_words // 4


@dataclass(frozen=True)
class Damage:
    """A degraded translation and where its replaced words are: characters
    ``[start, end)`` of ``text`` (None when the words put in equal the
    words taken out, so nothing changed)."""

    text: str
    start: int | None
    end: int | None


def degrade(text: str, donor: str, seed: int) -> str:
    """``text`` with a span of :func:`span_length` words replaced by as many
    consecutive words of ``donor`` (another segment's translation).

    >>> degrade("the cat sat on the mat today", "dogs bark at night", 1)
    'the cat bark at night mat today'
    """
    return damage(text, donor, seed).text


def damage(text: str, donor: str, seed: int) -> Damage:
    """:func:`degrade`'s text with the place of the words put in.

    >>> damage("the cat sat on the mat today", "dogs bark at night", 1)
    Damage(text='the cat bark at night mat today', start=8, end=21)
    """
    rng = np.random.default_rng(seed)
    words, donor_words = text.split(), donor.split() or ["…"]
    length = span_length(len(words))
    while len(donor_words) < length:
        donor_words = donor_words + donor_words
    start = int(rng.integers(max(len(words) - length, 0) + 1))
    donor_start = int(rng.integers(len(donor_words) - length + 1))
    phrase = donor_words[donor_start : donor_start + length]
    degraded = " ".join(words[:start] + phrase + words[start + length :])
    if phrase == words[start : start + length]:
        return Damage(degraded, None, None)
    begin = len(" ".join(words[:start])) + (1 if start else 0)
    return Damage(degraded, begin, begin + len(" ".join(phrase)))
