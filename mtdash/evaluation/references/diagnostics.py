"""Per-reference diagnostics of a test set, precomputed by the comparison job.

:func:`refresh` (called by :func:`~mtdash.evaluation.leaderboard.comparisons.compare_test_set`
after every change) stores one :class:`~mtdash.evaluation.models.TestSetAnalysis`
of kind ``references`` with everything the page shows; :func:`read_diagnostics`
is the page's reader. The definitions are in :mod:`scoring.analysis.references`
(ORANGE's jackknife: reference k as a hypothesis against the other K - 1).

Scoring 3,000 segments several times per output is the slow part, so two
kinds of partial results are kept as analyses of their own and reused while
their inputs stay the same:

- ``references-self``: the references against each other (corpus scores of
  every metric and chrF sentence scores), digest of the references;
- ``references-output:<id>``: one output against every reduced reference
  set, and its chrF against each reference alone per sentence, digest of the
  references and the output's hypotheses. Kept while the output exists (a
  hidden output comes back at no cost).

So adding an output scores that output only, and hiding one only recombines
stored arrays. The page's analysis itself is skipped when its digest (the
references, the visible outputs' hypotheses, the settings) is unchanged.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import numpy as np
from django.urls import NoReverseMatch, reverse

from mtdash.common.numbers import finite_list
from mtdash.common.server_metrics import server_metric
from mtdash.evaluation.leaderboard.build import metric_decimals
from mtdash.evaluation.models import (
    Hypothesis,
    Segment,
    SystemOutput,
    TestSet,
    TestSetAnalysis,
)
from scoring import __version__ as SCORING_VERSION
from scoring.analysis.references import (
    closest_references,
    find_outliers,
    score_references,
    score_system,
)
from scoring.language_defaults import apply_language_defaults

KIND = "references"
SELF_KIND = "references-self"
OUTPUT_KIND = "references-output:"
# Corpus-level metrics of the jackknife table; chrF also picks the closest
# reference and measures agreement for the outliers (robust on short texts).
METRIC_SPECS = ("bleu", "chrf", "ter")
AGREEMENT_SPEC = "chrf"
TOP_OUTLIERS = 50
# The robust z-scores' smallest scale, in chrF points: where the references
# nearly always agree (MAD near 0) a difference of a few points is not an
# outlier; flagged references are at least 3.5 x 5 = 17.5 points off.
OUTLIER_MIN_SCALE = 5.0
# Sentence scores kept for recombination: 3 decimals of a 0-100 chrF.
STORED_DECIMALS = 3


def _digest(*parts) -> str:
    text = json.dumps([parts, SCORING_VERSION, METRIC_SPECS, AGREEMENT_SPEC])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _metrics(test_set: TestSet) -> list[tuple[str, object]]:
    """(spec with the target language's defaults, metric) per metric."""
    chosen = []
    for spec in METRIC_SPECS:
        full = apply_language_defaults(spec, test_set.target_language)
        chosen.append((full, server_metric(full)))
    return chosen


def refresh(test_set: TestSet, visible_output_ids: list[int]) -> bool:
    """Compute and store the page's analysis unless its inputs are unchanged;
    True if it was (re)computed. With fewer than two references nothing is
    stored (the page says why)."""
    labels = list(
        test_set.reference_sets.order_by("label").values_list("label", flat=True)
    )
    analyses = TestSetAnalysis.objects.filter(test_set=test_set)
    if len(labels) < 2:
        analyses.filter(kind__startswith=KIND).delete()
        return False
    references = test_set.reference_streams()
    # A human translation entered as a system is one of the references: the
    # references' own block already compares it with the others.
    human = set(
        test_set.outputs.filter(reference__isnull=False).values_list("pk", flat=True)
    )
    visible_output_ids = [pk for pk in visible_output_ids if pk not in human]
    references_digest = _digest(labels, references, test_set.target_language)
    hypotheses = _hypotheses(visible_output_ids, len(references[0]))
    output_digests = {
        output_id: _digest(references_digest, texts)
        for output_id, texts in hypotheses.items()
    }
    inputs = _digest(
        references_digest,
        sorted(output_digests.items()),
        [TOP_OUTLIERS, OUTLIER_MIN_SCALE],
    )
    _forget_deleted_outputs(test_set)
    stored = analyses.filter(kind=KIND).first()
    if stored is not None and stored.inputs == inputs:
        return False
    metrics = _metrics(test_set)
    own = _cached(test_set, SELF_KIND, references_digest,
                  lambda: _score_references(metrics, references))  # fmt: skip
    per_output = {
        output_id: _cached(
            test_set,
            f"{OUTPUT_KIND}{output_id}",
            output_digests[output_id],
            lambda texts=texts: _score_output(metrics, references, texts),
        )
        for output_id, texts in hypotheses.items()
    }
    data = _page_data(test_set, labels, references, metrics, own, per_output)
    TestSetAnalysis.objects.update_or_create(
        test_set=test_set, kind=KIND, defaults={"inputs": inputs, "data": data}
    )
    return True


def _hypotheses(output_ids: list[int], n_segments: int) -> dict[int, list[str]]:
    """Texts of each output in segment order; outputs of another length are
    left out (they cannot be scored against these references)."""
    texts: dict[int, list[str]] = {output_id: [] for output_id in output_ids}
    rows = Hypothesis.objects.filter(output_id__in=output_ids).order_by(
        "output_id", "index"
    )
    for output_id, text in rows.values_list("output_id", "text").iterator():
        texts[output_id].append(text)
    return {oid: t for oid, t in texts.items() if len(t) == n_segments}


def _forget_deleted_outputs(test_set: TestSet) -> None:
    existing = {
        f"{OUTPUT_KIND}{pk}" for pk in test_set.outputs.values_list("pk", flat=True)
    }
    cached = TestSetAnalysis.objects.filter(
        test_set=test_set, kind__startswith=OUTPUT_KIND
    ).exclude(kind__in=existing)
    cached.delete()


def _cached(test_set: TestSet, kind: str, inputs: str, compute) -> dict:
    stored = TestSetAnalysis.objects.filter(test_set=test_set, kind=kind).first()
    if stored is not None and stored.inputs == inputs:
        return stored.data
    data = compute()
    TestSetAnalysis.objects.update_or_create(
        test_set=test_set, kind=kind, defaults={"inputs": inputs, "data": data}
    )
    return data


def _rounded(array: np.ndarray) -> list:
    return np.round(array, STORED_DECIMALS).tolist()


def _score_references(metrics, references) -> dict:
    scores = []
    sentences = None
    for spec, metric in metrics:
        agreement = spec.partition(":")[0] == AGREEMENT_SPEC
        held_out = score_references(metric, references, sentence=agreement)
        scores.append(
            {"spec": spec, **held_out.to_dict(), "corpus": finite_list(held_out.corpus)}
        )
        if agreement:
            sentences = _rounded(held_out.sentences)
    return {"metrics": scores, "agreement": sentences}


def _score_output(metrics, references, hypotheses) -> dict:
    held_out = {}
    agreement = None
    for spec, metric in metrics:
        wanted = spec.partition(":")[0] == AGREEMENT_SPEC
        scores = score_system(metric, hypotheses, references, agreement=wanted)
        held_out[spec] = finite_list(scores.held_out)
        if wanted:
            agreement = _rounded(scores.agreement)
    return {"held_out": held_out, "agreement": agreement}


def _page_data(test_set, labels, references, metrics, own, per_output) -> dict:
    output_ids = sorted(per_output)
    tables = []
    for entry in own["metrics"]:
        systems = {
            str(oid): per_output[oid]["held_out"].get(entry["spec"])
            for oid in output_ids
        }
        tables.append({**entry, "systems": systems})
    reference_agreement = np.asarray(own["agreement"], dtype=np.float64)
    system_agreement = None
    if output_ids:
        system_agreement = np.mean(
            [np.asarray(per_output[oid]["agreement"]) for oid in output_ids], axis=0
        )
    closest = closest_references(reference_agreement)
    report = find_outliers(
        reference_agreement, system_agreement, min_scale=OUTLIER_MIN_SCALE
    )
    top = report.outliers[:TOP_OUTLIERS]
    sources = dict(
        Segment.objects.filter(
            test_set=test_set, index__in=[o.segment for o in top]
        ).values_list("index", "source")
    )
    rows = []
    for outlier in top:
        i = outlier.segment
        rows.append(
            {
                **outlier.to_dict(),
                "source": sources.get(i, ""),
                "texts": [stream[i] for stream in references],
                "agreement_references": reference_agreement[:, i].tolist(),
                "agreement_systems": None
                if system_agreement is None
                else np.round(system_agreement[:, i], STORED_DECIMALS).tolist(),
            }
        )
    return {
        "labels": labels,
        "n_segments": len(references[0]),
        "output_ids": output_ids,
        "metrics": tables,
        "agreement_metric": AGREEMENT_SPEC,
        "closest": closest.to_dict(),
        "outliers": {
            "evidence": report.evidence,
            "threshold": report.threshold,
            "flagged": len(report.outliers),
            "top": rows,
        },
    }


# -- the page's reader -------------------------------------------------------


@dataclass(frozen=True)
class HeldOutRow:
    """One reduced reference set: reference ``label`` against ``others``."""

    label: str
    others: str
    reference_score: float | None  # None: the metric has no value (e.g. 0/0)
    rank: int  # of the reference among itself and the systems, from 1
    ranked: int  # how many were ranked
    best: float | None  # the systems' best, median and worst score
    median: float | None
    worst: float | None
    systems: tuple[tuple[str, float], ...]  # best first


@dataclass(frozen=True)
class MetricTable:
    metric: str
    signature: str
    higher_is_better: bool
    decimals: int
    rows: tuple[HeldOutRow, ...]
    # (system, its score against each reduced set, their mean) by name
    systems: tuple[tuple[str, tuple[float | None, ...], float | None], ...] = ()


@dataclass(frozen=True)
class OutlierRow:
    number: int  # sentence number, from 1
    label: str
    score: float
    z_references: float | None
    z_systems: float | None
    source: str
    link: str | None
    # (label, text, agreement with the references, with the systems, is it)
    references: tuple[tuple[str, str, float, float | None, bool], ...]


@dataclass(frozen=True)
class ReferenceDiagnostics:
    """What the references page shows; ``state`` is ``too_few`` (one
    reference), ``pending`` (not computed yet) or ``ready``."""

    state: str
    labels: tuple[str, ...]
    n_segments: int = 0
    n_systems: int = 0
    computed_at: object = None
    tables: tuple[MetricTable, ...] = ()
    closest_counts: tuple[tuple[str, int], ...] = ()
    closest_ties: int = 0
    agreement_metric: str = AGREEMENT_SPEC
    evidence: str = ""
    threshold: float = 0.0
    flagged: int = 0
    outliers: tuple[OutlierRow, ...] = ()


def read_diagnostics(test_set: TestSet) -> ReferenceDiagnostics:
    """The stored analysis, shaped for the page (a few queries, no scoring)."""
    labels = tuple(
        test_set.reference_sets.order_by("label").values_list("label", flat=True)
    )
    if len(labels) < 2:
        return ReferenceDiagnostics(state="too_few", labels=labels)
    stored = TestSetAnalysis.objects.filter(test_set=test_set, kind=KIND).first()
    if stored is None or stored.data.get("labels") != list(labels):
        return ReferenceDiagnostics(state="pending", labels=labels)
    data = stored.data
    names = dict(
        SystemOutput.objects.filter(pk__in=data["output_ids"]).values_list(
            "pk", "system__name"
        )
    )
    names = {str(pk): name for pk, name in names.items()}
    first_output = data["output_ids"][0] if data["output_ids"] else None
    outliers = data["outliers"]
    return ReferenceDiagnostics(
        state="ready",
        labels=labels,
        n_segments=data["n_segments"],
        n_systems=len(names),
        computed_at=stored.computed_at,
        tables=tuple(_table(entry, labels, names) for entry in data["metrics"]),
        closest_counts=tuple(zip(labels, data["closest"]["counts"])),
        closest_ties=data["closest"]["ties"],
        agreement_metric=data["agreement_metric"],
        evidence=outliers["evidence"],
        threshold=outliers["threshold"],
        flagged=outliers["flagged"],
        outliers=tuple(_outlier(row, labels, first_output) for row in outliers["top"]),
    )


def _table(entry: dict, labels: tuple[str, ...], names: dict[str, str]) -> MetricTable:
    higher = entry["higher_is_better"]
    rows = []
    for k, label in enumerate(labels):
        systems = [
            (names[oid], scores[k])
            for oid, scores in entry["systems"].items()
            if oid in names and scores is not None and scores[k] is not None
        ]
        systems.sort(key=lambda pair: pair[1], reverse=higher)
        own = entry["corpus"][k]
        values = [score for _, score in systems]
        better = (
            0 if own is None else sum(v > own if higher else v < own for v in values)
        )
        rows.append(
            HeldOutRow(
                label=label,
                others=", ".join(other for other in labels if other != label),
                reference_score=own,
                rank=better + 1,
                ranked=len(values) + 1,
                best=values[0] if values else None,
                median=float(np.median(values)) if values else None,
                worst=values[-1] if values else None,
                systems=tuple(systems),
            )
        )
    matrix = []
    for oid, scores in entry["systems"].items():
        if oid in names and scores is not None:
            known = [v for v in scores if v is not None]
            mean = float(np.mean(known)) if len(known) == len(scores) else None
            matrix.append((names[oid], tuple(scores), mean))
    matrix.sort(key=lambda row: row[0].lower())
    return MetricTable(
        metric=entry["metric"],
        signature=entry["signature"],
        higher_is_better=higher,
        decimals=metric_decimals(entry["spec"]),
        rows=tuple(rows),
        systems=tuple(matrix),
    )


def _outlier(row: dict, labels: tuple[str, ...], output_id: int | None) -> OutlierRow:
    number = row["segment"] + 1
    link = None
    if output_id is not None:
        try:
            link = reverse("sentence_detail", args=[output_id, number])
        except NoReverseMatch:  # the sentence page is not there yet
            link = None
    systems = row["agreement_systems"] or [None] * len(labels)
    return OutlierRow(
        number=number,
        label=labels[row["reference"]],
        score=row["score"],
        z_references=row["z_references"],
        z_systems=row["z_systems"],
        source=row["source"],
        link=link,
        references=tuple(
            (label, text, own, with_systems, k == row["reference"])
            for k, (label, text, own, with_systems) in enumerate(
                zip(labels, row["texts"], row["agreement_references"], systems)
            )
        ),
    )
