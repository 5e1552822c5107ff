"""Helpers of the batch-engine tests: real n-best lists, metric specs, and the
two ways of scoring a hypothesis against reference subsets.

Plain helpers (no pytest fixtures), imported by ``test_batch_*.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scoring.base import Metric
from scoring.batch.engine import subset_scores, token_view
from scoring.batch.grid import grid_from_texts
from scoring.batch.subsets import jackknife_masks
from scoring.bench.suites import PAPER_34
from scoring.orange.nbest import NBestList, open_nbest
from scoring.orange.pairwise import sentence_scores
from tests.scoring.support.realdata import DATA_DIR, read_lines

MOSES_DIR = DATA_DIR / "moses-nbest"
REGRESSION_RUN = MOSES_DIR / "regression-mert-moses-new"
MERT_EXAMPLE = MOSES_DIR / "mert-example"

# Other settings of the supported metrics, beyond the paper's 34 defaults.
OTHER_SETTINGS = (
    "rouge-l:preprocess=rouge155",
    "rouge-l:preprocess=rouge155,stem=true,multiref=best",
    "rouge-l:measure=r",
    "rouge-l:measure=p,lowercase=false,punct=true",
    "rouge-w:w=1.2,preprocess=rouge155",
    "rouge-w:w=2.0,preprocess=rouge155,multiref=best",
    "rouge-w:w=1.5,multiref=best,beta=2",
    "rouge-s:d=4,preprocess=rouge155,multiref=best",
    "rouge-s:d=*,multiref=best,alpha=0.8",
    "rouge-su:d=4",
    "rouge-su:d=4,preprocess=rouge155",
    "rouge-su:d=*,preprocess=rouge155,multiref=best",
    "rouge-n:n=1",
    "rouge-n:n=2,preprocess=rouge155,multiref=best",
    "rouge-n:n=3,tokenize=none",
    "bleu",
    "bleu:sentence_smooth=exp",
    "bleu:n=2,sentence_smooth=none,lowercase=true",
    "bleu:tokenize=mteval13a,smooth=mteval,sentence_smooth=mteval,lowercase=true",
    "bleu:sentence_smooth=floor,sentence_smooth_value=0.2,tokenize=none",
    "nist:n=3",
    "nist:tokenize=mteval13a,lowercase=true",
    "wer:tokenize=13a,lowercase=true",
    "wer:tokenize=ascii",
    "per:tokenize=ascii,pool_lengths=true",
    "ser",
    "ser:tokenize=13a,lowercase=true",
)
PAPER_SPECS = tuple(PAPER_34.values())


@dataclass(frozen=True)
class NBestData:
    """n-best lists with K references per sentence, as text."""

    sentence_ids: tuple[int, ...]
    candidates: tuple[tuple[str, ...], ...]
    references: tuple[tuple[str, ...], ...]

    def first(self, n_candidates: int) -> NBestData:
        """The first ``n_candidates`` of every list."""
        return NBestData(
            self.sentence_ids,
            tuple(c[:n_candidates] for c in self.candidates),
            self.references,
        )


def load_moses(nbest_path: Path, reference_paths: Sequence[Path]) -> NBestData:
    nbest = NBestList.from_entries(open_nbest(nbest_path))
    streams = [read_lines(path) for path in reference_paths]
    references = tuple(
        tuple(stream[i] for stream in streams) for i in nbest.sentence_ids
    )
    return NBestData(nbest.sentence_ids, nbest.candidates, references)


def regression_run() -> NBestData:
    """regression-mert-moses-new run1: 5 sentences x 200 candidates, 3 references."""
    return load_moses(
        REGRESSION_RUN / "run1.NBEST.out",
        [REGRESSION_RUN / f"reference.{k}" for k in range(3)],
    )


def mert_example() -> NBestData:
    """mert-example: 3 sentences x 100 candidates, 3 references (with XXX tokens)."""
    return load_moses(
        MERT_EXAMPLE / "NBEST", [MERT_EXAMPLE / f"REF.{k}" for k in range(3)]
    )


def subsets_of(mask: int, n_refs: int) -> list[int]:
    return [k for k in range(n_refs) if (mask >> k) & 1]


def engine_scores(metric: Metric, hypotheses, references, masks) -> np.ndarray:
    """``(H, S)`` through the engine; ``hypotheses[g]`` against ``references[g]``."""
    grid = grid_from_texts(hypotheses, references, token_view(metric))
    return subset_scores([metric], grid, masks)[0]


def per_pair_scores(metric: Metric, hypotheses, references, masks) -> np.ndarray:
    """The same through the metric's own code, one subset at a time."""
    rows = []
    for group, refs in zip(hypotheses, references):
        columns = []
        for mask in masks.tolist():
            chosen = [refs[k] for k in subsets_of(mask, len(refs))]
            columns.append(sentence_scores(metric, group, chosen))
        rows.append(np.stack(columns, axis=1) if group else np.zeros((0, len(masks))))
    return np.concatenate(rows)


def jackknife_and_all(n_refs: int) -> np.ndarray:
    return jackknife_masks(n_refs, all_references=True)
