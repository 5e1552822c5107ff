"""The RED metric: scores, degenerate input, configuration, real data."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scoring import MetricError
from scoring.metrics.red.metric import RED
from scoring.metrics.red.model import SHIPPED_MODELS
from scoring.metrics.red.semantic import load_synonyms
from tests.scoring.support.realdata import WMT21_DIR, read_lines, require_full_data

REFERENCE = "The committee approved the new budget on Tuesday."


def test_a_hypothesis_equal_to_its_reference_gets_the_best_leaf_of_the_tree() -> None:
    # All distances 0: the leaf reached by the zero vector, whose expected
    # grade is read from the model file (no data needed).
    metric = RED()
    model = metric.trained_model
    best = model.scores(np.zeros((1, 8)))[0]
    result = metric.score(
        [REFERENCE, "Bananas."], [[REFERENCE, REFERENCE]], sentence=True
    )
    assert result.sentence_scores is not None
    assert result.sentence_scores[0] == pytest.approx(best, rel=1e-12)
    assert result.sentence_scores[1] < result.sentence_scores[0]
    assert result.score == pytest.approx(sum(result.sentence_scores) / 2, rel=1e-12)
    assert best > 0.8


def test_sentence_scores_are_expected_grades_within_zero_and_one() -> None:
    hyps = [
        "The committee approved a new budget on Tuesday.",
        "Budget the.",
        "",
        "Tuesday",
    ]
    result = RED().score(hyps, [[REFERENCE] * 4], sentence=True)
    assert result.sentence_scores is not None
    assert all(0.0 <= score <= 1.0 for score in result.sentence_scores)
    assert result.sentence_scores[0] > result.sentence_scores[1]
    assert list(result.statistics[:, 1]) == [1, 1, 1, 1]


def test_segment_row_equals_the_batched_statistics() -> None:
    metric = RED()
    hyps = ["The committee approved a budget.", "Nothing like it"]
    refs = [[REFERENCE, REFERENCE], ["The committee passed the budget.", None]]
    rows = metric.segment_statistics(hyps, refs)
    assert list(
        metric.segment_row(hyps[0], (REFERENCE, "The committee passed the budget."))
    ) == list(rows[0])
    assert list(metric.segment_row(hyps[1], (REFERENCE,))) == list(rows[1])


def test_empty_hypotheses_and_references_do_not_break_it() -> None:
    result = RED().score(["", "", "word"], [["", "some words", ""]], sentence=True)
    assert result.sentence_scores is not None
    assert len(result.sentence_scores) == 3
    assert all(0.0 <= score <= 1.0 for score in result.sentence_scores)
    assert RED().score([], [[]]).score == 0.0


def test_unequal_reference_counts_give_nrefs_var() -> None:
    result = RED().score(["a b", "c d"], [["a b", "c d"], ["a b", None]])
    assert "|nrefs:var|" in result.signature


@pytest.mark.parametrize(
    "text",
    [
        "机器翻译 评测",
        "الترجمة الآلية جيدة",
        "cafe\u0301 na\u0308ive",
        "one\u00a0two\u3000three",
    ],
)
def test_unicode_text_scores_like_any_other(text: str) -> None:
    result = RED().score([text, "x"], [[text, "y"]], sentence=True)
    assert result.sentence_scores is not None
    assert result.sentence_scores[0] > result.sentence_scores[1]


def test_the_signature_names_tokenizer_features_and_model_digest() -> None:
    signature = RED().score(["a"], [["a"]]).signature
    parts = signature.split("|")
    assert parts[:6] == [
        "red",
        "nrefs:1",
        "case:lc",
        "tok:13a",
        "lang:en",
        "features:basic",
    ]
    assert parts[6].startswith("model:") and len(parts[6]) == len("model:") + 12


def test_the_semantic_model_needs_wordnet_and_says_so(tmp_path: Path) -> None:
    with pytest.raises(MetricError, match="WordNet"):
        RED(features="semantic", wordnet=str(tmp_path)).score(["a"], [["a"]])
    if load_synonyms() is None:
        pytest.skip("WordNet files (Debian wordnet-base) not installed")
    result = RED(features="semantic").score(
        ["they began the car"], [["they start the automobile"]]
    )
    assert (
        "|features:semantic|" in result.signature
        and "|wordnet:3.0|" in result.signature
    )


def test_it_refuses_unknown_features_and_a_model_of_other_features() -> None:
    with pytest.raises(MetricError, match="unknown features"):
        RED(features="all")
    with pytest.raises(MetricError, match="uses semantic features"):
        RED(features="basic", model=str(SHIPPED_MODELS["semantic"]))


def test_it_reports_a_missing_or_malformed_model_file(tmp_path: Path) -> None:
    with pytest.raises(MetricError, match="cannot read model file"):
        RED(model=str(tmp_path / "absent.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(MetricError, match="bad model file"):
        RED(model=str(bad))
    data = json.loads(SHIPPED_MODELS["basic"].read_text(encoding="utf-8"))
    data["tree"]["counts"] = [[1, 2]] * len(
        data["tree"]["counts"]
    )  # 2 grades, 4 values
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(MetricError, match="number of grades"):
        RED(model=str(wrong))


RU_EN = WMT21_DIR / "ru-en"


def test_red_ranks_wmt21_ru_en_systems_in_line_with_da_and_fast() -> None:
    """Unseen data with two references: measured system-level Pearson r with
    DA z over the 10 MT systems 0.626 (BLEU 0.545), segment-level r with the
    mapped segment DA 0.174 (sentence BLEU 0.184); about 1 s per system."""
    require_full_data("the 10 ru-en systems and their system-level DA")
    references = [read_lines(RU_EN / "ref.A.en"), read_lines(RU_EN / "ref.B.en")]
    rows = [line.split("\t") for line in read_lines(RU_EN / "human" / "da_sys.tsv")[1:]]
    da_z = {row[0]: float(row[3]) for row in rows if row[0] != "HUMAN"}
    segment_da = {}
    for line in read_lines(RU_EN / "human" / "da_seg.tsv")[1:]:
        fields = line.split("\t")
        segment_da[(fields[0], int(fields[2]))] = float(fields[7])
    metric = RED()
    systems = sorted(da_z)
    corpus, pairs = [], []
    for system in systems:
        result = metric.score(
            read_lines(RU_EN / "sys" / f"{system}.en"), references, sentence=True
        )
        corpus.append(result.score)
        assert result.sentence_scores is not None
        for line, score in enumerate(result.sentence_scores, start=1):
            if (system, line) in segment_da:
                pairs.append((score, segment_da[(system, line)]))
    system_r = np.corrcoef(corpus, [da_z[s] for s in systems])[0, 1]
    segment_r = np.corrcoef(np.array(pairs).T)[0, 1]
    assert system_r > 0.5
    assert segment_r > 0.15


def test_the_registry_builds_red_from_a_spec() -> None:
    from scoring import get_metric

    assert get_metric("red") == RED()
    assert get_metric(f"red:features=basic,model={SHIPPED_MODELS['basic']}") == RED(
        model=str(SHIPPED_MODELS["basic"])
    )
    with pytest.raises(MetricError, match="valid parameters of red"):
        get_metric("red:features=all")
