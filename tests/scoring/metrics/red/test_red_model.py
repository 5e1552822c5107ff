"""The shipped RED models: retraining reproduces them, and on the held-out
BLEND segments they agree with the human grades better than chance and at
least as well as sentence BLEU.

Measured on the 1072 held-out segments (segment i held out when i % 5 == 4;
4 grades cut at the training quartiles of DA z, majority grade 26.6%):

    model            grade accuracy   Pearson r with DA z
    red (basic)      0.424            0.532
    red (semantic)   0.390            0.533
    sentence BLEU    0.376            0.466    (mteval-v13a, BLEND scores/BLEU;
                                                binned at its own quartiles)

The semantic model has the same correlation but a lower accuracy (its
deeper tree spreads the grades more); both beat BLEU on both measures.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scoring.metrics.red.features import ALL_VARIANTS, BASIC_VARIANTS
from scoring.metrics.red.model import SHIPPED_MODELS, load_model
from scoring.metrics.red.semantic import load_synonyms
from scoring.metrics.red.training import (
    BlendData,
    blend_features,
    grades,
    heldout_mask,
    load_blend,
    train_model,
)
from tests.scoring.support.realdata import DATA_DIR, full_data_params, require_full_data

BLEND_DIR = DATA_DIR / "blend-wmt15-16-da"
ALL_OF_BLEND = "the models' training data (all 5360 BLEND segments)"
FEATURE_SETS = full_data_params(["basic", "semantic"], ALL_OF_BLEND)


@pytest.fixture(scope="module")
def blend() -> BlendData:
    require_full_data(ALL_OF_BLEND)
    return load_blend(BLEND_DIR)


@pytest.fixture(scope="module")
def matrices(blend: BlendData) -> dict[str, np.ndarray]:
    """Features of every BLEND segment, computed once for both models."""
    if load_synonyms() is None:
        return {"basic": blend_features(blend, "basic", "/usr/share/wordnet")}
    everything = blend_features(blend, "semantic", "/usr/share/wordnet")
    basic_columns = [ALL_VARIANTS.index(variant) for variant in BASIC_VARIANTS]
    return {"semantic": everything, "basic": everything[:, basic_columns]}


def shipped(feature_set: str) -> dict[str, object]:
    return json.loads(Path(SHIPPED_MODELS[feature_set]).read_text(encoding="utf-8"))


def test_the_shipped_models_load_and_record_how_they_were_trained() -> None:
    for feature_set in ("basic", "semantic"):
        model = load_model(str(SHIPPED_MODELS[feature_set]))
        training = model.data["training"]
        assert training["command"].startswith("python -m scoring train-red ")
        assert f"--features {feature_set}" in training["command"]
        assert training["n_train"] == 4288 and training["n_heldout"] == 1072
        assert set(training["sha256"]) == {
            "orig/train.mt-system.toen",
            "orig/train.reference.toen",
            "orig/train.human.toen",
            "scores/BLEU",
        }
        assert model.grade_values.tolist() == [0.0, 1 / 3, 2 / 3, 1.0]


@pytest.mark.parametrize("feature_set", FEATURE_SETS)
def test_retraining_with_the_script_reproduces_the_shipped_model(
    feature_set: str, blend: BlendData, matrices: dict[str, np.ndarray]
) -> None:
    if feature_set not in matrices:
        pytest.skip("WordNet files (Debian wordnet-base) not installed")
    expected = shipped(feature_set)
    assert blend.sha256 == expected["training"]["sha256"]  # type: ignore[index]
    retrained = train_model(
        blend,
        feature_set,
        matrix=matrices[feature_set],
        out=f"scoring/metrics/red/data/red_{feature_set}.json",
    )
    # Through JSON, as the script writes it. The tree's structure, the grades
    # and every count must be identical; correlations and thresholds are
    # floating-point sums whose last bits differ between CPUs and BLAS paths.
    assert_same_document(json.loads(json.dumps(retrained)), expected)


def assert_same_document(actual: object, expected: object, path: str = "model") -> None:
    """Equal JSON documents, floats to a relative 1e-12 (ints, strings exact)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and actual.keys() == expected.keys(), path
        for key in expected:
            assert_same_document(actual[key], expected[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), path
        for index, (a, e) in enumerate(zip(actual, expected)):
            assert_same_document(a, e, f"{path}[{index}]")
    elif isinstance(expected, float):
        assert isinstance(actual, (int, float)), path
        assert actual == pytest.approx(expected, rel=1e-12, abs=1e-15), path
    else:
        assert type(actual) is type(expected) and actual == expected, path


@pytest.mark.parametrize("feature_set", FEATURE_SETS)
def test_held_out_agreement_beats_chance_and_sentence_bleu(
    feature_set: str, blend: BlendData, matrices: dict[str, np.ndarray]
) -> None:
    if feature_set not in matrices:
        pytest.skip("WordNet files (Debian wordnet-base) not installed")
    model = load_model(str(SHIPPED_MODELS[feature_set]))
    held = heldout_mask(len(blend.human))
    thresholds = np.array(model.data["grades"]["thresholds"])
    truth = grades(blend.human[held], thresholds)
    x = matrices[feature_set][held]
    accuracy = float(np.mean(model.tree.predict(x) == truth))
    chance = np.bincount(truth).max() / len(truth)
    red_r = np.corrcoef(model.scores(x), blend.human[held])[0, 1]
    bleu_r = np.corrcoef(blend.bleu[held], blend.human[held])[0, 1]
    bleu_grades = grades(
        blend.bleu[held], np.quantile(blend.bleu[~held], [0.25, 0.5, 0.75])
    )
    bleu_accuracy = float(np.mean(bleu_grades == truth))
    assert chance == pytest.approx(0.266, abs=0.001)
    assert accuracy > chance + 0.1
    assert accuracy > bleu_accuracy
    assert red_r > bleu_r + 0.05
    assert bleu_r == pytest.approx(0.466, abs=0.001)  # BLEND's oracle file
