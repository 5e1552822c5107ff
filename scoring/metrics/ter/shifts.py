"""TER's greedy block-shift search, as TERCOM 0.7.25 does it.

TER (Snover et al. 2006) counts the insertions, deletions, substitutions and
*shifts* (moving a block of contiguous hypothesis words elsewhere, cost 1
whatever its length and distance) needed to turn the hypothesis into the
reference. Finding the cheapest edit sequence with shifts is NP-hard, so
TERCOM searches greedily: repeatedly apply the single shift that lowers the
edit distance most, until none helps. Which shifts it tries, in which order,
and when it stops looking decide the number, so this module follows TERCOM's
rules exactly:

- a block of at most 10 words (``MAX_SHIFT_SIZE``) that occurs in the
  reference is a candidate, and the reference n-gram positions are looked up
  in a table built once per hypothesis/reference pair;
- the block must contain at least one hypothesis word that the current
  alignment marks as an error, and the reference words at the destination
  must contain an error too (no shifting of correct words onto correct
  words);
- the destination is next to the hypothesis word aligned with a reference
  position where the block occurs, at most 50 words away
  (``MAX_SHIFT_DIST``), never inside the block itself;
- blocks are tried longest first; within a length, by start position, then
  reference position, then offset; a longer candidate that gains as much is
  kept over a shorter one;
- the search over lengths stops early once the best gain so far is more than
  twice the block length being considered (or equal, once a shift is kept),
  because a block of ``k`` words can fix at most ``2k`` errors;
- a shift that lowers the edit distance by exactly one (net gain zero) is
  still taken when nothing better exists, as TERCOM does.

Example (Snover et al. 2006): hypothesis "this week the saudis denied
information published in the new york times", reference "saudi arabia
denied this week information published in the american new york times":
one shift ("this week" after "denied"), two substitutions and one
insertion, 4 edits over 13 reference words.

>>> hyp = "this week the saudis denied information published in the"
>>> ref = "saudi arabia denied this week information published in the american"
>>> ter_edits((hyp + " new york times").split(), (ref + " new york times").split())
4
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from scoring.metrics.ter.alignment import BeamEditCost, beam_alignment
from scoring.metrics.ter.beam import BEAM_WIDTH

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50

Words = tuple[Hashable, ...]
# A candidate shift: (first word, last word, destination). The block
# hyp[start..end] (inclusive) moves right after hyp[destination]; -1 moves it
# to the front.
Shift = tuple[int, int, int]


def reference_ngram_starts(
    hyp: Sequence[Hashable], ref: Sequence[Hashable]
) -> dict[Words, list[int]]:
    """Start positions (ascending) of every reference n-gram made only of
    words that occur in the hypothesis, for n up to ``MAX_SHIFT_SIZE + 1``.

    Built once per pair: shifting permutes the hypothesis, so its word set
    never changes.
    """
    hyp_words = set(hyp)
    present = [word in hyp_words for word in ref]
    starts: dict[Words, list[int]] = {}
    m = len(ref)
    for start in range(m):
        end = start
        while end < m and end - start <= MAX_SHIFT_SIZE and present[end]:
            starts.setdefault(tuple(ref[start : end + 1]), []).append(start)
            end += 1
    return starts


def _alignment_errors(
    trace: str, hyp_length: int, ref_length: int
) -> tuple[list[bool], list[bool], list[int]]:
    """Which hypothesis and reference words are wrong, and the hypothesis
    position each reference word is aligned with (after a deletion: the
    hypothesis word before it, -1 at the start)."""
    hyp_error = [False] * hyp_length
    ref_error = [False] * ref_length
    ref_to_hyp = [0] * ref_length
    h = r = -1
    for move in trace:
        if move == "I":
            h += 1
            hyp_error[h] = True
        elif move == "D":
            r += 1
            ref_error[r] = True
            ref_to_hyp[r] = h
        else:
            h += 1
            r += 1
            wrong = move == "S"
            hyp_error[h] = wrong
            ref_error[r] = wrong
            ref_to_hyp[r] = h
    return hyp_error, ref_error, ref_to_hyp


def candidate_shifts(
    cur: Words,
    ngram_starts: dict[Words, list[int]],
    trace: str,
    ref_length: int,
) -> list[list[Shift]]:
    """TERCOM's candidate shifts of ``cur``, bucketed by block length - 1."""
    hyp_error, ref_error, ref_to_hyp = _alignment_errors(trace, len(cur), ref_length)
    buckets: list[list[Shift]] = [[] for _ in range(MAX_SHIFT_SIZE + 1)]
    n = len(cur)
    for start in range(n):
        first = ngram_starts.get(cur[start : start + 1])
        if first is None:
            continue
        # Some occurrence of the first word must be a legal destination.
        if not any(
            start != ref_to_hyp[moveto]
            and ref_to_hyp[moveto] - start <= MAX_SHIFT_DIST
            and start - ref_to_hyp[moveto] - 1 <= MAX_SHIFT_DIST
            for moveto in first
        ):
            continue
        end = start
        while end < n and end < start + MAX_SHIFT_SIZE:
            block = cur[start : end + 1]
            positions = ngram_starts.get(block)
            if positions is None:
                break  # no longer block can occur in the reference either
            if not any(hyp_error[start : end + 1]):
                end += 1
                continue  # only correct words so far: try a longer block
            extended = False
            for moveto in positions:
                target = ref_to_hyp[moveto]
                if (
                    target == start
                    or start <= target <= end
                    or target - start > MAX_SHIFT_DIST
                    or start - target > MAX_SHIFT_DIST
                ):
                    continue
                extended = True
                if not any(ref_error[moveto : moveto + end - start + 1]):
                    continue
                _add_destinations(buckets[end - start], start, end, moveto, ref_to_hyp)
            if not extended:
                break
            end += 1
    return buckets


def _add_destinations(
    bucket: list[Shift], start: int, end: int, moveto: int, ref_to_hyp: list[int]
) -> None:
    """Destinations next to reference positions moveto-1 .. moveto+len-1."""
    anchor = ref_to_hyp[moveto]
    for offset in range(-1, end - start + 1):
        if offset == -1 and moveto == 0:
            bucket.append((start, end, -1))
            continue
        target = ref_to_hyp[moveto + offset]
        if target != start and (offset == 0 or target != anchor):
            bucket.append((start, end, target))


def perform_shift(words: Words, start: int, end: int, destination: int) -> Words:
    """Move ``words[start..end]`` right after ``words[destination]``
    (to the front when ``destination`` is -1)."""
    block = words[start : end + 1]
    if destination < start:  # includes -1
        return (
            words[: destination + 1]
            + block
            + words[destination + 1 : start]
            + words[end + 1 :]
        )
    if destination > end:
        return (
            words[:start]
            + words[end + 1 : destination + 1]
            + block
            + words[destination + 1 :]
        )
    # A destination inside the block: TERCOM moves the block right by
    # destination - start words.
    stop = end + destination - start
    return words[:start] + words[end + 1 : stop + 1] + block + words[stop + 1 :]


def _best_shift(
    cur: Words,
    edits: int,
    trace: str,
    ngram_starts: dict[Words, list[int]],
    ref_length: int,
    cost_of: BeamEditCost,
) -> tuple[Words, int] | None:
    """The shifted hypothesis TERCOM picks next and its edit cost, or None."""
    buckets = candidate_shifts(cur, ngram_starts, trace, ref_length)
    best_words: Words | None = None
    best_edits = edits
    shift_cost = 0  # cost of the kept shift: 0 until one is kept
    for index in range(len(buckets) - 1, -1, -1):
        # A block of index + 1 words fixes at most 2 * (index + 1) errors:
        # stop once the kept shift already gains that much.
        most_fixable = 2 * (index + 1)
        fixed = edits - (shift_cost + best_edits)
        if fixed > most_fixable or (shift_cost and fixed == most_fixable):
            break
        for start, end, destination in buckets[index]:
            fixed = edits - (shift_cost + best_edits)
            if fixed > most_fixable or (shift_cost and fixed == most_fixable):
                break
            shifted = perform_shift(cur, start, end, destination)
            # TERCOM keeps the candidate when its gain is positive, or zero
            # before any shift is kept: either way exactly when its cost is
            # below best_edits, so larger costs need not be exact.
            cost = cost_of(shifted, below=best_edits)
            gain = (best_edits + shift_cost) - (cost + 1)
            if gain > 0 or (shift_cost == 0 and gain == 0):
                best_words, best_edits, shift_cost = shifted, cost, 1
    if best_words is None:
        return None
    return best_words, best_edits


def ter_edits(
    hyp: Sequence[Hashable], ref: Sequence[Hashable], beam_width: int = BEAM_WIDTH
) -> int:
    """TERCOM's number of edits (shifts included) turning ``hyp`` into ``ref``.

    ``hyp`` and ``ref`` are word ids. An empty side needs no search: every
    word of the other side is one insertion or deletion.
    """
    hyp, ref = tuple(hyp), tuple(ref)
    if not hyp or not ref:
        return len(hyp) + len(ref)
    ngram_starts = reference_ngram_starts(hyp, ref)
    cost_of = BeamEditCost(ref, beam_width)
    cur = hyp
    edits, trace = beam_alignment(cur, ref, beam_width)
    shifts = 0
    while True:
        found = _best_shift(cur, edits, trace, ngram_starts, len(ref), cost_of)
        if found is None:
            return edits + shifts
        cur, edits = found
        shifts += 1
        _cost, trace = beam_alignment(cur, ref, beam_width)
