"""Target-language defaults (:mod:`scoring.language_defaults`), METEOR's
language resources, and the identical-to-source share behind the upload
warning."""

from __future__ import annotations

import math

import pytest

from scoring import MetricError, get_metric, list_metrics
from scoring.language_defaults import (
    IDENTICAL_TO_SOURCE_WARNING_FRACTION,
    apply_language_defaults,
    default_metric_specs,
    identical_to_source_fraction,
    language_code,
    meteor_language,
    tokenizer_for,
)


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("zh", "zh"),
        ("zh-Hant-TW", "zh"),
        ("ZH_cn", "zh"),
        ("cmn", "zh"),
        ("yue", "zh"),
        ("jpn", "ja"),
        ("ko-KR", "ko"),
        ("pt-BR", "pt"),
        ("nb", "no"),
        ("cz", "cs"),
        (" en ", "en"),
    ],
)
def test_it_reads_the_primary_language_of_a_tag(tag: str, code: str) -> None:
    assert language_code(tag) == code


@pytest.mark.parametrize(
    ("target", "specs"),
    [
        ("zh", ["bleu:tokenize=zh", "chrf", "ter:normalize=true,asian_support=true"]),
        ("ja", ["bleu:tokenize=char", "chrf", "ter:normalize=true,asian_support=true"]),
        ("ko", ["bleu:tokenize=char", "chrf", "ter:normalize=true,asian_support=true"]),
        ("en", ["bleu", "chrf", "ter", "meteor"]),
        ("de", ["bleu", "chrf", "ter", "meteor:lang=de"]),
        ("fr", ["bleu", "chrf", "ter", "meteor:lang=fr,norm=false"]),
        ("cs", ["bleu", "chrf", "ter", "meteor:lang=cs,norm=false"]),
        ("pt-BR", ["bleu", "chrf", "ter", "meteor:lang=pt,norm=false"]),
        ("el", ["bleu", "chrf", "ter", "meteor:lang=other,norm=false"]),
    ],
)
def test_it_offers_the_metrics_a_target_language_calls_for(
    target: str, specs: list[str]
) -> None:
    assert default_metric_specs(target) == specs
    for spec in specs:
        get_metric(spec)  # every default builds


def test_the_tokenizer_shows_in_the_signature_of_every_word_metric() -> None:
    for info in list_metrics():
        parameters = {parameter.name for parameter in info.parameters}
        if "tokenize" not in parameters or info.name == "red":
            continue
        spec = apply_language_defaults(info.name, "zh")
        assert spec == f"{info.name}:tokenize=zh", info.name
        assert "|tok:zh|" in get_metric(spec).signature(nrefs=1), info.name
    bleu_ja = get_metric(apply_language_defaults("bleu", "ja-JP"))
    assert "|tok:char|" in bleu_ja.signature(nrefs=1)
    assert tokenizer_for("en") is None and tokenizer_for("ru") is None


def test_a_spec_written_by_the_user_wins_over_the_language() -> None:
    assert apply_language_defaults("bleu:tokenize=none", "zh") == "bleu:tokenize=none"
    assert apply_language_defaults("bleu:n=2", "zh") == "bleu:n=2,tokenize=zh"
    assert apply_language_defaults("meteor:lang=en", "fr") == "meteor"
    assert apply_language_defaults("meteor:lang=fr", "en") == (
        "meteor:lang=fr,norm=false"
    )
    assert apply_language_defaults("meteor:norm=true", "de") == "meteor:lang=de"
    assert apply_language_defaults("ter:normalize=false", "zh") == (
        "ter:asian_support=true"
    )


def test_metrics_without_a_language_setting_are_left_alone() -> None:
    for spec in ("chrf", "chrf++", "red"):
        assert apply_language_defaults(spec, "zh") == spec
    assert apply_language_defaults("bleu", "en") == "bleu"
    # ROUGE-1.5.5's own preprocessing has no tokenizer to set.
    assert apply_language_defaults("rouge-l:preprocess=rouge155", "zh") == (
        "rouge-l:preprocess=rouge155"
    )


def test_a_bad_spec_is_refused_as_get_metric_refuses_it() -> None:
    with pytest.raises(MetricError):
        apply_language_defaults("bleu:n=zero", "zh")
    with pytest.raises(MetricError):
        apply_language_defaults("nosuchmetric", "zh")


# METEOR 1.5's defaults (edu.cmu.meteor.util.Constants in the jar's sources):
# rank parameters for en cs de es fr ru, the language-independent ones
# (0.75 1.40 0.70 0.50; weights 1.0 0.5 ...) for the stem-only languages and
# "other". Modules here are those available without paraphrase tables.
METEOR_TABLE = [
    ("en", "0.85+0.2+0.6+0.75", "exact+stem+synonym", "1+0.6+0.8"),
    ("de", "0.95+1+0.55+0.55", "exact+stem", "1+0.8"),
    ("fr", "0.9+1.4+0.6+0.65", "exact+stem", "1+0.2"),
    ("es", "0.65+1.3+0.5+0.8", "exact+stem", "1+0.8"),
    ("cs", "0.95+0.2+0.6+0.8", "exact", "1"),
    ("ru", "0.75+1.4+0.7+0.5", "exact+stem", "1+0.5"),
    ("it", "0.75+1.4+0.7+0.5", "exact+stem", "1+0.5"),
    ("sv", "0.75+1.4+0.7+0.5", "exact+stem", "1+0.5"),
    ("el", "0.75+1.4+0.7+0.5", "exact", "1"),
    ("zh", "0.75+1.4+0.7+0.5", "exact", "1"),
]


@pytest.mark.parametrize(("target", "abgd", "modules", "weights"), METEOR_TABLE)
def test_meteor_takes_meteor_15s_resources_for_the_target_language(
    target: str, abgd: str, modules: str, weights: str
) -> None:
    metric = get_metric(apply_language_defaults("meteor", target))
    fields = dict(metric.signature_fields())
    if not metric.config.wordnet_data and target == "en":
        pytest.skip("WordNet not installed on this machine (syn:off)")
    assert fields["lang"] == meteor_language(target)
    assert (fields["abgd"], fields["mods"], fields["w"]) == (abgd, modules, weights)
    assert fields["para"] == "off"  # no table given: said, never silent
    assert fields["norm"] == ("yes" if target in ("en", "de") else "no")


def test_meteor_stems_italian_and_matches_other_languages_exactly() -> None:
    hypothesis, reference = ["gatti neri"], [["gatto nero"]]
    italian = get_metric("meteor:lang=it,norm=false").score(hypothesis, reference)
    other = get_metric("meteor:lang=other,norm=false").score(hypothesis, reference)
    # Two stem matches at the language-independent stem weight 0.5, in order.
    assert italian.score == pytest.approx(0.5, abs=1e-12) and other.score == 0.0
    assert "|mods:exact+stem|" in italian.signature
    assert "|lang:other|" in other.signature and "|mods:exact|" in other.signature


def test_meteor_for_another_language_follows_the_formula_by_hand() -> None:
    # Three of four content words matched in two chunks, language-independent
    # parameters alpha .75, beta 1.4, gamma .7: P = R = 3/4, Fmean = 3/4,
    # penalty = .7 * (2/3)^1.4 = 0.39680, score = .75 * (1 - 0.39680).
    result = get_metric("meteor:lang=other,norm=false").score(
        ["katze hund maus vogel"], [["katze hund fisch vogel"]]
    )
    expected = 0.75 * (1 - 0.7 * (2 / 3) ** 1.4)
    assert result.score == pytest.approx(expected, abs=1e-12)
    assert math.isclose(expected, 0.452401, abs_tol=1e-6)


def test_meteor_refuses_what_meteor_15_cannot_do_for_a_language() -> None:
    with pytest.raises(MetricError, match="norm"):
        get_metric("meteor:lang=fr")  # -norm without French prefix lists
    with pytest.raises(MetricError, match="stemmer"):
        get_metric("meteor:lang=cs,norm=false,modules=exact+stem")
    with pytest.raises(MetricError, match="synonym"):
        get_metric("meteor:lang=it,norm=false,modules=exact+synonym")


def test_identical_to_source_share_counts_copied_segments() -> None:
    source = ["Guten Tag", "Danke", "Ja", "Nein"]
    assert (
        identical_to_source_fraction(source, ["Good day", "Thanks", "Yes", "No"]) == 0
    )
    assert (
        identical_to_source_fraction(source, [" Guten Tag", "Danke\n", "Ja", "No"])
        == 0.75
    )
    assert identical_to_source_fraction([], []) == 0.0
    assert IDENTICAL_TO_SOURCE_WARNING_FRACTION == 0.5
    # "More than half" warns; exactly half does not.
    half = identical_to_source_fraction(source, ["Guten Tag", "Danke", "Yes", "No"])
    assert not half > IDENTICAL_TO_SOURCE_WARNING_FRACTION


def test_identical_to_source_share_refuses_unequal_lengths() -> None:
    with pytest.raises(MetricError, match="3 hypotheses for 2 source segments"):
        identical_to_source_fraction(["a", "b"], ["a", "b", "c"])
