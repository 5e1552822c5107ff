"""Reading metric scores of several systems: the SCORES.json of ``correlate``.

Format: a JSON object mapping each system name to the JSON object that
``python -m scoring score --json --sentence`` prints for that system's
output, i.e. metric spec -> entry::

    {
      "online-B": {
        "bleu":  {"score": 31.2, "sentence_scores": [12.1, 40.0, ...]},
        "ter":   {"score": 52.0, "sentence_scores": [...], "higher_is_better": false}
      },
      "online-G": {"bleu": 27.5, "ter": {"score": 55.1}}
    }

- ``score`` is the corpus score (system level); ``sentence_scores`` the
  segment scores in line order (sentence level; ``null`` = no score). Other
  keys (``signature``...) are ignored. An entry may be a bare number: a
  system-level score only.
- Direction: ``higher_is_better`` in an entry wins; otherwise a metric whose
  spec names a registered metric (``ter``, ``wer:...``) takes that metric's
  direction; anything else (e.g. ``comet``) counts as higher-is-better.

Build one with, per system::

    python -m scoring score --json --sentence --metric bleu --metric ter \\
        --refs ref.de --hyp online-B.de > online-B.json

and combine the files into one object keyed by system name.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from scoring.errors import InputFileError
from scoring.registry import list_metrics


@dataclass(frozen=True, eq=False)
class MetricScores:
    """Scores of M metrics for S systems.

    ``corpus[metric][system]`` is a float; ``sentence[metric][system]`` a
    read-only ``(n_segments,)`` float64 array (NaN = no score). A system
    without an entry for a metric is absent from that metric's mappings.
    """

    metrics: tuple[str, ...]
    systems: tuple[str, ...]
    higher_is_better: Mapping[str, bool]
    corpus: Mapping[str, Mapping[str, float]]
    sentence: Mapping[str, Mapping[str, np.ndarray]]


def registered_direction(spec: str) -> bool | None:
    """``higher_is_better`` of the registered metric named in ``spec``, if any."""
    name = spec.partition(":")[0].strip().lower()
    for info in list_metrics():
        if info.name == name:
            return info.higher_is_better
    return None


def read_metric_scores(path: str | os.PathLike[str]) -> MetricScores:
    """Read a SCORES.json file (format in the module docstring)."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        raise InputFileError(
            f"{name}: cannot read file: {error.strerror}", name
        ) from None
    except UnicodeDecodeError as error:
        raise InputFileError(f"{name}: invalid UTF-8 ({error.reason})", name) from None
    except json.JSONDecodeError as error:
        raise InputFileError(
            f"{name}: line {error.lineno}, column {error.colno}: "
            f"invalid JSON: {error.msg}",
            name,
            error.lineno,
        ) from None
    return metric_scores_from_json(data, name)


def metric_scores_from_json(data: Any, name: str = "SCORES.json") -> MetricScores:
    """Validate parsed JSON ``data`` and build :class:`MetricScores`."""
    if not isinstance(data, dict) or not data:
        raise InputFileError(
            f"{name}: expected an object mapping system names to scores", name
        )
    metrics: dict[str, None] = {}
    directions: dict[str, bool] = {}
    corpus: dict[str, dict[str, float]] = {}
    sentence: dict[str, dict[str, np.ndarray]] = {}
    for system, entries in data.items():
        if not isinstance(entries, dict):
            raise InputFileError(
                f"{name}: system {system!r}: expected an object of metric scores", name
            )
        for metric, entry in entries.items():
            where = f"{name}: system {system!r}, metric {metric!r}"
            metrics.setdefault(metric)
            if isinstance(entry, (int, float)) and not isinstance(entry, bool):
                entry = {"score": entry}
            if not isinstance(entry, dict):
                raise InputFileError(f"{where}: expected a number or an object", name)
            if "score" in entry and entry["score"] is not None:
                corpus.setdefault(metric, {})[system] = _number(
                    entry["score"], where, name
                )
            if entry.get("sentence_scores") is not None:
                sentence.setdefault(metric, {})[system] = _vector(
                    entry["sentence_scores"], where, name
                )
            direction = entry.get("higher_is_better")
            if direction is not None:
                if not isinstance(direction, bool):
                    raise InputFileError(
                        f"{where}: higher_is_better must be true or false", name
                    )
                if directions.setdefault(metric, direction) != direction:
                    raise InputFileError(
                        f"{where}: contradicts higher_is_better elsewhere", name
                    )
    for metric in metrics:
        if metric not in directions:
            registered = registered_direction(metric)
            directions[metric] = True if registered is None else registered
    return MetricScores(
        metrics=tuple(metrics),
        systems=tuple(data),
        higher_is_better=MappingProxyType(directions),
        corpus=MappingProxyType({m: MappingProxyType(v) for m, v in corpus.items()}),
        sentence=MappingProxyType(
            {m: MappingProxyType(v) for m, v in sentence.items()}
        ),
    )


def _number(value: Any, where: str, name: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
    ):
        raise InputFileError(f"{where}: score {value!r} is not a finite number", name)
    return float(value)


def _vector(values: Any, where: str, name: str) -> np.ndarray:
    if not isinstance(values, list):
        raise InputFileError(f"{where}: sentence_scores must be a list", name)
    vector = np.empty(len(values))
    for index, value in enumerate(values):
        if value is None:
            vector[index] = np.nan
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputFileError(
                f"{where}: sentence score {index + 1} ({value!r}) is not a number", name
            )
        else:
            vector[index] = value
    vector.setflags(write=False)
    return vector
