"""Support of the metric-evaluation tests (no tests here): a small judged test set
with four scored outputs (BLEU, chrF, TER), an external metric and
judgments of two criteria by two judges; the comparison job run on it."""

from __future__ import annotations

from mtdash.evaluation.external_scores.imports import import_external_scores
from mtdash.evaluation.leaderboard.comparisons import (
    ComparisonSettings,
    compare_test_set,
)
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.imports.judgments import import_judgments

OUTPUTS = {
    "good": ["the cat is on the mat", "it is raining", "hello everyone"],
    "fair": ["the cat on mat", "it raining", "hello everyone"],
    "poor": ["a cat", "rain", "hi"],
    "<b>odd</b>": ["the dog is on the mat", "it is snowing", "hello all"],
}
# Judges j1 and j2 rate every segment of every system (adequacy, fluency: 1-5);
# j2 half a point lower, so both judges' z-scores are the same.
ADEQUACY = {
    "good": (5, 5, 5),
    "fair": (4, 3, 4),
    "poor": (1.5, 2, 1.5),
    "<b>odd</b>": (2, 3, 4),
}
FLUENCY = {
    "good": (5, 4, 5),
    "fair": (3, 3, 4),
    "poor": (2, 1.5, 2),
    "<b>odd</b>": (5, 5, 4),
}
COMET = {
    "good": (0.9, 0.8, 0.95),
    "fair": (0.6, 0.5, 0.9),
    "poor": (0.1, 0.2, 0.3),
    "<b>odd</b>": (0.5, 0.4, 0.7),
}
SETTINGS = ComparisonSettings(
    seed=12345, n_samples=200, n_trials=100, confidence=0.95, alpha=0.05
)


def judgments_csv() -> bytes:
    lines = ["segment,system,judge,criterion,value"]
    for criterion, table in (("adequacy", ADEQUACY), ("fluency", FLUENCY)):
        for system, values in table.items():
            for segment, value in enumerate(values, start=1):
                for judge, shift in (("j1", 0), ("j2", -0.5)):
                    name = f'"{system}"' if "," in system else system
                    lines.append(
                        f"{segment},{name},{judge},{criterion},{value + shift}"
                    )
    return ("\n".join(lines) + "\n").encode()


def comet_tsv() -> bytes:
    rows = [
        f"{system}\t{segment}\t{value}"
        for system, values in COMET.items()
        for segment, value in enumerate(values, start=1)
    ]
    return ("\n".join(rows) + "\n").encode()


def scored_outputs(test_set, owner):
    for name, hypotheses in OUTPUTS.items():
        job = create_system_output(
            test_set,
            owner,
            name,
            hypotheses,
            metrics=["bleu", "chrf", "ter"],
            queue=False,
        )
        run_scoring_job(job.pk)


def judge_and_compare(test_set, owner, settings):
    """Import the judgments and COMET, then run the worker's job."""
    settings.MTDASH_COMPARISON_SEED = SETTINGS.seed
    settings.MTDASH_COMPARISON_SAMPLES = SETTINGS.n_samples
    import_external_scores(
        test_set, owner, "comet", "wmt22-comet-da", True, comet_tsv(), "comet.tsv"
    )
    import_judgments(test_set, owner, judgments_csv(), "judgments.csv")
    compare_test_set(test_set, options=SETTINGS)


def judged_test_set(test_set, owner, settings):
    scored_outputs(test_set, owner)
    judge_and_compare(test_set, owner, settings)
    return test_set
