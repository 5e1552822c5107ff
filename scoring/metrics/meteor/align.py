"""METEOR's alignment search: a beam search over the candidate matches.

Reproduces ``edu.cmu.meteor.aligner.Aligner`` of METEOR 1.5, quirks included,
because the chosen alignment decides the chunk count:

1. A candidate that is the only one at its reference position, and whose
   words no other candidate covers, is fixed in advance.
2. A left-to-right beam search over reference positions (beam 40) keeps
   partial alignments ranked by (a) more matched words, counted with weights
   1.0 for exact and 0.5 for other stages *truncated to an integer after each
   addition* (Java ``int += double``), so a single non-exact word adds nothing;
   (b) fewer chunks; (c) smaller total position distance, where METEOR adds a
   new match's distance to the path it was extended *from* (so later
   extensions of that path inherit it). Sorting is stable, like Java's.
   (The truncation matters: without it 1370 of the 5360 BLEND METEOR-sy
   scores change.)
3. Chunks of the winner are recounted in reference order: a chunk breaks at
   an unmatched reference word or where the hypothesis positions jump.

The 2005 parameter set instead aligns stage by stage (Banerjee & Lavie: each
stage only maps words left unmapped by earlier stages), each stage choosing
the most matches, then the fewest chunks.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.metrics.meteor.stages import Match, Stage

BEAM_SIZE = 40


class _Path:
    """A partial alignment (mutable while searching, like METEOR's)."""

    __slots__ = (
        "chosen", "weighted_hyp", "weighted_ref", "chunks", "distance", "idx",
        "last_end", "used_hyp", "used_ref",
    )  # fmt: skip

    def __init__(self) -> None:
        # Matches chosen by the search, as a linked list (match, rest): O(1)
        # to extend a copy. Java ints matches1 / matches2 count weighted
        # matched words per side.
        self.chosen: tuple | None = None
        self.weighted_hyp = 0
        self.weighted_ref = 0
        self.chunks = 0
        self.distance = 0
        self.idx = 0
        self.last_end = -1
        self.used_hyp = 0  # bit masks of used word positions
        self.used_ref = 0

    def copy(self) -> _Path:
        new = _Path.__new__(_Path)
        new.chosen = self.chosen
        new.weighted_hyp = self.weighted_hyp
        new.weighted_ref = self.weighted_ref
        new.chunks = self.chunks
        new.distance = self.distance
        new.idx = self.idx
        new.last_end = self.last_end
        new.used_hyp = self.used_hyp
        new.used_ref = self.used_ref
        return new

    def key(self) -> tuple[float, int, int]:
        return (-(self.weighted_hyp + self.weighted_ref), self.chunks, self.distance)


def _start_path(stage: Stage, fixed: Sequence[Match]) -> tuple[_Path, dict[int, Match]]:
    """The initial path and the matches fixed in it, by reference start."""
    path = _Path()
    fixed_at: dict[int, Match] = {}
    for match in fixed:
        fixed_at[match.ref_start] = match
        path.used_ref |= match.ref_mask
        path.used_hyp |= match.hyp_mask
    for j, candidates in enumerate(stage.matches):
        if len(candidates) != 1 or path.used_ref >> j & 1:
            continue
        match = candidates[0]
        lone = all(
            stage.ref_coverage[j + k] == 1 for k in range(match.ref_len)
        ) and all(
            stage.hyp_coverage[match.hyp_start + k] == 1 for k in range(match.hyp_len)
        )
        if lone and not (
            path.used_ref & match.ref_mask or path.used_hyp & match.hyp_mask
        ):
            fixed_at[j] = match
            path.used_ref |= match.ref_mask
            path.used_hyp |= match.hyp_mask
    return path, fixed_at


def resolve(
    stage: Stage, weights: Sequence[float], fixed: Sequence[Match] = ()
) -> list[Match]:
    """The best alignment (matches in reference order) under METEOR's beam.

    ``weights[module]`` are the *search* weights (METEOR: 1.0 for exact, 0.5
    otherwise); ``fixed`` matches are part of every path (earlier stages).
    """
    start, fixed_at = _start_path(stage, fixed)
    best = _search(stage, weights, start, fixed_at)
    found = dict(fixed_at)
    node = best.chosen
    while node is not None:
        match, node = node
        found[match.ref_start] = match
    return [found[j] for j in sorted(found)]


def _search(
    stage: Stage, weights: Sequence[float], start: _Path, fixed_at: dict[int, Match]
) -> _Path:
    n_ref = len(stage.ref)

    def add_match(path: _Path, match: Match) -> None:
        weight = weights[match.module]
        # Java: int matches1 += matchLength * weight (truncated each time).
        path.weighted_hyp = int(path.weighted_hyp + match.hyp_len * weight)
        path.weighted_ref = int(path.weighted_ref + match.ref_len * weight)
        if path.last_end != -1 and match.hyp_start != path.last_end:
            path.chunks += 1
        path.idx = match.ref_start + match.ref_len
        path.last_end = match.hyp_start + match.hyp_len

    following = [start]
    for current in range(n_ref + 1):
        paths = sorted(following, key=_Path.key)
        following = []
        for path in paths[:BEAM_SIZE]:
            if current == n_ref:
                if path.last_end != -1:
                    path.chunks += 1
                following.append(path)
                continue
            if path.used_ref >> current & 1:
                if current < path.idx:
                    following.append(path)
                elif path.idx in fixed_at:  # a fixed match starts here
                    match = fixed_at[path.idx]
                    add_match(path, match)
                    path.distance += abs(match.ref_start - match.hyp_start)
                    following.append(path)
                continue
            for match in stage.matches[current]:
                if path.used_ref & match.ref_mask or path.used_hyp & match.hyp_mask:
                    continue
                new = path.copy()
                new.used_ref |= match.ref_mask
                new.used_hyp |= match.hyp_mask
                new.chosen = (match, path.chosen)
                add_match(new, match)
                # METEOR's quirk: the distance goes to the path extended from.
                path.distance += abs(match.ref_start - match.hyp_start)
                following.append(new)
            if path.last_end != -1:
                path.chunks += 1
                path.last_end = -1
            path.idx += 1
            following.append(path)
        if not following:  # METEOR: "unexpected conditions", keep the best
            following.append(paths[0])
    return min(following, key=_Path.key)  # the first of a stable sort


def count_chunks(matches: Sequence[Match]) -> int:
    """Chunks of an alignment given in reference order (METEOR's recount):
    a chunk ends at an unmatched reference word or a jump in the hypothesis."""
    chunks, last_end, position = 0, -1, 0
    for match in matches:
        if match.ref_start > position and last_end != -1:
            chunks += 1  # unmatched reference words in between
            last_end = -1
        if last_end != -1 and match.hyp_start != last_end:
            chunks += 1
        position = match.ref_start + match.ref_len
        last_end = match.hyp_start + match.hyp_len
    return chunks + (last_end != -1)
