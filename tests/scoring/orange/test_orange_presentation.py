"""How ORANGE results are printed: enough decimals that a rank interval
differs from its rank, a warning for lists of one candidate per sentence,
and the name of the interval in the table and the JSON."""

from __future__ import annotations

import io
import json

import pytest

from scoring.cli.orange import OrangeResults, print_orange
from scoring.orange import (
    ORANGE_INTERVAL,
    interval_decimals,
    orange_json,
    single_candidate_warning,
    table_decimals,
)
from scoring.orange.ranking import OrangeResult


def result(metric="bleu", avg_rank=1.4, low=1.396, high=1.404, n=1) -> OrangeResult:
    return OrangeResult(
        metric=metric,
        orange=70.0,
        avg_rank=avg_rank,
        ci_low=low,
        ci_high=high,
        orange_ci_low=69.8,
        orange_ci_high=70.2,
        n_sentences=500,
        n_short=0,
        max_candidates=n,
        n_bootstrap=1000,
        seed=1,
        curve=((1, 70.0),),
        above_reference=(),
    )


@pytest.mark.parametrize(
    ("value", "low", "high", "decimals"),
    [
        (1.4, 1.396, 1.404, 3),  # "1.40 [1.40, 1.40]" at 2 decimals
        (1.4, 1.3996, 1.4004, 4),
        (38.2, 30.5, 45.1, 2),  # never fewer than 2
        (1.4, 1.4, 1.4, 2),  # bounds equal to the value cannot differ
        (1.4, None, float("nan"), 2),  # no bootstrap
        (1.0, 0.9999999999, 1.0000000001, 6),  # at most 6
    ],
)
def test_the_decimals_show_the_interval(value, low, high, decimals):
    assert interval_decimals(value, low, high) == decimals


def test_a_table_takes_the_decimals_its_narrowest_interval_needs():
    assert table_decimals([(38.2, 30.5, 45.1), (1.4, 1.396, 1.404)]) == 3
    assert table_decimals([]) == 2


def test_one_candidate_per_sentence_gets_a_warning():
    assert "only one candidate" in single_candidate_warning(1)
    assert single_candidate_warning(0) is not None  # nothing at all to rank
    assert single_candidate_warning(2) is None


def test_the_table_prints_ranks_with_their_interval_visible_and_warns():
    out = io.StringIO()
    print_orange(OrangeResults({"bleu": result()}), as_json=False, out=out)
    text = out.getvalue()
    row = next(line for line in text.splitlines() if line.startswith("bleu"))
    assert row.split()[-3:] == ["1.400", "1.396", "1.404"]
    assert f"95%-CI: {ORANGE_INTERVAL}" in text
    assert "Warning: Every sentence of this n-best list has only one candidate" in text


def test_the_table_has_no_warning_for_real_nbest_lists():
    out = io.StringIO()
    results = OrangeResults({"bleu": result(avg_rank=38.2, low=30.5, high=45.1, n=64)})
    print_orange(results, as_json=False, out=out)
    row = next(line for line in out.getvalue().splitlines() if line.startswith("bleu"))
    assert row.split()[-3:] == ["38.20", "30.50", "45.10"]
    assert "Warning" not in out.getvalue()


def test_the_json_names_its_interval_and_carries_the_warning():
    out = io.StringIO()
    print_orange(OrangeResults({"bleu": result()}), as_json=True, out=out)
    data = json.loads(out.getvalue())
    assert data["interval"] == ORANGE_INTERVAL
    assert "percentile" in data["interval"] and "two-sided" in data["interval"]
    assert data["warnings"] == [single_candidate_warning(1)]
    assert orange_json({"bleu": result(n=5)}, None, limit="none")["warnings"] == []


def _compared_results():
    from scoring.orange import compare_metrics

    results = OrangeResults(
        {
            "bleu": result("bleu", avg_rank=3.1, low=2.9, high=3.3, n=5),
            "wer": result("wer", avg_rank=3.5, low=3.3, high=3.7, n=5),
        }
    )
    ranks = {"bleu": [0.2, 0.3, 0.25, 0.2], "wer": [0.5, 0.6, 0.55, 0.4]}
    results.comparison = compare_metrics(ranks, n_bootstrap=50, seed=1)
    return results


def test_the_table_and_the_json_name_the_paired_test_and_its_sides():
    out = io.StringIO()
    print_orange(_compared_results(), as_json=False, out=out)
    (line,) = [x for x in out.getvalue().splitlines() if x.startswith("Paired test")]
    assert "paired bootstrap" in line and "two-sided" in line
    out = io.StringIO()
    print_orange(_compared_results(), as_json=True, out=out)
    data = json.loads(out.getvalue())
    assert data["paired_test"]["sides"] == "two-sided"
    assert "paired bootstrap" in data["paired_test"]["test"]
    # Without the paired test, nothing claims one.
    out = io.StringIO()
    print_orange(OrangeResults({"bleu": result(n=5)}), as_json=True, out=out)
    assert "paired_test" not in json.loads(out.getvalue())


def test_the_table_and_the_json_name_bleu_as_the_add_one_sentence_bleu():
    # ORANGE scores sentences: its BLEU is the add-one smoothed sentence BLEU,
    # whatever the spec says ("bleu" reads as corpus BLEU); the web names it
    # so, and the CLI's table and JSON (the API's JSON too) now do the same.
    results = OrangeResults(
        {
            "bleu": result("bleu", n=5),
            "bleus:n=4": result("bleus:n=4", n=5),
            "bleu:sentence_smooth=none": result("bleu:sentence_smooth=none", n=5),
            "wer": result("wer", n=5),
        }
    )
    out = io.StringIO()
    print_orange(results, as_json=False, out=out)
    lines = out.getvalue().splitlines()
    assert "bleu: BLEU (add-one sentence)" in lines
    assert "bleus:n=4: BLEU (add-one sentence)" in lines
    assert "bleu:sentence_smooth=none: BLEU (unsmoothed sentence)" in lines
    assert not any(line.startswith("wer:") for line in lines)
    out = io.StringIO()
    print_orange(results, as_json=True, out=out)
    metrics = json.loads(out.getvalue())["metrics"]
    assert metrics["bleu"]["name"] == "BLEU (add-one sentence)"
    assert metrics["bleus:n=4"]["name"] == "BLEU (add-one sentence)"
    assert metrics["bleu:sentence_smooth=none"]["name"] == "BLEU (unsmoothed sentence)"
    assert metrics["wer"]["name"] is None
