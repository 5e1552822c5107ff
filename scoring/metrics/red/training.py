"""Train a RED model on the BLEND human judgments and write it as JSON.

    python -m scoring train-red --blend ../shared/data/blend-wmt15-16-da \\
        --features basic --out scoring/metrics/red/data/red_basic.json

Data: BLEND's ``orig/train.{mt-system,reference,human}.toen`` (5360 segments
of WMT15 DA and WMT16 DAseg, ten language pairs into English, one MT output
and one reference each; ``human`` is the segment's DA z-score). Sentence
BLEU for the comparison comes from ``scores/BLEU`` (mteval-v13a's smoothed
segment BLEU, computed by the BLEND authors).

Procedure (deterministic, so retraining reproduces the shipped file):

1. segment ``i`` (0-based) is held out when ``i % 5 == 4`` (1072 segments,
   spread over every language pair); the other 4288 train;
2. grades: the DA z-scores are cut at the quartiles of the training part
   into 4 grades, 0 (worst) to 3, like Akiba et al.'s ranks D..A;
3. features: the model's edit distances (:mod:`scoring.metrics.red.features`);
4. the tree's depth and minimum leaf size are chosen by 5-fold cross
   validation inside the training part (fold = position % 5), by the mean
   Pearson correlation of the expected grade with the DA z-scores; ties go
   to the earlier (smaller) setting of the grid;
5. the tree is refitted on the whole training part and evaluated on the
   held-out part: grade accuracy (against the majority grade's share, the
   chance level) and Pearson r with DA, next to sentence BLEU's (BLEU is
   binned into grades at its own training quartiles for its accuracy).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from scoring.lexicon.wordnet import DEFAULT_WORDNET_DIR
from scoring.metrics.red.decision_tree import fit_tree
from scoring.metrics.red.features import FEATURE_SETS, features
from scoring.metrics.red.model import MODEL_FORMAT
from scoring.metrics.red.semantic import load_synonyms
from scoring.tokenizers import get_tokenizer

N_GRADES = 4
GRID = tuple((depth, leaf) for depth in (3, 4, 5, 6) for leaf in (100, 50))
FOLDS = 5
TOKENIZE, LOWERCASE, LANGUAGE = "13a", True, "en"
BLEND_FILES = (
    "orig/train.mt-system.toen",
    "orig/train.reference.toen",
    "orig/train.human.toen",
    "scores/BLEU",
)


@dataclass(frozen=True)
class BlendData:
    """The BLEND training sample: ``n`` segments, one reference each."""

    hypotheses: tuple[str, ...]
    references: tuple[str, ...]
    human: np.ndarray  # (n,) DA z-scores
    bleu: np.ndarray  # (n,) mteval smoothed sentence BLEU, 0-1
    sha256: dict[str, str]


def load_blend(directory: Path) -> BlendData:
    """Read the four BLEND files (UTF-8, one segment per line, same length)."""
    raws = {name: (directory / name).read_bytes() for name in BLEND_FILES}
    lines = {}
    for name, raw in raws.items():
        text = raw.decode("utf-8").split("\n")
        lines[name] = text[:-1] if text and text[-1] == "" else text
    if len({len(value) for value in lines.values()}) != 1:
        raise SystemExit(f"train_red: the BLEND files in {directory} differ in length")
    hypotheses, references, human, bleu = (lines[name] for name in BLEND_FILES)
    return BlendData(
        hypotheses=tuple(hypotheses),
        references=tuple(references),
        human=np.array([float(value) for value in human]),
        bleu=np.array([float(value) for value in bleu]),
        sha256={name: hashlib.sha256(raw).hexdigest() for name, raw in raws.items()},
    )


def heldout_mask(n: int) -> np.ndarray:
    """``(n,)`` True for held-out segments (``i % 5 == 4``)."""
    return np.arange(n) % 5 == 4


def grades(values: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """Grade 0..len(thresholds) of each value (a value on a cut goes up)."""
    return np.searchsorted(thresholds, values, side="right")


def blend_features(data: BlendData, feature_set: str, wordnet: str) -> np.ndarray:
    """``(n, n_features)`` edit distances of the BLEND segments."""
    synonyms = load_synonyms(wordnet) if feature_set == "semantic" else None
    if feature_set == "semantic" and synonyms is None:
        raise SystemExit(f"train_red: WordNet files not found in {wordnet}")
    tokenizer = get_tokenizer(TOKENIZE, LOWERCASE)
    return features(
        [tokenizer(text) for text in data.hypotheses],
        [[tokenizer(text)] for text in data.references],
        FEATURE_SETS[feature_set],
        LANGUAGE,
        synonyms,
    )


def cross_validate(
    x: np.ndarray, y: np.ndarray, human: np.ndarray
) -> list[dict[str, Any]]:
    """Mean held-in-fold Pearson r of each grid setting (see step 4)."""
    folds = np.arange(len(x)) % FOLDS
    values = np.arange(N_GRADES) / (N_GRADES - 1)
    results = []
    for depth, leaf in GRID:
        correlations = []
        for fold in range(FOLDS):
            tree = fit_tree(
                x[folds != fold],
                y[folds != fold],
                N_GRADES,
                max_depth=depth,
                min_samples_leaf=leaf,
            )
            predicted = tree.expected_value(x[folds == fold], values)
            correlations.append(
                float(np.corrcoef(predicted, human[folds == fold])[0, 1])
            )
        results.append(
            {
                "max_depth": depth,
                "min_samples_leaf": leaf,
                "pearson": float(np.mean(correlations)),
            }
        )
    return results


def train_model(
    data: BlendData,
    feature_set: str = "basic",
    matrix: np.ndarray | None = None,
    wordnet: str = DEFAULT_WORDNET_DIR,
    out: str = "scoring/metrics/red/data/red_basic.json",
    blend_path: str = "../shared/data/blend-wmt15-16-da",
) -> dict[str, Any]:
    """The model document (JSON-safe) trained as the module docstring says.

    ``matrix`` may hold the features already computed (``(n, n_features)``);
    ``out`` and ``blend_path`` only go into the recorded command.
    """
    x = blend_features(data, feature_set, wordnet) if matrix is None else matrix
    held = heldout_mask(len(x))
    thresholds = np.quantile(data.human[~held], [0.25, 0.5, 0.75])
    y = grades(data.human, thresholds)
    search = cross_validate(x[~held], y[~held], data.human[~held])
    chosen = max(search, key=lambda row: row["pearson"])  # first of equals
    tree = fit_tree(
        x[~held],
        y[~held],
        N_GRADES,
        max_depth=chosen["max_depth"],
        min_samples_leaf=chosen["min_samples_leaf"],
    )
    values = np.arange(N_GRADES) / (N_GRADES - 1)
    command = (
        f"python -m scoring train-red --blend {blend_path} "
        f"--features {feature_set} --out {out}"
    )
    return {
        "format": MODEL_FORMAT,
        "version": 1,
        "features": feature_set,
        "feature_names": [variant.name for variant in FEATURE_SETS[feature_set]],
        "tokenize": TOKENIZE,
        "lowercase": LOWERCASE,
        "language": LANGUAGE,
        "grades": {
            "values": values.tolist(),
            "thresholds": thresholds.tolist(),
            "human_score": "DA z-score",
            "rule": "grade = number of thresholds <= z",
        },
        "tree": tree.to_dict(),
        "training": {
            "command": command,
            "data": "BLEND sample (qingsongma/blend 5ed1fa1a): WMT15 DA + WMT16 DAseg, "
            "10 language pairs into English, 5360 segments, 1 reference",
            "sha256": data.sha256,
            "split": "segment i (0-based) held out when i % 5 == 4",
            "n_train": int((~held).sum()),
            "n_heldout": int(held.sum()),
            "cross_validation": search,
            "chosen": chosen,
        },
        "heldout": evaluate(
            tree.predict(x[held]),
            tree.expected_value(x[held], values),
            data,
            held,
            thresholds,
        ),
    }


def evaluate(
    predicted_grades: np.ndarray,
    scores: np.ndarray,
    data: BlendData,
    held: np.ndarray,
    thresholds: np.ndarray,
) -> dict[str, float]:
    """Held-out agreement of RED and of sentence BLEU with the human grades."""
    truth = grades(data.human[held], thresholds)
    bleu_cuts = np.quantile(data.bleu[~held], [0.25, 0.5, 0.75])
    bleu_grades = grades(data.bleu[held], bleu_cuts)
    return {
        "n": int(held.sum()),
        "accuracy": float(np.mean(predicted_grades == truth)),
        "chance_accuracy": float(np.bincount(truth).max() / len(truth)),
        "pearson": float(np.corrcoef(scores, data.human[held])[0, 1]),
        "sentence_bleu_accuracy": float(np.mean(bleu_grades == truth)),
        "sentence_bleu_pearson": float(
            np.corrcoef(data.bleu[held], data.human[held])[0, 1]
        ),
    }
