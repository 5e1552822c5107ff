"""The JSON of an ORANGE run, shared by ``python -m scoring orange --json``
and the web API (``GET /api/v1/orange/{id}``), so both print the same object.

At paper scale (872 x 1024-best, 34 metrics) listing every candidate ranked
above the references, with its text, for every metric gave hundreds of MB.
So a metric's ``above_reference`` lists, per sentence, the oracle score, how
many candidates were ranked above the references (``n_above``) and the K
best of them as ``[candidate index, score]`` pairs (index 0-based in the
system's n-best order, best first, ties in n-best order); the texts of all
listed candidates appear once, in ``candidate_texts`` keyed by sentence id
and candidate index (both as strings, JSON keys being strings)::

    {"metrics": {"bleus:n=4": {"orange": 3.73, "avg_rank": 38.2, ...,
        "n_sentences_above": 2, "n_candidates_above": 3,
        "above_reference": [
          {"sentence": 0, "oracle_score": 0.31, "n_above": 2,
           "candidates": [[12, 0.45], [3, 0.41]]},
          {"sentence": 1, "oracle_score": 0.52, "n_above": 0, "candidates": []}]}},
     "above_reference_limit": 10,
     "candidate_texts": {"0": {"3": "a text", "12": "another"}}}

``limit`` is K >= 0, ``"all"`` (every candidate above), or ``"none"`` (no
``above_reference`` lists and no texts; the counts stay). NaN (no
bootstrap) is written as ``null``. Each metric's ``"name"`` says what a
sentence BLEU is (``"BLEU (add-one sentence)"``), ``null`` for the other
metrics, whose spec says it. Two more keys say how to read the
numbers: ``"interval"`` names the interval of ``ci_low``/``ci_high`` and
``orange_ci_low``/``orange_ci_high`` (:data:`ORANGE_INTERVAL`), and
``"warnings"`` lists what makes the figures meaningless (one candidate per
sentence), empty when nothing does.

When the metrics were compared (``--paired-test`` on the command line; every
web job merged since the test exists), each metric's entry carries
``"paired_test"`` (:func:`paired_test_entry`: best, equivalent, the
difference to the best in ORANGE points with its interval, the p-value) and
the object a top-level ``"paired_test"`` naming the test and its sides
(:data:`ORANGE_PAIRED_TEST`); without the test neither key appears.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from scoring.orange.above_reference import AboveReferenceItems, best_first
from scoring.orange.presentation import (
    ORANGE_INTERVAL,
    ORANGE_PAIRED_TEST,
    sentence_metric_name,
    single_candidate_warning,
)
from scoring.orange.ranking import OrangeResult

DEFAULT_ABOVE_REFERENCE_LIMIT = 10
AboveReferenceLimit = int | str  # K >= 0, "all" or "none"
# (sentence id, candidate index) -> its text
TextLookup = Callable[[int, int], str]


def parse_above_reference_limit(value: str) -> AboveReferenceLimit:
    """``"10"`` -> 10, ``"all"``, ``"none"``; anything else is a ValueError."""
    word = value.strip().lower()
    if word in ("all", "none"):
        return word
    if word.isdigit() and word.isascii():
        return int(word)
    raise ValueError(
        f"--above-reference: {value!r} is neither a number of candidates "
        "per sentence (0, 1, 2, ...) nor 'all' or 'none'"
    )


def _best_first(candidates: list[dict[str, Any]], oracle: float) -> list[list]:
    """``[index, score]`` pairs, best first, ties in n-best order. Every
    candidate listed is better than the oracle score, so its side of the
    oracle tells which way is better."""
    pairs = [[int(c["index"]), float(c["score"])] for c in candidates]
    if pairs and pairs[0][1] < oracle:  # lower is better
        pairs.sort(key=lambda pair: (pair[1], pair[0]))
    else:
        pairs.sort(key=lambda pair: (-pair[1], pair[0]))
    return pairs


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def metric_entry(
    result: OrangeResult, limit: AboveReferenceLimit
) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """One metric's object and the (sentence id, candidate index) it lists."""
    entry = {
        key: _finite(value)
        for key, value in _fields(result).items()
        if key not in ("metric", "above_reference")
    }
    above = result.above_reference
    if isinstance(above, AboveReferenceItems):
        return _entry_from_arrays(entry, above, limit)
    entry["n_sentences_above"] = sum(1 for item in above if item["candidates"])
    entry["n_candidates_above"] = sum(len(item["candidates"]) for item in above)
    listed: list[tuple[int, int]] = []
    if limit == "none":
        return entry, listed
    sentences = []
    for item in above:
        sentence, oracle = int(item["sentence"]), float(item["oracle_score"])
        pairs = _best_first(item["candidates"], oracle)
        if limit != "all":
            pairs = pairs[: int(limit)]
        listed.extend((sentence, index) for index, _ in pairs)
        sentences.append(
            {
                "sentence": sentence,
                "oracle_score": _finite(oracle),
                "n_above": len(item["candidates"]),
                "candidates": pairs,
            }
        )
    entry["above_reference"] = sentences
    return entry, listed


def _fields(result: OrangeResult) -> dict[str, Any]:
    """``result.to_dict()`` without its above-reference dicts, which the
    entry makes its own way."""
    data = {
        key: getattr(result, key)
        for key in result.__dataclass_fields__
        if key != "above_reference"
    }
    data["curve"] = [list(point) for point in result.curve]
    return data


def _entry_from_arrays(
    entry: dict[str, Any], above: AboveReferenceItems, limit: AboveReferenceLimit
) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """:func:`metric_entry`'s lists from the ranking's arrays: the same
    object as from the dicts, without making a dict per candidate."""
    counts = above.above.counts
    entry["n_sentences_above"] = int((counts > 0).sum())
    entry["n_candidates_above"] = int(counts.sum())
    listed: list[tuple[int, int]] = []
    if limit == "none":
        return entry, listed
    ordered = best_first(above, None if limit == "all" else int(limit))
    sentences = []
    offsets, pairs = ordered.offsets, ordered.pairs
    oracles = above.oracle_scores.tolist()
    for i, sentence in enumerate(above.sentence_ids.tolist()):
        chosen = pairs[offsets[i] : offsets[i + 1]]
        listed.extend((sentence, index) for index, _ in chosen)
        sentences.append(
            {
                "sentence": sentence,
                "oracle_score": _finite(oracles[i]),
                "n_above": ordered.counts[i],
                "candidates": chosen,
            }
        )
    entry["above_reference"] = sentences
    return entry, listed


def orange_json(
    results: Mapping[str, OrangeResult],
    text_of: TextLookup | None,
    *,
    limit: AboveReferenceLimit = DEFAULT_ABOVE_REFERENCE_LIMIT,
    extra: Mapping[str, Mapping[str, Any]] | None = None,
    paired: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The object described in the module docstring. ``extra[spec]`` is
    merged into that metric's entry; ``paired[spec]`` is the metric's
    :func:`paired_test_entry` when the metrics were compared (``None``: they
    were not); ``text_of`` may be ``None`` only with ``limit="none"``."""
    metrics: dict[str, Any] = {}
    wanted: set[tuple[int, int]] = set()
    for spec, result in results.items():
        entry, listed = metric_entry(result, limit)
        # What a sentence BLEU is (its smoothing); null where the spec says it.
        entry["name"] = sentence_metric_name(spec) or None
        if extra and spec in extra:
            entry.update(extra[spec])
        if paired is not None:
            entry["paired_test"] = dict(paired[spec])
        metrics[spec] = entry
        wanted.update(listed)
    texts: dict[str, dict[str, str]] = {}
    if wanted:
        if text_of is None:
            raise ValueError("candidate texts are needed to list candidates")
        ordered = sorted(wanted)
        # A lookup that reads many texts at once (the command line reads
        # them again from the file) says so with ``many``.
        many = getattr(text_of, "many", None)
        found = (
            many(ordered)
            if many is not None
            else [text_of(sentence, index) for sentence, index in ordered]
        )
        for (sentence, index), text in zip(ordered, found, strict=True):
            texts.setdefault(str(sentence), {})[str(index)] = text
    longest = max((result.max_candidates for result in results.values()), default=0)
    warning = single_candidate_warning(longest) if results else None
    data = {
        "metrics": metrics,
        "above_reference_limit": limit,
        "candidate_texts": texts,
        "interval": ORANGE_INTERVAL,
        "warnings": [warning] if warning else [],
    }
    if paired is not None:
        # What every entry's best / equivalent / p come from, once.
        data["paired_test"] = dict(ORANGE_PAIRED_TEST)
    return data


def paired_test_entry(
    *,
    best: bool,
    equivalent: bool,
    difference: float | None,
    ci_low: float | None,
    ci_high: float | None,
    p_value: float | None,
) -> dict[str, Any]:
    """One metric's ``"paired_test"``, built alike from the command line's
    comparison and from the web's stored scores (NaN becomes ``None``)."""

    def finite(value: float | None) -> float | None:
        return None if value is None or value != value else value

    return {
        "best": best,
        "equivalent": equivalent,
        "difference": finite(difference),
        "difference_ci_low": finite(ci_low),
        "difference_ci_high": finite(ci_high),
        "p_value": finite(p_value),
    }


def write_orange_json(data: Mapping[str, Any], out: TextIO) -> None:
    """Compact JSON, one line per metric and per top-level key (a paper-scale
    run stays a few MB and still reads line by line)."""
    out.write('{"metrics": {')
    for position, (spec, entry) in enumerate(data["metrics"].items()):
        out.write(",\n" if position else "\n")
        out.write(f"{json.dumps(spec, ensure_ascii=False)}: ")
        out.write(_compact(entry))
    out.write("\n}")
    for key, value in data.items():
        if key != "metrics":
            out.write(f",\n{json.dumps(key)}: {_compact(value)}")
    out.write("}\n")


def _compact(value: Any) -> str:
    return json.dumps(
        value, ensure_ascii=False, separators=(", ", ": "), allow_nan=False
    )
