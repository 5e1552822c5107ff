"""The demo's error-span files (no Django, no database): written by
``mtdash.demo.make_span_demo`` from the demo systems' known damage, read
back by the library as the import reads them, and ranking the systems in
their intended order.

``python -m mtdash.demo.make_span_demo`` rewrites the files."""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np
import pytest

from mtdash.demo import make_span_demo
from mtdash.demo.corpus import demo_test_set
from mtdash.demo.systems import SYSTEM_RECIPES, demo_systems
from scoring.spans import (
    MqmWeights,
    SpanAnnotations,
    given_scores,
    mqm_scores,
    read_span_file,
)
from scoring.stats import evaluate_spans

INTENDED = [recipe.name for recipe in SYSTEM_RECIPES]
N_ITEMS = len(make_span_demo.SEGMENTS) * len(INTENDED)


@cache
def _files() -> dict[str, str]:
    return make_span_demo.demo_span_files()


@cache
def _read(name: str) -> SpanAnnotations:
    return read_span_file(_files()[name].encode(), name)


def _system_means(scores) -> list[tuple[str, float]]:
    return [
        (system, float(np.mean(scores.values[scores.system_ids == k])))
        for k, system in enumerate(scores.systems)
    ]


def test_the_committed_files_are_the_scripts_output():
    for name, text in _files().items():
        committed = (make_span_demo.DATA_DIR / name).read_text(encoding="utf-8")
        assert committed == text, f"run python -m mtdash.demo.make_span_demo ({name})"


def test_the_errors_follow_the_damage_of_the_stored_outputs():
    corpus = demo_test_set()
    systems = demo_systems(corpus)
    items = make_span_demo.demo_items(corpus, systems)  # asserts the outputs
    assert len(items) == N_ITEMS
    by_system = Counter(item.system for item in items for _ in item.errors)
    counts = [by_system[name] for name in INTENDED]
    assert counts == sorted(counts)  # more damage, more errors
    best = next(item for item in items if item.system == "neural-large")
    assert best.errors == ()  # its first segment is E undamaged


def test_mqm_has_three_raters_on_every_output_and_ranks_the_systems():
    read = _read(make_span_demo.MQM_FILE)
    assert read.format == "mqm-tsv"
    raters = Counter(annotation.annotator for annotation in read.annotations)
    assert raters == {rater.name: N_ITEMS for rater in make_span_demo.RATERS}
    categories = Counter(
        (span.category, span.severity) for a in read.annotations for span in a.spans
    )
    assert {c for c, _ in categories} >= {
        "Accuracy/Mistranslation",
        "Accuracy/Untranslated text",
        "Accuracy/Omission",
        "Accuracy/Addition",
        "Fluency/Grammar",
        "Fluency/Punctuation",
        "Style/Awkward",
        "Non-translation!",
    }
    sides = Counter(span.side for a in read.annotations for span in a.spans)
    assert sides["source"] > 0 and sides["target"] > sides["source"]
    means = _system_means(mqm_scores(read.annotations, MqmWeights()))
    assert [system for system, _ in sorted(means, key=lambda m: -m[1])] == INTENDED
    assert -3.0 < means[0][1] < 0.0 and means[-1][1] < -15.0


def test_esa_has_two_annotators_and_ranks_the_systems():
    read = _read(make_span_demo.ESA_FILE)
    annotators = Counter(a.annotator for a in read.annotations)
    assert annotators == {"esa-a": N_ITEMS, "esa-b": 16 * len(INTENDED)}
    assert all(0 <= a.score <= 100 for a in read.annotations)
    assert {s.severity for a in read.annotations for s in a.spans} == {"minor", "major"}
    means = _system_means(given_scores(read.annotations))
    assert [system for system, _ in sorted(means, key=lambda m: -m[1])] == INTENDED


def test_the_metrics_spans_agree_with_the_raters_as_a_decent_metric_does():
    human, metric = _read(make_span_demo.MQM_FILE), _read(make_span_demo.METRIC_FILE)
    assert {a.annotator for a in metric.annotations} == {make_span_demo.METRIC}
    assert len(metric.annotations) == N_ITEMS
    confidences = [s.confidence for a in metric.annotations for s in a.spans]
    assert all(0.0 < c < 1.0 for c in confidences)
    found = evaluate_spans(human.annotations, metric.annotations).result("mpp")
    # Better than chance, short of agreeing with the gold rater everywhere;
    # it misses more than it invents (omissions are out of its sight).
    assert 0.4 < found.overall.f1 < 0.8, found.overall
    assert found.overall.precision > found.overall.recall


@pytest.mark.parametrize("name", [make_span_demo.ESA_FILE, make_span_demo.METRIC_FILE])
def test_json_lines_keep_the_imports_key_order(name):
    first = _files()[name].splitlines()[0]
    assert first.startswith('{"segment": 1, "system": "neural-large", ')
