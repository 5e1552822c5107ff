"""METEOR in the batch engine gives the per-pair code's scores, bit for bit:
every module combination (exact; exact+stem; exact+stem+synonym; with
paraphrases when METEOR's table is here), both parameter sets (METEOR 1.5
"rank" and Banerjee & Lavie 2005), English and German, on real Moses n-best
lists, on WMT21 system outputs, and on odd text (empty sides, punctuation
only, repeated words, synonyms competing for one word, sentences longer
than 64 words); ORANGE through the engine equals ORANGE pair by pair.

The engine's statistics rows are integers computed like the per-pair
code's, and both score them with the metric's own formula, so equality
(not a tolerance) is asserted.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import pytest

from scoring.batch.engine import supports, token_view
from scoring.batch.grid import grid_from_texts
from scoring.batch.meteor_family import MeteorWords, pair_rows
from scoring.metrics.meteor.metric import Meteor
from scoring.orange.dispatch import on_engine, orange_for_metric
from scoring.orange.options import OrangeOptions
from tests.scoring.support.batch_cases import (
    engine_scores,
    jackknife_and_all,
    per_pair_scores,
)
from tests.scoring.support.realdata import DATA_DIR, PROJECT_ROOT, read_lines

# (id, Meteor keyword arguments) without the paraphrase table.
SETTINGS = (
    ("rank-exact", {"modules": "exact"}),
    ("rank-exact-stem", {"modules": "exact+stem"}),
    ("rank-exact-stem-synonym", {"modules": "exact+stem+synonym"}),
    ("rank-stem-first", {"modules": "stem+exact"}),
    ("rank-weights", {"modules": "exact+synonym", "weights": "1.0+0.3"}),
    ("rank-no-norm", {"norm": False, "lowercase": False}),
    ("2005", {"params": "2005"}),
    ("2005-exact", {"params": "2005", "modules": "exact"}),
    ("2005-exact-stem", {"params": "2005", "modules": "exact+stem"}),
    ("2005-lecture", {"params": "2005", "frag": "lecture"}),
)
GERMAN_SETTINGS = (
    ("de-rank", {"lang": "de", "modules": "exact+stem"}),
    ("de-rank-exact", {"lang": "de", "modules": "exact"}),
    ("de-2005", {"lang": "de", "params": "2005"}),
)
PARAPHRASE_SETTINGS = (
    ("rank-default", {}),
    ("rank-exact-paraphrase", {"modules": "exact+paraphrase"}),
    ("rank-paraphrase-first", {"modules": "paraphrase+exact+stem"}),
    ("2005-all-stages", {"params": "2005", "modules": "exact+stem+synonym+paraphrase"}),
)

ODD_HYPOTHESES = (
    "",
    ".",
    "! ? , ; :",
    "the",
    "the the the the the",
    "the cat the cat the cat sat on the mat the",
    "a car , an auto , an automobile , a machine",
    "big large great huge large big",
    "running runs ran runner run",
    "Don't U.S.-based well-known Mr. Li said: “yes” — naïve café",
    "the government said that it would not be able to do so at this time",
    " ".join(f"w{i % 13} the" for i in range(90)),  # 180 words: 3 bit words
)
ODD_REFERENCES = (
    (
        "the cat sat on the mat",
        "a cat is sitting on the mat",
        "the the cat",
    ),
    (
        "an automobile , a car and a machine",
        "large big huge great",
        "",
    ),
    (
        'Mr. Li said : " yes " — naive cafe , U.S. based',
        "the administration stated that it could not do this now",
        " ".join(f"w{i % 11} the" for i in range(70)),
    ),
)


def paraphrase_table() -> str | None:
    """METEOR's ``paraphrase-en.gz`` where the project looks for it."""
    places = [
        os.environ.get("METEOR_PARAPHRASE_TABLE", ""),
        os.environ.get("MTDASH_METEOR_PARAPHRASE_TABLE", ""),
    ]
    if os.environ.get("MTDASH_DATA_DIR"):
        places.append(f"{os.environ['MTDASH_DATA_DIR']}/meteor/paraphrase-en.gz")
    places.append(str(PROJECT_ROOT / "var" / "meteor" / "paraphrase-en.gz"))
    return next((place for place in places if place and Path(place).is_file()), None)


@pytest.fixture(scope="module")
def table() -> str:
    found = paraphrase_table()
    if found is None:
        pytest.skip(
            "METEOR's paraphrase-en.gz not found (METEOR_PARAPHRASE_TABLE, "
            "MTDASH_METEOR_PARAPHRASE_TABLE or bin/_setup.sh's "
            "fetch_meteor_paraphrase_table)"
        )
    return found


def wmt21_groups(pair: str, n_segments: int) -> tuple[list, list]:
    """Each segment's system outputs against three of its translations (the
    references, then a system output when there are fewer than three)."""
    folder = DATA_DIR / "wmt21" / pair
    if not folder.is_dir():
        pytest.skip(f"WMT21 data not found at {folder}")
    references = [read_lines(path) for path in sorted(folder.glob("ref.*"))]
    systems = [read_lines(path) for path in sorted((folder / "sys").glob("*"))]
    borrowed = max(0, 3 - len(references))  # system outputs used as references
    references = (references + systems)[:3]
    systems = systems[borrowed:][:8]
    n = min(n_segments, *(len(lines) for lines in references + systems))
    return (
        [[lines[s] for lines in systems] for s in range(n)],
        [[lines[s] for lines in references] for s in range(n)],
    )


# The per-pair code's rows, by (metric, hypothesis words, reference words),
# for every test of this module: ``pair_row`` is a pure function of the
# metric's settings (a frozen dataclass: equal settings, equal metric) and
# its two word tuples. Moses n-best lists repeat candidates (the ORANGE
# tests' 330 candidate-reference and reference-reference pairs are 65
# distinct ones), and tests align the same pairs under the same settings
# (run1's first candidates in the ORANGE tests, the odd text in
# test_each_pair_row_equals_the_metrics_own_pair_row).
_PAIR_ROWS: dict[tuple[Meteor, tuple[str, ...], tuple[str, ...]], list[int]] = {}


def remembering_pairs(metric: Meteor) -> Meteor:
    """A copy of ``metric`` whose per-pair code aligns each (hypothesis,
    reference) pair once: every reference subset runs the per-pair code again,
    so each pair would be aligned once per subset holding its reference
    (three times with three references), and again in each test that scores
    it with the same settings. The engine keeps the original metric, so none
    of its own fallback rows come from this cache."""
    copy = dataclasses.replace(metric)
    aligned_by_the_per_pair_code = copy.pair_row

    def pair_row(hyp, ref) -> list[int]:
        key = (metric, tuple(hyp), tuple(ref))
        row = _PAIR_ROWS.get(key)
        if row is None:
            row = _PAIR_ROWS[key] = aligned_by_the_per_pair_code(hyp, ref)
        return list(row)  # a copy: the remembered row stays as computed

    object.__setattr__(copy, "pair_row", pair_row)
    return copy


def assert_same_scores(metric: Meteor, hypotheses, references) -> None:
    n_refs = max(len(refs) for refs in references)
    masks = jackknife_and_all(n_refs)
    reference_metric = remembering_pairs(metric)
    ours = engine_scores(metric, hypotheses, references, masks)
    expected = per_pair_scores(reference_metric, hypotheses, references, masks)
    assert np.array_equal(ours, expected), np.abs(ours - expected).max()
    # The references against the others (ORANGE's oracle).
    ours = engine_scores(metric, references, references, masks[:n_refs])
    expected = per_pair_scores(reference_metric, references, references, masks[:n_refs])
    assert np.array_equal(ours, expected)


def ids(settings):
    return [name for name, _ in settings]


@pytest.mark.parametrize("settings", [s for _, s in SETTINGS], ids=ids(SETTINGS))
def test_it_matches_the_per_pair_code_on_regression_run1(settings, regression):
    data = regression.first(30)
    assert_same_scores(Meteor(**settings), data.candidates, data.references)


@pytest.mark.parametrize("settings", [s for _, s in SETTINGS], ids=ids(SETTINGS))
def test_it_matches_the_per_pair_code_on_the_mert_example(settings, mert):
    data = mert.first(30)
    assert_same_scores(Meteor(**settings), data.candidates, data.references)


@pytest.mark.parametrize("settings", [s for _, s in SETTINGS], ids=ids(SETTINGS))
def test_it_matches_the_per_pair_code_on_wmt21_de_en_outputs(settings):
    hypotheses, references = wmt21_groups("de-en", 12)
    assert_same_scores(Meteor(**settings), hypotheses, references)


@pytest.mark.parametrize(
    "settings", [s for _, s in GERMAN_SETTINGS], ids=ids(GERMAN_SETTINGS)
)
def test_it_matches_the_per_pair_code_on_wmt21_en_de_outputs(settings):
    hypotheses, references = wmt21_groups("en-de", 12)
    assert_same_scores(Meteor(**settings), hypotheses, references)


@pytest.mark.parametrize("settings", [s for _, s in SETTINGS], ids=ids(SETTINGS))
def test_it_matches_the_per_pair_code_on_odd_text(settings):
    hypotheses = [list(ODD_HYPOTHESES)] * len(ODD_REFERENCES)
    assert_same_scores(Meteor(**settings), hypotheses, list(ODD_REFERENCES))


@pytest.mark.parametrize(
    "settings", [s for _, s in PARAPHRASE_SETTINGS], ids=ids(PARAPHRASE_SETTINGS)
)
def test_paraphrase_matching_matches_the_per_pair_code(settings, table, regression):
    metric = Meteor(paraphrase=table, **settings)
    assert "para:paraphrase-en.gz" in metric.signature()
    data = regression.first(12)
    assert_same_scores(metric, data.candidates, data.references)
    hypotheses, references = wmt21_groups("ru-en", 6)
    assert_same_scores(metric, hypotheses, references)
    hypotheses = [list(ODD_HYPOTHESES)] * len(ODD_REFERENCES)
    assert_same_scores(metric, hypotheses, list(ODD_REFERENCES))


def test_each_pair_row_equals_the_metrics_own_pair_row():
    metric = Meteor(modules="exact+stem+synonym")
    hypotheses = [list(ODD_HYPOTHESES)] * len(ODD_REFERENCES)
    grid = grid_from_texts(hypotheses, list(ODD_REFERENCES), token_view(metric))
    rows = pair_rows(metric, grid)
    per_pair = remembering_pairs(metric)  # the odd text test aligned them
    for g, refs in enumerate(ODD_REFERENCES):
        for n, hypothesis in enumerate(ODD_HYPOTHESES):
            for k, reference in enumerate(refs):
                expected = per_pair.pair_row(
                    metric.words(hypothesis), metric.words(reference)
                )
                assert rows[g * len(ODD_HYPOTHESES) + n, k].tolist() == expected


def test_meteor_variants_that_read_text_alike_share_one_token_view():
    assert token_view(Meteor(modules="exact")) == token_view(Meteor(params="2005"))
    assert token_view(Meteor(norm=False)) != token_view(Meteor())
    assert token_view(Meteor()) == MeteorWords("en", True, True)
    assert supports(Meteor()) and on_engine(Meteor())


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all-refs"])
@pytest.mark.parametrize("params", ["rank", "2005"])
def test_orange_through_the_engine_equals_the_per_pair_orange(
    params, all_references, regression
):
    options = OrangeOptions(
        all_references=all_references, curve_step=10, n_bootstrap=50
    )
    metric = Meteor(params=params, modules="exact+stem+synonym")
    data = regression.first(20)
    texts = (data.candidates, data.references, options)
    label = f"meteor:{params}"
    batch = orange_for_metric(metric, label, *texts, sentence_ids=data.sentence_ids)
    per_pair = orange_for_metric(
        remembering_pairs(metric), label, *texts,
        sentence_ids=data.sentence_ids, per_pair=True,
    )  # fmt: skip
    assert batch.to_dict() == per_pair.to_dict()


def test_pairs_the_kernel_gives_up_on_are_scored_by_the_python_code(monkeypatch):
    # The kernel reports a pair it cannot take (a search key overflowing,
    # thousands of words) with status -1; here it gives up on every pair.
    import scoring.batch.meteor_family as family

    real = family.meteor_pair_rows

    def giving_up(*args):
        rows, status = real(*args)
        return np.zeros_like(rows), np.full_like(status, -1)

    monkeypatch.setattr(family, "meteor_pair_rows", giving_up)
    hypotheses = [list(ODD_HYPOTHESES)] * len(ODD_REFERENCES)
    assert_same_scores(Meteor(), hypotheses, list(ODD_REFERENCES))


def test_orange_in_small_chunks_on_two_threads_equals_the_per_pair_orange(
    regression,
):
    # Chunks share the metric's word caches across threads.
    from scoring.orange.batched import orange_batch
    from scoring.orange.sources import TextSource

    options = OrangeOptions(curve_step=10, n_bootstrap=50)
    metric = Meteor(modules="exact+stem+synonym")
    data = regression.first(20)
    threaded = orange_batch(
        {"meteor": metric},
        TextSource(data.candidates, data.references),
        options,
        sentence_ids=data.sentence_ids,
        chunk_candidates=20,
        workers=2,
    )["meteor"]
    per_pair = orange_for_metric(
        remembering_pairs(metric), "meteor", data.candidates, data.references,
        options, sentence_ids=data.sentence_ids, per_pair=True,
    )  # fmt: skip
    assert threaded.to_dict() == per_pair.to_dict()
