"""Span-level precision, recall and F1 (Perrella et al. 2026; WMT25's w25)
against a straightforward implementation written here from the definitions
(character sets, every one-to-one matching tried), hand-worked examples and
edge cases."""

from __future__ import annotations

import itertools
import os
import time

import numpy as np
import pytest

from scoring.errors import ScoringError
from scoring.spans import Span, SpanAnnotation
from scoring.stats.resampling import bootstrap_counts
from scoring.stats.span_agreement import evaluate_spans
from scoring.stats.span_matching import VARIANTS

# --- the reference, from the definitions ------------------------------------


def chars(span: Span) -> set[int]:
    return set(range(span.start, span.end))


def usable(spans: tuple[Span, ...]) -> list[Span]:
    return [s for s in spans if s.start is not None and s.severity != "neutral"]


def is_major(span: Span) -> bool:
    return span.severity in ("major", "critical")


def matchings(gold: list[Span], pred: list[Span]):
    """Every one-to-one matching of overlapping spans of the same side."""

    def extend(i: int, used: frozenset[int], pairs: list[tuple[int, int]]):
        if i == len(gold):
            yield list(pairs)
            return
        yield from extend(i + 1, used, pairs)
        for j, p in enumerate(pred):
            if j not in used and p.side == gold[i].side and chars(p) & chars(gold[i]):
                yield from extend(i + 1, used | {j}, [*pairs, (i, j)])

    yield from extend(0, frozenset(), [])


def covering(spans: list[Span], side: str, c: int, major: bool) -> int:
    """How many of ``spans`` of one severity class cover character c."""
    return sum(
        1 for s in spans if s.side == side and c in chars(s) and is_major(s) == major
    )


def reference_counts(
    gold: list[Span], pred: list[Span], variant: str, penalty: float
) -> tuple[float, float, float, float]:
    """(tp for precision, tp for recall, predicted total, gold total)."""
    if variant == "w25":
        tp = 0.0
        for side in ("target", "source"):
            positions = set().union(*(chars(s) for s in gold + pred if s.side == side))
            for c in positions:
                gM, gm = covering(gold, side, c, True), covering(gold, side, c, False)
                pM, pm = covering(pred, side, c, True), covering(pred, side, c, False)
                left_g = max(gM - pM, 0) + max(gm - pm, 0)
                left_p = max(pM - gM, 0) + max(pm - gm, 0)
                tp += min(gM, pM) + min(gm, pm) + 0.5 * min(left_g, left_p)
        return (
            tp,
            tp,
            sum(len(chars(s)) for s in pred),
            sum(len(chars(s)) for s in gold),
        )

    def factor(g: Span, p: Span) -> float:
        return 1.0 if is_major(g) == is_major(p) else 1.0 - penalty

    def rewards(g: Span, p: Span) -> tuple[float, float, float]:
        """(objective, precision credit, recall credit) of one pair."""
        shared = len(chars(g) & chars(p))
        if variant == "em":
            exact = float((g.start, g.end) == (p.start, p.end)) * factor(g, p)
            return exact, exact, exact
        if variant == "mp":
            return factor(g, p), factor(g, p), factor(g, p)
        dice = 2 * shared / (len(chars(g)) + len(chars(p)))
        return (
            dice * factor(g, p),
            shared / len(chars(p)) * factor(g, p),
            shared / len(chars(g)) * factor(g, p),
        )

    best = max(
        matchings(gold, pred),
        key=lambda pairs: sum(rewards(gold[i], pred[j])[0] for i, j in pairs),
    )
    kept = [
        rewards(gold[i], pred[j]) for i, j in best if rewards(gold[i], pred[j])[0] > 0
    ]
    return (
        sum(r[1] for r in kept),
        sum(r[2] for r in kept),
        float(len(pred)),
        float(len(gold)),
    )


def prf(tp_p: float, tp_r: float, n_p: float, n_g: float) -> tuple[float, float, float]:
    p = tp_p / n_p if n_p else 1.0
    r = tp_r / n_g if n_g else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def reference(human, metric, variant, average, penalty=0.0, weights=None):
    """{system or None (overall): (P, R, F1)}; ``weights`` per segment number
    (bootstrap counts) multiply each segment's items."""
    gold = {}
    for a in sorted(human, key=lambda a: a.annotator):
        gold.setdefault((a.system, a.segment), a)
    pred = {(a.system, a.segment): a for a in metric}
    per_item = {}
    for key in gold:
        if key in pred:
            per_item[key] = reference_counts(
                usable(gold[key].spans), usable(pred[key].spans), variant, penalty
            )
    out = {}
    for system in [None, *dict.fromkeys(s for s, _ in per_item)]:
        rows = [
            (counts, (weights or {}).get(key[1], 1.0))
            for key, counts in per_item.items()
            if system is None or key[0] == system
        ]
        if average == "micro":
            sums = [sum(c[i] * w for c, w in rows) for i in range(4)]
            out[system] = prf(*sums)
        else:
            total = sum(w for _, w in rows)
            out[system] = tuple(
                sum(prf(*c)[i] * w for c, w in rows) / total if total else float("nan")
                for i in range(3)
            )
    return out


# --- random data -------------------------------------------------------------


def random_spans(rng: np.random.Generator, n: int) -> tuple[Span, ...]:
    spans = []
    for _ in range(n):
        start = int(rng.integers(0, 30))
        spans.append(
            Span(
                start,
                start + int(rng.integers(1, 9)),
                str(
                    rng.choice(
                        ["minor", "major", "critical", "neutral"],
                        p=[0.45, 0.4, 0.1, 0.05],
                    )
                ),
                side=str(rng.choice(["target", "source"], p=[0.8, 0.2])),
            )
        )
    return tuple(spans)


def random_campaign(seed: int, systems: int = 3, segments: int = 25):
    rng = np.random.default_rng(seed)
    human, metric = [], []
    for s, g in itertools.product(range(systems), range(1, segments + 1)):
        system = f"sys{s}"
        for rater in ("r2", "r1")[: int(rng.integers(1, 3))]:
            human.append(
                SpanAnnotation(
                    g, system, rater, random_spans(rng, int(rng.integers(0, 4)))
                )
            )
        if rng.random() < 0.9:
            metric.append(
                SpanAnnotation(
                    g, system, "m", random_spans(rng, int(rng.integers(0, 4)))
                )
            )
    return human, metric


def assert_same(result, expected) -> None:
    assert result.overall.precision == pytest.approx(expected[None][0], abs=1e-12)
    assert result.overall.recall == pytest.approx(expected[None][1], abs=1e-12)
    assert result.overall.f1 == pytest.approx(expected[None][2], abs=1e-12)
    for system, figures in result.systems.items():
        got = (figures.precision, figures.recall, figures.f1)
        assert got == pytest.approx(expected[system], abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("penalty", [0.0, 0.5])
def test_every_variant_equals_the_definition_on_random_campaigns(seed, penalty) -> None:
    human, metric = random_campaign(seed)
    evaluation = evaluate_spans(
        human,
        metric,
        variants=VARIANTS,
        averages=("micro", "macro"),
        severity_penalty=penalty,
    )
    assert len(evaluation.results) == 8
    for result in evaluation.results:
        assert_same(
            result, reference(human, metric, result.variant, result.average, penalty)
        )


def test_the_bootstrap_resamples_whole_segments_with_the_seeded_draws() -> None:
    human, metric = random_campaign(5, systems=2, segments=12)
    evaluation = evaluate_spans(
        human,
        metric,
        variants=("mpp", "w25"),
        averages=("micro", "macro"),
        n_samples=200,
        seed=7,
    )
    segments = sorted({a.segment for a in metric})
    counts = bootstrap_counts(len(segments), 200, 7)
    for result in evaluation.results:
        draws = [
            reference(
                human,
                metric,
                result.variant,
                result.average,
                weights=dict(zip(segments, row)),
            )
            for row in counts
        ]
        for system in [None, "sys0", "sys1"]:
            figures = result.overall if system is None else result.systems[system]
            for i, interval in enumerate(
                (
                    figures.precision_interval,
                    figures.recall_interval,
                    figures.f1_interval,
                )
            ):
                values = np.sort(
                    [d[system][i] for d in draws if not np.isnan(d[system][i])]
                )
                k = int(np.floor(len(values) * 0.025 + 1e-9))
                assert interval == pytest.approx((values[k], values[-1 - k]), abs=1e-12)
    again = evaluate_spans(
        human,
        metric,
        variants=("mpp", "w25"),
        averages=("micro", "macro"),
        n_samples=200,
        seed=7,
    )
    assert again.to_dict() == evaluation.to_dict()


# --- hand-worked examples ----------------------------------------------------


def one(
    gold: tuple[Span, ...], pred: tuple[Span, ...], variant: str, average="micro", **kw
):
    human = [SpanAnnotation(1, "A", "r1", gold)]
    metric = [SpanAnnotation(1, "A", "m", pred)]
    result = evaluate_spans(
        human, metric, variants=(variant,), averages=(average,), **kw
    )
    figures = result.results[0].overall
    return figures.precision, figures.recall, figures.f1


def test_one_predicted_span_across_two_human_spans() -> None:
    gold = (Span(0, 4, "major"), Span(6, 10, "major"))
    pred = (Span(2, 8, "major"),)
    # em: no exact pair; mp: one pair matched (one-to-one), P 1/1, R 1/2;
    # mpp: either pair shares 2 characters: P 2/6, R (2/4) / 2;
    # w25: 4 shared characters of 6 predicted and 8 human.
    assert one(gold, pred, "em") == (0.0, 0.0, 0.0)
    assert one(gold, pred, "mp") == pytest.approx((1.0, 0.5, 2 / 3))
    assert one(gold, pred, "mpp") == pytest.approx((1 / 3, 0.25, 2 / 7))
    assert one(gold, pred, "w25") == pytest.approx((4 / 6, 4 / 8, 4 / 7))


def test_severity_counts_only_in_w25_unless_penalised() -> None:
    gold, pred = (Span(0, 5, "major"),), (Span(0, 5, "minor"),)
    assert one(gold, pred, "em") == (1.0, 1.0, 1.0)
    assert one(gold, pred, "em", severity_penalty=0.5) == (0.5, 0.5, 0.5)
    assert one(gold, pred, "w25") == (0.5, 0.5, 0.5)  # half credit per character
    # critical is major to w25
    assert one((Span(0, 5, "critical"),), (Span(0, 5, "major"),), "w25") == (
        1.0,
        1.0,
        1.0,
    )


def test_overlapping_spans_of_one_annotator() -> None:
    gold = (Span(0, 5, "minor"), Span(0, 5, "minor"))
    pred = (Span(0, 5, "minor"),)
    assert one(gold, pred, "em") == pytest.approx((1.0, 0.5, 2 / 3))
    # w25 counts each character once per span covering it: tp 5 of 10 human.
    assert one(gold, pred, "w25") == pytest.approx((1.0, 0.5, 2 / 3))


def test_source_spans_match_only_source_spans() -> None:
    gold = (Span(0, 3, "major", side="source"),)
    assert one(gold, (Span(0, 3, "major"),), "mp") == (0.0, 0.0, 0.0)
    assert one(gold, (Span(1, 3, "major", side="source"),), "mpp") == pytest.approx(
        (1.0, 2 / 3, 0.8)
    )
    assert one(gold, (Span(0, 3, "major"),), "w25") == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("average", ["micro", "macro"])
def test_edge_cases_follow_the_papers_convention(variant: str, average: str) -> None:
    span = (Span(0, 4, "major"),)
    assert one((), (), variant, average) == (1.0, 1.0, 1.0)
    assert one(span, (), variant, average) == (1.0, 0.0, 0.0)
    assert one((), span, variant, average) == (0.0, 1.0, 0.0)


def test_macro_averages_segments_and_micro_pools_them() -> None:
    human = [
        SpanAnnotation(1, "A", "r", (Span(0, 10, "major"),)),
        SpanAnnotation(2, "A", "r", ()),
    ]
    metric = [
        SpanAnnotation(1, "A", "m", (Span(0, 10, "major"),)),
        SpanAnnotation(2, "A", "m", (Span(0, 1, "minor"),)),
    ]
    result = evaluate_spans(
        human, metric, variants=("mp",), averages=("micro", "macro")
    )
    micro, macro = (r.overall for r in result.results)
    assert (micro.precision, micro.recall) == (0.5, 1.0)  # 1 of 2 predicted
    assert (macro.precision, macro.recall, macro.f1) == (0.5, 1.0, 0.5)


def test_neutral_and_unpositioned_spans_are_left_out_and_counted() -> None:
    human = [
        SpanAnnotation(1, "A", "r", (Span(0, 4, "neutral"), Span(None, None, "major")))
    ]
    metric = [SpanAnnotation(1, "A", "m", (Span(0, 4, "neutral"),))]
    result = evaluate_spans(human, metric)
    assert result.results[0].overall.f1 == 1.0  # nothing left on either side
    assert result.coverage["spans_left_out_neutral"] == 2
    assert result.coverage["spans_left_out_no_position"] == 1


def test_the_gold_is_the_first_annotator_by_name_or_the_one_asked_for() -> None:
    human = [
        SpanAnnotation(1, "A", "zoe", (Span(0, 4, "major"),)),
        SpanAnnotation(1, "A", "ann", (Span(10, 14, "major"),)),
        SpanAnnotation(2, "A", "zoe", ()),
    ]
    metric = [SpanAnnotation(1, "A", "m", (Span(10, 14, "major"),))]
    assert evaluate_spans(human, metric).results[0].overall.f1 == 1.0
    by_zoe = evaluate_spans(human, metric, annotator="zoe")
    assert by_zoe.results[0].overall.f1 == 0.0
    assert by_zoe.coverage["segments"] == 1
    assert by_zoe.coverage["segments_without_metric"] == 1


def test_bad_requests_are_refused() -> None:
    human = [SpanAnnotation(1, "A", "r", ())]
    with pytest.raises(ScoringError, match="unknown variant 'xx'"):
        evaluate_spans(human, human, variants=("xx",))
    with pytest.raises(ScoringError, match="no segment has both"):
        evaluate_spans(human, [SpanAnnotation(1, "B", "m", ())])
    with pytest.raises(ScoringError, match="one metric at a time"):
        evaluate_spans(
            human, [SpanAnnotation(1, "A", "m", ()), SpanAnnotation(2, "A", "n", ())]
        )
    with pytest.raises(ScoringError, match="no human annotations by 'x'"):
        evaluate_spans(human, human, annotator="x")


def test_wmt_size_runs_within_ten_seconds(capsys) -> None:
    """20 systems x 2,000 segments, a few spans each, four variants, micro
    and macro, 1,000 bootstrap resamples."""
    if not os.environ.get("MTDASH_TIMINGS"):
        pytest.skip("a timing at WMT size (a few seconds): set MTDASH_TIMINGS=1")
    human, metric = random_campaign(11, systems=20, segments=2000)
    started = time.perf_counter()
    evaluation = evaluate_spans(
        human, metric, variants=VARIANTS, averages=("micro", "macro"), n_samples=1000
    )
    elapsed = time.perf_counter() - started
    with capsys.disabled():
        print(
            f"\nspan F1 at WMT size ({evaluation.coverage['segments']} segments, "
            f"{evaluation.coverage['human_spans']} human and "
            f"{evaluation.coverage['metric_spans']} metric spans, 4 variants x 2 "
            f"averages, 1000 resamples): {elapsed:.2f} s"
        )
    assert elapsed <= 10.0
