"""Complexity-normalised BLEU and WNM across test sets (Babych et al. 2005).

Each chosen test set is one text type. Its complexity is the ASW of its
source text (as in the paper; or, when the user asks, of its references
pooled: a proxy for test sets whose sources are in different languages or
in one without syllable rules). With a reference test set R:

    C = ASW(test set) / ASW(R);  normalised BLEU = BLEU x C²,  WNM = WNM x C

and the stability table compares each system's standard deviation across
the test sets before and after (Tables 4-5). Every number is computed by
:mod:`scoring.readability` from stored corpus scores (``CorpusScore`` of the
visible outputs; a system is matched across test sets by its name) and from
the test sets' stored readability counts
(:mod:`~mtdash.evaluation.readability.page`). A test set whose
counts a worker has not stored yet is named as a problem, with its job
(queued now if none waits), and nothing is counted in the request.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mtdash.evaluation.leaderboard.build import metric_decimals
from mtdash.evaluation.models import ReadabilityJob, TestSet
from mtdash.evaluation.readability.jobs import (
    ReadabilityState,
    readability_state,
)
from mtdash.evaluation.readability.page import (
    syllable_language,
    unsupported_reason,
)
from mtdash.evaluation.readability.scores import check_spec, stored_scores
from scoring.readability import (
    NORMALISATION_POWERS,
    ReadabilityCorrelations,
    StabilityTable,
    TextComplexity,
    normalisation_coefficient,
    readability_correlations,
    stability_table,
)

MEASURE_ON = ("source", "references")
TOO_FEW = "Choose at least two test sets (text types) to compare."
DEFAULT_SPECS = {"bleu": "bleu", "wnm": "wnm"}
# Table 3 correlates across text types: with two every r is +1 or -1.
MIN_TYPES_FOR_CORRELATIONS = 3


@dataclass(frozen=True)
class TextType:
    """One chosen test set as a column: its readability on the measured side."""

    test_set: TestSet
    label: str  # unique among the columns
    figures: TextComplexity

    @property
    def asw(self) -> float:
        return self.figures.asw


@dataclass(frozen=True)
class MetricStability:
    """Tables 4-5 for one metric: ``table`` is None when no chosen test set
    has a score of ``spec`` (``missing`` says so)."""

    metric: str  # "bleu" or "wnm"
    spec: str  # the canonical spec whose scores are used
    power: int
    decimals: int  # of the scores, by the metric's scale
    table: StabilityTable | None
    available_specs: tuple[str, ...]
    missing: str = ""

    @property
    def factors(self) -> tuple[float, ...]:
        """C ** power per column."""
        return tuple(c**self.power for c in self.table.coefficients)

    @property
    def rows(self) -> list[tuple]:
        """(system, raw per column, normalised per column, SD raw, SD normalised)."""
        table = self.table
        return list(
            zip(
                table.systems,
                table.raw,
                table.normalised,
                table.raw_stdev,
                table.normalised_stdev,
                strict=True,
            )
        )


@dataclass(frozen=True)
class StabilityReport:
    """The cross-test-set page: what was chosen and what came out of it.

    ``problems`` lists why nothing could be computed (too few test sets,
    mixed or unsupported languages); the tables are then empty.
    """

    types: tuple[TextType, ...] = ()
    reference: TextType | None = None
    measure_on: str = "source"
    metrics: tuple[MetricStability, ...] = ()
    correlations: ReadabilityCorrelations | None = None
    problems: tuple[str, ...] = ()
    chosen: tuple[TestSet, ...] = field(default_factory=tuple)
    # (test set, its readability job) still counting: the page follows them.
    pending: tuple[tuple[TestSet, ReadabilityJob], ...] = ()

    @property
    def ready(self) -> bool:
        return not self.problems and bool(self.types)

    @property
    def only_too_few(self) -> bool:
        """Nothing wrong but the number of test sets (one chosen so far)."""
        return self.problems == (TOO_FEW,)

    @property
    def label_span(self) -> int:
        """Columns of a stability table before its two deviations."""
        return 2 * len(self.types) + 1

    @property
    def type_rows(self) -> list[tuple[TextType, float, float]]:
        """(text type, C, C²) per column, C = ASW / ASW of the reference."""
        if not self.ready:
            return []
        coefficients = normalisation_coefficient(
            [t.asw for t in self.types], self.reference.asw
        )
        return [
            (text_type, float(c), float(c) ** 2)
            for text_type, c in zip(self.types, coefficients, strict=True)
        ]


def build_stability(
    test_sets: list[TestSet],
    *,
    reference_id: int | None = None,
    measure_on: str = "source",
    specs: dict[str, str] | None = None,
) -> StabilityReport:
    """The stability report of ``test_sets`` (already limited to the user's
    teams). ``specs`` maps ``bleu``/``wnm`` to the spec whose stored scores
    are used (default ``bleu`` and ``wnm``, i.e. WNM recall as in the paper);
    a spec of another metric is a ``ValueError``."""
    chosen = tuple(sorted(test_sets, key=lambda ts: (ts.name, ts.pk)))
    measure_on = measure_on if measure_on in MEASURE_ON else "source"
    problems = _language_problems(chosen, measure_on)
    if len(chosen) < 2:
        problems.insert(0, TOO_FEW)
    if problems:
        return StabilityReport(
            measure_on=measure_on, problems=tuple(problems), chosen=chosen
        )
    states = {test_set.pk: readability_state(test_set) for test_set in chosen}
    waiting = [ts for ts in chosen if states[ts.pk].readability is None]
    if waiting:
        return StabilityReport(
            measure_on=measure_on,
            problems=tuple(_waiting_problem(ts, states[ts.pk]) for ts in waiting),
            chosen=chosen,
            pending=tuple(
                (ts, states[ts.pk].job)
                for ts in waiting
                if states[ts.pk].state == "pending"
            ),
        )
    types = _text_types(chosen, measure_on, states)
    unmeasured = [t.label for t in types if not t.figures.n_words]
    if unmeasured:
        return StabilityReport(
            measure_on=measure_on,
            problems=(f"No words to measure in: {', '.join(unmeasured)}.",),
            chosen=chosen,
        )
    reference = _reference(types, reference_id)
    column = types.index(reference)
    wanted = {**DEFAULT_SPECS, **(specs or {})}
    stored = stored_scores(chosen)
    metrics = tuple(
        _metric_stability(metric, wanted[metric], types, column, stored)
        for metric in DEFAULT_SPECS
    )
    return StabilityReport(
        types=types,
        reference=reference,
        measure_on=measure_on,
        metrics=metrics,
        correlations=_correlations(types, metrics),
        chosen=chosen,
    )


def _language_problems(chosen: tuple[TestSet, ...], measure_on: str) -> list[str]:
    side = "source_language" if measure_on == "source" else "target_language"
    languages = sorted({getattr(ts, side) for ts in chosen})
    where = "sources" if measure_on == "source" else "references"
    if len(languages) > 1:
        other = "references" if measure_on == "source" else "sources"
        return [
            f"The {where} of these test sets are in different languages "
            f"({', '.join(languages)}): syllables per word are comparable within "
            f"one language only. Choose test sets with one {where[:-1]} language, "
            f"or measure the complexity on the {other}."
        ]
    if languages and syllable_language(languages[0]) is None:
        return [unsupported_reason(languages[0])]
    return []


def _waiting_problem(test_set: TestSet, state: ReadabilityState) -> str:
    if state.state == "failed":
        return (
            f"Counting the readability of {test_set.name} failed "
            f"({state.job.error_message}); run it again from its readability page."
        )
    return (
        f"The readability of {test_set.name} is being counted by a worker; "
        "this page shows the comparison as soon as it is done."
    )


def _text_types(
    chosen: tuple[TestSet, ...], measure_on: str, states: dict[int, ReadabilityState]
) -> tuple[TextType, ...]:
    names = [ts.name for ts in chosen]
    types = []
    for test_set in chosen:
        readability = states[test_set.pk].readability
        if measure_on == "source":
            figures = readability.source.figures
        else:
            figures = _pooled([text.figures for text in readability.references])
        label = test_set.name
        if names.count(label) > 1:
            label = f"{label} ({test_set.team.name})"
        if figures is None:  # a text without words: counted as empty
            figures = TextComplexity(test_set.source_language, "", 0, 0, 0, 0)
        types.append(TextType(test_set, label, figures))
    return tuple(types)


def _pooled(figures: list[TextComplexity | None]) -> TextComplexity | None:
    """All references as one text: summed words and syllables."""
    present = [f for f in figures if f is not None]
    if not present:
        return None
    return TextComplexity(
        language=present[0].language,
        syllables=present[0].syllables,
        n_segments=sum(f.n_segments for f in present),
        n_sentences=sum(f.n_sentences for f in present),
        n_words=sum(f.n_words for f in present),
        n_syllables=sum(f.n_syllables for f in present),
    )


def _reference(types: tuple[TextType, ...], reference_id: int | None) -> TextType:
    """The chosen one; else a news test set (the paper's reference type);
    else the one of median ASW (the paper's news were of medium complexity)."""
    for text_type in types:
        if text_type.test_set.pk == reference_id:
            return text_type
    for text_type in types:
        if text_type.test_set.text_type.strip().lower() == "news":
            return text_type
    by_asw = sorted(types, key=lambda t: (t.asw, t.label))
    return by_asw[(len(by_asw) - 1) // 2]


def _metric_stability(metric, spec, types, column, stored) -> MetricStability:
    power = NORMALISATION_POWERS[metric]
    spec = check_spec(metric, spec)
    available = sorted(
        {s for _, _, s, _ in stored if s == metric or s.startswith(f"{metric}:")}
    )
    position = {t.test_set.pk: index for index, t in enumerate(types)}
    scores: dict[str, list[float]] = {}
    for test_set_id, system, stored_spec, score in stored:
        if stored_spec == spec:
            row = scores.setdefault(system, [float("nan")] * len(types))
            row[position[test_set_id]] = score
    decimals = metric_decimals(spec)
    if not scores:
        missing = f"No {spec} scores are stored for the systems of these test sets." + (
            " WNM needs document ids." if metric == "wnm" else ""
        )
        return MetricStability(
            metric, spec, power, decimals, None, tuple(available), missing
        )
    systems = sorted(scores, key=str.casefold)
    table = stability_table(
        [scores[system] for system in systems],
        [t.asw for t in types],
        column,
        power,
        systems=systems,
        text_types=[t.label for t in types],
    )
    return MetricStability(metric, spec, power, decimals, table, tuple(available))


def _correlations(types, metrics) -> ReadabilityCorrelations | None:
    """Table 3: r of FR, FKGL, ASL and ASW with every complete score series."""
    if len(types) < MIN_TYPES_FOR_CORRELATIONS:
        return None
    series, columns = [], []
    for metric in metrics:
        if metric.table is None:
            continue
        for system, raw in zip(metric.table.systems, metric.table.raw, strict=True):
            if all(value == value for value in raw):  # no NaN: run on every type
                series.append(f"{metric.spec} {system}")
                columns.append(raw)
    if not series:
        return None
    parameters = [
        (
            t.figures.flesch_reading_ease,
            t.figures.flesch_kincaid_grade,
            t.figures.asl,
            t.figures.asw,
        )
        for t in types
    ]
    scores = [list(row) for row in zip(*columns, strict=True)]  # (types, series)
    return readability_correlations(
        parameters, scores, parameters=("FR", "FKGL", "ASL", "ASW"), series=series
    )
