"""Resolving a METEOR configuration: parameters, modules, weights, resources.

Parameter tables are METEOR 1.5's (``edu.cmu.meteor.util.Constants``, task
"rank"), checked against the jar's printed configuration in the oracle files
(``meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy_pa-1.0_0.6_0.8_0.6`` and
``meteor-1.5-wo-de-norm-0.95_1.0_0.55_0.55-ex_st-1.0_0.8``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from scoring.base import require
from scoring.lexicon.stemmers import stemmer
from scoring.lexicon.wordnet import WordNet, load_wordnet
from scoring.metrics.meteor.formula import MeteorFormula
from scoring.metrics.meteor.paraphrase_store import load_table
from scoring.metrics.meteor.resources import FUNCTION_WORDS
from scoring.metrics.meteor.stages import (
    MODULE_NAMES,
    PARAPHRASE,
    SYNONYM,
    ParaphraseTable,
)

# METEOR 1.5's defaults per language (edu.cmu.meteor.util.Constants): (alpha,
# beta, gamma, delta), the task's module weights (taken by position) and the
# default modules. The jar runs its "rank" task for en, cs, de, es, fr and ru,
# and the language-independent task ("li") for the languages it can only stem
# and for "other" (any language it does not know: exact matching only).
_LANGUAGE_INDEPENDENT = (0.75, 1.40, 0.70, 0.50)
_LANGUAGE_INDEPENDENT_WEIGHTS = (1.0, 0.5, 0.5, 0.5)
_RANK = {
    "en": (
        (0.85, 0.20, 0.60, 0.75),
        (1.0, 0.6, 0.8, 0.6),
        "exact+stem+synonym+paraphrase",
    ),
    "de": ((0.95, 1.00, 0.55, 0.55), (1.0, 0.8, 0.2, 0.0), "exact+stem+paraphrase"),
    "fr": ((0.90, 1.40, 0.60, 0.65), (1.0, 0.2, 0.4, 0.0), "exact+stem+paraphrase"),
    "es": ((0.65, 1.30, 0.50, 0.80), (1.0, 0.8, 0.6, 0.0), "exact+stem+paraphrase"),
    "cs": ((0.95, 0.20, 0.60, 0.80), (1.0, 0.4, 0.0, 0.0), "exact+paraphrase"),
    # The jar's Russian rank parameters are a copy of the language-independent
    # ones.
    "ru": (_LANGUAGE_INDEPENDENT, (1.0, 0.5, 0.5, 0.0), "exact+stem+paraphrase"),
    **{
        lang: (_LANGUAGE_INDEPENDENT, _LANGUAGE_INDEPENDENT_WEIGHTS, "exact+stem")
        for lang in ("da", "fi", "hu", "it", "nl", "no", "pt", "ro", "sv", "tr")
    },
    "other": (_LANGUAGE_INDEPENDENT, _LANGUAGE_INDEPENDENT_WEIGHTS, "exact"),
}
#: Languages METEOR accepts (``lang``); ``other`` is exact matching only.
METEOR_LANGUAGES = tuple(_RANK)
# The Snowball stemmer METEOR 1.5 uses per language (none for cs and other).
_SNOWBALL = {
    "en": "english", "de": "german", "fr": "french", "es": "spanish",
    "ru": "russian", "da": "danish", "fi": "finnish", "hu": "hungarian",
    "it": "italian", "nl": "dutch", "no": "norwegian", "pt": "portuguese",
    "ro": "romanian", "sv": "swedish", "tr": "turkish",
}  # fmt: skip
#: Languages whose METEOR ``-norm`` normaliser is reproduced here. The jar
#: also normalises cs, es, fr and ru, with nonbreaking-prefix lists that are
#: not shipped here, and refuses ``-norm`` for every other language.
NORMALISED_LANGUAGES = ("en", "de")
_PAPER_2005 = (0.9, 3.0, 0.5, 1.0)


def _stemmer_name(params: str, lang: str) -> str | None:
    # Banerjee & Lavie 2005 stemmed English with the original Porter stemmer.
    if params == "2005" and lang == "en":
        return "porter"
    return _SNOWBALL.get(lang)


@dataclass(frozen=True, eq=False)
class MeteorConfig:
    """Everything a METEOR metric needs, resolved for this machine."""

    params: str
    lang: str
    formula: MeteorFormula
    module_kinds: tuple[int, ...]
    stagewise: bool
    stemmer: Callable[[str], str] | None
    wordnet_data: WordNet | None
    paraphrase_table: ParaphraseTable | None
    paraphrase_path: str
    function_words: frozenset[str]

    def signature_fields(
        self, norm: bool, lowercased: bool
    ) -> tuple[tuple[str, str], ...]:
        formula = self.formula
        wordnet, table = self.wordnet_data, self.paraphrase_table
        fields = [
            ("lang", self.lang),
            ("norm", "yes" if norm else "no"),
            ("case", "lc" if lowercased else "mixed"),
            ("params", self.params),
            ("mods", "+".join(MODULE_NAMES[k] for k in self.module_kinds) or "none"),
            ("w", "+".join(f"{w:g}" for w in formula.weights) or "none"),
            ("abgd", "+".join(f"{v:g}" for v in (
                formula.alpha, formula.beta, formula.gamma, formula.delta))),
            ("syn", f"wn{wordnet.version}" if wordnet else "off"),
            ("para", Path(self.paraphrase_path).name if table else "off"),
        ]  # fmt: skip
        if formula.fragmentation != "ratio":
            fields.append(("frag", formula.fragmentation))
        return tuple(fields)


@lru_cache(maxsize=2)
def load_paraphrase_table(path: str) -> ParaphraseTable:
    """METEOR's table at ``path`` (parsed once, then from its cache file:
    :mod:`scoring.metrics.meteor.paraphrase_store`)."""
    return load_table(path)


def _parse_list(text: str, what: str) -> list[str]:
    items = [item.strip() for item in text.split("+")]
    require(all(items), f"meteor: empty item in {what} {text!r}")
    return items


@lru_cache(maxsize=32)
def build_config(
    params: str, lang: str, modules: str, weights: str, wordnet: str,
    paraphrase: str, frag: str,
) -> MeteorConfig:  # fmt: skip
    """Check the parameters and load the resources (cached)."""
    require(
        params in ("rank", "2005"),
        f"meteor: params must be rank or 2005, not {params!r}",
    )
    require(
        lang in _RANK, f"meteor: lang must be one of {', '.join(_RANK)}, not {lang!r}"
    )
    stemmer_name = _stemmer_name(params, lang)
    require(
        frag in ("ratio", "lecture"),
        f"meteor: frag must be ratio or lecture, not {frag!r}",
    )
    if params == "rank":
        parameters, task_weights, default_modules = _RANK[lang]
    else:
        # The 2005 stages: exact, stem where a stemmer exists, WordNet (English).
        stages = (
            ["exact"] + ["stem"] * bool(stemmer_name) + ["synonym"] * (lang == "en")
        )
        parameters, default_modules, task_weights = _PAPER_2005, "+".join(stages), ()
    names = _parse_list(modules or default_modules, "modules")
    for name in names:
        require(
            name in MODULE_NAMES,
            f"meteor: unknown module {name!r}; valid: {', '.join(MODULE_NAMES)}",
        )
    require(len(set(names)) == len(names), f"meteor: repeated module in {modules!r}")
    require(
        lang == "en" or "synonym" not in names,
        "meteor: synonym matching exists only for English (lang=en)",
    )
    require(
        stemmer_name is not None or "stem" not in names,
        f"meteor: METEOR has no stemmer for lang={lang}",
    )
    kinds = [MODULE_NAMES.index(name) for name in names]
    if weights:
        try:
            values = [float(value) for value in _parse_list(weights, "weights")]
        except ValueError:
            values = []
        require(
            len(values) == len(kinds) and all(0 <= v < float("inf") for v in values),
            f"meteor: weights must be {len(kinds)} numbers >= 0 joined by +, "
            f"not {weights!r}",
        )
    elif params == "rank":
        # The jar sizes the task's weight list to the modules by position.
        values = [
            task_weights[k] if k < len(task_weights) else 0.0 for k in range(len(kinds))
        ]
    else:
        values = [1.0] * len(kinds)
    wordnet_data = load_wordnet(wordnet) if SYNONYM in kinds else None
    table = None
    if PARAPHRASE in kinds and paraphrase and Path(paraphrase).is_file():
        table = load_paraphrase_table(paraphrase)
    available = [
        (kind, weight) for kind, weight in zip(kinds, values, strict=True)
        if (kind != SYNONYM or wordnet_data) and (kind != PARAPHRASE or table)
    ]  # fmt: skip
    # METEOR 1.5 scores every language with the English function words (see
    # scoring.metrics.meteor.resources).
    function_words: frozenset[str] = (
        FUNCTION_WORDS.get(lang, FUNCTION_WORDS["en"])
        if params == "rank"
        else frozenset()
    )
    alpha, beta, gamma, delta = parameters
    return MeteorConfig(
        params=params,
        lang=lang,
        formula=MeteorFormula(
            alpha,
            beta,
            gamma,
            delta,
            tuple(w for _, w in available),
            frag,
            perfect_unpenalised=params == "rank",
        ),  # fmt: skip
        module_kinds=tuple(k for k, _ in available),
        stagewise=params == "2005",
        stemmer=stemmer(stemmer_name) if stemmer_name else None,
        wordnet_data=wordnet_data,
        paraphrase_table=table,
        paraphrase_path=paraphrase,
        function_words=function_words,
    )
