"""WNM, the Weighted N-gram Model (Babych 2004; Babych, Elliott & Hartley 2005).

WNM is BLEU's n-gram matching with every n-gram weighted by the salience of
its words in the reference text of its *document* (see
:mod:`scoring.metrics.wnm.salience` for the formula), reported as precision, recall
and F-measure on 0–1, higher is better. It needs document ids.

What the authors' tool (``wnm-01-1.pl`` v01-1) does, and we do too:

- n-grams of orders 1..N (N = 4) are pooled into one sum, with no brevity
  penalty and no geometric mean;
- the weight of one n-gram occurrence is the salience of its *last* word
  (``ngram_weight="last"``; ``"sum"`` adds the saliences of all its words);
- weights come from the reference document only; the hypothesis n-grams get
  the weights of the same word types (a word absent from the reference
  document weighs 0, so adding such words does not lower precision); the
  matched weight of an n-gram is the minimum of its
  total weight in the hypothesis and in the reference;
- precision = matched / hypothesis weight, recall = matched / reference
  weight, F = 2PR / (P + R), each 0 when its denominator is 0.

Where we differ by default, and the option that restores the tool (all
three together, ``wnm:scope=document,negative=keep,tokenize=wnm``, give the
tool's figures to 1e-12 with one reference):

- ``scope="segment"`` (default) matches n-grams within each segment (clipped
  per segment as in BLEU) and pools the sums over the corpus, so sentence
  scores exist and bootstrap resampling works; ``scope="document"`` matches
  bags of n-grams over the whole document as the tool does and reports the
  mean of the per-document scores (the tool's advice for several texts). Its
  statistics carry each document's score divided by its number of segments,
  plus ``1 / n_segments``, so the corpus score is still a ratio of sums.
- ``negative="zero"`` (default) gives weight 0 to a word whose salience is
  negative (the log of a ratio below 1: a word only slightly more frequent
  in the document than elsewhere). The formula and the tool keep such
  weights (``negative="keep"``); then a matched word can lower a score and
  a sum of weights can be near 0 or negative, so sentence scores leave 0–1:
  on WMT21 ru-en (3 systems, 3000 segments) 10% of sentence precisions and
  4% of recalls fall outside [0, 1] (from -340 to 63), and the tool itself
  reports a precision of 1.04 for one of the 107 documents. With ``zero``
  every figure lies in [0, 1].
- ``tokenize="13a"`` with case folding is the default; ``tokenize="wnm"`` is
  the tool's own preprocessing (lower-casing, punctuation removed, on bytes).

Several references (the tool takes one): salience comes from all references
of the document together; precision clips each hypothesis n-gram by its
largest weight in any single reference (BLEU's rule) and recall pools the
matches and weights over the references (ROUGE-N's rule), so one reference
gives exactly the tool's figures. In ``scope="document"`` the k-th reference
text of a document is made of the k-th references of its segments.

Statistics per segment, floats (weights are sums of saliences)::

    [match_p, hyp_weight, match_r, ref_weight]                 (segment scope)
    [..., doc_p_share, doc_r_share, doc_f_share, doc_share]    (document scope)

Worked example: one segment "a b" against reference "a c", unweighted
(``weights="none"``, every word weighs 1), N = 2: hypothesis n-grams a, b, a b
(weight 3), reference a, c, a c (3), matched a (1): P = R = F = 1/3.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

from scoring.base import Metric, Parameter, ProgressCallback, require
from scoring.corpus import PreparedCorpus
from scoring.metrics.common.ngrams import NGRAM_ORDERS, ngram_counts
from scoring.metrics.wnm.corpus_salience import TestSetSalience, document_counts
from scoring.metrics.wnm.matching import (
    NGram,
    Weights,
    match_row,
    precision_recall_f,
    ratio,
    weighted_bag,
)
from scoring.metrics.wnm.salience import NEGATIVE_CHOICES, salience_weights
from scoring.tokenizers import get_tokenizer, list_tokenizers
from scoring.tokenizers.tools import WnmToolTokenizer

_MEASURES = ("p", "r", "f")
_WEIGHTS = ("salience", "none")
_NGRAM_WEIGHTS = ("last", "sum")
_SCOPES = ("segment", "document")
_TOKENIZERS = (*list_tokenizers(), "wnm")

_WNM_PARAMETERS = (
    Parameter(
        "measure", "measure", str, "corpus score: precision, recall or F", _MEASURES
    ),
    Parameter("n", "max_order", int, "maximum n-gram order", bounds=NGRAM_ORDERS),
    Parameter(
        "weights", "weights", str, "salience weights or none (plain counts)", _WEIGHTS
    ),
    Parameter(
        "negative",
        "negative",
        str,
        "keep negative saliences or zero them",
        NEGATIVE_CHOICES,
    ),
    Parameter(
        "ngram_weight",
        "ngram_weight",
        str,
        "n-gram weight: last word's or sum",
        _NGRAM_WEIGHTS,
    ),
    Parameter(
        "scope", "scope", str, "match within segments or whole documents", _SCOPES
    ),
    Parameter(
        "tokenize", "tokenize", str, "tokenizer (wnm = the WNM tool's)", _TOKENIZERS
    ),
    Parameter(
        "lowercase", "lowercase", bool, "case-fold (ASCII only with tokenize=wnm)"
    ),
)


@dataclass(frozen=True)
class WNM(Metric):
    """Weighted N-gram Model precision/recall/F on 0–1 (needs document ids).

    Attributes:
        measure: ``"p"``, ``"r"`` (default; the paper's WNM recall) or ``"f"``.
        max_order: N, the largest n-gram order (tool: 4).
        weights: ``"salience"`` (S-scores) or ``"none"`` (plain counts).
        negative: ``"zero"`` (default) or ``"keep"`` (tool) negative saliences.
        ngram_weight: ``"last"`` (tool) or ``"sum"`` of the words' saliences.
        scope: ``"segment"`` or ``"document"`` (tool) matching and averaging.
        tokenize: a :mod:`scoring.tokenizers` name or ``"wnm"`` (tool).
        lowercase: case-fold before tokenising (the tool does).
        test_set: saliences fixed from a whole test set (ORANGE; see
            :meth:`with_test_set`), ``None`` to compute them from the corpus.
        sentences: with ``test_set``, the test-set sentence each group of
            segments belongs to (:meth:`for_sentences`); then no document
            ids are needed.
    """

    measure: str = "r"
    max_order: int = 4
    weights: str = "salience"
    negative: str = "zero"
    ngram_weight: str = "last"
    scope: str = "segment"
    tokenize: str = "13a"
    lowercase: bool = True
    test_set: TestSetSalience | None = field(default=None, repr=False)
    sentences: tuple[int, ...] | None = field(default=None, repr=False)

    name: ClassVar[str] = "wnm"
    description: ClassVar[str] = (
        "Weighted N-gram Model (Babych 2004): salience-weighted n-gram P/R/F; "
        "needs document ids"
    )
    higher_is_better: ClassVar[bool] = True
    scale: ClassVar[float] = 1.0
    parameters: ClassVar[tuple[Parameter, ...]] = _WNM_PARAMETERS
    statistics_dtype: ClassVar[type] = np.float64

    def __post_init__(self) -> None:
        self.check_bounds()
        require(
            isinstance(self.max_order, int)
            and not isinstance(self.max_order, bool)
            and self.max_order >= 1,
            "wnm: n (max n-gram order) must be an integer >= 1, "
            f"not {self.max_order!r}",
        )
        for label, value, choices in (
            ("measure", self.measure, _MEASURES),
            ("weights", self.weights, _WEIGHTS),
            ("negative", self.negative, NEGATIVE_CHOICES),
            ("ngram_weight", self.ngram_weight, _NGRAM_WEIGHTS),
            ("scope", self.scope, _SCOPES),
            ("tokenize", self.tokenize, _TOKENIZERS),
        ):
            require(
                value in choices,
                f"wnm: unknown {label} {value!r}; valid: {', '.join(choices)}",
            )
        require(
            isinstance(self.lowercase, bool),
            f"wnm: lowercase must be true or false, not {self.lowercase!r}",
        )
        require(
            self.sentences is None or self.test_set is not None,
            "wnm: sentences need a test set's saliences (with_test_set first)",
        )

    @property
    def requires(self) -> tuple[str, ...]:  # type: ignore[override]
        """Document ids, unless bound to a test set's sentences or matching
        plain counts segment by segment (nothing then reads documents)."""
        if self.sentences is not None or (
            self.weights == "none" and self.scope == "segment"
        ):
            return ()
        return ("document_ids",)

    # -- saliences fixed from a whole test set (ORANGE) ----------------------

    def with_test_set(
        self,
        references: Sequence[Sequence[str | None]],
        document_ids: Sequence[Hashable] | None,
        sentence_ids: Sequence[int] | None = None,
    ) -> WNM:
        """This metric with the saliences of the test set whose sentence
        ``sentence_ids[p]`` (default ``p``) has the reference texts
        ``references[p]`` (``None`` for a missing one) and the document
        ``document_ids[p]``; computed as :meth:`_statistics` computes them
        for a corpus with those references and documents."""
        tokenize = self.tokenizer
        tokens = [
            [tokenize(text) for text in texts if text is not None]
            for texts in references
        ]
        return self.with_test_set_tokens(tokens, document_ids, sentence_ids)

    def with_test_set_tokens(
        self,
        references: Sequence[Sequence[Sequence[str]]],
        document_ids: Sequence[Hashable] | None,
        sentence_ids: Sequence[int] | None = None,
    ) -> WNM:
        """As :meth:`with_test_set` for references already split into this
        metric's tokens."""
        table = TestSetSalience.from_tokens(
            references,
            document_ids,
            negative=self.negative,
            weighted=self.weights == "salience",
            sentence_ids=sentence_ids,
        )
        return replace(self, test_set=table, sentences=None)

    def for_sentences(self, sentence_ids: Sequence[int]) -> WNM:
        """Bound to a test set, this metric scoring ``sentence_ids``: the
        per-pair path passes one sentence's segments (one id), the batch
        engine a grid whose group g is sentence ``sentence_ids[g]``."""
        require(self.test_set is not None, "wnm: bind a test set first")
        for sentence in sentence_ids:
            self.test_set.document_of(sentence)  # type: ignore[union-attr]
        return replace(self, sentences=tuple(int(i) for i in sentence_ids))

    def sentence_weights(self, group: int) -> Weights | None:
        """The word weights of group ``group`` of :attr:`sentences`."""
        return self.test_set.weights_of(self.sentences[group])  # type: ignore[union-attr,index]

    # -- tokens and weights ------------------------------------------------

    @property
    def tokenizer(self) -> Callable[[str], tuple[str, ...]]:
        """Text -> tokens with the configured tokenizer and case folding."""
        if self.tokenize == "wnm":
            return WnmToolTokenizer(self.lowercase)
        return get_tokenizer(self.tokenize, self.lowercase)

    def _bag(
        self, tokens: Sequence[str], weights: Weights | None
    ) -> dict[NGram, float]:
        return weighted_bag(
            ngram_counts(tokens, self.max_order), weights, self.ngram_weight
        )

    # -- the metric contract -------------------------------------------------

    @property
    def statistics_names(self) -> tuple[str, ...]:
        names = ("match_p", "hyp_weight", "match_r", "ref_weight")
        if self.scope == "document":
            names += ("doc_p_share", "doc_r_share", "doc_f_share", "doc_share")
        return names

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[float]:
        """One segment taken as a document of its own, in a corpus of one.

        Salience needs the whole corpus, so :meth:`_statistics` is what
        scoring uses; alone, a segment is a single document, every salience
        is 0 and so is every weighted figure (as the formula gives).
        """
        corpus = self.prepare(
            [hypothesis], [[reference] for reference in references], document_ids=["1"]
        )
        return list(self._statistics(corpus, None)[0])

    def _statistics(
        self, corpus: PreparedCorpus, progress: ProgressCallback | None
    ) -> np.ndarray:
        tokenize = self.tokenizer
        hyps = [tokenize(text) for text in corpus.hypotheses]
        refs = [[tokenize(text) for text in texts] for texts in corpus.references]
        if self.sentences is not None:
            return self._sentence_statistics(hyps, refs)
        # Without ids (plain counts, segment scope) one document holds all.
        documents = corpus.document_ids or [""] * len(hyps)
        members: dict[Hashable, list[int]] = defaultdict(list)
        for index, document in enumerate(documents):
            members[document].append(index)
        if self.weights == "salience":
            saliences = salience_weights(
                document_counts(documents, refs), self.negative
            )
        statistics = np.zeros((len(hyps), len(self.statistics_names)), np.float64)
        for index, document in enumerate(documents):
            weights = (
                saliences.get(document, {}) if self.weights == "salience" else None
            )
            statistics[index, :4] = match_row(
                self._bag(hyps[index], weights),
                [self._bag(tokens, weights) for tokens in refs[index]],
            )
        if progress is not None:
            progress(0.5 if self.scope == "document" else 1.0)
        if self.scope == "document":
            for document, indices in members.items():
                weights = (
                    saliences.get(document, {}) if self.weights == "salience" else None
                )
                statistics[indices, 4:] = self._document_shares(
                    hyps, refs, indices, weights
                )
            if progress is not None:
                progress(1.0)
        return statistics

    def _sentence_statistics(
        self, hyps: list[tuple[str, ...]], refs: list[list[tuple[str, ...]]]
    ) -> np.ndarray:
        """Rows of segments that all belong to the one bound sentence (ORANGE's
        candidates against one reference subset), weighted by its document's
        saliences from the test set. In document scope each segment is also
        its own document (ORANGE reads sentence scores only)."""
        require(
            len(self.sentences) == 1,  # type: ignore[arg-type]
            "wnm: bound to several sentences; score one sentence at a time",
        )
        weights = self.sentence_weights(0)
        statistics = np.zeros((len(hyps), len(self.statistics_names)), np.float64)
        for index, (hyp, segment_refs) in enumerate(zip(hyps, refs)):
            row = match_row(
                self._bag(hyp, weights),
                [self._bag(tokens, weights) for tokens in segment_refs],
            )
            statistics[index, :4] = row
            if self.scope == "document":
                figures = precision_recall_f(*(np.float64(value) for value in row))
                statistics[index, 4:] = [*(float(f) for f in figures), 1.0]
        return statistics

    def _document_shares(
        self,
        hyps: list[tuple[str, ...]],
        refs: list[list[tuple[str, ...]]],
        indices: list[int],
        weights: Weights | None,
    ) -> list[float]:
        """``[P, R, F, 1] / n_segments`` of one document matched as a whole.

        The k-th reference text of the document joins the k-th references of
        its segments; n-grams do not cross segment boundaries (the tool
        counts them line by line too).
        """
        hyp_counts: Counter[NGram] = Counter()
        ref_counts: list[Counter[NGram]] = []
        for index in indices:
            hyp_counts.update(ngram_counts(hyps[index], self.max_order))
            for k, tokens in enumerate(refs[index]):
                if k == len(ref_counts):
                    ref_counts.append(Counter())
                ref_counts[k].update(ngram_counts(tokens, self.max_order))
        row = match_row(
            weighted_bag(hyp_counts, weights, self.ngram_weight),
            [weighted_bag(counts, weights, self.ngram_weight) for counts in ref_counts],
        )
        scores = precision_recall_f(*(np.float64(value) for value in row))
        share = 1.0 / len(indices)
        return [float(score) * share for score in scores] + [share]

    def _scores(self, statistics: np.ndarray, segment_level: bool) -> np.ndarray:
        statistics = np.asarray(statistics, dtype=np.float64)
        position = _MEASURES.index(self.measure)
        if self.scope == "document" and not segment_level:
            return ratio(statistics[..., 4 + position], statistics[..., 7])
        figures = precision_recall_f(*(statistics[..., column] for column in range(4)))
        return figures[position]

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus WNM (0–1): pooled ratio (segment scope) or mean over documents."""
        return self.scale * self._scores(summed, segment_level=False)

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Sentence WNM (0–1) from each segment's own matches and weights."""
        return self.scale * self._scores(statistics, segment_level=True)

    def details_from_statistics(self, summed: np.ndarray) -> dict[str, Any]:
        """Precision, recall and F (0–1) of the corpus, and the summed weights."""
        summed = np.asarray(summed, dtype=np.float64)
        details: dict[str, Any] = {
            name: float(value) for name, value in zip(self.statistics_names, summed)
        }
        if self.scope == "document":
            figures = [ratio(summed[4 + k], summed[7]) for k in range(3)]
        else:
            figures = list(precision_recall_f(*summed[:4]))
        for key, value in zip(("precision", "recall", "f"), figures):
            details[key] = float(value)
        return details

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        scope = "segment" if sentence else self.scope
        bound = (
            ()
            if self.test_set is None
            else (("salience", f"testset-{self.test_set.fingerprint[:12]}"),)
        )
        return bound + (
            ("case", "lc" if self.lowercase else "mixed"),
            ("tok", self.tokenize),
            ("measure", self.measure),
            ("n", str(self.max_order)),
            ("weights", self.weights),
            ("neg", self.negative),
            ("ngram", self.ngram_weight),
            ("scope", scope),
        )
