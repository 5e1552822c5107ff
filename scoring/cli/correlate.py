"""``correlate`` with the WMT protocol: the permutation test, several test sets.

:mod:`scoring.cli.stats` defines the options and runs the bootstrap and
Williams tests; this module decides which test a command line asks for
(:func:`chosen_test`), refuses combinations that mean nothing, and runs the
permutation test of :mod:`scoring.stats.wmt_protocol`: one task, ranked for
every criterion of every test set, pooled over the test sets.

A command line names one task by its level, method and Kendall variant:

=========  ===============  ========================================
level      method           task
=========  ===============  ========================================
system     pearson          ``system:pearson``
system     accuracy         ``system:accuracy`` (Kocmi et al. 2021)
system     spa              ``system:spa`` (Thompson et al. 2024)
sentence   pearson          ``segment:pearson``
sentence   kendall acc23    ``segment:acc_eq`` (Deutsch et al. 2023)
sentence   kendall 23, b    ``segment:kendall``
=========  ===============  ========================================

The permutation test is the only test of accuracy, SPA, tau_23 and acc23
(their default); pearson and kendall tau-b keep the bootstrap by default.
Spearman's rho is not in the permutation test, and tau-c cannot be: its
denominator counts the distinct scores, which swapping per-pair outcomes
between metrics leaves undefined.

Several ``--scores``/``--judgments`` pairs (one per test set, e.g. one per
language pair) are ranked one by one, then pooled per criterion judged in
every test set (:func:`~scoring.stats.wmt_protocol.pool_protocols`: the
weighted mean of the statistics rescaled to [0, 1]). A test set's name seeds
its draws, so a test set gives the same numbers alone or pooled.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cli.correlate_report import permutation_report
from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.stats.judgments import Judgments, read_judgments
from scoring.stats.pooled_meta_evaluation import PooledRanking
from scoring.stats.scores_file import read_metric_scores
from scoring.stats.wmt_protocol import (
    ProtocolSettings,
    pool_protocols,
    run_protocol,
)
from scoring.stats.wmt_results import ProtocolResult, overall_cells

TESTS = ("bootstrap", "williams", "permutation")
CORRELATE_METHODS = ("pearson", "spearman", "kendall", "accuracy", "spa")
KENDALL_VARIANTS = ("b", "c", "23", "acc23")
GROUPINGS = ("none", "item", "system")
DEFAULT_BOOTSTRAP = 1000
DEFAULT_PERMUTATIONS = 1000
# Options of one test only (dest -> flag): given to the other test, refused.
BOOTSTRAP_OPTIONS = {
    "bootstrap": "--bootstrap",
    "confidence": "--confidence",
    "resample": "--resample",
}
PERMUTATION_OPTIONS = {
    "permutations": "--permutations",
    "tie_calibration": "--tie-calibration",
    "tie_sample_rate": "--tie-sample-rate",
    "group_by": "--group-by",
    "weight": "--weight",
    "name": "--name",
}


def _statistic_name(method: str, variant: str) -> str:
    if method != "kendall":
        return method
    return "acc23" if variant == "acc23" else f"kendall tau-{variant}"


def chosen_test(level: str, method: str, variant: str, test: str | None) -> str:
    """The test ``correlate`` runs: ``test``, or the method's default.

    Raises :class:`ScoringError` for a combination no test implements::

        >>> chosen_test("system", "accuracy", "b", None)
        'permutation'
        >>> chosen_test("sentence", "kendall", "b", None)
        'bootstrap'
        >>> chosen_test("sentence", "kendall", "acc23", "bootstrap")
        Traceback (most recent call last):
        ...
        scoring.errors.ScoringError: acc23 is ranked by a permutation test: use --test permutation
    """
    statistic = _statistic_name(method, variant)
    if method in ("accuracy", "spa") and level != "system":
        raise ScoringError(f"{method} compares systems: use --level system")
    only_permutation = method in ("accuracy", "spa") or (
        method == "kendall" and variant in ("23", "acc23")
    )
    if only_permutation and level != "sentence" and method == "kendall":
        raise ScoringError(
            f"{statistic} is a sentence-level statistic: use --level sentence"
        )
    if test is None:
        return "permutation" if only_permutation else "bootstrap"
    if test != "permutation":
        if only_permutation:
            raise ScoringError(
                f"{statistic} is ranked by a permutation test: use --test permutation"
            )
        return test
    if method == "spearman":
        raise ScoringError(
            "spearman is not implemented in the permutation test: use --test bootstrap"
        )
    if method == "kendall" and variant == "c":
        raise ScoringError(
            "kendall tau-c cannot be ranked by the permutation test (its denominator "
            "counts distinct scores, which swapping pairs between metrics does not "
            "define): use --test bootstrap or --kendall-variant b"
        )
    if method == "kendall" and level != "sentence":
        raise ScoringError(
            "the permutation test ranks kendall at sentence level: use --level "
            "sentence, or --test bootstrap"
        )
    return test


def protocol_task(level: str, method: str, variant: str) -> str:
    """The :mod:`~scoring.stats.wmt_protocol` task of a permutation run.

    >>> protocol_task("sentence", "kendall", "acc23")
    'segment:acc_eq'
    """
    if level == "system":
        return f"system:{method}"
    if method == "kendall":
        return "segment:acc_eq" if variant == "acc23" else "segment:kendall"
    return "segment:pearson"


def refuse_options(arguments: argparse.Namespace, options: dict[str, str], why: str):
    """Refuse the first of ``options`` given on the command line."""
    for dest, flag in options.items():
        if getattr(arguments, dest) not in (None, False):
            raise ScoringError(f"{flag} {why}")


def check_pairs(arguments: argparse.Namespace) -> None:
    """One --judgments per --scores, and --name/--weight one per pair if given."""
    pairs = len(arguments.scores)
    if len(arguments.judgments) != pairs:
        raise ScoringError(
            f"give one --judgments per --scores ({pairs} --scores, "
            f"{len(arguments.judgments)} --judgments)"
        )
    for flag, values in (("--name", arguments.name), ("--weight", arguments.weight)):
        if values is not None and len(values) != pairs:
            raise ScoringError(
                f"give one {flag} per --scores/--judgments pair "
                f"({pairs} pair{'s' if pairs != 1 else ''}, {len(values)} {flag})"
            )


def _grouping(arguments: argparse.Namespace, task: str) -> str | None:
    """The segment grouping: --group-by, else item for tau_23 and acc23 (WMT),
    none for Pearson and tau-b (the bootstrap table's coefficient)."""
    if task.startswith("system:"):
        if arguments.group_by is not None:
            raise ScoringError("--group-by applies at sentence level")
        return None
    if arguments.group_by is not None:
        return arguments.group_by
    return "item" if arguments.kendall_variant in ("23", "acc23") else "none"


def protocol_settings(arguments: argparse.Namespace, task: str) -> ProtocolSettings:
    """The settings of a permutation run, from the command line."""
    kendall_task = task in ("segment:acc_eq", "segment:kendall")
    if arguments.tie_calibration and not (
        kendall_task and arguments.kendall_variant != "b"
    ):
        raise ScoringError(
            "--tie-calibration applies to kendall 23 and acc23 (tau-b, Pearson and "
            "the system-level statistics have no tie threshold)"
        )
    if arguments.tie_sample_rate is not None and not arguments.tie_calibration:
        raise ScoringError(
            "--tie-sample-rate samples the tie calibration: add --tie-calibration"
        )
    grouping = _grouping(arguments, task)
    defaults = ProtocolSettings()
    return ProtocolSettings(
        tasks=(task,),
        n_permutations=arguments.permutations or DEFAULT_PERMUTATIONS,
        seed=arguments.seed,
        alpha=arguments.alpha,
        group_by=grouping if kendall_task else defaults.group_by,
        pearson_group_by=grouping if task == "segment:pearson" else "none",
        # Off unless asked for: WMT calibrates acc23, but a run without it
        # gives the plain statistic (every tie threshold 0).
        tie_calibration=bool(arguments.tie_calibration),
        tie_sample_rate=arguments.tie_sample_rate or 1.0,
        kendall_variant=arguments.kendall_variant
        if kendall_task
        else defaults.kendall_variant,
        standardise=arguments.human == "z",
    )


@dataclass(frozen=True)
class TestSetFiles:
    """One --scores/--judgments pair with its name and weight."""

    name: str
    scores: str
    judgments: str
    weight: float


def test_set_files(arguments: argparse.Namespace) -> tuple[TestSetFiles, ...]:
    """The pairs in command-line order; names default to the scores' stems."""
    names = arguments.name or [
        os.path.splitext(os.path.basename(path))[0] for path in arguments.scores
    ]
    if len(set(names)) != len(names):
        raise ScoringError(
            f"test set names must be distinct (they seed the draws), got "
            f"{', '.join(names)}: give one --name per pair"
        )
    weights = arguments.weight or [1.0] * len(names)
    return tuple(
        TestSetFiles(name, scores, judgments, weight)
        for name, scores, judgments, weight in zip(
            names, arguments.scores, arguments.judgments, weights
        )
    )


def _criteria(
    files: TestSetFiles, judgments: Judgments, wanted: Sequence[str] | None
) -> tuple[str, ...]:
    """The criteria to rank: those asked for (each must be judged), else all."""
    for criterion in wanted or ():
        if criterion not in judgments.criteria:
            raise ScoringError(
                f"{files.judgments}: no judgments of criterion {criterion!r}; "
                f"criteria: {', '.join(judgments.criteria)}"
            )
    return tuple(dict.fromkeys(wanted)) if wanted else tuple(judgments.criteria)


def _criterion_dict(result: ProtocolResult) -> dict[str, Any]:
    (task,) = result.tasks
    return {
        "criterion": result.criterion,
        "task": task.task,
        "statistic": task.ranking.statistic,
        "grouping": task.ranking.grouping,
        "systems": list(result.systems),
        "excluded_systems": list(result.excluded_systems),
        "negated": list(result.negated),
        "test": task.ranking.description,
        "notes": dict(task.notes),
        "cells": task.cells(),
    }


def _overall_dict(
    criterion: str, names: Sequence[str], pooled: PooledRanking
) -> dict[str, Any]:
    return {
        "criterion": criterion,
        "weights": dict(zip(names, (float(w) for w in pooled.weights))),
        "excluded_metrics": list(pooled.excluded_metrics),
        "test": pooled.ranking.description,
        "cells": overall_cells(pooled),
    }


def permutation_correlation(
    arguments: argparse.Namespace,
) -> tuple[dict[str, Any], str]:
    """Rank the metrics by the permutation test: (JSON object, text)."""
    refuse_options(arguments, BOOTSTRAP_OPTIONS, "applies to the bootstrap test")
    task = protocol_task(arguments.level, arguments.method, arguments.kendall_variant)
    settings = protocol_settings(arguments, task)
    results: dict[str, dict[str, ProtocolResult]] = {}
    test_sets = []
    pairs = test_set_files(arguments)
    for files in pairs:
        scores = read_metric_scores(files.scores)
        judgments = read_judgments(files.judgments, columns=arguments.columns)
        results[files.name] = {
            criterion: run_protocol(
                scores, judgments, criterion, settings, name=files.name
            )
            for criterion in _criteria(files, judgments, arguments.criterion)
        }
        test_sets.append(
            {
                "name": files.name,
                "scores": files.scores,
                "judgments": files.judgments,
                "weight": files.weight,
                "criteria": [_criterion_dict(r) for r in results[files.name].values()],
            }
        )
    names = list(results)
    pooled: dict[str, PooledRanking] = {}
    if len(names) > 1:
        # Pooled per criterion judged in every test set, in the first's order.
        shared = [c for c in results[names[0]] if all(c in results[n] for n in names)]
        weights = [files.weight for files in pairs]
        for criterion in shared:
            pooled[criterion] = pool_protocols(
                [results[name][criterion] for name in names], weights
            )
    data = {
        "test": "permutation",
        "level": arguments.level,
        "method": arguments.method,
        "kendall_variant": arguments.kendall_variant
        if arguments.method == "kendall"
        else None,
        "task": task,
        "group_by": _grouping(arguments, task),
        "settings": settings.to_dict(),
        "test_sets": test_sets,
        "overall": [
            _overall_dict(criterion, names, ranking)
            for criterion, ranking in pooled.items()
        ]
        if len(names) > 1
        else None,
    }
    return json_safe(data), permutation_report(settings, results, pooled)
