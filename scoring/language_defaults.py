"""The metric settings a target language calls for, and the identical-to-source check.

A score is only comparable with published ones when the text was split the
way everyone splits that language. The target language therefore chooses the
defaults; a user's explicit choice in a spec always wins, and the choice shows
in the signature (``tok:zh``, ``lang:fr``, ``mods:exact``), so nothing is
hidden:

Chinese (``zh``)
    ``tokenize=zh``, sacreBLEU's Chinese tokenizer (each Chinese character a
    word; :mod:`scoring.tokenizers.chinese`), for every metric that tokenises
    words (BLEU, BLEUS, NIST, WER, PER, SER, GTM, ROUGE, WNM). TER takes
    sacreBLEU's ``asian_support`` (with ``normalize``, without which sacreBLEU
    ignores it).
Japanese (``ja``), Korean (``ko``)
    ``tokenize=char`` (each character a word), and TER as for Chinese. The
    usual choice, sacreBLEU's MeCab-based ``ja-mecab`` and ``ko-mecab``, needs
    native MeCab dictionaries and is not bundled.
METEOR
    METEOR 1.5's own resources for the language (``lang``):
    English with WordNet synonyms and paraphrases; ``de fr es ru`` exact and
    Snowball stem matching (``cs`` exact only: METEOR has no Czech stemmer),
    ``da fi hu it nl no pt ro sv tr`` exact and stem with METEOR's
    language-independent parameters, every other language ``lang=other``:
    exact matching only. Outside English and German, METEOR's ``-norm``
    tokeniser is not reproduced (``norm=false``: words are what is between
    spaces). Unsegmented Chinese, Japanese or Korean would give one "word"
    per sentence, so METEOR is not among their :func:`default_metric_specs`.
chrF, chrF++
    Nothing: characters are language-neutral, and sacreBLEU's chrF has no
    language setting either.

Language codes are read as BCP 47 tags: only the primary subtag counts
(``zh-Hant`` is ``zh``, ``pt-BR`` is ``pt``), case is ignored, and a few
three-letter and older codes are understood (``zho``, ``cmn``, ``yue``,
``jpn``, ``kor``, ``cz``, ``nb``, ``nn``).

>>> apply_language_defaults("bleu", "zh-Hans")
'bleu:tokenize=zh'
>>> apply_language_defaults("bleu:tokenize=none", "zh")  # the user's choice wins
'bleu:tokenize=none'
>>> default_metric_specs("ja")
['bleu:tokenize=char', 'chrf', 'ter:normalize=true,asian_support=true']
>>> apply_language_defaults("meteor", "it")
'meteor:lang=it,norm=false'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.errors import MetricError
from scoring.metrics.meteor.config import METEOR_LANGUAGES, NORMALISED_LANGUAGES
from scoring.registry import canonical_spec, get_metric

#: Warn at upload when more than this share of a system's segments equals the
#: source segment (an untranslated or copied output).
IDENTICAL_TO_SOURCE_WARNING_FRACTION = 0.5

#: The metrics offered by default for a target language, before its settings.
BASE_METRICS = ("bleu", "chrf", "ter", "meteor")

# Tokenizer per target language; every other language keeps each metric's own
# default (13a for the n-gram metrics).
_TOKENIZER = {"zh": "zh", "ja": "char", "ko": "char"}
_ALIASES = {
    "zho": "zh", "chi": "zh", "cmn": "zh", "yue": "zh", "jpn": "ja", "kor": "ko",
    "cz": "cs", "nb": "no", "nn": "no", "nob": "no", "nno": "no",
}  # fmt: skip


def language_code(target_language: str) -> str:
    """The primary language subtag of a tag, lower-cased, aliases resolved.

    >>> language_code("zh-Hant-TW"), language_code("PT_br"), language_code("nb")
    ('zh', 'pt', 'no')
    """
    primary = target_language.strip().replace("_", "-").split("-")[0].lower()
    return _ALIASES.get(primary, primary)


def tokenizer_for(target_language: str) -> str | None:
    """The tokenizer a target language calls for, or ``None`` for the
    metrics' own defaults (languages written with spaces between words)."""
    return _TOKENIZER.get(language_code(target_language))


def meteor_language(target_language: str) -> str:
    """METEOR's ``lang`` for a target language: itself where METEOR 1.5 has
    resources for it, else ``other`` (exact matching only)."""
    code = language_code(target_language)
    return code if code in METEOR_LANGUAGES else "other"


def language_options(metric_name: str, target_language: str) -> dict[str, Any]:
    """The options the target language sets for the metric ``metric_name``
    (registry name), as ``get_metric`` keyword options; ``{}`` if none."""
    tokenizer = tokenizer_for(target_language)
    if metric_name == "meteor":
        lang = meteor_language(target_language)
        options: dict[str, Any] = {} if lang == "en" else {"lang": lang}
        if lang not in NORMALISED_LANGUAGES:
            options["norm"] = False
        return options
    if metric_name == "ter":
        return {"normalize": True, "asian_support": True} if tokenizer else {}
    if tokenizer is None or metric_name == "red":  # RED's model fixes its own
        return {}
    return {"tokenize": tokenizer}


def apply_language_defaults(spec: str, target_language: str) -> str:
    """``spec`` with the target language's defaults, written canonically.

    Options written in ``spec`` win over the language's; options the metric
    does not have are not added. Raises :class:`~scoring.errors.MetricError`
    for a bad spec, as :func:`~scoring.registry.get_metric` does.
    """
    name = spec.partition(":")[0].strip().lower() if isinstance(spec, str) else ""
    options = language_options(name, target_language)
    if name == "meteor":
        # METEOR's norm follows the language the spec ends up with (a spec
        # may name its own): off first, so that any language builds...
        options["norm"] = False
    metric = get_metric(spec, defaults=options)
    if getattr(metric, "lang", None) in NORMALISED_LANGUAGES:
        # ... and back to the metric's default where -norm is reproduced.
        options.pop("norm")
        metric = get_metric(spec, defaults=options)
    if getattr(metric, "preprocess", "default") != "default":
        # ROUGE-1.5.5's own preprocessing ignores the tokenizer: leave it out.
        options.pop("tokenize", None)
        metric = get_metric(spec, defaults=options)
    return canonical_spec(metric)


def default_metric_specs(
    target_language: str, metrics: Sequence[str] = BASE_METRICS
) -> list[str]:
    """The metric specs to offer for a target language: ``metrics`` with the
    language's defaults applied, METEOR left out for Chinese, Japanese and
    Korean (unsegmented text has no words for it to match)."""
    specs = []
    for spec in metrics:
        if tokenizer_for(target_language) and get_metric(spec).name == "meteor":
            continue
        specs.append(apply_language_defaults(spec, target_language))
    return specs


def identical_to_source_fraction(
    source: Sequence[str], hypotheses: Sequence[str]
) -> float:
    """Share (0–1) of segments whose hypothesis equals the source segment,
    compared after stripping surrounding whitespace; 0.0 for no segments.

    Above :data:`IDENTICAL_TO_SOURCE_WARNING_FRACTION` an upload deserves a
    warning: the system most likely copied its input.

    >>> identical_to_source_fraction(["Guten Tag", "Danke", "Ja", "Nein"],
    ...                              ["Good day", "Danke ", "Ja", "No"])
    0.5

    Raises :class:`~scoring.errors.MetricError` when the lengths differ.
    """
    if len(source) != len(hypotheses):
        raise MetricError(
            f"{len(hypotheses)} hypotheses for {len(source)} source segments"
        )
    if not source:
        return 0.0
    same = sum(
        src.strip() == hyp.strip() for src, hyp in zip(source, hypotheses, strict=True)
    )
    return same / len(source)
