"""A trained RED model: which edit distances, how text is tokenised, the tree.

A model is a JSON file (``scoring/metrics/red/data/red_*.json``, written by
:mod:`scoring.metrics.red.training`)::

    {"format": "mtdash-red-model", "version": 1,
     "features": "basic" | "semantic", "feature_names": ["ED1", ...],
     "tokenize": "13a", "lowercase": true, "language": "en",
     "grades": {"values": [0, 0.333.., 0.666.., 1], "thresholds": [...], ...},
     "tree": {"feature": [...], "threshold": [...], "left": [...],
              "right": [...], "counts": [[...], ...]},
     "training": {...how it was made...}, "heldout": {...how well it did...}}

A segment's score is the expected grade under the class distribution of
its leaf, with grades mapped to ``grades.values`` (0 = worst, 1 = best), so
scores lie in [0, 1] and higher is better.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from scoring.errors import MetricError
from scoring.lexicon.wordnet import DEFAULT_WORDNET_DIR
from scoring.metrics.red.decision_tree import DecisionTree
from scoring.metrics.red.features import FEATURE_SETS, Tokens, Variant, features
from scoring.metrics.red.semantic import load_synonyms
from scoring.tokenizers import get_tokenizer

MODEL_FORMAT = "mtdash-red-model"
DATA_DIR = Path(__file__).resolve().parent / "data"
SHIPPED_MODELS = {name: DATA_DIR / f"red_{name}.json" for name in FEATURE_SETS}


@dataclass(frozen=True, eq=False)
class RedModel:
    """A loaded RED model (see the module docstring for the file format).

    Attributes:
        feature_set: ``"basic"`` (8 distances) or ``"semantic"`` (16).
        tokenize, lowercase: the tokenizer the model was trained with.
        language: selects the function-word list of the content policy.
        grade_values: ``(n_grades,)`` score of each grade, 0–1.
        tree: the fitted :class:`DecisionTree`.
        digest: first 12 hex digits of the file's SHA-256 (for signatures).
        data: the whole JSON document.
    """

    feature_set: str
    tokenize: str
    lowercase: bool
    language: str
    grade_values: np.ndarray
    tree: DecisionTree
    digest: str
    data: dict[str, Any]

    @property
    def variants(self) -> tuple[Variant, ...]:
        """The edit distances the tree reads, in column order."""
        return FEATURE_SETS[self.feature_set]

    def tokens(self, text: str) -> Tokens:
        """Tokens of one segment as the model expects them."""
        return get_tokenizer(self.tokenize, self.lowercase)(text)

    def feature_matrix(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        wordnet: str = DEFAULT_WORDNET_DIR,
    ) -> np.ndarray:
        """``(n_segments, n_features)`` normalised edit distances."""
        synonyms = None
        if self.feature_set == "semantic":
            synonyms = load_synonyms(wordnet)
            if synonyms is None:
                raise MetricError(
                    f"red: the semantic features need WordNet, not found in {wordnet} "
                    "(Debian package wordnet-base); use red:features=basic"
                )
        return features(
            [self.tokens(text) for text in hypotheses],
            [[self.tokens(text) for text in refs] for refs in references],
            self.variants,
            self.language,
            synonyms,
        )

    def scores(self, matrix: np.ndarray) -> np.ndarray:
        """Expected grade on 0–1 of each row of a feature matrix."""
        return self.tree.expected_value(matrix, self.grade_values)


def model_from_json(data: dict[str, Any], digest: str) -> RedModel:
    """Check a model document and build the :class:`RedModel`.

    Raises ``ValueError`` naming what is wrong.
    """
    if data.get("format") != MODEL_FORMAT or data.get("version") != 1:
        raise ValueError(f"not a version-1 {MODEL_FORMAT} file")
    feature_set = data.get("features")
    if feature_set not in FEATURE_SETS:
        raise ValueError(f"unknown feature set {feature_set!r}")
    names = [variant.name for variant in FEATURE_SETS[feature_set]]
    if data.get("feature_names") != names:
        raise ValueError("feature_names do not match the feature set")
    get_tokenizer(data["tokenize"], bool(data["lowercase"]))
    tree = DecisionTree.from_dict(data["tree"])
    values = np.asarray(data["grades"]["values"], dtype=np.float64)
    if tree.n_classes != len(values):
        raise ValueError(
            "the tree and the grade values disagree on the number of grades"
        )
    inner = tree.feature[tree.feature >= 0]
    if inner.size and inner.max() >= len(names):
        raise ValueError("the tree reads a feature the model does not have")
    return RedModel(
        feature_set=feature_set,
        tokenize=data["tokenize"],
        lowercase=bool(data["lowercase"]),
        language=str(data["language"]),
        grade_values=values,
        tree=tree,
        digest=digest,
        data=data,
    )


@lru_cache(maxsize=8)
def load_model(path: str) -> RedModel:
    """Read and check a model file (cached per path); raises ``MetricError``."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise MetricError(
            f"red: cannot read model file {path}: {error.strerror}"
        ) from None
    try:
        return model_from_json(json.loads(raw), hashlib.sha256(raw).hexdigest()[:12])
    except (ValueError, KeyError, TypeError) as error:
        raise MetricError(f"red: bad model file {path}: {error}") from None
