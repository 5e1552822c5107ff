"""Human judgments: reading CSV/TSV, per-judge z-scores, WMT aggregation."""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import scoring.stats.human as human_module
from scoring.errors import InputFileError, ScoringError
from scoring.stats.human import human_scores, standardise_per_judge, zscores
from scoring.stats.judgments import parse_judgments, read_judgments
from tests.scoring.support.realdata import (
    FULL_DATA,
    WMT21_DIR,
    full_data_params,
    measured,
    require_full_data,
)
from tests.scoring.support.stats_data import raw_da_rows, read_tsv, require

EXAMPLE = (
    "segment,system,judge,criterion,value\n"
    "1,sysA,j1,adequacy,4\n"
    "1,sysA,j2,adequacy,2\n"
    "2,sysA,j1,adequacy,5\n"
    "1,sysB,j1,adequacy,3\n"
    "1,sysB,j1,fluency,5\n"
    "2,sysB,j2,fluency,1\n"
)


def parse(text: str, **options: object):
    return parse_judgments(text.encode("utf-8"), "J.csv", **options)  # type: ignore[arg-type]


def test_the_docstring_examples_hold() -> None:
    outcome = doctest.testmod(human_module)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_it_reads_every_field_of_a_csv_file(tmp_path: Path) -> None:
    path = tmp_path / "J.csv"
    path.write_text(EXAMPLE, encoding="utf-8")
    judgments = read_judgments(path)
    assert len(judgments) == 6
    assert judgments.systems == ("sysA", "sysB")
    assert judgments.judges == ("j1", "j2")
    assert judgments.criteria == ("adequacy", "fluency")
    assert judgments.segments.tolist() == [1, 1, 2, 1, 1, 2]
    assert judgments.values.tolist() == [4, 2, 5, 3, 5, 1]
    assert judgments.lines.tolist() == [2, 3, 4, 5, 6, 7]


def test_it_reads_tsv_with_columns_in_any_order_and_extra_columns() -> None:
    text = "Value\tnote\tSystem\tSegment\n0.5\tok\tα-MT\t3\n-1.25\t\tα-MT\t4\n"
    judgments = parse(text)
    assert judgments.systems == ("α-MT",)
    assert judgments.judges == ("-",) and judgments.criteria == ("score",)
    assert judgments.values.tolist() == [0.5, -1.25]


def test_it_maps_other_header_names_to_the_fields() -> None:
    text = "sid\tsys_id\tWorkerId\tscore\n7\tOnline-B.4\tM1\t0.25\n"
    judgments = parse(
        text,
        columns={
            "segment": "sid",
            "system": "sys_id",
            "judge": "WorkerId",
            "value": "score",
        },
    )
    assert (judgments.systems, judgments.judges) == (("Online-B.4",), ("M1",))
    assert judgments.segments.tolist() == [7]


def test_unjudged_rows_are_skipped_and_counted() -> None:
    text = "system,segment,value\nA,1,None\nA,2,\nA,3,NA\nA,4,-5.0\n"
    judgments = parse(text)
    assert judgments.values.tolist() == [-5.0] and judgments.skipped == 3


def test_a_byte_order_mark_blank_lines_and_quoted_fields_are_fine() -> None:
    text = '\ufeffsegment,system,value\n\n1,"sys, with comma",3\n\n'
    assert parse(text).systems == ("sys, with comma",)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("system,value\nA,3\n", 1, "no 'segment' column"),
        ("segment,system,value\n1,A,3\n2,A\n", 3, "expected 3 fields"),
        ("segment,system,value\n1,A,3\n0,A,3\n", 3, "segment '0' is not a line number"),
        ("segment,system,value\n1,A,3\nx,A,3\n", 3, "segment 'x'"),
        ("segment,system,value\n1,A,3\n2,A,good\n", 3, "value 'good' is not a number"),
        ("segment,system,value\n1,A,inf\n", 2, "value 'inf'"),
        ("segment,system,value\n1,,3\n", 2, "empty system name"),
        ("segment,segment,system,value\n", 1, "appears twice"),
        ("", 1, "no header line"),
    ],
)
def test_bad_input_is_reported_with_its_line(
    text: str, line: int, message: str
) -> None:
    with pytest.raises(InputFileError, match=message) as caught:
        parse(text)
    assert caught.value.line == line
    # An empty file has no line to name; every other error names its line.
    where = "J.csv: no header line" if text == "" else f"J.csv: line {line}: "
    assert str(caught.value).startswith(where)


def test_invalid_utf8_is_reported_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "J.tsv"
    path.write_bytes(b"segment\tsystem\tvalue\n1\tA\t3\n2\t\xff\t3\n")
    with pytest.raises(InputFileError, match="line 3: invalid UTF-8") as caught:
        read_judgments(path)
    assert caught.value.line == 3


def test_a_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="cannot read file"):
        read_judgments(tmp_path / "missing.csv")


def test_judgments_cannot_be_changed_after_reading() -> None:
    judgments = parse(EXAMPLE)
    with pytest.raises(ValueError):
        judgments.values[0] = 1.0


def test_zscores_agree_with_scipy_per_group() -> None:
    rng = np.random.default_rng(2)
    values = rng.integers(0, 101, size=300).astype(float)
    groups = rng.integers(0, 7, size=300)
    ours = zscores(values, groups)
    for group in range(7):
        chosen = groups == group
        assert np.allclose(
            ours[chosen], stats.zscore(values[chosen], ddof=1), atol=1e-12
        )


def test_a_judge_without_spread_gets_zero_zscores() -> None:
    assert zscores(np.array([3.0, 3.0, 7.0]), np.array([0, 0, 1])).tolist() == [0, 0, 0]


def test_zscores_are_per_judge_and_per_criterion() -> None:
    judgments = parse(EXAMPLE)
    z = standardise_per_judge(judgments)
    # j1 adequacy: 4, 5, 3 -> mean 4, sd 1; j2 adequacy: a single judgment -> 0.
    assert z.tolist()[:4] == [0.0, 0.0, 1.0, -1.0]
    # fluency: j1 has one judgment (5), j2 one (1): no spread -> 0.
    assert z.tolist()[4:] == [0.0, 0.0]


def test_a_criterion_aggregated_as_given_is_never_standardised() -> None:
    import dataclasses

    judgments = dataclasses.replace(parse(EXAMPLE), as_given=frozenset({"adequacy"}))
    z = standardise_per_judge(judgments)
    # adequacy as given (4, 2, 5, 3); fluency still per judge (no spread -> 0).
    assert z.tolist() == [4.0, 2.0, 5.0, 3.0, 0.0, 0.0]
    scores = human_scores(judgments, "adequacy")
    assert scores.as_given and not human_scores(judgments, "fluency").as_given
    # sysA: segment 1 = mean(4, 2) = 3, segment 2 = 5 -> 4, as the raw means.
    assert scores.system_scores.tolist() == [4.0, 3.0]
    assert scores.to_dict()["as_given"] is True


def test_segment_and_system_scores_are_micro_averages() -> None:
    scores = human_scores(parse(EXAMPLE), "adequacy", standardise=False)
    assert scores.systems == ("sysA", "sysB")
    assert scores.segments.tolist() == [1, 2]
    # sysA: segment 1 = mean(4, 2) = 3, segment 2 = 5 -> system 4 (not 11/3).
    assert scores.segment_scores[0].tolist() == [3.0, 5.0]
    assert scores.system_scores.tolist()[0] == 4.0
    assert np.isnan(scores.segment_scores[1, 1]) and scores.system_scores[1] == 3.0
    assert scores.judgment_counts.tolist() == [[2, 1], [1, 0]]
    assert scores.judged_segments.tolist() == [2, 1]
    assert scores.to_dict()["systems"]["sysA"] == {"score": 4.0, "judged_segments": 2}


def test_only_systems_judged_on_the_criterion_appear() -> None:
    assert human_scores(parse(EXAMPLE), "fluency").systems == ("sysB",)


def test_an_unknown_or_ambiguous_criterion_is_refused_with_the_choices() -> None:
    with pytest.raises(ScoringError, match="criteria: adequacy, fluency"):
        human_scores(parse(EXAMPLE), "usability")
    with pytest.raises(ScoringError, match="choose one"):
        human_scores(parse(EXAMPLE))


def _write_raw(tmp_path: Path, pair: str, types: set[str]) -> Path:
    """The published raw DA rows of ``types`` as a TSV in our format's columns."""
    path = tmp_path / f"{pair}.tsv"
    lines = ["sid\tsys_id\tWorkerId\tscore"]
    for row in raw_da_rows(pair):
        if row["type"] in types:
            lines.append(
                f"{row['sid']}\t{row['sys_id']}\t{row['WorkerId']}\t{row['score']}"
            )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


RAW_COLUMNS = {
    "segment": "sid",
    "system": "sys_id",
    "judge": "WorkerId",
    "value": "score",
}


def test_wmt21_ru_en_segment_and_system_da_are_reproduced_from_raw_judgments(
    tmp_path: Path,
) -> None:
    require(WMT21_DIR / "ru-en" / "human" / "raw")
    # The published scores are already per-annotator z-scores; WMT averages
    # the SYSTEM and REPEAT judgements of a segment (SYSTEM alone leaves 991
    # of the 9832 segments off, by up to 3.6), then the segments of a system.
    path = _write_raw(tmp_path, "ru-en", {"SYSTEM", "REPEAT"})
    scores = human_scores(read_judgments(path, columns=RAW_COLUMNS), standardise=False)
    expected = read_tsv(WMT21_DIR / "ru-en" / "human" / "da_seg.tsv")
    # The fixtures keep the rows of 2 systems on their first 152 lines.
    rows = measured(full=9832, fixtures=286)
    assert len(expected) == rows
    largest = 0.0
    for row in expected:
        i = scores.systems.index(row["da_sys_id"])
        j = int(np.searchsorted(scores.segments, int(row["da_sid(sorted-doc order)"])))
        assert scores.judgment_counts[i, j] == int(row["n_judgments"])
        largest = max(largest, abs(scores.segment_scores[i, j] - float(row["z"])))
    assert largest < 1e-12
    assert int((scores.judgment_counts > 0).sum()) == rows
    if FULL_DATA:  # da_sys.tsv averages every segment of the full test set
        for row in read_tsv(WMT21_DIR / "ru-en" / "human" / "da_sys.tsv"):
            # da_sys.tsv prints 3 decimals.
            assert scores.system_score(row["da_sys_id"]) == pytest.approx(
                float(row["z"]), abs=5e-4
            )
            assert scores.judged_segments[
                scores.systems.index(row["da_sys_id"])
            ] == int(row["n_after_qc"])


def test_wmt21_de_en_system_da_is_reproduced_from_raw_judgments(tmp_path: Path) -> None:
    require_full_data("the de-en raw DA judgements")
    path = _write_raw(tmp_path, "de-en", {"SYSTEM", "REPEAT"})
    scores = human_scores(read_judgments(path, columns=RAW_COLUMNS), standardise=False)
    rows = read_tsv(WMT21_DIR / "de-en" / "human" / "da_sys.tsv")
    assert len(rows) == 20
    for row in rows:
        assert scores.system_score(row["da_sys_id"]) == pytest.approx(
            float(row["z"]), abs=5e-4
        )


@pytest.mark.parametrize(
    "pair",
    full_data_params(["ru-en", "de-en"], "every raw DA judgement of each annotator"),
)
def test_wmt_standardises_each_annotator_with_the_sample_standard_deviation(
    tmp_path: Path, pair: str
) -> None:
    require(WMT21_DIR / pair / "human" / "raw")
    # Standardising WMT's per-annotator z-scores again (over all of each
    # annotator's judgements, every item type) leaves them unchanged with
    # ddof=1, up to the 15 printed digits of the file; ddof=0 would not.
    path = _write_raw(tmp_path, pair, {"SYSTEM", "REPEAT", "REF", "BAD_REF"})
    judgments = read_judgments(path, columns=RAW_COLUMNS)
    assert np.max(np.abs(standardise_per_judge(judgments) - judgments.values)) < 1e-5
    assert (
        np.max(np.abs(standardise_per_judge(judgments, ddof=0) - judgments.values))
        > 1e-3
    )
