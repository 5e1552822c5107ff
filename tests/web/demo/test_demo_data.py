"""Tests of the demo test set and demo systems (no Django, no database).

The key check is that sacreBLEU's corpus BLEU and chrF rank the demo systems
exactly in their intended order, with clear BLEU margins, so the dashboard of
a fresh install shows a ranking that is right by construction.

Run ``python -m tests.web.demo.test_demo_data`` from the repository root to print
the scores table.
"""

from __future__ import annotations

import ast
import itertools
import re
import sys
from dataclasses import fields
from functools import cache
from pathlib import Path

import pytest
import sacrebleu

from mtdash.demo.corpus import DemoTestSet, demo_test_set
from mtdash.demo.systems import (
    SYSTEM_RECIPES,
    WRONG_WORD_VOCABULARY,
    DemoSystem,
    PerturbationRates,
    demo_systems,
    perturb_sentence,
)

MIN_SENTENCES = 48
MIN_DOCUMENTS = 6
MIN_SYSTEMS = 7
REFERENCE_LABELS = ("A", "B", "C", "D")
# Margin between consecutive systems, so the ranking is visible at a glance
# and not an artefact of rounding.
MIN_BLEU_GAP = 2.0
# Two translations sharing this much are near-copies, not independent work.
MAX_SENTENCE_BLEU_BETWEEN_TRANSLATORS = 70.0
MAX_CORPUS_BLEU_BETWEEN_TRANSLATORS = 50.0

DEMO_PACKAGE_DIR = Path(__file__).resolve().parents[3] / "mtdash" / "demo"


@cache
def _test_set() -> DemoTestSet:
    return demo_test_set()


@cache
def _systems() -> tuple[DemoSystem, ...]:
    return demo_systems(_test_set())


@cache
def _scores() -> tuple[tuple[str, float, float], ...]:
    """(name, BLEU, chrF) of each demo system, in intended rank order."""
    references = [list(_test_set().references[label]) for label in REFERENCE_LABELS]
    return tuple(
        (
            system.name,
            sacrebleu.corpus_bleu(list(system.hypotheses), references).score,
            sacrebleu.corpus_chrf(list(system.hypotheses), references).score,
        )
        for system in _systems()
    )


def _translations_by_translator() -> dict[str, tuple[str, ...]]:
    test_set = _test_set()
    return {**test_set.references, "E": test_set.held_out_translation}


def _format_scores_table() -> str:
    rows = [f"{'rank':>4}  {'system':<15}{'BLEU':>6}{'chrF':>7}"]
    for rank, (name, bleu, chrf) in enumerate(_scores(), start=1):
        rows.append(f"{rank:>4}  {name:<15}{bleu:>6.1f}{chrf:>7.1f}")
    return "\n".join(rows)


# --- corpus -----------------------------------------------------------------


def test_test_set_metadata() -> None:
    test_set = _test_set()
    assert test_set.source_language == "fr"
    assert test_set.target_language == "en"
    assert test_set.name and test_set.text_type and test_set.description
    assert tuple(test_set.references) == REFERENCE_LABELS


def test_counts_and_alignment() -> None:
    test_set = _test_set()
    sentence_count = len(test_set.sources)
    assert sentence_count >= MIN_SENTENCES
    assert len(test_set.document_ids) == sentence_count
    assert len(test_set.held_out_translation) == sentence_count
    for label in REFERENCE_LABELS:
        assert len(test_set.references[label]) == sentence_count


def test_documents_are_contiguous_and_well_named() -> None:
    document_ids = _test_set().document_ids
    # Consecutive runs: each document's sentences appear as one block.
    runs = [document_id for document_id, _ in itertools.groupby(document_ids)]
    assert len(runs) == len(set(runs)) >= MIN_DOCUMENTS
    for document_id in runs:
        assert re.fullmatch(r"news-[a-z]+-\d{2}", document_id), document_id


def test_source_sentence_lengths() -> None:
    for source in _test_set().sources:
        assert 8 <= len(source.split()) <= 35, source


def _assert_clean_lines(lines: tuple[str, ...], what: str) -> None:
    for line in lines:
        assert line, f"empty line in {what}"
        assert line == line.strip(), f"surrounding whitespace in {what}: {line!r}"
        assert "\n" not in line and "\r" not in line, f"line break in {what}"
        assert "  " not in line, f"double space in {what}: {line!r}"
    assert len(set(lines)) == len(lines), f"duplicated line in {what}"


def test_corpus_lines_are_clean_and_unique() -> None:
    test_set = _test_set()
    _assert_clean_lines(test_set.sources, "sources")
    for label, translations in _translations_by_translator().items():
        _assert_clean_lines(translations, f"translator {label}")


def test_five_translations_of_each_sentence_differ() -> None:
    translations = _translations_by_translator()
    for index, source in enumerate(_test_set().sources):
        versions = {label: lines[index] for label, lines in translations.items()}
        assert len(set(versions.values())) == 5, source
        for pair in itertools.combinations(versions.items(), 2):
            (label_1, text_1), (label_2, text_2) = pair
            overlap = sacrebleu.sentence_bleu(text_1, [text_2]).score
            assert overlap < MAX_SENTENCE_BLEU_BETWEEN_TRANSLATORS, (
                f"translators {label_1} and {label_2} nearly identical: "
                f"{text_1!r} / {text_2!r}"
            )


def test_translators_are_independent_at_corpus_level() -> None:
    translations = _translations_by_translator()
    for label_1, label_2 in itertools.combinations(translations, 2):
        score = sacrebleu.corpus_bleu(
            list(translations[label_1]), [list(translations[label_2])]
        ).score
        assert score < MAX_CORPUS_BLEU_BETWEEN_TRANSLATORS, (label_1, label_2, score)


def test_corpus_has_realistic_typography() -> None:
    test_set = _test_set()
    english = " ".join(itertools.chain(*_translations_by_translator().values()))
    french = " ".join(test_set.sources)
    for text in (english, french):
        assert re.search(r"\d", text), "numbers"
        assert "%" in text, "percentage"
        assert re.search(r"\w-\w", text), "hyphenated word"
        assert "'" in text, "apostrophe"
        assert "€" in text or "euros" in text, "currency amount"
        assert re.search(r"[A-Z]\w*[éèêëïîôç]", text), "accented name"
    assert '"' in english and "«" in french, "quotes"


# --- systems ----------------------------------------------------------------


def test_system_counts_ranks_and_metadata() -> None:
    systems = _systems()
    assert len(systems) >= MIN_SYSTEMS
    ranks = [system.intended_rank for system in systems]
    assert ranks == list(range(1, len(systems) + 1))
    names = [system.name for system in systems]
    assert len(set(names)) == len(names)
    for system in systems:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", system.name), system.name
        assert system.description and "\n" not in system.description
        assert len(system.hypotheses) == len(_test_set().sources)


def test_system_lines_are_clean() -> None:
    for system in _systems():
        _assert_clean_lines(system.hypotheses, system.name)


def test_systems_are_deterministic() -> None:
    test_set = _test_set()
    assert demo_systems(test_set) == demo_systems(test_set)
    assert demo_systems(test_set, seed=7) == demo_systems(test_set, seed=7)
    assert demo_systems(test_set, seed=7) != demo_systems(test_set, seed=8)


def test_damage_rates_increase_down_the_ranking() -> None:
    # The ranking is "known by construction" only if no rate ever decreases.
    for better, worse in itertools.pairwise(SYSTEM_RECIPES):
        for rate_field in fields(PerturbationRates):
            assert getattr(better.rates, rate_field.name) <= getattr(
                worse.rates, rate_field.name
            ), (better.name, worse.name, rate_field.name)
        assert better.rates != worse.rates


def test_zero_rates_leave_translation_unchanged() -> None:
    test_set = _test_set()
    for translation, source in zip(
        test_set.held_out_translation, test_set.sources, strict=True
    ):
        unchanged = perturb_sentence(translation, source, PerturbationRates(), "0:0")
        assert unchanged == translation


def test_best_system_is_lightly_damaged_and_worst_heavily() -> None:
    # Measured against E itself: how much of E each system still contains.
    held_out = [list(_test_set().held_out_translation)]
    best, worst = _systems()[0], _systems()[-1]
    assert best.hypotheses != _test_set().held_out_translation
    assert sacrebleu.corpus_bleu(list(best.hypotheses), held_out).score > 85
    assert sacrebleu.corpus_bleu(list(worst.hypotheses), held_out).score < 20


def test_wrong_words_never_occur_in_the_corpus() -> None:
    # Otherwise a "wrong word" could accidentally be right.
    english_words = {
        word.lower()
        for line in itertools.chain(*_translations_by_translator().values())
        for word in re.findall(r"[A-Za-z]+", line)
    }
    assert not english_words & set(WRONG_WORD_VOCABULARY)


def test_demo_modules_use_only_the_standard_library() -> None:
    # The Django management command imports these modules; they must not pull
    # in Django or scientific packages.
    for module_path in sorted(DEMO_PACKAGE_DIR.glob("*.py")):
        # Django's app config, and the script bin/run starts to compile the
        # demo ORANGE job's kernels: not demo data, never imported by load_demo.
        if module_path.name in ("apps.py", "precompile.py"):
            continue
        tree = ast.parse(module_path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                top_level_names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                top_level_names = [(node.module or "").split(".")[0]]
            else:
                continue
            for name in top_level_names:
                assert name in sys.stdlib_module_names or name == "__future__", (
                    f"{module_path.name} imports non-stdlib module {name}"
                )


# --- metrics ----------------------------------------------------------------


def test_bleu_ranks_systems_in_intended_order() -> None:
    print("\n" + _format_scores_table())  # shown with ``pytest -s``; README material
    scores = _scores()
    for (better, better_bleu, _), (worse, worse_bleu, _) in itertools.pairwise(scores):
        assert better_bleu - worse_bleu >= MIN_BLEU_GAP, (
            f"{better} ({better_bleu:.1f}) not {MIN_BLEU_GAP} BLEU above "
            f"{worse} ({worse_bleu:.1f})"
        )


def test_chrf_ranks_systems_in_intended_order() -> None:
    scores = _scores()
    for (better, _, better_chrf), (worse, _, worse_chrf) in itertools.pairwise(scores):
        assert better_chrf > worse_chrf, (better, better_chrf, worse, worse_chrf)


def test_worst_system_still_scores_above_zero() -> None:
    # "Heavily damaged but not empty": metrics should still see some overlap.
    _, worst_bleu, worst_chrf = _scores()[-1]
    assert worst_bleu > 0 and worst_chrf > 0


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_ranking_is_robust_to_the_seed(seed: int) -> None:
    # The ranking must come from the damage rates, not from a lucky seed.
    references = [list(_test_set().references[label]) for label in REFERENCE_LABELS]
    bleu = [
        sacrebleu.corpus_bleu(list(system.hypotheses), references).score
        for system in demo_systems(_test_set(), seed=seed)
    ]
    assert all(better > worse for better, worse in itertools.pairwise(bleu)), bleu


if __name__ == "__main__":
    print(_format_scores_table())
