"""Inputs of the WMT protocol tests, and the same inputs as plain arrays.

A test of :func:`scoring.stats.wmt_protocol.run_protocol` gives it judgments
and a SCORES.json object, and checks each task against the statistic
computed directly on arrays. The arrays are built here without the
library's aggregation: per-judge z-scores with the sample standard
deviation, then means per (system, segment) and per system (as WMT
aggregates direct assessment), lower-is-better metrics negated.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from scoring.stats.judgments import Judgments, parse_judgments, read_judgments
from scoring.stats.scores_file import MetricScores, metric_scores_from_json
from tests.scoring.support.metric_permutation_reference import (
    MQM_SYSTEMS,
    REAL_METRICS,
    corpus_scores,
    metric_matrix,
)
from tests.scoring.support.realdata import WMT21_DIR

KEPT = ("sysA", "sysB", "sysC", "sysD", "sysE", "sysF")
# Judged but without metric scores: excluded. Scored but never judged: not
# a system of the criterion at all.
UNSCORED, UNJUDGED = "unscored", "unjudged"
METRICS = ("good", "ter", "fair", "poor")  # ter: lower is better
LOWER_IS_BETTER = ("ter",)
N_SEGMENTS = 30
CRITERION = "adequacy"


@dataclass(frozen=True, eq=False)
class World:
    """One test set as the protocol reads it and as plain arrays.

    ``systems`` are those the protocol should keep, ``metrics`` in input
    order; ``segments`` ``(G,)`` the 1-based segments judged for any system
    of the criterion (the columns); ``human_segment`` ``(S, G)`` and
    ``human_system`` ``(S,)`` the aggregated human scores; ``corpus``
    ``(M, S)`` and ``sentence`` ``(M, S, G)`` the metric scores, higher is
    better, NaN where missing.
    """

    judgments: Judgments
    data: dict  # the SCORES.json object
    criterion: str
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    segments: np.ndarray
    human_segment: np.ndarray
    human_system: np.ndarray
    corpus: np.ndarray
    sentence: np.ndarray

    def scores(self) -> MetricScores:
        return metric_scores(self.data)


def metric_scores(data: dict) -> MetricScores:
    """SCORES.json ``data`` read as the CLI reads the file."""
    return metric_scores_from_json(json.loads(json.dumps(data)), "scores.json")


def plain_human(
    judgments: Judgments, criterion: str, systems: tuple[str, ...], standardise=True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(segments (G,), segment scores (S, G), system scores (S,)) of
    ``systems`` by plain loops (module docstring); the columns are the
    segments judged for any system on the criterion."""
    chosen = judgments.criterion_ids == judgments.criteria.index(criterion)
    by_judge = defaultdict(list)
    for index in np.flatnonzero(chosen):
        by_judge[judgments.judge_ids[index]].append(int(index))
    value = {}
    for indices in by_judge.values():
        values = [float(judgments.values[i]) for i in indices]
        mean, sd = statistics.mean(values), statistics.stdev(values)
        for i, v in zip(indices, values):
            value[i] = (v - mean) / sd if standardise else v
    cells = defaultdict(list)
    for i, v in value.items():
        system = judgments.systems[judgments.system_ids[i]]
        cells[system, int(judgments.segments[i])].append(v)
    segments = sorted({segment for _, segment in cells})
    matrix = np.full((len(systems), len(segments)), np.nan)
    for (system, segment), values in cells.items():
        if system in systems:
            column = segments.index(segment)
            matrix[systems.index(system), column] = statistics.mean(values)
    means = np.array([statistics.mean(row[np.isfinite(row)]) for row in matrix])
    return np.array(segments), matrix, means


def metric_arrays(
    data: dict,
    systems: tuple[str, ...],
    metrics: tuple[str, ...],
    segments: np.ndarray,
    lower_is_better: tuple[str, ...],
) -> tuple[np.ndarray, np.ndarray]:
    """Corpus ``(M, S)`` and sentence ``(M, S, G)`` scores of ``data`` at
    ``segments``, lower-is-better metrics negated, NaN for a missing score."""

    def vector(entry: dict) -> np.ndarray:
        values = entry["sentence_scores"]
        return np.array([np.nan if v is None else v for v in values], dtype=float)

    corpus = np.array([[data[s][m]["score"] for s in systems] for m in metrics])
    sentence = np.array(
        [[vector(data[s][m])[segments - 1] for s in systems] for m in metrics]
    )
    signs = np.array([-1.0 if m in lower_is_better else 1.0 for m in metrics])
    return corpus * signs[:, None], sentence * signs[:, None, None]


def synthetic_world(seed: int = 0) -> World:
    """Judgments of :data:`CRITERION` by three judges who use the scale
    differently (integer values with ties; points nobody judged; segment 29
    judged for the unscored system only, segment 30 for nobody) and of a
    second criterion, and SCORES.json of four metrics (scores rounded to one
    decimal, so ties; ``ter`` an error rate; ``fair`` without three sentence
    scores per system)."""
    rng = np.random.default_rng(seed)
    systems = (*KEPT, UNSCORED, UNJUDGED)
    quality = rng.normal(size=(len(systems), 1)) + rng.normal(
        size=(len(systems), N_SEGMENTS)
    )
    rows = ["segment,system,judge,criterion,value"]
    for s, system in enumerate(systems[:-1]):
        for n in range(N_SEGMENTS - 1):
            if n == N_SEGMENTS - 2 and system != UNSCORED:
                continue
            if rng.random() < 0.12:
                continue  # not judged
            for judge in rng.choice(3, size=rng.integers(1, 3), replace=False):
                offset = (-1, 0, 2)[judge]
                value = int(np.clip(np.round(quality[s, n] * 1.5) + 3 + offset, 0, 8))
                rows.append(f"{n + 1},{system},j{judge},{CRITERION},{value}")
            if rng.random() < 0.5:
                rows.append(f"{n + 1},{system},j0,fluency,{rng.integers(1, 6)}")
    judgments = parse_judgments("\n".join(rows).encode(), "synthetic.csv")
    noise = {"good": 0.3, "ter": 0.6, "fair": 1.0, "poor": 2.5}
    data: dict = {}
    for s, system in enumerate(systems):
        if system == UNSCORED:
            continue
        data[system] = {}
        for metric in METRICS:
            sentence = np.round(
                quality[s] + noise[metric] * rng.normal(size=N_SEGMENTS), 1
            )
            if metric in LOWER_IS_BETTER:
                sentence = 1.0 - sentence / 5
            values: list = sentence.tolist()
            if metric == "fair":
                for n in rng.choice(N_SEGMENTS, size=3, replace=False):
                    values[n] = None
            data[system][metric] = {
                "score": float(np.nanmean(np.array(values, dtype=float)))
                + 0.1 * float(rng.normal()),
                "sentence_scores": values,
            }
            if metric in LOWER_IS_BETTER:
                data[system][metric]["higher_is_better"] = False
    segments, human_segment, human_system = plain_human(judgments, CRITERION, KEPT)
    corpus, sentence = metric_arrays(data, KEPT, METRICS, segments, LOWER_IS_BETTER)
    return World(
        judgments, data, CRITERION, KEPT, METRICS, segments,
        human_segment, human_system, corpus, sentence,
    )  # fmt: skip


def wmt21_mqm_world(pair: str = "en-de") -> World:
    """WMT21 expert MQM of ``pair`` read with the library's judgments reader
    (one anonymous judge, criterion ``score``) and SCORES.json of our
    sentence metrics :data:`REAL_METRICS` for the MQM systems with an output
    (WER given as an error rate)."""
    judgments = read_judgments(
        WMT21_DIR / pair / "human" / "mqm_seg.tsv",
        columns={"segment": "seg_id", "value": "mqm_avg_score"},
    )
    scored = MQM_SYSTEMS[pair]
    signs = {m: -1.0 if m == "wer" else 1.0 for m in REAL_METRICS}
    data = {
        system: {
            metric: {
                "score": signs[metric] * float(corpus_scores(pair, metric)[s]),
                "sentence_scores": (
                    signs[metric] * metric_matrix(pair, metric)[s]
                ).tolist(),
            }
            for metric in REAL_METRICS
        }
        for s, system in enumerate(scored)
    }
    systems = tuple(s for s in judgments.systems if s in scored)  # file order
    segments, human_segment, human_system = plain_human(judgments, "score", systems)
    corpus, sentence = metric_arrays(data, systems, REAL_METRICS, segments, ("wer",))
    return World(
        judgments, data, "score", systems, REAL_METRICS, segments,
        human_segment, human_system, corpus, sentence,
    )  # fmt: skip


def wmt_sized_inputs(
    n_systems: int = 20, n_segments: int = 2000, n_metrics: int = 30
) -> tuple[Judgments, MetricScores]:
    """Judgments (seven judges, quarter-point values with ties, as MQM has)
    and metric scores of growing noise at the size of a WMT test set."""
    rng = np.random.default_rng(0)
    quality = rng.normal(size=(n_systems, 1)) + rng.normal(size=(n_systems, n_segments))
    rows = ["segment\tsystem\tjudge\tvalue"]
    for s in range(n_systems):
        for n in range(n_segments):
            value = round(float(quality[s, n]) * 4) / 4
            rows.append(f"{n + 1}\tsys{s:02d}\tj{(s + n) % 7}\t{value}")
    judgments = parse_judgments("\n".join(rows).encode(), "wmt-size.tsv")
    noise = np.linspace(0.3, 3.0, n_metrics)[:, None, None]
    sentence = quality + noise * rng.normal(size=(n_metrics, n_systems, n_segments))
    data = {
        f"sys{s:02d}": {
            f"metric{m:02d}": {
                "score": float(sentence[m, s].mean()),
                "sentence_scores": sentence[m, s].tolist(),
            }
            for m in range(n_metrics)
        }
        for s in range(n_systems)
    }
    return judgments, metric_scores(data)
