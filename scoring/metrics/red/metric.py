"""RED, the ranker based on edit distances (Akiba, Imamura & Sumita 2001).

As the lecture notes (seed 002) summarise it: label each MT sentence with a
human grade, encode it as a vector of edit distances to the references
(sixteen variations of word-level Levenshtein distance: with or without a
swap operator, on all words or content words only, by form or by semantic
code, on all words or keywords only; see :mod:`scoring.metrics.red.features`), learn
a decision tree from the vectors, and grade new MT output with the tree.

Here the grade of a segment is the *expected* grade under the class
distribution of its leaf, mapped to 0–1 (0 = worst grade, 1 = best), which
ranks segments more finely than the single most likely grade; the corpus
score is the mean of the segment scores. Higher is better.

The shipped models (``scoring/metrics/red/data/red_basic.json``, ``red_semantic.json``)
were trained by :mod:`scoring.metrics.red.training` on the BLEND sample of WMT15/16
direct assessments (into English, one reference), with DA z-scores cut at
their quartiles into 4 grades; each file records its training command, data
checksums and held-out agreement. They expect English output: the content
word policy uses an English function-word list, the tokenizer is 13a with
lower-casing (both named in the signature).

Parameters: ``features=basic`` (8 distances, no WordNet; default) or
``semantic`` (all 16; needs the WordNet files, see ``wordnet``), and
``model=<path>`` for a model file of one's own (its feature set must match).

Statistics per segment: ``[score, 1]`` (floats), so corpus = sum / count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from scoring.base import Metric, Parameter, ProgressCallback, require
from scoring.corpus import PreparedCorpus
from scoring.lexicon.wordnet import DEFAULT_WORDNET_DIR, load_wordnet
from scoring.metrics.red.features import FEATURE_SETS
from scoring.metrics.red.model import SHIPPED_MODELS, RedModel, load_model

_FEATURE_SETS = tuple(FEATURE_SETS)
_RED_PARAMETERS = (
    Parameter(
        "features",
        "features",
        str,
        "edit distances: basic (8) or semantic (16, WordNet)",
        _FEATURE_SETS,
    ),
    Parameter(
        "model",
        "model",
        str,
        "model file (default: the shipped one)",
        server_only=True,
    ),
    Parameter(
        "wordnet",
        "wordnet",
        str,
        "WordNet 3.0 folder for features=semantic",
        server_only=True,
    ),
)


@dataclass(frozen=True)
class RED(Metric):
    """RED sentence and corpus scores on 0–1 (expected human grade).

    Attributes:
        features: ``"basic"`` or ``"semantic"``.
        model: path of a model file; empty = the shipped model of ``features``.
        wordnet: folder of the WordNet 3.0 files (semantic features only).
    """

    features: str = "basic"
    model: str = ""
    wordnet: str = DEFAULT_WORDNET_DIR

    name: ClassVar[str] = "red"
    description: ClassVar[str] = (
        "RED (Akiba et al. 2001): decision tree over edit distances, "
        "expected human grade 0-1"
    )
    higher_is_better: ClassVar[bool] = True
    scale: ClassVar[float] = 1.0
    parameters: ClassVar[tuple[Parameter, ...]] = _RED_PARAMETERS
    statistics_dtype: ClassVar[type] = np.float64

    def __post_init__(self) -> None:
        require(
            self.features in FEATURE_SETS,
            f"red: unknown features {self.features!r}; "
            f"valid: {', '.join(_FEATURE_SETS)}",
        )
        require(isinstance(self.model, str), "red: model must be a file path")
        loaded = self.trained_model
        require(
            loaded.feature_set == self.features,
            f"red: the model {self.model_path} uses {loaded.feature_set} features, "
            f"not {self.features}",
        )

    @property
    def model_path(self) -> str:
        """The model file used: ``model`` or the shipped one for ``features``."""
        return self.model or str(SHIPPED_MODELS[self.features])

    @property
    def trained_model(self) -> RedModel:
        """The loaded model (cached per path); raises ``MetricError``."""
        return load_model(self.model_path)

    @property
    def statistics_names(self) -> tuple[str, ...]:
        return ("score", "segments")

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[float]:
        """``[score, 1]`` of one segment."""
        model = self.trained_model
        matrix = model.feature_matrix([hypothesis], [references], self.wordnet)
        return [float(model.scores(matrix)[0]), 1.0]

    def _statistics(
        self, corpus: PreparedCorpus, progress: ProgressCallback | None
    ) -> np.ndarray:
        """All segments at once: the edit distances are computed in batches."""
        model = self.trained_model
        matrix = model.feature_matrix(
            corpus.hypotheses, corpus.references, self.wordnet
        )
        statistics = np.ones((len(corpus.hypotheses), 2), dtype=np.float64)
        statistics[:, 0] = model.scores(matrix)
        if progress is not None:
            progress(1.0)
        return statistics

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Mean segment score (0–1): ``(..., 2) -> (...)``; 0 for no segments."""
        summed = np.asarray(summed, dtype=np.float64)
        count = summed[..., 1]
        return self.scale * np.where(
            count > 0, summed[..., 0] / np.maximum(count, 1), 0.0
        )

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Segment scores (0–1): ``(..., 2) -> (...)``."""
        return self.corpus_scores_from_statistics(statistics)

    def details_from_statistics(self, summed: np.ndarray) -> dict[str, Any]:
        """Number of segments and the model's held-out figures."""
        return {
            "segments": int(summed[1]),
            "model_heldout": dict(self.trained_model.data.get("heldout", {})),
        }

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        model = self.trained_model
        fields = [
            ("case", "lc" if model.lowercase else "mixed"),
            ("tok", model.tokenize),
            ("lang", model.language),
            ("features", self.features),
            ("model", model.digest),
        ]
        if self.features == "semantic":
            wordnet = load_wordnet(self.wordnet)
            fields.append(("wordnet", wordnet.version if wordnet else "missing"))
        return tuple(fields)
