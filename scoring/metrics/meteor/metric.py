"""METEOR: Banerjee & Lavie 2005 and METEOR 1.5 (Denkowski & Lavie), 0–1.

Two parameter sets (``params``):

``rank`` (default)
    METEOR 1.4/1.5's "rank" task as the official jar runs it: modules exact,
    Snowball stem, WordNet synonym and paraphrase for English (exact, stem,
    paraphrase for German); English α, β, γ, δ = 0.85, 0.2, 0.6, 0.75 and
    module weights 1.0, 0.6, 0.8, 0.6 (German 0.95, 1.0, 0.55, 0.55 and 1.0,
    0.8, 0.2). δ weighs content against function words. Like the jar, an
    explicit module list takes the task's weights *by position*
    (``-m "exact stem paraphrase"`` gives paraphrase the synonym weight).
    One beam-search alignment over all candidate matches (see
    :mod:`scoring.metrics.meteor.align`).
``2005``
    Banerjee & Lavie 2005: exact, original-Porter stem and WordNet synonym
    stages, each aligning only words left by earlier stages with the most
    matches and then the fewest chunks; Fmean = 10PR/(R+9P),
    penalty 0.5·(chunks/matches)³, no function-word weighting.

Languages (``lang``), with METEOR 1.5's defaults for each: ``en`` (exact,
stem, synonym, paraphrase), ``de``, ``fr``, ``es``, ``ru`` (exact, stem,
paraphrase), ``cs`` (exact, paraphrase), ``da fi hu it nl no pt ro sv tr``
(exact and Snowball stem, METEOR's language-independent parameters) and
``other`` (exact only, language-independent parameters). Every language is
weighted with the English function words, as the jar does. Only METEOR's
English paraphrase table is available (``pycocoevalcap``), so for other
languages the paraphrase module is off (``para:off``) unless a table is given.

Text: ``norm=true`` is METEOR's ``-norm`` (its tokeniser, then lower case),
reproduced for ``en`` and ``de``; other languages need ``norm=false`` and
text tokenised beforehand, as the jar asks for languages it cannot normalise;
``norm=false`` splits on ASCII whitespace like the jar, lower-casing only with
``lowercase=true``. Several references: the one giving the best segment score
is kept (first on ties), as the jar does. The corpus score is computed from
the summed statistics (the jar's "Final score"), not a mean of segments.

WordNet comes from ``wordnet`` (Debian ``wordnet-base``); when its files are
missing the synonym module is dropped and the signature says ``syn:off``.
The paraphrase module needs METEOR's table (``paraphrase-en.gz``) at
``paraphrase``; without it the signature says ``para:off``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from scoring.base import Bounds, Metric, Parameter, require
from scoring.lexicon.wordnet import DEFAULT_WORDNET_DIR
from scoring.metrics.meteor.align import resolve
from scoring.metrics.meteor.config import (
    METEOR_LANGUAGES,
    NORMALISED_LANGUAGES,
    MeteorConfig,
    build_config,
)
from scoring.metrics.meteor.formula import alignment_row
from scoring.metrics.meteor.normalize import meteor_words
from scoring.metrics.meteor.stages import (
    EXACT,
    PARAPHRASE,
    STEM,
    SYNONYM,
    Stage,
    match_exact,
    match_paraphrase,
    match_stem,
    match_synonym,
)

_METEOR_PARAMETERS = (
    Parameter("params", "params", str, "parameter set", ("rank", "2005")),
    Parameter("lang", "lang", str, "target language", METEOR_LANGUAGES),
    Parameter(
        "modules", "modules", str, "matching modules joined by +, e.g. exact+stem"
    ),
    # Every task of METEOR 1.5 weighs its modules within [0, 1], exact = 1.
    Parameter(
        "weights",
        "weights",
        str,
        "module weights joined by +, e.g. 1.0+0.6",
        bounds=Bounds(0, 1),
    ),
    Parameter(
        "wordnet", "wordnet", str, "WordNet 3.0 database directory", server_only=True
    ),
    Parameter(
        "paraphrase",
        "paraphrase",
        str,
        "METEOR paraphrase table (.gz)",
        server_only=True,
    ),
    Parameter("norm", "norm", bool, "METEOR -norm tokenisation and lower case"),
    Parameter("lowercase", "lowercase", bool, "lower-case when norm is off"),
    Parameter(
        "frag",
        "frag",
        str,
        "fragmentation chunks/matches or (c-1)/(m-1)",
        ("ratio", "lecture"),
    ),  # fmt: skip
)


@dataclass(frozen=True)
class Meteor(Metric):
    """METEOR with per-segment statistics; scores on 0–1, higher is better.

    Attributes:
        params: ``rank`` (METEOR 1.5) or ``2005`` (Banerjee & Lavie).
        lang: ``en``, ``de``, ``fr``, ``es``, ``cs``, ``ru``, the stem-only
            languages (``da fi hu it nl no pt ro sv tr``) or ``other``
            (exact matching only); see :mod:`scoring.metrics.meteor.config`.
        modules: ``+``-joined subset of exact, stem, synonym, paraphrase in
            matching order; empty = the parameter set's default.
        weights: ``+``-joined module weights; empty = the task's, by position.
        wordnet: directory of the WordNet database files.
        paraphrase: path of METEOR's gzipped paraphrase table; empty = none.
        norm: METEOR's ``-norm`` normalisation (then lower case).
        lowercase: lower-case when ``norm`` is off.
        frag: ``ratio`` (chunks/matches) or ``lecture`` ((c−1)/(m−1)).
    """

    params: str = "rank"
    lang: str = "en"
    modules: str = ""
    weights: str = ""
    wordnet: str = DEFAULT_WORDNET_DIR
    paraphrase: str = ""
    norm: bool = True
    lowercase: bool = True
    frag: str = "ratio"

    name: ClassVar[str] = "meteor"
    description: ClassVar[str] = (
        "METEOR (Banerjee & Lavie 2005; METEOR 1.5 rank parameters): exact, "
        "stem, WordNet synonym and paraphrase matching"
    )
    higher_is_better: ClassVar[bool] = True
    scale: ClassVar[float] = 1.0
    parameters: ClassVar[tuple[Parameter, ...]] = _METEOR_PARAMETERS

    def __post_init__(self) -> None:
        self.check_bounds()  # before the configuration loads any resource
        for flag in ("norm", "lowercase"):
            value = getattr(self, flag)
            require(
                isinstance(value, bool),
                f"meteor: {flag} must be true or false, not {value!r}",
            )
        _ = self.config  # builds and checks the configuration (MetricError)
        require(
            not self.norm or self.lang in NORMALISED_LANGUAGES,
            f"meteor: norm=true (METEOR -norm) is reproduced for "
            f"{' and '.join(NORMALISED_LANGUAGES)} only; for lang={self.lang} give "
            "pre-tokenised text and norm=false",
        )

    @property
    def config(self) -> MeteorConfig:
        """The resolved configuration (modules available on this machine)."""
        return build_config(
            self.params, self.lang, self.modules, self.weights, self.wordnet,
            self.paraphrase, self.frag,
        )  # fmt: skip

    @property
    def statistics_names(self) -> tuple[str, ...]:
        return self.config.formula.statistics_names()

    def words(self, text: str) -> tuple[str, ...]:
        """The words METEOR aligns for ``text`` under this configuration."""
        return meteor_words(text, self.lang, self.norm, self.lowercase)

    def align(self, hyp: Sequence[str], ref: Sequence[str]) -> list:
        """The chosen matches between two word sequences (reference order)."""
        config = self.config
        hyp, ref = tuple(hyp), tuple(ref)
        kinds = config.module_kinds
        if config.stagewise:
            matches: list = []
            for module, kind in enumerate(kinds):
                stage = Stage(hyp, ref)
                self._match(stage, module, kind)
                matches = resolve(stage, (1.0,) * len(kinds), fixed=matches)
            return matches
        stage = Stage(hyp, ref)
        # METEOR: identical sentences are matched with the first module only.
        used = kinds[:1] if hyp == ref else kinds
        for module, kind in enumerate(used):
            self._match(stage, module, kind)
        search_weights = tuple(1.0 if kind == EXACT else 0.5 for kind in kinds)
        return resolve(stage, search_weights)

    def _match(self, stage: Stage, module: int, kind: int) -> None:
        config = self.config
        if kind == EXACT:
            match_exact(stage, module)
        elif kind == STEM:
            match_stem(stage, module, config.stemmer)
        elif kind == SYNONYM:
            match_synonym(stage, module, config.wordnet_data)
        elif kind == PARAPHRASE:
            match_paraphrase(stage, module, config.paraphrase_table)

    def pair_row(self, hyp: Sequence[str], ref: Sequence[str]) -> list[int]:
        """Statistics of a hypothesis against one reference (word sequences)."""
        config = self.config
        matches = self.align(hyp, ref)
        return alignment_row(
            hyp, ref, matches, len(config.module_kinds), config.function_words,
            pool_like_meteor=config.formula.perfect_unpenalised,
        )  # fmt: skip

    def segment_row(self, hypothesis: str, references: tuple[str, ...]) -> list[int]:
        """Statistics against the reference with the best segment score."""
        hyp = self.words(hypothesis)
        formula = self.config.formula
        best_row: list[int] = []
        best_score = -1.0
        for reference in references:
            row = self.pair_row(hyp, self.words(reference))
            score = float(formula.scores(np.asarray(row)))
            if score > best_score:
                best_row, best_score = row, score
        return best_row

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus METEOR, 0–1, from pooled statistics: ``(..., n) -> (...)``."""
        return self.config.formula.scores(summed)

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Segment METEOR, 0–1: ``(..., n) -> (...)``."""
        return self.config.formula.scores(statistics)

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        return self.config.signature_fields(self.norm, self.norm or self.lowercase)
